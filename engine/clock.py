"""The level clock: pause, resume, time added; the times come in as inputs (seconds left is
read off the recorder's clock), the engine checks what may happen now."""

from __future__ import annotations

from handlog.engine.errors import RuleViolation
from handlog.engine.tournament_events import ClockPaused, ClockResumed, TimeAdded
from handlog.engine.tournament_state import TournamentState

CLOCK_RULE = "clock"


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
