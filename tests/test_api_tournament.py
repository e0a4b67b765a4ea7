"""A whole tournament through the HTTP API: registration, the seat draw, levels, every hand
tapped in as a dealer would, eliminations and places, to a winner; the log replays clean."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from web_support import Client, make_app, make_recorder

from handlog.recorder.demo import DEMO_STRUCTURE
from handlog.recorder.service import Actor
from handlog.recorder.structure import load_structure
from handlog.recorder.tournament_service import Tournaments
from handlog.replay.verify import replay_log

PLAYERS = ("Ada", "Bea", "Cal", "Dee", "Eli")


def floor(client: Client, tournament: str, command: dict[str, Any]) -> dict[str, Any]:
    response = client.http.post(f"/api/tournaments/{tournament}/commands",
                                headers={"X-CSRF-Token": client.csrf},
                                json={"command": command})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def play_hand(client: Client, stream: str, rng: random.Random) -> None:
    """Tap in one hand: big bets, calls and folds, the board, shows, the push."""
    view = client.ok(stream, {"type": "start_hand"})["table"]
    deck = [f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs"]
    rng.shuffle(deck)
    shown: set[int] = set()
    for _ in range(200):
        hand = view["hand"]
        if not view["hand_in_progress"]:
            return
        legal = hand.get("legal")
        if hand["phase"] == "betting" and legal:
            player = legal["player"]
            roll = rng.random()
            if legal.get("max_to") and roll < 0.35:
                command = {"type": "bet_raise", "player": player, "to": legal["max_to"]}
            elif legal.get("call") and roll < 0.55:
                command = {"type": "fold", "player": player}
            else:
                command = {"type": "check_call", "player": player}
        elif hand["phase"] == "board":
            count = 3 if not hand["board"] else 1
            command = {"type": "deal_board", "cards": "".join(deck.pop() for _ in range(count))}
        elif hand["phase"] == "showdown":
            showdown = hand["showdown"]
            unshown = [p for p in showdown["order"] if p not in shown]
            if showdown["proposed"] is None and unshown:
                shown.add(unshown[0])
                command = {"type": "show_cards", "player": unshown[0],
                           "cards": deck.pop() + deck.pop()}
            else:
                command = {"type": "award_pots"}
        else:  # pragma: no cover - a phase the loop does not know
            raise AssertionError(hand["phase"])
        view = client.ok(stream, command)["table"]
    raise AssertionError("the hand did not end")


def test_a_whole_tournament_through_the_http_api(tmp_path: Path) -> None:
    """Registration, seats, level 1 and every hand over HTTP until one player is left."""
    recorder = make_recorder(tmp_path)
    Tournaments(recorder).create("club", load_structure(DEMO_STRUCTURE),
                                 Actor("director", "director", "cli"))
    app, auth = make_app(recorder, level_for=lambda _s, _f: None)
    rng = random.Random(4)
    with Client(app, auth) as client:
        assert client.login("director").status_code == 200
        for name in PLAYERS:
            floor(client, "club", {"type": "register", "name": name})
        floor(client, "club", {"type": "draw_seats", "tables": 1, "seed": 4})
        floor(client, "club", {"type": "start_level"})
        stream = "table-club-1"
        for _ in range(300):
            state = client.http.get("/api/floor").json()["tournaments"][0]
            if state["finished"]:
                break
            play_hand(client, stream, rng)
        state = client.http.get("/api/floor").json()["tournaments"][0]
    assert state["finished"] and state["winner"] in PLAYERS
    places = sorted(e["place"] for e in state["eliminations"])
    # Photo finish: players out in the same hand with equal chips share the higher place.
    assert len(places) == 4 and places[0] == 2 and all(2 <= p <= 5 for p in places)
    report = replay_log(recorder.store)
    assert report.findings == [] and report.hands >= 2
    recorder.store.close()


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_the_director_creates_a_tournament_from_a_structure_file(tmp_path: Path) -> None:
    """POST /api/tournaments with the file's text: created once (a retry with the same event id
    is the same tournament), the id taken is refused, and a wrong file names every bad field."""
    recorder = make_recorder(tmp_path)
    app, auth = make_app(recorder)
    text = (EXAMPLES / "octobermuck.toml").read_text(encoding="utf-8")
    with Client(app, auth) as director:
        director.login("director")

        def create(body: dict[str, Any]) -> Any:
            return director.http.post("/api/tournaments", json=body,
                                      headers={"X-CSRF-Token": director.csrf})

        body = {"id": "october-2026", "structure": text, "file": "octobermuck.toml",
                "event_id": "6b7f3a6e-8c5a-4d55-9a4b-2f1e7c9d0a11"}
        made = create(body)
        assert made.status_code == 200, made.text
        (view,) = [t for t in made.json()["tournaments"] if t["id"] == "october-2026"]
        assert view["profile"] == "octobermuck" and view["registration_open"]
        assert create(body).status_code == 200  # the retry: the same tournament
        taken = create(body | {"event_id": "0b7f3a6e-8c5a-4d55-9a4b-2f1e7c9d0a11"})
        assert taken.status_code == 409 and taken.json()["legal"] == ["choose another id"]
        wrong = create({"id": "bad", "file": "bad.toml",
                        "structure": text.replace("big_blind = 25", 'big_blind = "25"', 1)})
        assert wrong.status_code == 422 and wrong.json()["rule"] == "structure"
        assert "bad.toml" in wrong.json()["message"]
        assert [p["field"] for p in wrong.json()["problems"]] == ["levels[1].big_blind"]
        no_spaces = create({"id": "no spaces", "structure": text})
        assert no_spaces.status_code == 422 and no_spaces.json()["field"] == "id", \
            no_spaces.text
    assert Tournaments(recorder).tournaments() == ["october-2026"]
    recorder.store.close()


def test_issue_12_fourteen_entrants_on_two_tables_play_down_to_a_winner_from_the_floor(
        tmp_path: Path) -> None:
    """Issue 12: the TDA demo with 14 entrants on two 9-seat tables could not be finished (no
    control broke a table; a heads-up table was stuck). Now the floor view names the break the
    engine says is due ("Break table 2: ...") and one command does it; every table with two
    players deals; the tournament reaches its winner and replays clean."""
    recorder = make_recorder(tmp_path)
    Tournaments(recorder).create("club", load_structure(DEMO_STRUCTURE),
                                 Actor("director", "director", "cli"))
    app, auth = make_app(recorder, level_for=lambda _s, _f: None)
    rng = random.Random(12)
    labels: list[str] = []
    with Client(app, auth) as client:
        assert client.login("director").status_code == 200
        for k in range(14):
            floor(client, "club", {"type": "register", "name": f"Player {k + 1}"})
        floor(client, "club", {"type": "draw_seats", "tables": 2, "seed": 12})
        floor(client, "club", {"type": "start_level"})
        for _ in range(400):
            state = client.http.get("/api/floor").json()["tournaments"][0]
            if state["finished"]:
                break
            if state["table_break"]:
                labels.append(state["table_break"]["label"])
                after = floor(client, "club", {"type": "break_table", "seed": len(labels)})
                assert after["tournament"]["table_break"] is None
                continue
            if state["needs_balancing"]:
                floor(client, "club", {"type": "balance"})
                continue
            for table in state["tables"]:
                if len([p for p in state["players"] if p["table"] == table]) >= 2:
                    play_hand(client, state["table_streams"][table], rng)
        state = client.http.get("/api/floor").json()["tournaments"][0]
    assert state["finished"], state
    assert labels == ["Break table 2: final table 1, seats redrawn"]
    report = replay_log(recorder.store)
    assert report.findings == []
    recorder.store.close()


def test_every_tournament_command_has_one_way_to_be_recorded() -> None:
    """The API's union of tournament commands and the recorder's dispatch name the same
    types: a command added to the engine without a way to record it fails here."""
    from typing import get_args

    from handlog.engine.tournament_commands import TournamentCommand
    from handlog.recorder.tournament_service import _EXECUTE

    assert set(_EXECUTE) == set(get_args(TournamentCommand))
