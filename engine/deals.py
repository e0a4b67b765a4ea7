"""Deals at the final table: the players left share the prize money still unpaid.

Methods (amounts in the smallest currency unit, always adding up exactly to what is shared):
- `icm`: Malmuth-Harville: a player finishes first with the probability of his share of the
  chips, and each next place likewise among the players left; exact (fractions) for any table.
- `chip_chop`: each player takes his share of the chips of the money.
- `chip_chop_last_guaranteed`: each takes the last paid place's prize, and his chip share of
  the rest.
- `typed`: amounts the players agreed, given by the director.

An amount may be kept back to play for with the title: the rest is shared, the winner takes it
on top of his share. Cents are rounded by largest remainder (ties: the bigger stack, then seat
order), so nothing is lost or made.

The profile decides whether deals are allowed (`deals_allowed`); each player consents by name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from handlog.engine.errors import RuleViolation
from handlog.engine.profiles import get_profile
from handlog.engine.structure import payouts_for
from handlog.engine.tournament_events import DealRecorded, DealShare
from handlog.engine.tournament_state import TournamentState

DEAL_METHODS = ("icm", "chip_chop", "chip_chop_last_guaranteed", "typed")
DEAL_RULE = "deals_allowed"


def icm_equities(stacks: Sequence[int], prizes: Sequence[int]) -> tuple[Fraction, ...]:
    """Malmuth-Harville equity of each stack, exact.

    >>> [round(float(e), 2) for e in icm_equities([400, 300, 200, 100], [1600, 1000, 600, 400])]
    [1110.79, 997.38, 848.25, 643.57]
    """
    n = len(stacks)
    if n == 0:
        return ()
    if any(s <= 0 for s in stacks):
        raise RuleViolation("icm", "every stack in a deal must hold chips")
    paid = tuple(prizes[:n]) + (0,) * max(0, n - len(prizes))

    @cache
    def equity(left: frozenset[int], place: int) -> tuple[Fraction, ...]:
        result = [Fraction(0)] * n
        if place >= n or not paid[place] and not any(paid[place:]):
            return tuple(result)
        total = sum(stacks[i] for i in left)
        for i in left:
            p = Fraction(stacks[i], total)
            result[i] += p * paid[place]
            rest = equity(left - {i}, place + 1)
            for j in left - {i}:
                result[j] += p * rest[j]
        return tuple(result)

    return equity(frozenset(range(n)), 0)


def round_to_total(exact: Sequence[Fraction], total: int,
                   stacks: Sequence[int]) -> tuple[int, ...]:
    """Whole units adding up to `total`: each exact amount rounded down, the units left over
    to the largest remainders (ties: the bigger stack, then the earlier player)."""
    floors = [int(x) for x in exact]
    left = total - sum(floors)
    if left < 0 or left > len(exact):
        raise RuleViolation("deal", f"amounts {list(exact)} do not add up to {total}")
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - floors[i]), -stacks[i], i))
    for i in order[:left]:
        floors[i] += 1
    return tuple(floors)


def deal_amounts(method: str, stacks: Sequence[int], prizes: Sequence[int], kept: int = 0,
                 typed: Sequence[int] = ()) -> tuple[int, ...]:
    """What each player takes now under `method` (`prizes`: the unpaid prizes, first place
    first; `kept` stays to be played for and is not shared).

    >>> deal_amounts("chip_chop", [400, 300, 200, 100], [1600, 1000, 600, 400])
    (1440, 1080, 720, 360)
    >>> deal_amounts("chip_chop_last_guaranteed", [400, 300, 200, 100], [1600, 1000, 600, 400])
    (1200, 1000, 800, 600)
    """
    n = len(stacks)
    unpaid = sum(prizes[:n])
    if not 0 <= kept <= (prizes[0] if prizes else 0):
        raise RuleViolation("deal", f"the amount kept to play for must be between 0 and the "
                            f"first prize ({prizes[0] if prizes else 0})")
    shared = unpaid - kept
    if method == "typed":
        if len(typed) != n or any(a < 0 for a in typed):
            raise RuleViolation("deal", "give one amount, not negative, for each player left")
        if sum(typed) != shared:
            raise RuleViolation("deal", f"the amounts add up to {sum(typed)}; the prize money "
                                f"to share is {shared}", (f"amounts adding up to {shared}",))
        return tuple(typed)
    chips = sum(stacks)
    if method == "icm":
        table = list(prizes[:n]) + [0] * max(0, n - len(prizes))
        table[0] -= kept
        exact: list[Fraction] = list(icm_equities(stacks, table))
    elif method == "chip_chop":
        exact = [Fraction(shared * s, chips) for s in stacks]
    elif method == "chip_chop_last_guaranteed":
        last = prizes[n - 1] if len(prizes) >= n else 0
        rest = shared - n * last
        if rest < 0:
            raise RuleViolation("deal", "the amount kept leaves less than the last prize each")
        exact = [last + Fraction(rest * s, chips) for s in stacks]
    else:
        raise RuleViolation("deal", f"unknown deal method {method!r}", DEAL_METHODS)
    return round_to_total(exact, shared, stacks)


def unpaid_prizes(state: TournamentState) -> tuple[int, ...]:
    """The prizes of the places still to be decided (first place first)."""
    field = state.field_size
    pool = state.prize_pool
    amounts = payouts_for(state.structure, field, pool)
    return tuple(amounts[:len(state.remaining)])


def deals_allowed(profile: str) -> bool:
    """Whether the house rules of `profile` allow a deal at all (`deals_allowed`)."""
    return get_profile(profile).deals_allowed


def deal_open(state: TournamentState) -> bool:
    """Whether the floor may record a deal now: the house allows one, the final table is all
    that is left, no deal is recorded yet and the tournament is not over."""
    return (deals_allowed(state.structure.profile) and len(state.tables) == 1
            and state.deal is None and not state.finished)


def check_deal_allowed(state: TournamentState) -> None:
    """A deal among the players left is allowed only where the house rules allow one
    (`deals_allowed`; Octobermuck: 'Players at the final table may make deals'); TDA: the posted
    payouts. The refusal cites the profile's own rule."""
    profile = get_profile(state.structure.profile)
    if not profile.deals_allowed:
        raise RuleViolation(profile.rule("deal"), f"no deals under the {profile.name} rules "
                            "(deals_allowed is false): the posted payouts apply",
                            ("award the posted prizes",))


