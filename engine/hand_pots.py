"""Pots in layers, the showdown order and the award of every pot (cards speak, odd chips)."""

from __future__ import annotations

from handlog.engine.errors import RuleViolation
from handlog.engine.evaluator import evaluate, hand_rank
from handlog.engine.events import (
    PotAwarded,
)
from handlog.engine.hand_state import HandState, Pot, _live, _total

# --- pots and awards -----------------------------------------------------------------------


def pots(state: HandState) -> tuple[Pot, ...]:
    """Main pot and side pots in layers; folded chips and antes are dead money in them.

    All-in for 300, 500 and 1,000: the main pot holds 300 from each of the three, the side
    pot 200 from each of the two who had more (the 500 nobody could call goes back).

    >>> from handlog.engine.commands import BetRaise, CheckCall
    >>> from handlog.engine.hand import HandSetup, execute, start_hand
    >>> hand = start_hand(HandSetup(stacks=(300, 500, 1000), blinds=(50, 100, 0),
    ...                             antes=(0, 0, 0), min_bet=100))
    >>> for command in (BetRaise(2, 1000), CheckCall(0), CheckCall(1)):
    ...     hand = execute(hand, command)
    >>> pots(hand)
    (Pot(amount=900, eligible=(0, 1, 2)), Pot(amount=400, eligible=(1, 2)))
    """
    committed = state.committed
    folded = state.folded
    if _live(folded) == 1:
        # Everyone else folded (the usual end): one pot, all of it, to the last live hand.
        total = _total(committed) + state.dead
        return (Pot(total, (folded.index(False),)),) if total else ()
    live = [i for i in range(state.player_count) if not folded[i]]
    levels = sorted({committed[i] for i in live if committed[i] > 0})
    result: list[Pot] = []
    previous = 0
    dead = state.dead
    for index, level in enumerate(levels):
        top = index == len(levels) - 1
        amount = 0
        for c in committed:
            # Dead money above the highest live level stays in the last pot.
            upper = c if top else min(c, level)
            if upper > previous:
                amount += upper - previous
        eligible = tuple(i for i in live if committed[i] >= level)
        amount += dead
        dead = 0
        if amount:
            if result and result[-1].eligible == eligible:
                result[-1] = Pot(result[-1].amount + amount, eligible)
            else:
                result.append(Pot(amount, eligible))
        previous = level
    if not levels and sum(committed) + state.dead:
        result.append(Pot(sum(committed) + state.dead, tuple(live)))
    return tuple(result)


def showdown_order(state: HandState) -> tuple[int, ...]:
    """TDA 16: the last aggressor of the final betting round shows first, else the first
    player left of the button; then clockwise."""
    n = state.player_count
    start = state.final_aggressor if state.final_aggressor is not None else 0
    return tuple(
        (start + k) % n for k in range(n) if not state.folded[(start + k) % n]
    )


def _split(state: HandState, amount: int, winners: list[int]) -> tuple[list[int], list[int]]:
    """Shares in the smallest chip in play, odd chips clockwise from the button (TDA 20): the
    shares, and who got an odd chip.

    A pot of 275 in chips of 25 split by positions 0 and 2: eleven chips, five each, the odd
    one to position 0, the first left of the button.

    >>> from handlog.engine.hand import HandSetup, start_hand
    >>> hand = start_hand(HandSetup(stacks=(1000, 1000, 1000), blinds=(25, 50, 0),
    ...                             antes=(0, 0, 0), min_bet=50, chip_unit=25))
    >>> _split(hand, 275, [0, 2])
    ([150, 125], [0])
    """
    unit = state.setup.chip_unit
    n = len(winners)
    if n == 1:
        return [amount], (winners if amount % unit else [])
    units, rest = divmod(amount, unit)
    base, odd = divmod(units, n)
    shares = [base * unit] * n
    order = sorted(range(n), key=lambda k: winners[k])  # positions run clockwise from button
    profile = state.profile
    if profile.odd_chip_all_in_first and (
            base == 0 or profile.all_in_odd_chip_pots == "any_split_pot"):
        # League: nobody is eliminated by a split; the single chip goes to the all-in player
        # (all_in_odd_chip_pots: of a one-chip pot, or the odd chip of any split).
        busted = [k for k in order if state.stacks[winners[k]] == 0]
        order = busted + [k for k in order if k not in busted]
    odd_to: list[int] = []
    for k in order[:odd]:
        shares[k] += unit
        odd_to.append(winners[k])
    if rest:
        # Less than one chip of the smallest denomination (only when the chip unit does not
        # divide the pot): it goes with the first odd chip.
        shares[order[0]] += rest
        if winners[order[0]] not in odd_to:
            odd_to.append(winners[order[0]])
    return shares, odd_to


def propose_awards(
    state: HandState,
    override: tuple[tuple[int, ...], ...] | None = None,
    ruling: str = "",
) -> tuple[PotAwarded, ...]:
    """The award of every pot as the engine computes it (or with the director's winners)."""
    result: list[PotAwarded] = []
    board = state.board
    values: dict[int, int] = {}
    for index, pot in enumerate(pots(state)):
        rank: tuple[int, ...] = ()
        if override is not None:
            if index >= len(override) or not override[index]:
                raise RuleViolation("award", f"the ruling gives no winner for pot {index}")
            winners = sorted(set(override[index]))
            bad = [w for w in winners if w not in pot.eligible]
            if bad:
                raise RuleViolation("tda-21", f"position {bad[0]} is not eligible for pot "
                                    f"{index}", tuple(f"position {e}" for e in pot.eligible))
        elif len(pot.eligible) == 1:
            winners = [pot.eligible[0]]
        else:
            unshown = [i for i in pot.eligible if state.shown[i] is None]
            if unshown:
                raise RuleViolation(
                    "tda-16", f"pot {index} is contested and position {unshown[0]} has not "
                    "shown both cards", ("show the cards", "muck", "award by a ruling"),
                    "unshown", (index, unshown[0]),
                )
            if len(board) != 5:
                raise RuleViolation("board", "the board is not complete", ("deal the board",))
            for i in pot.eligible:
                if i not in values:
                    shown = state.shown[i]
                    assert shown is not None
                    values[i] = evaluate(shown + board)
            best = max(values[i] for i in pot.eligible)
            winners = [i for i in pot.eligible if values[i] == best]
            rank = hand_rank(best)
        shares, odd_to = _split(state, pot.amount, winners)
        result.append(PotAwarded(index, pot.amount, pot.eligible, tuple(winners),
                                 tuple(shares), tuple(odd_to), rank, ruling))
    return tuple(result)
