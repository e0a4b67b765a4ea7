"""An acknowledged event survives `kill -9` of the writer at any moment.

A writer process appends batches of 1-4 events to one stream in a loop and reports the stream
version after each append returns. The test SIGKILLs it at a random moment (seeded), many times
over, then checks that every acknowledged version is stored, versions have no gaps, every batch
landed whole, the chain verifies and SQLite's integrity check passes.

Writers are forked from a multiprocessing fork server that has imported the store already, so a
kill costs milliseconds rather than a Python start-up (the whole file runs in well under a
minute).
"""

from __future__ import annotations

import multiprocessing
import random
import sqlite3
import threading
import time
import uuid
from datetime import UTC, datetime
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest

STREAM = "table-crash"
NAMESPACE = uuid.UUID("6c0b8c42-3a5e-4a53-9d8c-7c0d1a3c0001")


def event_id(version: int) -> uuid.UUID:
    return uuid.uuid5(NAMESPACE, str(version))


def writer(url: str, seed: int, acks: Connection) -> None:
    """Append batches forever, sending the stream version after each acknowledged append."""
    from handlog.schema.store import NewEvent, open_store

    rng = random.Random(seed)
    store = open_store(url)
    head = store.head(STREAM)
    version = head.version if head is not None else 0
    acks.send(("ready", version))
    while True:
        size = rng.randint(1, 4)
        batch = [
            NewEvent(
                event_id=event_id(version + offset),
                type="chips_counted",
                schema_version=1,
                payload={"version": version + offset, "batch": [version + 1, version + size],
                         "padding": "x" * rng.randint(0, 300)},
                actor="crash-test",
                device=f"seed-{seed}",
                recorded_at=datetime.now(UTC),
            )
            for offset in range(1, size + 1)
        ]
        store.append(STREAM, version, batch)
        version += size
        acks.send(("ack", version))


def _context() -> multiprocessing.context.ForkServerContext:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["handlog.schema.store", "handlog.schema.hashing"])
    return context


def kill_writer_repeatedly(url: str, seed: int, kills: int) -> int:
    """Start and SIGKILL the writer `kills` times; returns the highest acknowledged version."""
    context = _context()
    rng = random.Random(seed)
    acknowledged = 0
    for round_number in range(kills):
        receiver, sender = context.Pipe(duplex=False)
        process = context.Process(target=writer, args=(url, seed * 1000 + round_number, sender))
        process.start()
        sender.close()
        try:
            if rng.random() < 0.15:
                # Sometimes while it is still opening the database.
                time.sleep(rng.uniform(0.0, 0.05))
            else:
                assert receiver.poll(30), "the writer did not start"
                kind, version = receiver.recv()
                assert kind == "ready" and version >= acknowledged
                time.sleep(rng.uniform(0.0, 0.15))
        finally:
            process.kill()
            process.join(30)
        versions = []
        while True:
            try:
                kind, version = receiver.recv()
            except (EOFError, OSError):
                break
            if kind == "ack":
                versions.append(version)
        receiver.close()
        assert process.exitcode == -9
        if versions:
            assert versions == sorted(versions)
            acknowledged = max(acknowledged, versions[-1])
    return acknowledged


def check_log(url: str, acknowledged: int) -> None:
    from handlog.schema.hashing import verify_events
    from handlog.schema.store import open_store

    with open_store(url) as store:
        events = store.read(STREAM)
        heads = store.streams()
        assert verify_events(store.read_all(), heads) == []
    versions = [event.version for event in events]
    assert versions == list(range(1, len(events) + 1)), "versions have a gap"
    assert len(events) >= acknowledged, (
        f"acknowledged version {acknowledged} lost: the log ends at {len(events)}"
    )
    for event in events:
        assert event.payload["version"] == event.version
        assert event.event_id == event_id(event.version)
        # Whole batches only: the batch this event belongs to is stored to its end.
        assert event.payload["batch"][1] <= len(events)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [20250314, 7])
