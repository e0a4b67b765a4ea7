"""Hand-for-hand (engine/hand_for_hand.py): when the director turns it on, no table deals its
next hand until every table has finished the round's hand (the engine refuses with the rule);
players out in the same round at different tables are placed together per the profile (photo
finish: more chips at the start of the hand places higher, equal stacks share; TDA RP-8-A at the
money: they share the places paid)."""

from __future__ import annotations

import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from test_tournament import example, started
from web_support import Client, make_app

from handlog.engine import commands as hc
from handlog.engine.cards import parse_card
from handlog.engine.errors import RuleViolation
from handlog.engine.hand import BETTING, BOARD, SHOWDOWN, legal_actions, showdown_order
from handlog.engine.hand_for_hand import check_hand_start, round_status, start_hand_for_hand
from handlog.engine.tournament import Bust, eliminate
from handlog.engine.tournament_events import PlayerEliminated
from handlog.engine.tournament_state import TournamentState
from handlog.recorder.floor import TournamentDesk, setup_demo
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.tournament_service import Tournaments, table_stream
from handlog.replay.verify import replay_log
from handlog.schema.store import EventStore

DIRECTOR = Actor("director", "director", "test")


def test_no_table_deals_its_next_hand_before_every_table_has_finished_the_round() -> None:
    log = started(example("tda-demo"), 12, tables=("A", "B", "C"))
    with pytest.raises(RuleViolation, match="a hand is in progress at table B"):
        start_hand_for_hand(log.state, {"A": (4, False), "B": (3, True), "C": (4, False)})
    on = start_hand_for_hand(log.state, {"A": (4, False), "B": (3, False), "C": (5, False)})
    assert on.rule == "tda-rp-8"
    state = log.add(on)
    with pytest.raises(RuleViolation, match="is on already"):
        start_hand_for_hand(state, {})
    # Round 1: A has played its hand, B is playing it, C has not started it.
    progress = {"A": (5, False), "B": (4, True), "C": (5, False)}
    with pytest.raises(RuleViolation) as refused:
        check_hand_start(state, "A", progress)
    assert refused.value.rule == "tda-rp-8"
    assert refused.value.legal == ("wait for table B", "wait for table C")
    check_hand_start(state, "C", progress)  # C may deal the round's hand
    assert round_status(state, progress).waiting == ("B", "C")
    done = {"A": (5, False), "B": (4, False), "C": (6, False)}
    assert round_status(state, done).complete and round_status(state, done).number == 1
    check_hand_start(state, "A", done)


def test_one_table_is_no_hand_for_hand() -> None:
    log = started(example("tda-demo"), 6, tables=("A",))
    with pytest.raises(RuleViolation, match="two tables or more"):
        start_hand_for_hand(log.state, {"A": (0, False)})


def _at_the_bubble(structure: str) -> TournamentState:
    """11 entrants (3 paid under the TDA demo), 7 out: 4 left at two tables."""
    log = started(example(structure), 11, tables=("A", "B"))
    left = {"A": [], "B": []}  # type: dict[str, list[str]]
    for e in log.state.remaining:
        left[e.table].append(e.player)
    out = left["A"][2:] + left["B"][2:]
    for player in out:
        entrant = log.state.entrant(player)
        assert entrant is not None
        log.add(*eliminate(log.state, [Bust(player, 100, entrant.table, 1)]))
    assert len(log.state.remaining) == 4
    log.add(start_hand_for_hand(log.state, {"A": (0, False), "B": (0, False)}))
    return log.state


def test_busts_in_one_round_share_the_places_paid_under_tda_and_photo_finish_under_bse() -> None:
    """Two players out in one hand-for-hand round at two tables, one with more chips at the
    start of his hand: under TDA (RP-8-A) they share 3rd and 4th across the money line; under
    BSE the bigger stack places higher."""
    state = _at_the_bubble("tda-demo")
    a, b = (next(e.player for e in state.remaining if e.table == t) for t in ("A", "B"))
    busts = [Bust(a, 3000, "A", 9), Bust(b, 1000, "B", 8)]
    tda = [e for e in eliminate(state, busts) if isinstance(e, PlayerEliminated)]
    assert sorted((e.player, e.place, e.rule) for e in tda) == sorted(
        [(a, 3, "tda-rp-8"), (b, 3, "tda-rp-8")])
    bse_state = _at_the_bubble("bse")
    a, b = (next(e.player for e in bse_state.remaining if e.table == t) for t in ("A", "B"))
    bse = [e for e in eliminate(bse_state, [Bust(a, 3000, "A", 9), Bust(b, 1000, "B", 8)])
           if isinstance(e, PlayerEliminated)]
    assert {e.player: e.place for e in bse} == {a: 3, b: 4}


