"""Entries beyond the first: re-entries, rebuys and the add-on, each as the structure offers it
(its `re_entry`, `rebuy` and `add_on` keys) and the profile allows (`re_entries_and_rebuys`;
Octobermuck: 'Re-Buys: None (When you are out of chips, you are out of the tourney.)').

A person (the room's player id) holds one live entry at a time: a re-entry is a new entry of
the same person once his entry is out. Places and prizes belong to entries. Each refusal names
the rule: the profile's re-entry rule, or the structure's key (`rebuy:stack_at_most`).
"""

from __future__ import annotations

from handlog.engine.errors import RuleViolation
from handlog.engine.profiles import get_profile
from handlog.engine.structure import Structure
from handlog.engine.tournament_events import AddOnPurchased, RebuyPurchased
from handlog.engine.tournament_state import Entrant, TournamentState
from handlog.engine.words import structure_rule

REBUY_RULE = "rebuy"
ADD_ON_RULE = "add-on"
PER_PERSON = structure_rule("re_entry", "per_person")
RE_ENTRY_LEVEL = structure_rule("re_entry", "last_level")
REBUY_LEVELS = structure_rule("rebuy", "last_level")
REBUY_STACK = structure_rule("rebuy", "stack_at_most")
REBUY_COUNT = structure_rule("rebuy", "per_entry")
ADD_ON_BREAK = structure_rule("add_on", "after_level")


def offered(structure: Structure) -> dict[str, bool]:
    """Which entries beyond the first the structure sells under its house rules: none where
    the profile's re_entries_and_rebuys is false, whatever the structure says."""
    sold = get_profile(structure.profile).re_entries_and_rebuys
    return {"re_entry": sold and bool(structure.re_entry.per_person),
            "rebuy": sold and bool(structure.rebuy.last_level),
            "add_on": sold and bool(structure.add_on.after_level)}


def not_sold(structure: Structure) -> RuleViolation | None:
    """The refusal every re-entry, rebuy and add-on gets under house rules that sell none."""
    profile = get_profile(structure.profile)
    if profile.re_entries_and_rebuys:
        return None
    return RuleViolation(profile.rule("re_entry"), f"no re-entries, rebuys or add-ons under the "
                         f"{profile.name} rules (re_entries_and_rebuys is false: out of chips "
                         "is out)")


def entries_of(state: TournamentState, person: str) -> tuple[Entrant, ...]:
    """The entries of one person, in the order he made them."""
    return tuple(e for e in state.entrants if e.who == person)


def _check_profile(state: TournamentState) -> None:
    refusal = not_sold(state.structure)
    if refusal is not None:
        raise refusal


def next_entry(state: TournamentState, person: str) -> int:
    """Which entry of `person` a registration now would be (1: his first); refused while he
    holds a live entry, or when the re-entry is not offered, used up or closed."""
    if person not in state.persons:
        return 1
    entries = entries_of(state, person)
    live = [e for e in entries if e.alive]
    if live:
        raise RuleViolation("registration", f"{person} already holds a live entry "
                            f"({live[0].player}): one person, one live entry",
                            (f"re-enter once {live[0].player} is out",))
    if not entries:
        return 1
    out = entries[-1].player
    disqualified = next((p for p in state.penalties if p.penalty == "disqualification"
                         and any(p.player == e.player for e in entries)), None)
    if disqualified is not None:
        # A disqualification puts the person out of the event, not one entry out of chips:
        # the penalty's own rule stands behind the refusal.
        raise RuleViolation(disqualified.rule, f"{person} was disqualified "
                            f"({disqualified.player}): no re-entry")
    profile = get_profile(state.structure.profile)
    if not profile.re_entries_and_rebuys:
        raise RuleViolation(profile.rule("re_entry"), f"{out} is out: no re-entry under the "
                            f"{profile.name} rules (re_entries_and_rebuys is false: a player "
                            "out of chips is out of the tournament)")
    offered = state.structure.re_entry
    if not offered.per_person:
        raise RuleViolation(profile.rule("re_entry"), f"{out} is out: no re-entry "
                            f"({state.structure.name} offers none: re_entry.per_person is 0)")
    if len(entries) - 1 >= offered.per_person:
        raise RuleViolation(PER_PERSON, f"{person} has re-entered "
                            f"{len(entries) - 1} time(s), the most allowed "
                            f"({offered.per_person})")
    last = offered.last_level
    if last and (state.level > last or (state.level == last and state.on_break)):
        raise RuleViolation(RE_ENTRY_LEVEL, f"re-entries closed at the end of level "
                            f"{last}; level {state.level} is "
                            f"{'over' if state.on_break else 'running'}")
    return len(entries) + 1


