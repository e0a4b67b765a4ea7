"""A hand entered step by step over the HTTP API: a side pot, a split pot with an odd chip in
the smallest denomination, and an undo; the log then replays clean."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from web_support import Client, make_app, make_recorder, open_table

from handlog.recorder.cli import cli
from handlog.replay.verify import replay_log

STREAM = "table-odd"
PLAYERS = [(1, "Ann", 1000), (2, "Bob", 3000), (3, "Cy", 3000), (4, "Dee", 3000)]
LEVEL = {"small_blind": 25, "big_blind": 50, "chip_unit": 25, "number": 1}


def test_http_hand_with_side_pot_odd_chip_split_and_undo_replays_clean(tmp_path: Path) -> None:
    """TDA 20: the odd 25 chip of the split main pot goes to the first winner left of the
    button; the side pot splits evenly; the undone mis-tap stays in the log, voided."""
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM, PLAYERS, button=3)
    app, auth = make_app(recorder)
    with Client(app, auth) as client:
        assert client.login("director").status_code == 200
        # Positions: 0 Dee (small blind), 1 Ann (big blind), 2 Bob, 3 Cy (button).
        client.ok(STREAM, {"type": "start_hand", "level": LEVEL})
        client.ok(STREAM, {"type": "bet_raise", "player": 2, "to": 1000})
        client.ok(STREAM, {"type": "fold", "player": 3})  # a mis-tap: Cy meant to call
        view = client.ok(STREAM, {"type": "undo"})["table"]
        assert view["hand"]["legal"]["name"] == "Cy"
        client.ok(STREAM, {"type": "check_call", "player": 3})
        client.ok(STREAM, {"type": "fold", "player": 0})
        client.ok(STREAM, {"type": "check_call", "player": 1})  # Ann all-in for 1000
        client.ok(STREAM, {"type": "deal_board", "cards": "AhKhQd"})
        client.ok(STREAM, {"type": "bet_raise", "player": 2, "to": 500})
        client.ok(STREAM, {"type": "check_call", "player": 3})
        for card in ("7c", "2s"):
            client.ok(STREAM, {"type": "deal_board", "cards": card})
            client.ok(STREAM, {"type": "check_call", "player": 2})
            client.ok(STREAM, {"type": "check_call", "player": 3})
        client.ok(STREAM, {"type": "show_cards", "player": 2, "cards": "JhTc"})
        client.ok(STREAM, {"type": "show_cards", "player": 3, "cards": "JcTd"})
        view = client.ok(STREAM, {"type": "show_cards", "player": 1, "cards": "3c3d"})["table"]
        proposed = view["hand"]["showdown"]["proposed"]
        assert [(a["amount"], a["winner_seats"], a["shares"]) for a in proposed] == [
            (3025, [2, 3], [1525, 1500]), (1000, [2, 3], [500, 500])]
        view = client.ok(STREAM, {"type": "award_pots"})["table"]
        assert {s["player"]: s["stack"] for s in view["seats"] if s["player"]} == {
            "Ann": 0, "Bob": 3525, "Cy": 3500, "Dee": 2975}
    types = [e.type for e in recorder.store.read(STREAM)]
    assert "event_voided" in types and "player_folded" in types
    assert replay_log(recorder.store).findings == []
    url = recorder.store.url
    recorder.store.close()
    result = CliRunner().invoke(cli, ["replay", "--db", url])
    assert result.exit_code == 0 and result.output.strip().endswith("clean"), result.output


def test_chips_pushed_over_http_are_ruled_recorded_with_the_facts_and_replay_clean(
        tmp_path: Path) -> None:
    """TDA 45 over the API: facing a raise to 1,000 (blinds 25-50, smallest chip 25), Cy puts
    out 1,500 in 25s without a word: a raise, held to a full raise to 1,950; the log keeps the
    facts and the ruling (`chips_pushed`, citing tda-45), the tablet says so, and replaying the
    facts gives the same ruling."""
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM, PLAYERS, button=3)
    app, auth = make_app(recorder)
    with Client(app, auth) as client:
        assert client.login("director").status_code == 200
        client.ok(STREAM, {"type": "start_hand", "level": LEVEL})
        client.ok(STREAM, {"type": "bet_raise", "player": 2, "to": 1000})
        view = client.ok(STREAM, {"type": "push_chips", "player": 3,
                                  "motions": [[25] * 60], "said": "nothing"})["table"]
        assert view["hand"]["legal"]["name"] == "Dee"
        texts = [e["text"] for e in view["events"]]
        refused = client.send(STREAM, {"type": "push_chips", "player": 0, "motions": [[30]]})
        assert refused.status_code == 422 and "chip in play" in refused.json()["message"]
    stored = list(recorder.store.read(STREAM))
    pushed = [e.decode() for e in stored if e.type == "chips_pushed"]
    assert [(p.ruled, p.to, p.reason, p.rule) for p in pushed] == [
        ("raise", 1950, "fifty_percent", "tda-45")]
    assert stored[-1].type == "raise_made" and stored[-1].decode().to == 1950
    assert any("Cy puts out 60 x 25, nothing said: ruled a raise to 1950" in t and "(TDA 45)" in t
               for t in texts), texts
    assert replay_log(recorder.store).findings == []


def test_undo_of_chips_pushed_voids_the_facts_and_the_action_together(tmp_path: Path) -> None:
    """One tap undoes a chip-tray entry: the chips pushed and the action they were ruled as are
    voided together, and the log replays clean with the entry made again."""
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM, PLAYERS, button=3)
    app, auth = make_app(recorder)
    with Client(app, auth) as client:
        assert client.login("director").status_code == 200
        client.ok(STREAM, {"type": "start_hand", "level": LEVEL})
        client.ok(STREAM, {"type": "push_chips", "player": 2, "motions": [[100, 25]]})
        view = client.ok(STREAM, {"type": "undo"})["table"]
        assert view["hand"]["legal"]["name"] == "Bob"
        client.ok(STREAM, {"type": "check_call", "player": 2})
    voided = [e.decode() for e in recorder.store.read(STREAM) if e.type == "event_voided"]
    assert len(voided) == 1 and len(voided[0].versions) == 2
    assert replay_log(recorder.store).findings == []
