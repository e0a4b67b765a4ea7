"""The one question the write side asks of a table: what does this command record here? A
correction is decided on the log's past (replay/corrections.py), every other command by the
engine on the table's state (engine/table_decide.py)."""

from __future__ import annotations

from typing import Any

from handlog.engine.table import TableState
from handlog.engine.table_decide import TableFacts, apply_event, decide_table
from handlog.replay.corrections import CORRECTIONS, decide_correction
from handlog.replay.incremental import LiveTable


def decide(live: LiveTable, command: Any, facts: TableFacts) -> list[Any]:
    """The events `command` gives at the table `live`; RuleViolation when it is refused."""
    if isinstance(command, CORRECTIONS):
        return decide_correction(live, command, facts)
    return decide_table(live.state, command, facts)


def needs_whole_past(command: Any) -> bool:
    """Whether deciding `command` reads the table's log before it, not only its state then
    (a retry is decided again on the stream as it was, read whole)."""
    return isinstance(command, CORRECTIONS)


def state_after(live: LiveTable, command: Any, events: list[Any]) -> TableState | None:
    """The table once `command`'s events are recorded; None for a correction (its effect is
    the table re-derived from the events it corrects: the live fold gives it once recorded)."""
    states = states_after(live, command, events)
    if states is None:
        return None
    return states[-1] if states else live.state


def states_after(live: LiveTable, command: Any,
                 events: list[Any]) -> tuple[TableState | None, ...] | None:
    """The table after each of `command`'s events, from `live.state` on (what the live fold
    takes in once they are recorded, not applied a second time); None for a correction."""
    if isinstance(command, CORRECTIONS):
        return None
    state = live.state
    states = []
    for event in events:
        state = apply_event(state, event)
        states.append(state)
    return tuple(states)