def _live_entrant(state: TournamentState, player: str, what: str, rule: str) -> Entrant:
    if state.finished:
        raise RuleViolation("tournament", f"{state.tournament} is over"
                            + (f": {state.winner} won" if state.winner else ""))
    entrant = state.entrant(player)
    if entrant is None:
        raise RuleViolation(rule, f"no entry {player!r}",
                            tuple(e.player for e in state.remaining))
    if not entrant.alive:
        raise RuleViolation(rule, f"{player} is out: {what} is for an entry still in play "
                            "(a re-entry is a new entry)")
    return entrant


def rebuy(state: TournamentState, player: str, stack: int) -> RebuyPurchased:
    """A rebuy by `player`, who has `stack` chips: during the structure's rebuy levels, at
    its stack or below, within its count per entry.

    >>> from handlog.engine.structure import BlindLevel, Rebuy, Structure
    >>> s = Structure("t", "tda", 1000, 9, (), (BlindLevel(1, 5, 10, 20),),
    ...               rebuy=Rebuy(last_level=1, chips=1000, cost=2000, prize_pool=1800))
    >>> state = TournamentState("t", s, (Entrant("p1", "Ada"),), level=1)
    >>> rebuy(state, "p1", 400).chips
    1000
    >>> try:
    ...     rebuy(state, "p1", 1200)
    ... except RuleViolation as refused:
    ...     print(refused.rule)
    rebuy:stack_at_most
    """
    _check_profile(state)
    offered = state.structure.rebuy
    entrant = _live_entrant(state, player, "a rebuy", REBUY_RULE)
    if not offered.last_level:
        raise RuleViolation(REBUY_LEVELS, f"{state.structure.name} offers no rebuys "
                            "(rebuy.last_level is 0)")
    if not (offered.first_level <= state.level <= offered.last_level) or (
            state.on_break and state.level == offered.last_level):
        raise RuleViolation(REBUY_LEVELS, f"rebuys are sold during levels "
                            f"{offered.first_level} to {offered.last_level}; "
                            + (f"level {state.level} is {'over' if state.on_break else 'on'}"
                               if state.level else "play has not started"))
    limit = offered.stack_at_most or state.structure.starting_stack
    if stack > limit:
        raise RuleViolation(REBUY_STACK, f"{player} has {stack} chips: a rebuy "
                            f"needs {limit} or fewer")
    if offered.per_entry and entrant.rebuys >= offered.per_entry:
        raise RuleViolation(REBUY_COUNT, f"{player} has made {entrant.rebuys} rebuy(s), "
                            f"the most allowed ({offered.per_entry})")
    return RebuyPurchased(player, offered.chips, offered.cost, offered.prize_pool, stack,
                     entrant.rebuys + 1, state.level, REBUY_RULE)


def add_on(state: TournamentState, player: str) -> AddOnPurchased:
    """The add-on by `player`: once per entry, during the break after the structure's
    `add_on.after_level`."""
    _check_profile(state)
    offered = state.structure.add_on
    entrant = _live_entrant(state, player, "an add-on", ADD_ON_RULE)
    if not offered.after_level:
        raise RuleViolation(ADD_ON_BREAK, f"{state.structure.name} offers no add-on "
                            "(add_on.after_level is 0)")
    if not (state.on_break and state.level == offered.after_level):
        raise RuleViolation(ADD_ON_BREAK, f"the add-on is sold during the break after "
                            f"level {offered.after_level}",
                            ("start that break",))
    if entrant.add_on:
        raise RuleViolation(ADD_ON_BREAK, f"{player} has taken the add-on already: "
                            "one per entry")
    return AddOnPurchased(player, offered.chips, offered.cost, offered.prize_pool,
                     offered.after_level, ADD_ON_RULE)
