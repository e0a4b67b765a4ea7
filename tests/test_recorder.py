"""The recorder end to end: a whole tournament through the service and the CLI, replayed."""

from __future__ import annotations

import json
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handlog.engine import commands as hc
from handlog.engine.cards import parse_cards
from handlog.engine.errors import RuleViolation
from handlog.engine.events import HandStarted, PotAwarded
from handlog.engine.hand import legal_actions
from handlog.engine.table import Level
from handlog.engine.table_commands import (
    CarryToPot,
    OpenTable,
    PlaceButton,
    SeatPlayer,
    StartHand,
    Undo,
)
from handlog.engine.table_events import PotCarried
from handlog.recorder.cli import cli
from handlog.recorder.demo import run_demo
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.structure import load_structure
from handlog.recorder.tournament_service import Tournaments, table_stream
from handlog.replay.fold import fold_table
from handlog.replay.verify import replay_log
from handlog.schema.errors import ConcurrencyConflict, DuplicateEventConflict
from handlog.schema.store import EventStore, NewEvent, open_store

DEALER = Actor("dealer-1", "dealer", "tablet-1")
STREAM = "table-test-1"


@pytest.fixture
def recorder(store: EventStore) -> Recorder:
    return Recorder(store)


def submit(recorder: Recorder, command: object, stream: str = STREAM) -> None:
    fold = recorder.table(stream)
    recorder.submit(stream, command, fold.version, uuid.uuid4(), DEALER)  # type: ignore[arg-type]


def three_handed(recorder: Recorder, stacks: tuple[int, int, int] = (1000, 1000, 300)) -> None:
    submit(recorder, OpenTable("1", 9, "tda"))
    for seat, stack in zip((1, 2, 3), stacks, strict=True):
        submit(recorder, SeatPlayer(seat, f"P{seat}", stack))
    submit(recorder, PlaceButton(1))


