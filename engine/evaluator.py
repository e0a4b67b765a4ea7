"""Value of the best five-card poker hand out of five to seven cards.

A hand value is an int: higher is better, equal means an exact tie. It packs the category in
bits 20 and up and, below that, one 4-bit rank index (0 = deuce .. 12 = ace) per rank group,
most significant group first: the pair before its kickers, the trips before the pair of a full
house, only the top card of a straight. Suits never enter a value.

Speed comes from tables built once, after the first hundred thousand evaluations (about 0.2 s
compiled, 1.3 s as plain Python: a process that values a few thousand hands, such as `handlog
phh verify` on an evening's hands, never pays it, and values each hand directly from its
sorted ranks instead; a what-if that values millions builds them early on). Every card maps
to one integer that is the sum of a rank key (5 ** rank, so the sum of up to seven keys
identifies the multiset of ranks, no rank being held more than four times) and a 4-bit counter
per suit. The counters start at 3, so a suit held five or more times sets bit 3 of its field:
one mask test finds the (rare) flushes, and everything else is a single dict lookup by the rank
key.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement

from handlog.engine import words
from handlog.engine.cards import Card, cards_text
from handlog.engine.words import HAND_CATEGORIES

HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT = 0, 1, 2, 3, 4
FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH = 5, 6, 7, 8

CATEGORY_NAMES: tuple[str, ...] = HAND_CATEGORIES  # the words live in engine/words.py

_CATEGORY_SHIFT = 20
_ACE = 12
_FIVE = 3

_SUIT_SHIFT = 32  # 5 ** 13 < 2 ** 31, so the rank key never reaches the suit counters
_RANK_MASK = (1 << _SUIT_SHIFT) - 1
_SUIT_ONE = tuple(1 << (_SUIT_SHIFT + 4 * suit) for suit in range(4))
_SUIT_BIAS = sum(3 * one for one in _SUIT_ONE)
_SUIT_FLUSH = tuple(8 * one for one in _SUIT_ONE)
_FLUSH_MASK = sum(_SUIT_FLUSH)

_RANK_KEY: tuple[int, ...] = tuple(5**rank for rank in range(13))
_CARD_KEY: tuple[int, ...] = tuple(_RANK_KEY[c >> 2] + _SUIT_ONE[c & 3] for c in range(52))
# The first card carries the suit bias so the hot path needs no extra addition.
_FIRST_KEY: tuple[int, ...] = tuple(key + _SUIT_BIAS for key in _CARD_KEY)


def _pack(category: int, ranks: Sequence[int]) -> int:
    value = category
    for rank in ranks:
        value = value << 4 | rank
    return value << 4 * (5 - len(ranks))


def _straight_table() -> list[int]:
    """Top rank of the best straight in each 13-bit rank mask, or -1 when there is none."""
    table = [-1] * (1 << 13)
    wheel = (_FIVE, 0b1000000001111)
    # Lower straights first, so a mask holding two straights keeps the higher one.
    for high, run in [wheel] + [(high, 0b11111 << (high - 4)) for high in range(4, _ACE + 1)]:
        rest = ~run & 0x1FFF
        extra = rest
        while True:
            table[run | extra] = high
            if not extra:
                break
            extra = (extra - 1) & rest
    return table


_STRAIGHT_HIGH: list[int] = _straight_table()


def _flush_of(mask: int) -> int:
    """Value of a flush (or straight flush) of the ranks in `mask` (five or more)."""
    high = _STRAIGHT_HIGH[mask]
    if high >= 0:
        return _pack(STRAIGHT_FLUSH, (high,))
    top = mask
    while top.bit_count() > 5:
        top &= top - 1  # drops the lowest rank
    return _pack(FLUSH, [r for r in range(_ACE, -1, -1) if top >> r & 1])


def _flush_table() -> list[int]:
    """Value of a flush (or straight flush) indexed by the rank mask of the flush suit."""
    table = [0] * (1 << 13)
    for mask in range(1 << 13):
        if mask.bit_count() >= 5:
            table[mask] = _flush_of(mask)
    return table


def _rank_value(ranks: tuple[int, ...]) -> int:
    """Value of the best non-flush hand from five to seven ranks sorted high to low."""
    singles: list[int] = []
    pairs: list[int] = []
    trips: list[int] = []
    quads: list[int] = []
    by_size: tuple[list[int], ...] = ([], singles, pairs, trips, quads)  # by run length
    previous, run, mask = ranks[0], 0, 0
    for rank in ranks:
        if rank != previous:
            by_size[run].append(previous)
            previous, run = rank, 0
        run += 1
        mask |= 1 << rank
    by_size[run].append(previous)
    if quads:
        # The kicker may come from any other rank, paired or not.
        kicker = ranks[0] if ranks[0] != quads[0] else ranks[4]
        return _pack(FOUR_OF_A_KIND, (quads[0], kicker))
    if trips and (len(trips) > 1 or pairs):
        return _pack(FULL_HOUSE, (trips[0], max(trips[1:] + pairs)))
    high = _STRAIGHT_HIGH[mask]
    if high >= 0:
        return _pack(STRAIGHT, (high,))
    if trips:
        return _pack(THREE_OF_A_KIND, (trips[0], *singles[:2]))
    if len(pairs) > 1:
        # With three pairs the third one can still supply the kicker.
        return _pack(TWO_PAIR, (pairs[0], pairs[1], max(pairs[2:] + singles[:1])))
    if pairs:
        return _pack(PAIR, (pairs[0], *singles[:3]))
    return _pack(HIGH_CARD, singles[:5])


def _rank_table() -> dict[int, int]:
    """Non-flush value of every multiset of five to seven ranks, keyed by its rank key sum."""
    table: dict[int, int] = {}
    ranks_down = range(_ACE, -1, -1)
    keys_down = [_RANK_KEY[rank] for rank in ranks_down]
    for size in (5, 6, 7):
        # Both generators yield in the same order, so each rank tuple arrives with its keys.
        pairs = zip(
            combinations_with_replacement(ranks_down, size),
            combinations_with_replacement(keys_down, size),
            strict=True,
        )
        for ranks, keys in pairs:
            # No deck holds a rank five times, and such a key sum (5 * 5 ** r) would collide
            # with a real hand's. In at most seven sorted ranks, a run of five covers index 2.
            if ranks.count(ranks[2]) > 4:
                continue
            table[sum(keys)] = _rank_value(ranks)
    return table


# Filled in place by _build_tables (module-level containers, never rebound: mypyc compiles
# this module). _BUILT[0] turns True only once all three are complete, so a thread that sees
# it True never reads a half-built table; two threads building at once write the same values.
_FLUSH_VALUE: list[int] = []
_RANK_VALUE: dict[int, int] = {}
_ALL_VALUES: set[int] = set()
_BUILT: list[bool] = [False]
# Until the tables are built: evaluations left to make directly, and the values they gave
# (at most the 7,462 there are), which `hand_rank` knows to be values without the tables.
_DIRECT_LEFT: list[int] = [100_000]
_DIRECT_VALUES: set[int] = set()


def _direct(total: int, cards: Sequence[Card]) -> int:
    """Value of 5 to 7 cards (their key sum `total`) without the tables; the tables are built
    once this has been asked often enough for them to pay."""
    _DIRECT_LEFT[0] -= 1
    if _DIRECT_LEFT[0] <= 0:
        _build_tables()
    if total & _FLUSH_MASK:
        suit = 0
        while not total & _SUIT_FLUSH[suit]:
            suit += 1
        mask = 0
        for card in cards:
            if card & 3 == suit:
                mask |= 1 << (card >> 2)
        value = _flush_of(mask)
    else:
        value = _rank_value(tuple(sorted([card >> 2 for card in cards], reverse=True)))
    _DIRECT_VALUES.add(value)
    return value


def _build_tables() -> None:
    flush = _flush_table()
    ranks = _rank_table()
    _FLUSH_VALUE[:] = flush
    _RANK_VALUE.update(ranks)
    _ALL_VALUES.update(ranks.values())
    _ALL_VALUES.update(flush)
    _ALL_VALUES.discard(0)
    _BUILT[0] = True


def _flush_value(total: int, cards: Sequence[Card]) -> int:
    """Value of a hand already known to hold five or more cards of one suit."""
    suit = 0
    while not total & _SUIT_FLUSH[suit]:
        suit += 1
    mask = 0
    for card in cards:
        if card & 3 == suit:
            mask |= 1 << (card >> 2)
    return _FLUSH_VALUE[mask]


def evaluate7(c1: Card, c2: Card, c3: Card, c4: Card, c5: Card, c6: Card, c7: Card) -> int:
    """Value of the best hand from exactly seven distinct cards (not checked, for speed)."""
    total = (
        _FIRST_KEY[c1]
        + _CARD_KEY[c2]
        + _CARD_KEY[c3]
        + _CARD_KEY[c4]
        + _CARD_KEY[c5]
        + _CARD_KEY[c6]
        + _CARD_KEY[c7]
    )
    if not _BUILT[0]:
        return _direct(total, (c1, c2, c3, c4, c5, c6, c7))
    if total & _FLUSH_MASK:
        return _flush_value(total, (c1, c2, c3, c4, c5, c6, c7))
    return _RANK_VALUE[total & _RANK_MASK]


def _check(cards: Sequence[Card]) -> None:
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"a hand value needs 5 to 7 cards, got {len(cards)}")
    for card in cards:
        if not 0 <= card < 52:
            raise ValueError(f"bad card number {card!r}: expected 0 to 51")
    if len(set(cards)) != len(cards):
        raise ValueError(f"repeated card in {cards_text(cards)!r}")


def evaluate(cards: Sequence[Card]) -> int:
    """Value of the best five-card hand from 5, 6 or 7 distinct cards."""
    _check(cards)
    total = _SUIT_BIAS
    for card in cards:
        total += _CARD_KEY[card]
    if not _BUILT[0]:
        return _direct(total, cards)
    if total & _FLUSH_MASK:
        return _flush_value(total, cards)
    return _RANK_VALUE[total & _RANK_MASK]


def _category(value: int) -> int:
    if not _BUILT[0] and value in _DIRECT_VALUES:
        return value >> _CATEGORY_SHIFT
    if not _BUILT[0]:
        _build_tables()
    if value not in _ALL_VALUES:
        raise ValueError(f"not a hand value: {value!r}")
    return value >> _CATEGORY_SHIFT


def hand_category(value: int) -> str:
    """Category name of a hand value, e.g. "Full house"."""
    return words.HAND_CATEGORIES[_category(value)]


def _groups(value: int) -> list[int]:
    return [value >> shift & 15 for shift in (16, 12, 8, 4, 0)]


_TWO_GROUPS = (TWO_PAIR, FULL_HOUSE)


def hand_rank(value: int) -> tuple[int, ...]:
    """The fact a hand value is named by: its category code, then the rank (0 deuce .. 12 ace)
    of its first group, and of its second for two pair and a full house; e.g. kings full of
    sevens (6, 11, 5). engine/words.py hand_name says it in words."""
    category = _category(value)
    first, second, *_ = _groups(value)
    return (category, first, second) if category in _TWO_GROUPS else (category, first)


def describe(value: int) -> str:
    """How a person says a hand value: "Full house, kings full of sevens", "Royal flush"."""
    return words.hand_name(hand_rank(value))


def _display_order(five: tuple[Card, ...], value: int) -> tuple[Card, ...]:
    """The five cards as a person lays them out: biggest group first, wheel ace last."""
    category = value >> _CATEGORY_SHIFT
    if category in (STRAIGHT, STRAIGHT_FLUSH) and value >> 16 & 15 == _FIVE:
        return tuple(sorted(five, key=lambda c: ((c >> 2) + 1) % 13, reverse=True))
    counts = [0] * 13
    for card in five:
        counts[card >> 2] += 1
    return tuple(sorted(five, key=lambda c: (counts[c >> 2], c), reverse=True))


def best_five(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The five cards that make the best hand, for showing which cards play."""
    _check(cards)
    # Among equal-valued choices the earliest cards win, so a hole card is shown over a board
    # card of the same rank when callers pass the hole cards first.
    best = max(combinations(cards, 5), key=evaluate)
    return _display_order(best, evaluate(best))


__all__ = [
    "CATEGORY_NAMES",
    "FLUSH",
    "FOUR_OF_A_KIND",
    "FULL_HOUSE",
    "HIGH_CARD",
    "PAIR",
    "STRAIGHT",
    "STRAIGHT_FLUSH",
    "THREE_OF_A_KIND",
    "TWO_PAIR",
    "best_five",
    "describe",
    "evaluate",
    "evaluate7",
    "hand_category",
    "hand_rank",
]