@dataclass(frozen=True, slots=True)
class DealOffer:
    """What one method would give each player left (`amounts`, in the order of `players`),
    or why it cannot be made (`refused`, with the rule): shown before anyone consents."""

    method: str
    amounts: tuple[int, ...]
    refused: str = ""
    rule: str = ""


@dataclass(frozen=True, slots=True)
class DealPreview:
    players: tuple[str, ...]
    stacks: tuple[int, ...]
    prizes: tuple[int, ...]
    kept: int
    offers: tuple[DealOffer, ...]


def deal_preview(state: TournamentState, stacks: Mapping[str, int],
                 kept: int = 0) -> DealPreview:
    """Every computed method's amounts for the players left (`stacks`: their stacks now),
    with `kept` left to play for: what the director reads out before each consent. The deal
    itself must be allowed (the house rules, the final table): else the refusal, with its
    rule."""
    check_deal_allowed(state)
    if state.finished:
        raise RuleViolation("deal", "the tournament is over")
    if state.deal is not None:
        raise RuleViolation("deal", "a deal is already recorded")
    if len(state.tables) != 1:
        raise RuleViolation("deal", "deals are made at the final table",
                            ("break tables down to the final table",))
    players = tuple(e.player for e in state.remaining)
    ordered = tuple(stacks.get(p, 0) for p in players)
    prizes = unpaid_prizes(state)
    offers = []
    for method in DEAL_METHODS:
        if method == "typed":
            continue
        try:
            offers.append(DealOffer(method, deal_amounts(method, ordered, prizes, kept)))
        except RuleViolation as refusal:
            offers.append(DealOffer(method, (), refusal.message, refusal.rule))
    return DealPreview(players, ordered, prizes, kept, tuple(offers))


def make_deal(state: TournamentState, method: str, stacks: Mapping[str, int],
              consents: Mapping[str, str], by: str, kept: int = 0,
              typed: Mapping[str, int] | None = None) -> DealRecorded:
    """A deal among the players left: every player's stack, his consent (his registered
    name), the method; the amounts add up to the unpaid prize money less what is kept."""
    if state.finished:
        raise RuleViolation("deal", "the tournament is over")
    check_deal_allowed(state)
    if state.deal is not None:
        raise RuleViolation("deal", "a deal is already recorded")
    if len(state.tables) != 1:
        raise RuleViolation("deal", "deals are made at the final table",
                            ("break tables down to the final table",))
    if state.structure.money.prize_pool_per_entry == 0:
        raise RuleViolation("deal", "there is no prize money to share")
    players = [e for e in state.remaining]
    ids = {e.player for e in players}
    if set(stacks) != ids or any(stacks[p] <= 0 for p in ids):
        raise RuleViolation("deal", "give the stack of every player left",
                            tuple(sorted(ids)))
    refused = [e.name for e in players if consents.get(e.player, "").strip() != e.name]
    if refused:
        raise RuleViolation("deal", f"no consent from {', '.join(refused)}: each player "
                            "consents by giving his name", tuple(refused))
    prizes = unpaid_prizes(state)
    ordered = [stacks[e.player] for e in players]
    amounts = deal_amounts(method, ordered, prizes, kept,
                           [(typed or {}).get(e.player, -1) for e in players]
                           if method == "typed" else ())
    shares = tuple(DealShare(e.player, stacks[e.player], amount, consents[e.player])
                   for e, amount in zip(players, amounts, strict=True))
    return DealRecorded(method, sum(prizes), kept, shares, DEAL_RULE, by)