def test_sqlite_keeps_every_acknowledged_event_across_kill_9(tmp_path: Path, seed: int) -> None:
    """25 random SIGKILLs per seed (50 in all): nothing acknowledged is lost, no batch is torn."""
    from handlog.schema.store import upgrade_database

    path = tmp_path / "crash.db"
    url = f"sqlite:///{path}"
    upgrade_database(url)
    acknowledged = kill_writer_repeatedly(url, seed, kills=25)
    assert acknowledged > 0, "the writer never acknowledged an append"
    connection = sqlite3.connect(path)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        connection.close()
    check_log(url, acknowledged)


@pytest.mark.slow
def test_postgresql_keeps_every_acknowledged_event_across_kill_9(pg_url: str) -> None:
    """10 random SIGKILLs of a PostgreSQL writer: nothing acknowledged is lost."""
    from handlog.schema.store import upgrade_database

    upgrade_database(pg_url)
    acknowledged = kill_writer_repeatedly(pg_url, 99, kills=10)
    assert acknowledged > 0
    check_log(pg_url, acknowledged)


# --- a move and a table break: whole or not at all ---------------------------------------------

TABLE_BREAKS = 24


def _tournament_ready(url: str, name: str, players: int) -> None:
    """`players` on two tables of 9 with level 1 running (done before any kill)."""
    from handlog.recorder.demo import DEMO_STRUCTURE
    from handlog.recorder.service import Actor, Recorder
    from handlog.recorder.structure import load_structure
    from handlog.recorder.tournament_service import Tournaments
    from handlog.schema.store import open_store

    director = Actor("director", "director", "crash-test")
    with open_store(url) as store:
        t = Tournaments(Recorder(store))
        t.create(name, load_structure(DEMO_STRUCTURE), director)
        for k in range(players):
            t.register(name, f"P{k}", director)
        t.draw_seats(name, 2, 3, director)
        t.start_level(name, director)


def tournament_writer(url: str, job: str, seed: int, acks: Connection) -> None:
    """Moves (job "move": one player back and forth) or table breaks (job "break": one
    prepared tournament after another), acknowledging each after it returns."""
    from handlog.recorder.service import Actor, Recorder
    from handlog.recorder.tournament_service import Tournaments
    from handlog.schema.store import open_store

    director = Actor("director", "director", f"seed-{seed}")
    store = open_store(url)
    t = Tournaments(Recorder(store))
    acks.send(("ready", 0))
    if job == "move":
        while True:
            state = t.state("m")
            player = next(e for e in state.remaining if e.player == "p1")
            t.move("m", player.player, "2" if player.table == "1" else "1", director)
            acks.send(("ack", 1))
    for k in range(TABLE_BREAKS):
        name = f"b{k}"
        if t.break_plan(name) is not None:
            t.break_table(name, director, seed)
            acks.send(("ack", k))
    acks.send(("done", 0))
    while True:
        time.sleep(1)


def check_tournament_whole(url: str, name: str) -> str:
    """The tournament's seats are the tables' seats and the log replays clean: 'broken' or
    'untouched', never half."""
    from handlog.engine.tournament_state import fold_tournament
    from handlog.recorder.service import Recorder
    from handlog.recorder.tournament_service import Tournaments, tournament_stream
    from handlog.replay.fold import fold_table
    from handlog.schema.store import open_store

    with open_store(url) as store:
        state = fold_tournament(e.decode() for e in store.read(tournament_stream(name)))
        recorder = Recorder(store)
        t = Tournaments(recorder)
        for table in ("1", "2"):
            stream = f"table-{name}-{table}"
            tstate = fold_table(stream, store.read(stream), verify=True).state
            assert tstate is not None
            at_table = sorted((s.player, s.seat, s.stack) for s in tstate.seats)
            in_tournament = sorted((e.player, e.seat, 5000) for e in state.seated_at(table))
            assert at_table == in_tournament, (name, table, at_table, in_tournament)
        assert t.break_plan(name) is None or len(state.tables) == 2
        return "broken" if len(state.tables) == 1 else "untouched"


