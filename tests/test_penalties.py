"""Penalties (engine/penalties.py): given from the CLI, the API and the floor, enforced at the
table until served (TDA 71: dealt in, blinds and antes posted, hand killed), shown on the floor."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_tournament import example, started
from web_support import Client, make_app

from handlog.engine import commands as hc
from handlog.engine.errors import RuleViolation
from handlog.engine.events import ChipsPosted, HandKilled, HandStarted
from handlog.engine.hand import legal_actions
from handlog.engine.penalties import give_penalty
from handlog.recorder.cli import cli
from handlog.recorder.floor import setup_demo
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.tournament_service import Tournaments, table_stream
from handlog.replay.verify import replay_log
from handlog.schema.store import EventStore

DIRECTOR = Actor("director", "director", "test")


def test_tda_71_a_round_is_one_hand_per_player_at_his_table() -> None:
    """A one-round penalty misses one hand for each player at the table, himself included."""
    log = started(example("tda-demo"), 6, tables=("A",))
    given = give_penalty(log.state, "p01", "rounds", "tda-71", "abusive language", "TD", 1)
    assert (given.penalty, given.hands) == ("rounds", 6)
    assert give_penalty(log.state, "p01", "hands", "tda-71", "", "TD", 3).hands == 3
    assert give_penalty(log.state, "p01", "warning", "tda-71", "", "TD").hands == 0
    with pytest.raises(RuleViolation) as refused:
        give_penalty(log.state, "p01", "jail", "tda-71", "", "TD")
    assert refused.value.legal == ("warning", "hands", "rounds", "disqualification")
    with pytest.raises(RuleViolation, match="needs how many hands"):
        give_penalty(log.state, "p01", "hands", "tda-71", "", "TD", 0)


def play_out(recorder: Recorder, t: Tournaments, tournament: str, table: str) -> list[object]:
    """One hand: everyone folds to the big blind; returns the hand's events."""
    dealer = Actor(f"dealer-{table}", "dealer", f"tablet-{table}")
    stream = table_stream(tournament, table)
    start = recorder.table(stream).version
    t.start_hand(tournament, table, dealer)
    while True:
        hand = recorder.table(stream).state.hand  # type: ignore[union-attr]
        assert hand is not None
        if hand.is_complete:
            break
        la = legal_actions(hand)
        command = hc.Fold(la.player) if la is not None and la.call_amount else (
            hc.CheckCall(la.player) if la is not None else hc.AwardPots())
        recorder.submit(stream, command, recorder.table(stream).version, uuid.uuid4(), dealer)
    t.settle_hand(tournament, table, DIRECTOR)
    return [e.decode() for e in recorder.store.read(stream, start + 1)]


def test_tda_71_a_player_on_penalty_is_dealt_in_posts_and_his_hand_is_killed_until_served(
        store: EventStore) -> None:
    """Two missed hands given from the CLI: in each of the next two hands the player is dealt
    in, posts what he owes, and his hand is killed; the third hand he plays. The floor view
    shows him serving, then not. Replay is clean. On SQLite and PostgreSQL."""
    recorder = Recorder(store)
    tournament = setup_demo(recorder, players=5, tables=1, seed=3)
    t = Tournaments(recorder)
    victim = t.state(tournament).entrants[0]
    given = CliRunner().invoke(cli, ["tournament", "penalty", tournament, victim.name,
                                     "--kind", "hands", "--count", "2", "--reason", "soft play",
                                     "--db", store.url])
    assert given.exit_code == 0, given.output
    assert "2 hand(s) to serve" in given.output
    assert t.serving(tournament) == {victim.player: 2}
    posted_by_him = 0
    for served in (1, 2):
        events = play_out(recorder, t, tournament, "1")
        started_ = next(e for e in events if isinstance(e, HandStarted))
        assert victim.player in started_.players  # dealt in
        position = started_.players.index(victim.player)
        kills = [e for e in events if isinstance(e, HandKilled)]
        assert [(k.player, k.reason, k.rules) for k in kills] == [
            (position, "penalty", ("tda-71",))]
        posted_by_him += sum(e.amount for e in events
                             if isinstance(e, ChipsPosted) and e.player == position)
        assert t.serving(tournament) == ({victim.player: 1} if served == 1 else {})
    assert posted_by_him > 0  # his blind came round and he posted it
    third = play_out(recorder, t, tournament, "1")
    assert not any(isinstance(e, HandKilled) for e in third)
    assert replay_log(store).findings == []


def test_disqualification_removes_his_chips_from_play(store: EventStore) -> None:
    recorder = Recorder(store)
    tournament = setup_demo(recorder, players=5, tables=1, seed=3)
    t = Tournaments(recorder)
    victim = t.state(tournament).entrants[1].player
    t.penalty(tournament, victim, "disqualification", "tda-71", "collusion", DIRECTOR)
    state = t.state(tournament)
    entrant = state.entrant(victim)
    assert entrant is not None and entrant.withdrew and not entrant.table
    assert t.table(tournament, "1").state.seat_of(victim) is None  # type: ignore[union-attr]
    assert replay_log(store).findings == []


def test_the_floor_gives_a_penalty_and_shows_who_is_serving(tmp_path: Path) -> None:
    """POST a penalty command from the floor: the floor view lists it and the hands left."""
    from web_support import make_recorder

    recorder = make_recorder(tmp_path)
    tournament = setup_demo(recorder, players=6, tables=1, seed=2)
    app, auth = make_app(recorder, level_for=lambda _s, _f: None)
    with Client(app, auth) as client:
        assert client.login("director").status_code == 200
        view = client.http.get("/api/floor").json()["tournaments"][0]
        player = view["players"][0]
        answer = client.http.post(
            f"/api/tournaments/{tournament}/commands", headers={"X-CSRF-Token": client.csrf},
            json={"command": {"type": "penalty", "player": player["player"],
                              "penalty": "rounds", "count": 1, "reason": "soft play"}})
        assert answer.status_code == 200, answer.text
        shown = answer.json()["tournament"]
        assert shown["penalties"][0] | {"by": ""} == {
            "player": player["player"], "name": player["name"], "penalty": "rounds",
            "hands": 6, "rule": "tda-71", "reason": "soft play", "by": ""}
        assert shown["serving"] == [{"player": player["player"], "name": player["name"],
                                     "hands_left": 6}]
        stream = view["table_streams"]["1"]
        started_ = client.ok(stream, {"type": "start_hand"})["table"]
        assert started_["hand_in_progress"]
        killed = [e for e in recorder.store.read(stream) if e.type == "hand_killed"]
        assert [e.payload["reason"] for e in killed] == ["penalty"]
    recorder.store.close()
