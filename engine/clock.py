"""The level clock: pause, resume, time added; the times come in as inputs (seconds left is
read off the recorder's clock), the engine checks what may happen now."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from handlog.engine.errors import RuleViolation
from handlog.engine.limits import reason_problem
from handlog.engine.tournament_events import (
    BreakEnded,
    BreakStarted,
    ClockPaused,
    ClockResumed,
    LevelStarted,
    MessagePosted,
    TimeAdded,
)
from handlog.engine.tournament_state import TournamentState

CLOCK_RULE = "clock"
MESSAGE_LIMIT = 200
"""Characters of the director's message: what a TV shows in one or two lines at 3 m."""


def _running(state: TournamentState) -> None:
    if state.finished:
        raise RuleViolation(CLOCK_RULE, "the tournament is over")
    if state.level == 0:
        raise RuleViolation(CLOCK_RULE, "no level has started", ("start level 1",))


def pause_clock(state: TournamentState, seconds_left: int, reason: str = "") -> ClockPaused:
    _running(state)
    if state.clock_paused:
        raise RuleViolation(CLOCK_RULE, "the clock is already paused", ("resume the clock",))
    return ClockPaused(state.level, max(0, seconds_left), reason)


def resume_clock(state: TournamentState) -> ClockResumed:
    _running(state)
    if not state.clock_paused:
        raise RuleViolation(CLOCK_RULE, "the clock is running", ("pause the clock",))
    return ClockResumed(state.level, state.clock_left)


def add_time(state: TournamentState, seconds: int, reason: str = "") -> TimeAdded:
    """Seconds added to the level or break running (negative: taken off)."""
    _running(state)
    if seconds == 0 or abs(seconds) > 4 * 3600:
        raise RuleViolation(CLOCK_RULE, "add between 1 second and 4 hours (or take it off)")
    return TimeAdded(state.level, seconds, reason)


def post_message(state: TournamentState, text: str, by: str) -> MessagePosted:
    """The director's message to the room, shown on the clock screen until he posts another
    (an empty one takes it down); spaces and line breaks are read as single spaces."""
    problem = reason_problem(text)
    if problem:
        raise RuleViolation(CLOCK_RULE, f"the message: {problem}")
    text = " ".join(text.split())
    if len(text) > MESSAGE_LIMIT:
        raise RuleViolation(CLOCK_RULE, f"the message is {len(text)} characters: at most "
                            f"{MESSAGE_LIMIT} fit the clock screen")
    if text == state.message:
        raise RuleViolation(CLOCK_RULE, "the clock screen shows this message already"
                            if text else "no message is posted")
    if not by.strip():
        raise RuleViolation("record", "who posted the message must not be empty")
    return MessagePosted(text, by)


def level_clock(timed: Iterable[tuple[int, Any]],
                clock: dict[str, Any] | None = None) -> dict[str, Any]:
    """The clock as the tournament's events (each with the moment it was recorded, in epoch
    milliseconds) leave it: `kind` (none, level, break, due), `label`, `minutes`, `started`
    and `ends` (epoch ms), `paused` and, paused, `left_ms`. From `clock` (the clock the
    earlier events left) on."""
    clock = clock if clock is not None else {"kind": "none"}
    for at, event in timed:
        if isinstance(event, LevelStarted | BreakStarted):
            level = isinstance(event, LevelStarted)
            label = (f"Level {event.level}" if isinstance(event, LevelStarted)
                     else f"Break after level {event.after_level}")
            clock = {"kind": "level" if level else "break", "label": label,
                     "minutes": event.minutes, "started": at,
                     "ends": at + event.minutes * 60_000, "paused": False}
        elif isinstance(event, BreakEnded):
            clock = {"kind": "due", "label": f"Break over: start level {event.after_level + 1}"}
        elif isinstance(event, ClockPaused) and "ends" in clock:
            clock = clock | {"paused": True, "left_ms": event.seconds_left * 1000}
        elif isinstance(event, ClockResumed) and "ends" in clock:
            clock = clock | {"paused": False, "ends": at + event.seconds_left * 1000}
            clock.pop("left_ms", None)
        elif isinstance(event, TimeAdded) and "ends" in clock:
            if clock.get("paused"):
                clock = clock | {"left_ms": max(0, clock["left_ms"] + event.seconds * 1000)}
            else:
                clock = clock | {"ends": clock["ends"] + event.seconds * 1000}
    return clock


def pause_clock_now(state: TournamentState, timed: Iterable[tuple[int, Any]], now_ms: int,
                    reason: str = "") -> ClockPaused:
    """The clock paused at `now_ms`: the seconds left read off the clock the tournament's
    events (`timed`, as in `level_clock`) leave."""
    clock = level_clock(timed)
    left = (int(clock["ends"]) - now_ms) // 1000 if "ends" in clock else 0
    return pause_clock(state, left, reason)