def kill_tournament_writer(url: str, job: str, seed: int, kills: int) -> int:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["handlog.schema.store", "handlog.recorder.tournament_service",
                                    "handlog.replay.verify"])
    rng = random.Random(seed)
    acknowledged = 0
    for round_number in range(kills):
        receiver, sender = context.Pipe(duplex=False)
        process = context.Process(target=tournament_writer,
                                  args=(url, job, seed * 1000 + round_number, sender))
        process.start()
        sender.close()
        try:
            assert receiver.poll(60), "the writer did not start"
            assert receiver.recv()[0] == "ready"
            if round_number == kills - 1 and acknowledged == 0:
                # A loaded machine can kill every writer before its first move: the last one
                # is killed only after it recorded one, so the test always proves a move.
                assert receiver.poll(120), "the writer recorded nothing in 120 s"
                kind, _value = receiver.recv()
                acknowledged += kind == "ack"
            time.sleep(rng.uniform(0.0, 0.25))
        finally:
            process.kill()
            process.join(30)
        while True:
            try:
                kind, _value = receiver.recv()
            except (EOFError, OSError):
                break
            acknowledged += kind == "ack"
        receiver.close()
        if job == "move":
            check_tournament_whole(url, "m")
        else:
            for k in range(TABLE_BREAKS):
                check_tournament_whole(url, f"b{k}")
    return acknowledged


@pytest.mark.slow
def test_a_move_killed_at_any_moment_is_there_whole_or_not_at_all(tmp_path: Path) -> None:
    """20 SIGKILLs of a writer moving a player between two tables: after each, the tournament
    and both tables agree on every seat and stack (the move is one transaction)."""
    from handlog.replay.verify import replay_log
    from handlog.schema.store import open_store, upgrade_database

    url = f"sqlite:///{tmp_path / 'moves.db'}"
    upgrade_database(url)
    _tournament_ready(url, "m", 10)
    assert kill_tournament_writer(url, "move", 5, kills=20) > 0
    with open_store(url) as store:
        assert replay_log(store).findings == []


@pytest.mark.slow
def test_a_table_break_killed_at_any_moment_is_there_whole_or_not_at_all(
        tmp_path: Path) -> None:
    """Writers breaking one prepared tournament after another are SIGKILLed 12 times: every
    tournament is either broken whole (final table redrawn, both tables and the tournament
    agreeing) or untouched; the log replays clean."""
    from handlog.replay.verify import replay_log
    from handlog.schema.store import open_store, upgrade_database

    url = f"sqlite:///{tmp_path / 'breaks.db'}"
    upgrade_database(url)
    for k in range(TABLE_BREAKS):
        _tournament_ready(url, f"b{k}", 8)
    kill_tournament_writer(url, "break", 8, kills=12)
    outcomes = {check_tournament_whole(url, f"b{k}") for k in range(TABLE_BREAKS)}
    assert "broken" in outcomes
    with open_store(url) as store:
        assert replay_log(store).findings == []


@pytest.mark.slow
def test_a_move_killed_at_any_moment_on_postgresql_is_there_whole_or_not_at_all(
        pg_url: str) -> None:
    """10 SIGKILLs of a PostgreSQL writer moving a player: the tournament and both tables
    agree on every seat after each."""
    from handlog.replay.verify import replay_log
    from handlog.schema.store import open_store, upgrade_database

    upgrade_database(pg_url)
    _tournament_ready(pg_url, "m", 10)
    assert kill_tournament_writer(pg_url, "move", 9, kills=10) > 0
    with open_store(pg_url) as store:
        assert replay_log(store).findings == []


# --- a hand's end and its settlement: one transaction ------------------------------------------

BUST = uuid.UUID("6c0b8c42-3a5e-4a53-9d8c-7c0d1a3c0002")