def test_tda_rp_8_a_busting_players_share_the_places_paid_only_hand_for_hand() -> None:
    """TDA RP-8-A ('If enough players bust on the current hand to break into the money, the
    busting players will be eligible for a share of the place(s) paid') is a hand-for-hand
    procedure: the same two busts across the money line with hand-for-hand never turned on
    are placed by the photo finish, the larger starting stack higher, citing it."""
    state = replace(_at_the_bubble("tda-demo"), hand_for_hand=None)
    a, b = (next(e.player for e in state.remaining if e.table == t) for t in ("A", "B"))
    out = [e for e in eliminate(state, [Bust(a, 3000, "A", 9), Bust(b, 1000, "B", 9)])
           if isinstance(e, PlayerEliminated)]
    assert sorted((e.player, e.place, e.rule) for e in out) == sorted(
        [(a, 3, "practice-photo-finish"), (b, 4, "practice-photo-finish")])


WINNER_CARDS = tuple(parse_card(c) for c in ("Ah", "Ad"))
LOSER_CARDS = tuple(parse_card(c) for c in ("7c", "8d"))
BOARD_CARDS = [parse_card(c) for c in ("2c", "3d", "9h", "Js", "4s")]


def bust_hand(recorder: Recorder, t: Tournaments, tournament: str, table: str, loser: str,
              winner: str) -> list[PlayerEliminated]:
    """One hand at `table`: `loser` all in, `winner` calls with aces, the rest fold; then
    the hand is settled (with its last entry). Returns the eliminations recorded."""
    dealer = Actor(f"dealer-{table}", "dealer", f"tablet-{table}")
    stream = table_stream(tournament, table)
    t.start_hand(tournament, table, dealer)
    board = list(BOARD_CARDS)
    while True:
        hand = recorder.table(stream).state.hand  # type: ignore[union-attr]
        assert hand is not None
        if hand.is_complete:
            break
        command: Any
        if hand.phase == BETTING:
            la = legal_actions(hand)
            assert la is not None
            who = hand.setup.players[la.player]
            if who == loser and la.raise_kind:
                command = hc.BetRaise(la.player, la.max_to)
            elif who in (loser, winner) or not la.call_amount:
                command = hc.CheckCall(la.player)
            else:
                command = hc.Fold(la.player)
        elif hand.phase == BOARD:
            count = 3 if not hand.board else 1
            command = hc.DealBoard(tuple(board[:count]))
            del board[:count]
        elif hand.phase == SHOWDOWN:
            unshown = [i for i in showdown_order(hand) if hand.shown[i] is None]
            if len(hand.contenders) > 1 and unshown:
                who = hand.setup.players[unshown[0]]
                command = hc.ShowCards(unshown[0], WINNER_CARDS if who == winner
                                       else LOSER_CARDS)
            else:
                command = hc.AwardPots()
        else:
            break
        last = recorder.submit(stream, command, recorder.table(stream).version, uuid.uuid4(),
                               dealer)
    # The hand's last entry recorded its settlement with it: a director's settle adds nothing.
    assert t.settle_hand(tournament, table, DIRECTOR) == []
    return [e for part in last.settled for e in (s.decode() for s in part.events)
            if isinstance(e, PlayerEliminated)]


def two_tables(recorder: Recorder) -> tuple[str, Tournaments, dict[str, list[str]]]:
    tournament = setup_demo(recorder, players=6, tables=2, seed=4)
    t = Tournaments(recorder)
    state = t.state(tournament)
    return tournament, t, {table: [e.player for e in state.seated_at(table)]
                           for table in state.tables}


