"""The floor's read model (recorder/floor.py: player rows kept as events land, view heads per
version, deltas) equals a fresh fold of the log after any sequence of tournament commands, on
SQLite and PostgreSQL; a delta applied to the view it was taken against is the view now."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_support import apply_changes

from handlog.engine.errors import RuleViolation
from handlog.recorder.floor import LIST_LIMIT, TournamentDesk
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.structure import load_structure
from handlog.recorder.tournament_service import Tournaments
from handlog.schema.store import open_store

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
DIRECTOR = Actor("director", "director", "test")
NOON = datetime(2026, 5, 1, 12, tzinfo=UTC)

COMMANDS = st.one_of(
    st.tuples(st.just("register"), st.integers(0, 10_000)),
    st.tuples(st.just("draw"), st.integers(1, 3)),
    st.tuples(st.just("start_level"), st.just(0)),
    st.tuples(st.just("start_break"), st.just(0)),
    st.tuples(st.just("end_break"), st.just(0)),
    st.tuples(st.just("penalty"), st.integers(0, 50)),
    st.tuples(st.just("move"), st.integers(0, 50)),
    st.tuples(st.just("ruling"), st.integers(0, 50)),
)


def run(t: Tournaments, tournament: str, command: tuple[str, int]) -> None:
    kind, n = command
    state = t.state(tournament)
    alive = [e for e in state.entrants if e.alive]
    if kind == "register":
        t.register(tournament, f"Player {n}", DIRECTOR)
    elif kind == "draw":
        t.draw_seats(tournament, n, n, DIRECTOR)
    elif kind == "start_level":
        t.start_level(tournament, DIRECTOR)
    elif kind == "start_break":
        t.start_break(tournament, DIRECTOR)
    elif kind == "end_break":
        t.end_break(tournament, DIRECTOR)
    elif kind == "penalty" and alive:
        t.penalty(tournament, alive[n % len(alive)].player, "warning", "tda-71", "language",
                  DIRECTOR)
    elif kind == "move" and alive and len(state.tables) > 1:
        player = alive[n % len(alive)]
        to = next(x for x in state.tables if x != player.table)
        if player.table:
            t.move(tournament, player.player, to, DIRECTOR)
    elif kind == "ruling":
        t.ruling(tournament, "tda-1", f"ruling {n}", DIRECTOR)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(commands=st.lists(COMMANDS, min_size=1, max_size=14))
def test_the_kept_floor_is_a_fresh_fold_after_any_commands(
        db_url: str, commands: list[tuple[str, int]]) -> None:
    """After every command the incrementally kept view equals a fresh desk's fold of the log,
    and the delta from the view before, applied to it, is the view after."""
    recorder = Recorder(open_store(db_url, upgrade=True))
    t = Tournaments(recorder)
    desk = TournamentDesk(recorder)
    tournament = f"h{uuid.uuid4().hex[:10]}"
    structure = replace(load_structure(EXAMPLES / "tda-demo.toml"), seats_per_table=4)
    t.create(tournament, structure, DIRECTOR)
    shown = desk.view(tournament, NOON)
    assert shown is not None
    try:
        for command in commands:
            try:
                run(t, tournament, command)
            except RuleViolation:
                continue  # refused: nothing recorded
            delta = desk.delta(tournament, shown["version"], NOON)
            assert delta is not None
            shown = apply_changes(shown, delta)
            kept = desk.view(tournament, NOON)
            fresh_recorder = Recorder(open_store(db_url))
            try:
                fresh = TournamentDesk(fresh_recorder).view(tournament, NOON)
            finally:
                fresh_recorder.store.close()
            assert kept == fresh
            assert shown == kept
    finally:
        recorder.store.close()


def test_a_floor_answer_holds_the_first_rows_and_counts_the_rest(tmp_path: Path) -> None:
    """Past LIST_LIMIT entrants the view carries the first LIST_LIMIT rows of the list and
    the count; a registration's delta is the one row, not the list."""
    recorder = Recorder(open_store(f"sqlite:///{tmp_path / 'h.db'}", upgrade=True))
    t = Tournaments(recorder)
    desk = TournamentDesk(recorder)
    t.create("big", load_structure(EXAMPLES / "tda-demo.toml"), DIRECTOR)
    for k in range(LIST_LIMIT + 5):
        t.register("big", f"Player {k}", DIRECTOR)
    view: dict[str, Any] | None = desk.view("big", NOON)
    assert view is not None
    assert view["unseated_count"] == LIST_LIMIT + 5
    assert [r["n"] for r in view["unseated"]] == list(range(LIST_LIMIT))
    before = view["version"]
    t.register("big", "Late Lou", DIRECTOR)
    delta = desk.delta("big", before, NOON)
    assert delta is not None and "unseated" not in delta
    assert [r["name"] for r in delta["lists"]["unseated"]["changed"]] == ["Late Lou"]
    assert delta["unseated_count"] == LIST_LIMIT + 6
    recorder.store.close()
