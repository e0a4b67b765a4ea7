"""A tournament command answers with what it changed, not the whole floor (issue 12, item 8):
the tournament view's changed fields against the view it was taken against (`base`), the lists
of players row by row, the cards of the tables it recorded at. Applied to the view before, it is
the floor's view after; its size does not grow with the field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from web_support import Client, apply_changes, make_app, make_recorder

from handlog.recorder.service import Actor
from handlog.recorder.structure import load_structure
from handlog.recorder.tournament_service import Tournaments

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
DIRECTOR = Actor("director", "director", "test")


def whole(client: Client, tournament: str) -> dict[str, Any]:
    views = client.http.get("/api/floor").json()["tournaments"]
    view: dict[str, Any] = next(t for t in views if t["id"] == tournament)
    return view | {"now": 0}


def test_each_answer_is_the_change_and_applied_it_is_the_floor(tmp_path: Path) -> None:
    recorder = make_recorder(tmp_path)
    t = Tournaments(recorder)
    t.create("big", load_structure(EXAMPLES / "tda-demo.toml"), DIRECTOR)
    app, auth = make_app(recorder, level_for=lambda _s, _f: None)
    url = "/api/tournaments/big/commands"
    sizes: dict[int, int] = {}
    with Client(app, auth) as client:
        assert client.login("director").status_code == 200
        headers = {"X-CSRF-Token": client.csrf}

        def send(command: dict[str, Any]) -> Any:
            answer = client.http.post(url, headers=headers, json={"command": command})
            assert answer.status_code == 200, answer.text
            return answer

        shown = whole(client, "big")
        for k in range(300):
            answer = send({"type": "register", "name": f"Player {k + 1}"})
            delta = answer.json()["tournament"]
            assert "players" not in delta and "unseated" not in delta
            assert [r["name"] for r in delta["lists"]["unseated"]["changed"]] == [
                f"Player {k + 1}"]
            sizes[k + 1] = len(answer.content)
            shown = apply_changes(shown, delta) | {"now": 0}
            if k + 1 in (1, 20, 300):
                assert shown == whole(client, "big")
        # The answer at 300 entrants is the size of the answer at 20 (one row more).
        assert sizes[300] < sizes[20] * 1.2, sizes
        drawn = send({"type": "draw_seats", "tables": 34, "seed": 3}).json()
        assert sorted(c["stream"] for c in drawn["tables"]) == sorted(
            f"table-big-{n}" for n in range(1, 35))
        assert set(drawn["dealer_pins"]) == {c["stream"] for c in drawn["tables"]}
        shown = apply_changes(shown, drawn["tournament"]) | {"now": 0}
        assert shown == whole(client, "big")
        started = send({"type": "start_level"}).json()
        assert started["tables"] == [] and set(started["tournament"]) >= {"level", "stakes"}
        late = send({"type": "register", "name": "Late Lou"}).json()
        (card,) = late["tables"]  # the table he was drawn into, and only that one
        assert "Late Lou" in str(card)
        shown = apply_changes(apply_changes(shown, started["tournament"]),
                              late["tournament"]) | {"now": 0}
        assert shown == whole(client, "big")
    recorder.store.close()
