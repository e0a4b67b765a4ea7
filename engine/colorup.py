"""Color-ups: what each player's stack becomes when denominations leave play.

Three house rules (profile parameter `color_up`):
- "race" (TDA chip race): at each table the odd chips are raced off by card, one new chip at
  most per player, as many new chips as the odd chips are worth (half a chip or more counts as
  one); nobody is raced out: a player left with nothing gets one chip of the new unit.
- "round_up" (BSE): every player's odd chips are rounded up to one chip of the new unit.
- "forfeit_to_next_pot" (Octobermuck buy-downs): odd chips are forfeited; at each table they are
  changed up into the next pot, and what cannot be changed up leaves play. A stack that is all
  odd chips is not forfeited (the house rule is silent; TDA 24-A: nobody is raced out): it
  becomes one chip of the new unit (profile `color_up_keeps_a_player_in`; false: forfeited).

The odd chips of a stack are `stack % new_unit`: every chip still in play is a multiple of the
new unit (structure_problems checks it), so this is the value of the chips that must go.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from handlog.engine.cards import parse_card
from handlog.engine.errors import RuleViolation
from handlog.engine.tournament_events import ChipAdjustment, PotCarry

METHODS: tuple[str, ...] = ("race", "round_up", "forfeit_to_next_pot")


@dataclass(frozen=True, slots=True)
class SeatedStack:
    """A player's stack at the moment of the color-up, and the table he sits at."""

    player: str
    table: str
    stack: int


def race_chips(odd_total: int, new_unit: int) -> int:
    """New chips raced off for `odd_total` of odd chips: rounded to the nearest chip, half up."""
    whole, rest = divmod(odd_total, new_unit)
    return whole + (1 if 2 * rest >= new_unit else 0)


def _best_card(player: str, cards: Sequence[str], rule: str) -> int:
    try:
        return max(parse_card(c) for c in cards)
    except ValueError as exc:
        raise RuleViolation(rule, f"race card of {player}: {exc}") from None


def color_up_adjustments(
    method: str,
    stacks: Sequence[SeatedStack],
    new_unit: int,
    race_cards: Mapping[str, Sequence[str]] | None = None,
    rule: str = "",
    keep_in: bool = True,
) -> tuple[tuple[ChipAdjustment, ...], tuple[PotCarry, ...]]:
    """Every player's adjustment (in the order given) and, for forfeits, each table's carry.
    `keep_in` (the profile's `color_up_keeps_a_player_in`): a stack of odd chips only gets
    one chip of the new unit rather than being forfeited."""
    if method not in METHODS:
        raise RuleViolation(rule or "profile", f"unknown color-up method {method!r}", METHODS)
    if new_unit <= 0:
        raise RuleViolation(rule, "the new chip unit must be positive")
    cards = dict(race_cards or {})
    tables: dict[str, list[SeatedStack]] = {}
    for entry in stacks:
        tables.setdefault(entry.table, []).append(entry)
    result: dict[str, ChipAdjustment] = {}
    carries: list[PotCarry] = []
    for table, seated in tables.items():
        if method == "race":
            result.update(_race(table, seated, new_unit, cards, rule))
        elif method == "round_up":
            for s in seated:
                odd = s.stack % new_unit
                result[s.player] = ChipAdjustment(
                    s.player, table, s.stack, odd, new_unit - odd if odd else 0,
                    "rounded_up" if odd else "no_odd_chips")
        else:
            forfeited = 0
            for s in seated:
                odd = s.stack % new_unit
                if odd and s.stack == odd and keep_in:
                    # Every chip he has is odd: the buy-down rule is silent, and TDA 24-A never
                    # takes a player out of the tournament in a color-up: one chip of the new
                    # unit (issue 24: a 5-chip stack was forfeited and out unplayed).
                    result[s.player] = ChipAdjustment(s.player, table, s.stack, odd,
                                                      new_unit - odd, "given_one_chip")
                    continue
                forfeited += odd
                reason = "no_odd_chips"
                if odd:
                    reason = "forfeited_to_next_pot" if s.stack > odd else "all_forfeited"
                result[s.player] = ChipAdjustment(s.player, table, s.stack, odd, -odd, reason)
            carry = forfeited // new_unit * new_unit
            if carry:
                carries.append(PotCarry(table, carry))
    if method != "race" and cards:
        raise RuleViolation(rule, f"race cards are only dealt in a chip race, not {method}")
    return tuple(result[s.player] for s in stacks), tuple(carries)


def _race(table: str, seated: list[SeatedStack], unit: int,
          cards: Mapping[str, Sequence[str]], rule: str) -> dict[str, ChipAdjustment]:
    racers = [s for s in seated if s.stack % unit]
    missing = [s.player for s in racers if not cards.get(s.player)]
    if missing:
        raise RuleViolation(rule, f"table {table}: every player with odd chips gets race cards",
                            tuple(f"deal race cards to {p}" for p in missing))
    extra = [s.player for s in seated if s not in racers and cards.get(s.player)]
    if extra:
        raise RuleViolation(rule, f"table {table}: {', '.join(extra)} has no odd chips to race")
    best = {s.player: _best_card(s.player, cards[s.player], rule) for s in racers}
    dealt = [parse_card(c) for s in racers for c in cards[s.player]]
    if len(set(dealt)) != len(dealt):
        raise RuleViolation(rule, f"table {table}: the same card was dealt twice in the race")
    order = sorted(racers, key=lambda s: best[s.player], reverse=True)
    winners = {s.player for s in order[: race_chips(sum(s.stack % unit for s in racers), unit)]}
    out: dict[str, ChipAdjustment] = {}
    for s in seated:
        odd = s.stack % unit
        hand = tuple(cards.get(s.player, ()))
        if not odd:
            out[s.player] = ChipAdjustment(s.player, table, s.stack, 0, 0, "no_odd_chips")
        elif s.player in winners:
            out[s.player] = ChipAdjustment(s.player, table, s.stack, odd, unit - odd,
                                           "won_race", hand)
        elif s.stack == odd:
            out[s.player] = ChipAdjustment(s.player, table, s.stack, odd, unit - odd,
                                           "given_one_chip", hand)
        else:
            out[s.player] = ChipAdjustment(s.player, table, s.stack, odd, -odd,
                                           "lost_race", hand)
    return out