def test_demo_tournament_finishes_with_places_and_replays_clean(db_url: str) -> None:
    """`handlog demo` plays to a winner with a place for everyone; `handlog replay` exits 0."""
    runner = CliRunner()
    result = runner.invoke(cli, ["demo", "--db", db_url, "--players", "9", "--tables", "1",
                                 "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "winner:" in result.output
    with open_store(db_url) as store:
        state = Tournaments(Recorder(store)).state("demo-3")
        assert state.finished
        places = sorted(e.place for e in state.entrants)
        assert places[0] == 1 and all(1 <= p <= 9 for p in places)
        assert sum(1 for p in places if p == 1) == 1
    replayed = runner.invoke(cli, ["replay", "--db", db_url])
    assert replayed.exit_code == 0, replayed.output
    assert replayed.output.strip().endswith("clean")


@pytest.mark.slow
def test_demo_27_players_3_tables_seed_7(db_url: str) -> None:
    """The issue's case: 27 players on 3 tables, seed 7, to a winner, and replay exits 0."""
    runner = CliRunner()
    result = runner.invoke(cli, ["demo", "--db", db_url, "--players", "27", "--tables", "3",
                                 "--seed", "7"])
    assert result.exit_code == 0, result.output
    assert "winner:" in result.output and "27 places recorded" in result.output
    replayed = runner.invoke(cli, ["replay", "--db", db_url, "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert '"clean": true' in replayed.output


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
DIRECTOR_ACTOR = Actor("Tina", "director", "floor")


def _demo_to_a_winner(runner: CliRunner, db_url: str, structure: str, players: int,
                      tables: int, seed: int, hands_per_level: int) -> tuple[list[str], str]:
    """`handlog demo` under an example structure, played to a winner: the streams and the
    tournament's stream."""
    result = runner.invoke(cli, [
        "demo", "--db", db_url, "--structure", str(EXAMPLES / f"{structure}.toml"),
        "--players", str(players), "--tables", str(tables), "--seed", str(seed),
        "--hands-per-level", str(hands_per_level)])
    assert result.exit_code == 0, result.output
    assert "winner:" in result.output
    with open_store(db_url) as store:
        heads = [h.stream_id for h in store.streams()]
    return heads, next(s for s in heads if s.startswith("tournament-"))


def test_octobermuck_buy_down_odd_chips_go_into_each_tables_next_pot(db_url: str) -> None:
    """Octobermuck Chip Buy-downs: 'Any odd chips are forfeited to the next pot ... awarded to
    the winner of the next hand.' Through `handlog demo` under the Octobermuck structure: every
    table carries what the color-ups give it, its next hand starts with that dead money, the
    winner takes it, and `handlog replay` (chip total included) is clean."""
    runner = CliRunner()
    heads, tournament = _demo_to_a_winner(runner, db_url, "octobermuck", 24, 3, 3, 2)
    with open_store(db_url) as store:
        owed: dict[str, int] = {}
        for event in store.read(tournament):
            if event.type == "chips_colored_up":
                for carry in event.payload["next_pots"]:
                    owed[carry["table"]] = owed.get(carry["table"], 0) + carry["amount"]
        assert sum(owed.values()) > 0  # the seed makes odd chips at some color-up
        played = 0
        for stream in (s for s in heads if s.startswith("table-")):
            events = [e.decode() for e in store.read(stream)]
            carried = sum(e.amount for e in events if isinstance(e, PotCarried))
            assert carried == owed.get(stream.rsplit("-", 1)[1], 0), stream
            for k, event in enumerate(events):
                if isinstance(event, HandStarted) and event.dead_money:
                    awards = []
                    for later in events[k + 1:]:
                        if isinstance(later, HandStarted):
                            break
                        if isinstance(later, PotAwarded):
                            awards.append(later.amount)
                    # The pushed pots hold the blinds, antes and bets, and the carried chips.
                    assert sum(awards) >= event.dead_money + max(event.blinds)
                    played += event.dead_money
            assert played <= sum(owed.values())
        assert played == sum(owed.values())  # every carry was played (none still waiting)
    replayed = runner.invoke(cli, ["replay", "--db", db_url, "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert '"clean": true' in replayed.output
    # The auditor's report balances each such hand with its carried chips ...
    folder = Path(tempfile.mkdtemp())
    report = runner.invoke(cli, ["report", "--db", db_url, "--format", "json",
                                 "--out", str(folder / "report.json")])
    assert report.exit_code == 0, report.output
    audit = json.loads((folder / "report.json").read_text())
    hands = [h for t in audit["tables"] for h in t["hands"]]
    carried = [h for h in hands if h["dead_money"]]
    assert sum(h["dead_money"] for h in carried) == played
    assert all(h["balanced"] for h in carried)
    (ledger,) = [t["chip_ledger"] for t in audit["tournaments"]]
    assert ledger["carried_to_pots"] == played and ledger["balanced"]
    # ... and the PHH export writes them as `_dead_money`, which `phh verify` plays back.
    phhs = folder / "octobermuck.phhs"
    exported = runner.invoke(cli, ["export", "--db", db_url, "--format", "phh",
                                   "--out", str(phhs)])
    assert exported.exit_code == 0, exported.output
    assert "_dead_money = " in phhs.read_text()
    verified = runner.invoke(cli, ["phh", "verify", str(phhs), "--json"])
    assert verified.exit_code == 0, verified.output
    assert json.loads(verified.output)["matched"] == json.loads(verified.output)["hands"]


def _fold_round(recorder: Recorder, tournaments: Tournaments, tournament: str,
                table: str) -> None:
    """One hand at `table`: everybody folds to the big blind."""
    dealer = Actor(f"dealer-{table}", "dealer", f"tablet-{table}")
    tournaments.start_hand(tournament, table, dealer)
    stream = table_stream(tournament, table)
    while True:
        hand = recorder.table(stream).state.hand  # type: ignore[union-attr]
        assert hand is not None
        if hand.is_complete:
            break
        la = legal_actions(hand)
        command = hc.Fold(la.player) if la is not None else hc.AwardPots()
        recorder.submit(stream, command, recorder.table(stream).version, uuid.uuid4(), dealer)
    tournaments.settle_hand(tournament, table, DIRECTOR_ACTOR)


def _octobermuck_carry_at_table_1(store: EventStore) -> tuple[Recorder, Tournaments]:
    """Eight players on two tables; one hand at the table that will break (the engine says
    table 2: equal tables break in the reverse of the order they opened), then levels up to the
    first buy-down: that table carries 25 into its next pot (the small blind's 4,995 holds 20
    in odd chips and the big blind's 5,005 holds 5: one green chip)."""
    recorder = Recorder(store)
    t = Tournaments(recorder)
    t.create("o", load_structure(EXAMPLES / "octobermuck.toml"), DIRECTOR_ACTOR)
    for index in range(8):
        t.register("o", f"P{index}", DIRECTOR_ACTOR)
    t.draw_seats("o", 2, 11, DIRECTOR_ACTOR)
    t.start_level("o", DIRECTOR_ACTOR)
    plan = t.break_plan("o")
    assert plan is not None and (plan.table, plan.to_tables, plan.redraw) == ("2", ("1",), True)
    _fold_round(recorder, t, "o", "2")  # the small blind's 5 is an odd chip at the color-up
    for _ in range(20):
        if t.state("o").color_ups_done:
            break
        try:
            t.start_level("o", DIRECTOR_ACTOR)
        except RuleViolation as violation:
            legal = " ".join(violation.legal)
            if t.state("o").on_break:
                t.end_break("o", DIRECTOR_ACTOR)
            elif "decide antes" in legal:
                t.decide_antes("o", DIRECTOR_ACTOR)
            elif "break" in legal:
                t.start_break("o", DIRECTOR_ACTOR)
            else:
                t.color_up("o", DIRECTOR_ACTOR)
    assert t.table("o", "2").state.carry == 25  # type: ignore[union-attr]
    return recorder, t


def test_octobermuck_carry_of_a_broken_table_goes_to_the_table_its_players_went_to(
        store: EventStore) -> None:
    """A color-up leaves odd chips waiting for table 1's next pot; the table breaks before it
    deals again (both happen at breaks): the chips go to the next pot of the table its last
    player went to, and the replay, chip total included, is clean."""
    recorder, t = _octobermuck_carry_at_table_1(store)
    t.balance("o", DIRECTOR_ACTOR)  # 8 players fit one table: table 2 breaks
    assert t.table("o", "2").state.carry == 0  # type: ignore[union-attr]
    assert t.table("o", "1").state.carry == 25  # type: ignore[union-attr]
    shown = CliRunner().invoke(cli, ["table", "show", "table-o-1", "--db", store.url])
    assert "carried into the next pot: 25" in shown.output  # what the floor sees
    _fold_round(recorder, t, "o", "1")
    started = [e.decode() for e in store.read(table_stream("o", "1"))
               if e.type == "hand_started"]
    assert [e.dead_money for e in started] == [25]  # type: ignore[attr-defined]
    assert t.table("o", "1").state.carry == 0  # type: ignore[union-attr]
    assert replay_log(store).findings == []


def test_replay_reports_odd_chips_stranded_at_a_broken_table(
        store: EventStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """Had the broken table's carry not been handed on, `handlog replay` would say so."""
    _recorder, t = _octobermuck_carry_at_table_1(store)
    planned = Recorder.plan_table

    def without_hand_on(self: Recorder, stream: str, commands: list[Any],
                        leaving: frozenset[str] = frozenset(), seated: Any = None,
                        start: Any = None) -> Any:
        return planned(self, stream, [c for c in commands if not isinstance(c, CarryToPot)],
                       leaving, seated, start)

    monkeypatch.setattr(Recorder, "plan_table", without_hand_on)
    t.balance("o", DIRECTOR_ACTOR)
    findings = replay_log(store).findings
    assert [(f.stream, f.rule, f.recorded) for f in findings] == [
        ("table-o-2", "dead-money", "25")]
    assert "broken with chips still waiting for its next pot" in findings[0].message


def test_bse_league_rounds_up_odd_chips_and_finishes_without_a_payout_table(
        db_url: str) -> None:
    """BSE: 'All remaining odd chips at color up will be rounded up to the next chip
    denomination'; a league plays for points, so a winner is recorded and no prizes."""
    runner = CliRunner()
    heads, tournament = _demo_to_a_winner(runner, db_url, "bse", 10, 2, 4, 2)
    with open_store(db_url) as store:
        types = [e.type for e in store.read(tournament)]
        assert "chips_colored_up" in types and "tournament_finished" in types
        assert "prizes_awarded" not in types
        rounded = [e for s in heads if s.startswith("table-") for e in store.read(s)
                   if e.type == "stack_adjusted" and e.payload["amount"] > 0]
        assert rounded and all(e.payload["reason"] == "color_up" for e in rounded)
        methods = {e.payload["method"] for e in store.read(tournament)
                   if e.type == "chips_colored_up"}
        assert methods == {"round_up"}
    replayed = runner.invoke(cli, ["replay", "--db", db_url, "--json"])
    assert replayed.exit_code == 0, replayed.output


@given(seed=st.integers(min_value=0, max_value=100_000))
@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_replay_of_any_demo_is_clean_and_equals_live_state(tmp_path: Path, seed: int) -> None:
    """For any seed: replay finds nothing, and the replayed table equals the live one (==)."""
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    with open_store(str(folder / "demo.db"), upgrade=True) as store:
        recorder = Recorder(store)
        summary = run_demo(recorder, players=6, tables=1, seed=seed, hands=25)
        report = replay_log(store)
        assert report.findings == []
        stream = table_stream(summary.tournament, "1")
        live = recorder.table(stream).state
        replayed = fold_table(stream, store.read(stream), verify=True)
        assert replayed.state == live


def play_to_showdown(recorder: Recorder) -> None:
    three_handed(recorder)
    submit(recorder, StartHand(Level(10, 20)))
    # Button P1 (position 2), SB P2 (position 0), BB P3 (position 1, short: 300).
    submit(recorder, hc.BetRaise(2, 100))
    submit(recorder, hc.CheckCall(0))
    submit(recorder, hc.BetRaise(1, 300))  # all-in
    submit(recorder, hc.CheckCall(2))
    submit(recorder, hc.CheckCall(0))
    for cards in ("2c7d9h", "Js", "3d"):
        if recorder.table(STREAM).state.hand.phase == "betting":  # type: ignore[union-attr]
            submit(recorder, hc.CheckCall(0))
            submit(recorder, hc.CheckCall(2))
        submit(recorder, hc.DealBoard(parse_cards(cards)))
    submit(recorder, hc.CheckCall(0))
    submit(recorder, hc.CheckCall(2))


def test_side_pot_hand_replays_clean(recorder: Recorder, store: EventStore) -> None:
    """A short all-in makes a main pot and a side pot; the awards replay clean."""
    play_to_showdown(recorder)
    submit(recorder, hc.ShowCards(0, parse_cards("AsAh")))
    submit(recorder, hc.ShowCards(2, parse_cards("KsKh")))
    submit(recorder, hc.ShowCards(1, parse_cards("QsQh")))
    submit(recorder, hc.AwardPots())
    state = recorder.table(STREAM).state
    assert state is not None and not state.hand_in_progress
    assert [(s.player, s.stack) for s in state.seats] == [("P1", 700), ("P2", 1600), ("P3", 0)]
    assert replay_log(store).findings == []


def test_wrong_award_written_into_the_log_is_found_by_replay(
        recorder: Recorder, store: EventStore, db_url: str) -> None:
    """An award appended straight to the store, past the engine, is a finding at that event."""
    play_to_showdown(recorder)
    for position, cards in ((0, "AsAh"), (2, "KsKh"), (1, "QsQh")):
        submit(recorder, hc.ShowCards(position, parse_cards(cards)))
    fold = recorder.table(STREAM)
    hand = fold.state.hand  # type: ignore[union-attr]
    right = hc.AwardPots()
    from handlog.engine.hand import decide

    awards = decide(hand, right)  # type: ignore[arg-type]
    first = awards[0]
    assert isinstance(first, PotAwarded)
    wrong = PotAwarded(first.pot, first.amount, first.eligible, (2,), (first.amount,))
    forged = [NewEvent.from_domain(e, event_id=uuid.uuid4(), actor="mallory", device="sql",
                                   recorded_at=recorder.clock())
              for e in (wrong, *awards[1:])]
    store.append(STREAM, fold.version, forged)
    runner = CliRunner()
    result = runner.invoke(cli, ["replay", "--db", db_url])
    assert result.exit_code == 1
    assert f"{STREAM} v{fold.version + 1} pot_awarded" in result.output
    assert "[TDA 20, TDA 21]" in result.output


def test_undo_is_a_correction_and_restores_the_state(recorder: Recorder,
                                                    store: EventStore) -> None:
    """Undo voids the last entry (the original stays in the log) and the state is as before."""
    three_handed(recorder)
    submit(recorder, StartHand(Level(10, 20)))
    before = recorder.table(STREAM).state
    submit(recorder, hc.BetRaise(2, 60))
    submit(recorder, Undo())
    after = recorder.table(STREAM)
    assert after.state == before
    types = [e.type for e in store.read(STREAM)]
    assert types[-2:] == ["raise_made", "event_voided"]
    assert replay_log(store).findings == []


def test_retry_with_the_same_event_id_records_once(recorder: Recorder,
                                                  store: EventStore) -> None:
    """A retry after a lost response returns the first result and adds nothing."""
    three_handed(recorder)
    submit(recorder, StartHand(Level(10, 20)))
    version = recorder.table(STREAM).version
    event_id = uuid.uuid4()
    first = recorder.submit(STREAM, hc.CheckCall(2), version, event_id, DEALER)
    again = recorder.submit(STREAM, hc.CheckCall(2), version, event_id, DEALER)
    assert again.retried and again.version == first.version
    assert len(store.read(STREAM)) == first.version


def test_a_reused_event_id_for_another_entry_is_refused(recorder: Recorder,
                                                       store: EventStore) -> None:
    """An event id sent again with another command (or another amount) is not a retry: it is
    refused, naming what was recorded, and nothing is written."""
    three_handed(recorder)
    submit(recorder, StartHand(Level(10, 20)))
    version = recorder.table(STREAM).version
    event_id = uuid.uuid4()
    first = recorder.submit(STREAM, hc.BetRaise(2, 60), version, event_id, DEALER)
    with pytest.raises(DuplicateEventConflict, match="raise_made"):
        recorder.submit(STREAM, hc.Fold(2), version, event_id, DEALER)
    with pytest.raises(DuplicateEventConflict, match="'to': 60"):
        recorder.submit(STREAM, hc.BetRaise(2, 80), version, event_id, DEALER)
    assert recorder.submit(STREAM, hc.BetRaise(2, 60), version, event_id, DEALER).retried
    assert len(store.read(STREAM)) == first.version


def test_stale_tablet_gets_a_conflict_and_nothing_is_written(recorder: Recorder,
                                                            store: EventStore) -> None:
    """A command made on an old version is refused with both versions named."""
    three_handed(recorder)
    submit(recorder, StartHand(Level(10, 20)))
    version = recorder.table(STREAM).version
    recorder.submit(STREAM, hc.CheckCall(2), version, uuid.uuid4(), DEALER)
    with pytest.raises(ConcurrencyConflict) as conflict:
        recorder.submit(STREAM, hc.Fold(2), version, uuid.uuid4(), DEALER)
    assert str(version) in str(conflict.value)
    assert len(store.read(STREAM)) == version + 1


def test_illegal_action_names_the_rule_and_records_nothing(recorder: Recorder,
                                                          store: EventStore) -> None:
    """An under-raise is refused with TDA 43 and the legal options; the log is unchanged."""
    three_handed(recorder)
    submit(recorder, StartHand(Level(10, 20)))
    version = recorder.table(STREAM).version
    with pytest.raises(RuleViolation) as violation:
        recorder.submit(STREAM, hc.BetRaise(2, 30), version, uuid.uuid4(), DEALER)
    assert violation.value.rule == "tda-43"
    assert any("raise to 40" in option for option in violation.value.legal)
    assert len(store.read(STREAM)) == version


def test_hand_cut_off_midway_is_in_progress_not_an_error(recorder: Recorder,
                                                        store: EventStore) -> None:
    """A log that stops mid-hand (a crash) replays clean, with the hand reported in progress."""
    three_handed(recorder)
    submit(recorder, StartHand(Level(10, 20)))
    submit(recorder, hc.CheckCall(2))
    report = replay_log(store)
    assert report.findings == []
    assert report.in_progress == [(STREAM, 1)]


def test_tournament_create_reports_the_bad_field(tmp_path: Path) -> None:
    """A wrong structure file is refused with the file and the field named."""
    bad = tmp_path / "bad.toml"
    good = (Path(__file__).resolve().parent.parent / "examples" / "tda-demo.toml").read_text()
    bad.write_text(good.replace("big_blind = 100", 'big_blind = "100"', 1))
    result = CliRunner().invoke(cli, ["tournament", "create", str(bad), "--db",
                                      str(tmp_path / "t.db")])
    assert result.exit_code == 1
    assert "bad.toml" in result.output and "levels[1].big_blind" in result.output


@pytest.fixture
def examples() -> Iterator[Path]:
    yield Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize("name", ["octobermuck", "bse", "tda-demo"])
def test_tournament_create_from_the_example_structures(tmp_path: Path, examples: Path,
                                                       name: str) -> None:
    """The shipped structures create tournaments."""
    result = CliRunner().invoke(cli, ["tournament", "create", str(examples / f"{name}.toml"),
                                      "--db", str(tmp_path / "t.db")])
    assert result.exit_code == 0, result.output
    assert f"created tournament {name!r}" in result.output


def test_table_show_replays_to_the_moment_in_dispute(recorder: Recorder, db_url: str) -> None:
    """`handlog table show --at V` shows the pots and who may do what at that version."""
    play_to_showdown(recorder)
    all_in = next(e.version for e in recorder.store.read(STREAM) if e.type == "raise_made"
                  and e.payload["to"] == 300)
    result = CliRunner().invoke(cli, ["table", "show", STREAM, "--at", str(all_in),
                                      "--db", db_url])
    assert result.exit_code == 0, result.output
    assert f"at version {all_in}" in result.output
    assert "seat 3: P3 behind 0, in front 300" in result.output and "all-in" in result.output
    assert "main pot: 300" in result.output
    assert "side pot 1: 200 (eligible: P3)" in result.output
    assert "pots in all: 500" in result.output
    assert "P1 may: call 200; raise to 500 up to 1000; fold" in result.output


def test_director_amends_an_earlier_bet_and_later_events_are_revalidated(
        recorder: Recorder, store: EventStore) -> None:
    """An amendment re-derives the table (the original stays in the log); one that would make
    a later event illegal is refused with that event named."""
    from handlog.engine.events import RaiseMade
    from handlog.engine.table_commands import AmendEvent

    three_handed(recorder)
    submit(recorder, StartHand(Level(10, 20)))
    submit(recorder, hc.BetRaise(2, 60))
    raised = recorder.table(STREAM).version
    submit(recorder, AmendEvent(raised, RaiseMade(2, 80), "the dealer keyed 60; 80 was bet",
                                "TDA 2024 Rule 1"))
    hand = recorder.table(STREAM).state.hand  # type: ignore[union-attr]
    assert hand is not None and hand.current_bet == 80 and hand.bets[2] == 80
    assert [e.type for e in store.read(STREAM)][-2:] == ["raise_made", "event_amended"]
    amendment = store.read(STREAM)[-1]
    # The replacement's schema version is recorded with it (event_amended v2 on), the rule
    # cited as an identifier (v3).
    assert (amendment.schema_version, amendment.payload["replacement_version"]) == (
        3, RaiseMade.VERSION)
    assert amendment.payload["rule"] == "tda-1"
    submit(recorder, hc.BetRaise(0, 300))
    with pytest.raises(RuleViolation) as refused:
        recorder.submit(STREAM, AmendEvent(raised, RaiseMade(2, 1000, True, True), "typo",
                                           "TDA 2024 Rule 1"),
                        recorder.table(STREAM).version, uuid.uuid4(), DEALER)
    assert "invalid" in refused.value.message
    assert replay_log(store).findings == []


def test_penalty_is_recorded_with_rule_and_who(store: EventStore) -> None:
    """A penalty names the player, the rule it rests on and the director who gave it."""
    recorder = Recorder(store)
    summary = run_demo(recorder, players=4, tables=1, seed=2, hands=1)
    tournaments = Tournaments(recorder)
    tournaments.penalty(summary.tournament, "p1", "rounds", "tda-71",
                        "profanity", Actor("Tina", "director", "floor"), hands=1)
    penalties = tournaments.state(summary.tournament).penalties
    # A one-round penalty: one hand for each of the four players at his table.
    assert [(p.player, p.penalty, p.rule, p.by, p.hands) for p in penalties] == [
        ("p1", "rounds", "tda-71", "Tina", 4)]
