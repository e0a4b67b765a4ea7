"""Chip counts: at a break or at the end of a day the floor counts the stacks at a table; each
count is compared with the stack the log computes; a difference stays open (a replay finding
with both numbers) until the director settles it with a stack correction and a reason.

TDA 25 (chips in play): the chips a player has are the chips the log gives him; a count that
differs is a discrepancy the director rules on (the counted stack, the log's, or another).
"""

from __future__ import annotations

from collections.abc import Mapping

from handlog.engine.errors import RuleViolation
from handlog.engine.profiles import get_profile
from handlog.engine.tournament_events import StackCorrected, StackCount, StacksCounted
from handlog.engine.tournament_state import TournamentState

COUNT_OCCASIONS = ("break", "end_of_day")


def count_rule(state: TournamentState) -> str:
    return get_profile(state.structure.profile).rule("chips_in_play")


def count_stacks(state: TournamentState, table: str, occasion: str,
                 counted: Mapping[str, int], computed: Mapping[str, int]) -> StacksCounted:
    """The counted stacks at `table` beside the log's (`computed`: player -> his stack at the
    table now). A break's count is taken while the break is on; an end-of-day count between
    hands at any time."""
    if state.finished:
        raise RuleViolation("tournament", "the tournament is over")
    if occasion not in COUNT_OCCASIONS:
        raise RuleViolation("chip-count", f"unknown occasion {occasion!r}", COUNT_OCCASIONS)
    if occasion == "break" and not state.on_break:
        raise RuleViolation("chip-count", "no break is on: count at a break, or say it is the "
                            "end of the day", ("end_of_day",))
    if table not in state.tables:
        raise RuleViolation("chip-count", f"no table {table!r} in play",
                            tuple(state.tables))
    if not counted:
        raise RuleViolation("chip-count", "give at least one counted stack")
    seated = {e.player for e in state.seated_at(table)}
    counts = []
    for player, chips in sorted(counted.items()):
        if player not in seated:
            raise RuleViolation("chip-count", f"{player} is not seated at table {table}",
                                tuple(sorted(seated)))
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
            raise RuleViolation("chip-count", f"{player}: a counted stack is a whole number of "
                                "chips, 0 or more")
        if player not in computed:
            raise RuleViolation("chip-count", f"{player} has no stack at table {table}")
        if chips == 0 and computed[player] > 0:
            # A seated player has chips until a hand takes them: a 0 is a stack not yet
            # counted (or a typing slip), never a count to set beside the log's.
            raise RuleViolation("chip-count", f"{player} is counted 0 chips but the log gives "
                                f"him {computed[player]}: a seated player with no chips is "
                                "out in a hand, not in a count; type the chips in front of "
                                "him", (f"count {player}'s chips",))
        counts.append(StackCount(player, chips, computed[player]))
    return StacksCounted(table, occasion, state.level, tuple(counts), count_rule(state))


def open_difference(state: TournamentState, player: str) -> tuple[str, StackCount] | None:
    return next((d for d in state.differences if d[1].player == player), None)


def correct_stack(state: TournamentState, player: str, reason: str, by: str,
                  current: int, stack: int | None = None) -> StackCorrected:
    """The director settles `player`'s open count: his stack is ruled to be `stack` (the
    counted one when None); the change (`stack` - the log's stack at the count) is added to
    his stack as it is now (`current`)."""
    found = open_difference(state, player)
    if found is None:
        raise RuleViolation("chip-count", f"no count of {player}'s stack differs from the log",
                            tuple(sorted(d[1].player for d in state.differences)))
    for value, what in ((reason, "the reason"), (by, "who ruled")):
        if not value.strip():
            raise RuleViolation("record", f"{what} must not be empty")
    table, count = found
    ruled = count.counted if stack is None else stack
    if ruled < 0:
        raise RuleViolation("chip-count", "a stack is 0 chips or more")
    amount = ruled - count.computed
    entrant = state.entrant(player)
    if amount and (entrant is None or not entrant.seated):
        raise RuleViolation("chip-count", f"{player} is no longer seated: only the log's stack "
                            f"({count.computed}) can stand", (str(count.computed),))
    if amount and current + amount < 1:
        raise RuleViolation("chip-count", f"the correction leaves {player} {current + amount} "
                            "chips: a stack found empty is an elimination, not a correction")
    return StackCorrected(player, table, count.counted, count.computed, amount, reason,
                          count_rule(state), by)


def count_findings(state: TournamentState) -> list[tuple[str, str, StackCount]]:
    """(rule, table, count) for every counted stack still differing from the log's."""
    rule = count_rule(state)
    return [(rule, table, count) for table, count in state.differences]