def test_hand_for_hand_holds_the_next_hand_and_places_the_rounds_busts_together(
        store: EventStore) -> None:
    """On SQLite and PostgreSQL. Hand-for-hand on: table 1's all-in loser is not out until
    table 2 has finished its hand too; table 1's next hand is refused meanwhile (the tablet's
    start too); then both are out in one transaction, equal stacks sharing 5th (photo
    finish). Replay is clean."""
    recorder = Recorder(store)
    tournament, t, seats = two_tables(recorder)
    (l1, w1, *_), (l2, w2, *_) = seats["1"], seats["2"]
    t.hand_for_hand(tournament, True, DIRECTOR)
    assert bust_hand(recorder, t, tournament, "1", l1, w1) == []
    assert t.state(tournament).entrant(l1).alive  # type: ignore[union-attr]
    with pytest.raises(RuleViolation) as refused:
        t.start_hand(tournament, "1", DIRECTOR)
    assert refused.value.rule == "tda-rp-8" and refused.value.legal == ("wait for table 2",)
    desk = TournamentDesk(recorder)
    blocked = desk.hand_context(recorder.table(table_stream(tournament, "1"))).blocked  # type: ignore[union-attr]
    assert blocked is not None and blocked.rule == "tda-rp-8"
    # Nothing moves while the round is open: its busts are not out yet.
    assert t.balance(tournament, DIRECTOR) == []
    with pytest.raises(RuleViolation, match="finish the round first"):
        t.break_table(tournament, DIRECTOR, seed=1)
    view = desk.view(tournament, recorder.clock())
    assert view is not None and view["hand_for_hand"]
    assert view["round"] == {"number": 1, "complete": False, "waiting": ["2"]}
    out = bust_hand(recorder, t, tournament, "2", l2, w2)
    assert sorted((e.player, e.place, e.table) for e in out) == sorted(
        [(l1, 5, "1"), (l2, 5, "2")])
    assert {e.rule for e in out} == {"practice-photo-finish"}
    state = t.state(tournament)
    assert not state.entrant(l1).alive and not state.entrant(l2).alive  # type: ignore[union-attr]
    assert recorder.table(table_stream(tournament, "1")).state.seat_of(l1) is None  # type: ignore[union-attr]
    t.hand_for_hand(tournament, False, DIRECTOR)
    assert t.state(tournament).hand_for_hand is None
    assert replay_log(store).findings == []


def test_without_hand_for_hand_the_first_out_places_lower(tmp_path: Path) -> None:
    from web_support import make_recorder

    recorder = make_recorder(tmp_path)
    tournament, t, seats = two_tables(recorder)
    (l1, w1, *_), (l2, w2, *_) = seats["1"], seats["2"]
    assert [(e.player, e.place) for e in bust_hand(recorder, t, tournament, "1", l1, w1)] == [
        (l1, 6)]
    assert [(e.player, e.place) for e in bust_hand(recorder, t, tournament, "2", l2, w2)] == [
        (l2, 5)]
    recorder.store.close()


def test_turning_it_off_places_the_players_out_in_the_round_so_far(tmp_path: Path) -> None:
    """The director ends hand-for-hand with one table's loser waiting for the round: he is
    placed then (the same transaction), and play goes on table by table. From the floor."""
    from web_support import make_recorder

    recorder = make_recorder(tmp_path)
    tournament, t, seats = two_tables(recorder)
    (l1, w1, *_) = seats["1"]
    app, auth = make_app(recorder, level_for=lambda _s, _f: None)
    url = f"/api/tournaments/{tournament}/commands"
    with Client(app, auth) as client:
        assert client.login("director").status_code == 200
        headers = {"X-CSRF-Token": client.csrf}
        on = client.http.post(url, headers=headers,
                              json={"command": {"type": "hand_for_hand", "on": True}})
        assert on.status_code == 200, on.text
        assert on.json()["tournament"]["hand_for_hand"] is True
        assert bust_hand(recorder, t, tournament, "1", l1, w1) == []
        stream = table_stream(tournament, "1")
        refused = client.send(stream, {"type": "start_hand"})
        assert refused.status_code == 422 and refused.json()["rule"] == "tda-rp-8"
        off = client.http.post(url, headers=headers,
                               json={"command": {"type": "hand_for_hand", "on": False}})
        assert off.status_code == 200, off.text
        delta = off.json()["tournament"]
        assert delta["hand_for_hand"] is False
        assert [(e["player"], e["place"]) for e in delta["eliminations"]] == [(l1, 6)]
        assert client.send(stream, {"type": "start_hand"}).status_code == 200
    assert replay_log(recorder.store).findings == []
    recorder.store.close()