def _hand_before_its_last_entry(url: str, name: str) -> tuple[str, int]:
    """Three players at one table; the first all in, the second calls with aces, the third
    folds; everything recorded but the award that ends the hand. Returns the loser and the
    table's version the award is sent at."""
    from handlog.engine import commands as hc
    from handlog.engine.cards import parse_card
    from handlog.engine.hand import BETTING, BOARD, SHOWDOWN, legal_actions, showdown_order
    from handlog.recorder.demo import DEMO_STRUCTURE
    from handlog.recorder.service import Actor, Recorder
    from handlog.recorder.structure import load_structure
    from handlog.recorder.tournament_service import Tournaments, table_stream
    from handlog.schema.store import open_store

    director = Actor("director", "director", "crash-test")
    board = [parse_card(c) for c in ("2c", "3d", "9h", "Js", "4s")]
    with open_store(url) as store:
        recorder = Recorder(store)
        t = Tournaments(recorder)
        t.create(name, load_structure(DEMO_STRUCTURE), director)
        for k in range(3):
            t.register(name, f"P{k}", director)
        t.draw_seats(name, 1, 3, director)
        t.start_level(name, director)
        loser, winner, _third = (e.player for e in t.state(name).seated_at("1"))
        t.start_hand(name, "1", director)
        stream = table_stream(name, "1")
        while True:
            hand = recorder.table(stream).state.hand  # type: ignore[union-attr]
            assert hand is not None and not hand.is_complete
            command: object
            if hand.phase == BETTING:
                la = legal_actions(hand)
                assert la is not None
                who = hand.setup.players[la.player]
                command = (hc.BetRaise(la.player, la.max_to) if who == loser and la.raise_kind
                           else hc.CheckCall(la.player) if who in (loser, winner)
                           or not la.call_amount else hc.Fold(la.player))
            elif hand.phase == BOARD:
                count = 3 if not hand.board else 1
                command = hc.DealBoard(tuple(board[:count]))
                del board[:count]
            else:
                assert hand.phase == SHOWDOWN
                unshown = [i for i in showdown_order(hand) if hand.shown[i] is None]
                if not unshown:
                    return loser, recorder.table(stream).version  # the award ends the hand
                cards = ("Ah", "Ad") if hand.setup.players[unshown[0]] == winner else ("7c", "8d")
                command = hc.ShowCards(unshown[0], tuple(parse_card(c) for c in cards))
            recorder.submit(stream, command, recorder.table(stream).version,  # type: ignore[arg-type]
                            uuid.uuid4(), director)


def hand_ender(url: str, name: str, version: int, acks: Connection) -> None:
    """Records the award that ends the hand (the tablet's tap, with its fixed event id),
    telling the test before and after each write to the store; then waits to be killed."""
    from handlog.engine.commands import AwardPots
    from handlog.recorder.service import Actor, Recorder
    from handlog.recorder.tournament_service import Tournaments, table_stream
    from handlog.schema.store import open_store

    store = open_store(url)
    writes = {"depth": 0, "count": 0}

    def told(method: Any) -> Any:
        def write(*args: Any, **kwargs: Any) -> Any:
            outer = writes["depth"] == 0
            writes["depth"] += 1
            if outer:
                writes["count"] += 1
                acks.send(("writing", writes["count"]))
            try:
                result = method(*args, **kwargs)
            finally:
                writes["depth"] -= 1
            if outer:
                acks.send(("written", writes["count"]))
            return result
        return write

    store.append = told(store.append)  # type: ignore[method-assign]
    store.append_many = told(store.append_many)  # type: ignore[method-assign]
    recorder = Recorder(store)
    Tournaments(recorder)
    stream = table_stream(name, "1")
    dealer = Actor("dealer", "dealer", "crash-tablet")
    acks.send(("ready", 0))
    recorder.submit(stream, AwardPots(), version, uuid.uuid5(BUST, name), dealer)
    acks.send(("answered", 0))
    threading.Event().wait()  # until killed


