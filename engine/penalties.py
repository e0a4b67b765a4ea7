"""Penalties: a warning, missed hands, missed rounds, disqualification; and who is still
serving one.

TDA 2024 Rule 71: a player on penalty is dealt in, posts his blinds and antes ('players away
from the table or on penalty may be anted or blinded out of a tournament', 71-A) and his hand is
killed; a one-round penalty misses one hand for each player at his table when it is given,
himself included. A disqualified player's chips leave play.
"""

from __future__ import annotations

from collections.abc import Mapping

from handlog.engine.errors import RuleViolation
from handlog.engine.tournament_events import PenaltyRecorded
from handlog.engine.tournament_state import TournamentState

PENALTY_RULE = "tda-71"
PENALTY_KINDS = ("warning", "hands", "rounds", "disqualification")
KILLED_FOR_PENALTY = "penalty"
"""The reason a hand killed at the deal carries: the tables' count of served hands."""


def give_penalty(state: TournamentState, player: str, kind: str, rule: str, reason: str,
                 by: str, count: int = 0) -> PenaltyRecorded:
    """A penalty with the rule it rests on. `count` hands or rounds; rounds are turned into
    hands by the players at his table now (himself included)."""
    entrant = state.entrant(player)
    if entrant is None:
        raise RuleViolation("penalty", f"{player} is not registered")
    if kind not in PENALTY_KINDS:
        raise RuleViolation("penalty", f"unknown penalty {kind!r}", PENALTY_KINDS)
    for value, what in ((rule, "the rule"), (by, "who ruled")):
        if not value.strip():
            raise RuleViolation("record", f"{what} must not be empty")
    if kind != "warning" and not entrant.alive:
        raise RuleViolation("penalty", f"{player} is out of the tournament")
    hands = 0
    if kind in ("hands", "rounds"):
        if count <= 0:
            raise RuleViolation(PENALTY_RULE, f"a {kind} penalty needs how many {kind}")
        table_size = len(state.seated_at(entrant.table)) if entrant.table else 1
        hands = count * (table_size if kind == "rounds" else 1)
    return PenaltyRecorded(player, kind, rule, reason, by, hands)


def hands_owed(state: TournamentState) -> dict[str, int]:
    """Penalty hands given to each player still in (served or not)."""
    owed: dict[str, int] = {}
    if not any(p.hands for p in state.penalties):
        return owed  # (asked at every floor view: no pass over 10,000 entrants for nothing)
    alive = {e.player for e in state.remaining}
    for p in state.penalties:
        if p.hands and p.player in alive:
            owed[p.player] = owed.get(p.player, 0) + p.hands
    return owed


def serving(state: TournamentState, served: Mapping[str, int]) -> dict[str, int]:
    """Players still serving a penalty and the hands each has left, given the hands each has
    had killed for a penalty so far (`served`, counted at the tables)."""
    return {p: n - served.get(p, 0) for p, n in hands_owed(state).items()
            if n > served.get(p, 0)}
