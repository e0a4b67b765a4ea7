"""Hand-for-hand on the bubble (TDA 2024 RP-8): when the director turns it on, every table plays
one hand and waits until every other table has finished its hand before the next is dealt
anywhere. Players out in the same hand-for-hand round are placed together (engine.tournament
eliminate): per the profile they share the places paid (`bubble_busts_share`, TDA RP-8-A) or
the most chips at the start of the hand finishes higher (photo finish, BSE).

A table's progress is given as (hands played at the table, hand in progress): the tables' own
counters, against those recorded when hand-for-hand began.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from handlog.engine.errors import RuleViolation
from handlog.engine.profiles import get_profile
from handlog.engine.tournament_events import HandForHandEnded, HandForHandStarted, TableHand
from handlog.engine.tournament_state import TournamentState

TableProgress = tuple[int, bool]
"""(hands played at the table, a hand in progress there)."""


def hand_for_hand_rule(state: TournamentState) -> str:
    return get_profile(state.structure.profile).rule("bubble")


def start_hand_for_hand(state: TournamentState,
                        progress: Mapping[str, TableProgress]) -> HandForHandStarted:
    """Hand-for-hand from the next hand at every table on (no hand may be in progress)."""
    if state.finished:
        raise RuleViolation("tournament", "the tournament is over")
    rule = hand_for_hand_rule(state)
    if state.hand_for_hand is not None:
        raise RuleViolation(rule, "hand-for-hand is on already", ("end hand-for-hand",))
    tables = _playing(state)
    if len(tables) < 2:
        raise RuleViolation(rule, "hand-for-hand needs two tables or more in play: one table "
                            "plays every hand together anyway")
    busy = [t for t in tables if progress.get(t, (0, False))[1]]
    if busy:
        raise RuleViolation(rule, f"a hand is in progress at table {busy[0]}: turn "
                            "hand-for-hand on between hands", ("finish the hand first",))
    return HandForHandStarted(tuple(TableHand(t, progress.get(t, (0, False))[0])
                                    for t in tables), rule)


def _playing(state: TournamentState) -> list[str]:
    """The tables that can deal a hand (two players or more): a table left with one player
    waits for balancing and holds no round up."""
    return [t for t in state.tables if len(state.seated_at(t)) >= 2]


def end_hand_for_hand(state: TournamentState) -> HandForHandEnded:
    rule = hand_for_hand_rule(state)
    if state.hand_for_hand is None:
        raise RuleViolation(rule, "hand-for-hand is not on", ("start hand-for-hand",))
    return HandForHandEnded(rule)


@dataclass(frozen=True, slots=True)
class Round:
    """Where the hand-for-hand round stands: `number` the round being played (0: none yet),
    `complete` every table has finished it, `waiting` the tables still to start or finish it."""

    number: int
    complete: bool
    waiting: tuple[str, ...]


def _played(state: TournamentState,
            progress: Mapping[str, TableProgress]) -> dict[str, tuple[int, bool]]:
    assert state.hand_for_hand is not None
    base = {h.table: h.hand_number for h in state.hand_for_hand.hands}
    tables = _playing(state)
    result = {}
    for t in tables:
        played, busy = progress.get(t, (0, False))
        result[t] = (played - base.get(t, played), busy)
    return result


def round_status(state: TournamentState, progress: Mapping[str, TableProgress]) -> Round:
    """The round now (hand-for-hand must be on)."""
    played = _played(state, progress)
    number = max((p for p, _b in played.values()), default=0)
    waiting = tuple(sorted(t for t, (p, busy) in played.items() if p < number or busy))
    return Round(number, not waiting, waiting)


def check_hand_start(state: TournamentState, table: str,
                     progress: Mapping[str, TableProgress]) -> None:
    """Refuse the next hand at `table` while hand-for-hand is on and another table has not
    finished the round's hand (or not started it)."""
    if state.hand_for_hand is None:
        return
    played = _played(state, progress)
    mine = played.get(table, (0, False))[0]
    waiting = sorted(t for t, (p, busy) in played.items()
                     if t != table and (p < mine or (p == mine and busy)))
    if waiting:
        names = ", ".join(waiting)
        raise RuleViolation(hand_for_hand_rule(state), f"hand-for-hand: table {table} has "
                            f"played hand {mine} of the round; its next hand waits until table "
                            f"{names} has finished hand {mine}",
                            tuple(f"wait for table {t}" for t in waiting))