def check_busted_player(url: str, name: str, loser: str) -> bool:
    """Whenever the hand's end is recorded, its loser is out: eliminated at the tournament and
    no longer seated at the table. True when the hand's end is recorded."""
    from handlog.engine.tournament_state import fold_tournament
    from handlog.recorder.tournament_service import table_stream, tournament_stream
    from handlog.replay.fold import fold_table
    from handlog.schema.store import open_store

    with open_store(url) as store:
        tournament = fold_tournament(e.decode() for e in store.read(tournament_stream(name)))
        stream = table_stream(name, "1")
        table = fold_table(stream, store.read(stream), verify=True).state
    assert table is not None and table.hand is not None
    entrant = tournament.entrant(loser)
    assert entrant is not None
    if not table.hand.is_complete:
        assert entrant.alive and table.seat_of(loser) is not None
        return False
    assert not entrant.alive, f"{loser} busted in a recorded hand but not eliminated"
    assert table.seat_of(loser) is None, f"{loser} busted but still seated"
    return True


def kill_around_the_hands_end(url: str, moments: list[tuple[str, int]]) -> list[bool]:
    """For each moment (a message of the writer: kill on receiving it), a tournament whose hand
    waits for its last entry, a writer killed then, a check, and a restarted writer that
    retries the same tap to its answer; then the check again. Returns whether each hand's end
    had been recorded when the writer was killed."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["handlog.schema.store", "handlog.recorder.tournament_service",
                                    "handlog.replay.fold"])
    ended = []
    for k, (moment, count) in enumerate(moments):
        name = f"h{k}"
        loser, version = _hand_before_its_last_entry(url, name)
        for restart in (False, True):
            receiver, sender = context.Pipe(duplex=False)
            process = context.Process(target=hand_ender, args=(url, name, version, sender))
            process.start()
            sender.close()
            try:
                while True:
                    assert receiver.poll(120), "the writer went quiet"
                    if receiver.recv() == ((moment, count) if not restart else ("answered", 0)):
                        break
            finally:
                process.kill()
                process.join(30)
                receiver.close()
            recorded = check_busted_player(url, name, loser)
            if not restart:
                ended.append(recorded)
        assert recorded, "the retried tap ended the hand"
    return ended


# Killed as the tap's write begins, once it returned (committed: the hand's end and its
# settlement are one write, there is no second), and once the tap answered.
MOMENTS = [("writing", 1), ("written", 1), ("answered", 0), ("writing", 1), ("written", 1)]


@pytest.mark.slow
def test_a_hands_end_killed_at_any_moment_never_leaves_a_busted_player_seated(
        tmp_path: Path) -> None:
    """The server is SIGKILLed around a hand's last entry (the award that busts a player):
    whenever the hand's end is in the log, the player is out (eliminated, his seat empty),
    also right after its first write returned; the retried tap after the restart ends the
    hand and settles it once. The log replays clean."""
    from handlog.replay.verify import replay_log
    from handlog.schema.store import open_store, upgrade_database

    url = f"sqlite:///{tmp_path / 'busts.db'}"
    upgrade_database(url)
    ended = kill_around_the_hands_end(url, MOMENTS)
    assert ended == [False, True, True, False, True]
    with open_store(url) as store:
        assert replay_log(store).findings == []


@pytest.mark.slow
def test_a_hands_end_killed_at_any_moment_on_postgresql_never_leaves_a_busted_player_seated(
        pg_url: str) -> None:
    """As on SQLite, on PostgreSQL."""
    from handlog.replay.verify import replay_log
    from handlog.schema.store import open_store, upgrade_database

    upgrade_database(pg_url)
    ended = kill_around_the_hands_end(pg_url, MOMENTS[:3])
    assert ended == [False, True, True]
    with open_store(pg_url) as store:
        assert replay_log(store).findings == []
