"""Cards and hand values: parsing, golden hands, ties, names, and agreement with PokerKit."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import StandardHighHand

from handlog.engine.cards import (
    FULL_DECK,
    RANKS,
    SUITS,
    Card,
    card_text,
    cards_text,
    parse_card,
    parse_cards,
    parse_cards_or_unknown,
)
from handlog.engine.evaluator import best_five, describe, evaluate, evaluate7, hand_category


def value(text: str) -> int:
    return evaluate(parse_cards(text))


def showdown(hole: str, board: str) -> int:
    return evaluate7(*parse_cards(hole + board))


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def hands(size: int) -> st.SearchStrategy[list[Card]]:
    return st.lists(st.sampled_from(FULL_DECK), min_size=size, max_size=size, unique=True)


def reference_key(cards: Sequence[Card]) -> tuple[int, ...]:
    """Textbook five-card ranking, written independently of engine.evaluator."""
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    counts = Counter(ranks)
    # Rank groups, biggest group first, then higher rank first.
    ordered = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len({c & 3 for c in cards}) == 1
    straight_top = -1
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_top = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:
            straight_top = 3
    if straight_top >= 0 and flush:
        return (8, straight_top)
    if shape == [4, 1]:
        return (7, *ordered)
    if shape == [3, 2]:
        return (6, *ordered)
    if flush:
        return (5, *ranks)
    if straight_top >= 0:
        return (4, straight_top)
    if shape == [3, 1, 1]:
        return (3, *ordered)
    if shape == [2, 2, 1]:
        return (2, *ordered)
    if shape == [2, 1, 1, 1]:
        return (1, *ordered)
    return (0, *ranks)


CATEGORIES = [
    "High card", "Pair", "Two pair", "Three of a kind", "Straight",
    "Flush", "Full house", "Four of a kind", "Straight flush",
]  # fmt: skip


# --- cards -------------------------------------------------------------------------------


def test_deck_is_52_distinct_cards_that_round_trip_through_text() -> None:
    """Every card of FULL_DECK prints to a distinct two-character text that parses back."""
    texts = [card_text(card) for card in FULL_DECK]
    assert len(set(texts)) == 52
    assert [parse_card(text) for text in texts] == list(FULL_DECK)
    assert parse_cards(cards_text(FULL_DECK)) == FULL_DECK
    assert {t[0] for t in texts} == set(RANKS) and {t[1] for t in texts} == set(SUITS)


def test_parse_card_accepts_common_spellings() -> None:
    """Ten may be written 10, and rank and suit letters in either case."""
    assert card_text(parse_card("10h")) == "Th"
    assert parse_card("as") == parse_card("AS") == parse_card(" As ") == 51
    assert parse_card("2c") == 0


def test_parse_cards_reads_concatenated_text_with_spaces() -> None:
    """Concatenated cards parse in order, spaces and "10" are tolerated, "" is no cards."""
    assert cards_text(parse_cards("AsKd7h")) == "AsKd7h"
    assert cards_text(parse_cards(" As Kd  10h2c ")) == "AsKdTh2c"
    assert parse_cards("") == ()


@pytest.mark.parametrize("bad", ["Ax", "1h", "A", "Asd", "", "11c", "Xs", "??"])
def test_parse_card_error_names_the_bad_text(bad: str) -> None:
    """parse_card's error quotes the text it was given and says what is allowed."""
    with pytest.raises(ValueError, match=f"'{bad}'") as error:
        parse_card(bad)
    assert "suit" in str(error.value)


def test_parse_cards_error_names_the_bad_card_and_the_text() -> None:
    """parse_cards names both the bad token and the whole text."""
    with pytest.raises(ValueError, match="'Kx' in 'AsKx7h'"):
        parse_cards("AsKx7h")
    with pytest.raises(ValueError, match="'K' in 'AsK'"):
        parse_cards("AsK")


def test_parse_cards_rejects_a_repeated_card() -> None:
    """A card typed twice is an error naming that card."""
    with pytest.raises(ValueError, match="'As' appears twice in 'AsKdAs'"):
        parse_cards("AsKdAs")


def test_unknown_cards() -> None:
    """All-"??" text means unknown (None); known cards parse; a half-known hand is an error."""
    assert parse_cards_or_unknown("??") is None
    assert parse_cards_or_unknown("????") is None
    assert parse_cards_or_unknown("?? ??") is None
    assert parse_cards_or_unknown("AsKd") == parse_cards("AsKd")
    assert parse_cards_or_unknown("") == ()
    with pytest.raises(ValueError, match="'As\\?\\?'"):
        parse_cards_or_unknown("As??")


def test_card_text_rejects_numbers_outside_the_deck() -> None:
    """card_text names a number that is not a card."""
    with pytest.raises(ValueError, match="52"):
        card_text(52)


# --- golden hands --------------------------------------------------------------------------

GOLDEN = [
    ("AsKsQsJsTs", "Straight flush", "Royal flush"),
    ("9h8h7h6h5h", "Straight flush", "Straight flush, nine high"),
    ("5d4d3d2dAd", "Straight flush", "Straight flush, five high"),
    ("2c2d2h2sKd", "Four of a kind", "Four of a kind, deuces"),
    ("KhKdKs7c7d", "Full house", "Full house, kings full of sevens"),
    ("Kh9h5h3h2h", "Flush", "Flush, king high"),
    ("TcJdQhKsAc", "Straight", "Straight, ace high"),
    ("Ac2d3h4s5c", "Straight", "Straight, five high"),
    ("QcQdQh7s2c", "Three of a kind", "Three of a kind, queens"),
    ("AcAd5h5sKc", "Two pair", "Two pair, aces and fives"),
    ("9c9dAh4s3s", "Pair", "Pair of nines"),
    ("6c6d9h4s3s", "Pair", "Pair of sixes"),
    ("AsKd7h8h9c", "High card", "High card, ace"),
    ("7s5d4h3c2c", "High card", "High card, seven"),
]


@pytest.mark.parametrize(("text", "category", "name"), GOLDEN)
def test_golden_hands(text: str, category: str, name: str) -> None:
    """Each golden five-card hand gets its category and its spoken name."""
    v = value(text)
    assert hand_category(v) == category
    assert describe(v) == name


def test_golden_hands_are_in_strictly_increasing_order_by_category() -> None:
    """Lowest to highest: one golden hand per category ranks above the category below it."""
    ladder = [
        "AsKd7h8h9c", "9c9dAh4s3s", "AcAd5h5sKc", "QcQdQh7s2c", "Ac2d3h4s5c",
        "Kh9h5h3h2h", "KhKdKs7c7d", "2c2d2h2sKd", "5d4d3d2dAd", "AsKsQsJsTs",
    ]  # fmt: skip
    values = [value(text) for text in ladder]
    assert values == sorted(values) and len(set(values)) == len(values)


def test_best_of_seven_descriptions() -> None:
    """describe() of seven cards names the best five: a flush over a straight, and so on."""
    assert describe(showdown("AhKh", "QhJh9h8c7d")) == "Flush, ace high"
    assert describe(showdown("AcAd", "AhKcKdKh2s")) == "Full house, aces full of kings"
    assert describe(showdown("9c9d", "5c5d4h4s3s")) == "Two pair, nines and fives"
    assert describe(showdown("7c8d", "9h6s5c4d3h")) == "Straight, nine high"
    assert describe(showdown("As2s", "3s4s5s6sKd")) == "Straight flush, six high"


def test_wheel_is_the_lowest_straight() -> None:
    """A-2-3-4-5 is a straight, below 2-6, above any three of a kind; the ace plays low."""
    wheel = value("Ac2d3h4s5c")
    assert value("AcAdAhKsQc") < wheel < value("2c3d4h5s6c")
    assert describe(wheel) == "Straight, five high"
    assert cards_text(best_five(parse_cards("Ac2d3h4s5cKd9h"))) == "5c4s3h2dAc"
    # Ace-king-queen-jack plus a deuce does not wrap around.
    assert hand_category(value("QcKdAh2s3c")) == "High card"


def test_steel_wheel_is_the_lowest_straight_flush() -> None:
    """A-2-3-4-5 suited beats four aces and loses to a six-high straight flush."""
    steel = value("Ah2h3h4h5h")
    assert value("AcAdAhAsKc") < steel < value("2h3h4h5h6h")
    assert describe(steel) == "Straight flush, five high"


def test_kicker_decisions() -> None:
    """The highest unpaired cards decide between equal made hands, and only five cards play."""
    board = "Kh9c7d4s2h"
    assert showdown("AsQd", board) > showdown("AcJd", board)  # ace high, queen kicker
    assert showdown("KsQd", board) > showdown("KcJd", board)  # pair of kings, queen kicker
    two_pair_board = "KhKd9c9d3s"
    assert showdown("Ac2c", two_pair_board) > showdown("Qc2d", two_pair_board)
    assert showdown("QsJs", "AcAd6h5s2c") > showdown("QhTh", "AcAd6h5s2c")
    # Third kicker: A-K-Q-J-9 beats A-K-Q-J-8; the sixth and seventh cards never count.
    assert value("AsKdQhJc9s") > value("AdKcQsJh8d")
    assert showdown("8c7c", "AsKdQhJcTd") == showdown("3c2c", "AsKdQhJcTd")
    # A third pair on board: the best of the rest is the kicker, paired or not.
    assert describe(showdown("QcQd", "JhJs5c5d2h")) == "Two pair, queens and jacks"
    assert showdown("QcQd", "JhJs5c5d2h") == showdown("QhQs", "JcJd5s5h3h")
    assert showdown("QcQd", "JhJs5c5d7h") > showdown("QhQs", "JcJd5s5h3h")
    # Trips with two kickers, quads with one.
    assert value("7c7d7hAsKd") > value("7c7d7hAsQd") > value("7c7d7hKsQd")
    assert value("9c9d9h9sAd") > value("9c9d9h9sKd")


SPLITS = [
    ("AhKhQdJsTc", ("2s3s", "JcJd", "8c7d")),  # broadway on board
    ("9c9d9h9sAs", ("2s3s", "KhKs", "AdQd")),  # quads with the top kicker on board
    ("2h5h8hJhKh", ("3c4c", "7d9d", "QcQd")),  # a flush on board, no heart in hand
    ("AcAdKcKdQh", ("2s3s", "JhJs", "QcTc")),  # two pair with a queen kicker on board
    ("3c4d5h6s7c", ("AsAd", "KcKd", "3s4s")),  # a seven-high straight on board
]


@pytest.mark.parametrize(("board", "holes"), SPLITS)
def test_board_plays_splits(board: str, holes: tuple[str, ...]) -> None:
    """When the board is the best hand for everyone, everyone ties."""
    assert len({showdown(hole, board) for hole in holes}) == 1


def test_improving_the_board_is_not_a_split() -> None:
    """One card that betters a board hand wins outright."""
    assert showdown("Ah2c", "2h5h8hJhKh") > showdown("3c4c", "2h5h8hJhKh")
    assert showdown("8s2d", "3c4d5h6s7c") > showdown("AsAd", "3c4d5h6s7c")
    assert showdown("Kc2c", "AcAdKsKdQh") > showdown("2s3s", "AcAdKsKdQh")


def test_suits_never_break_ties() -> None:
    """Hands differing only in suits are exact ties, even for flushes."""
    assert value("AsKsQsJs9s") == value("AhKhQhJh9h")
    assert value("AcKdQhJs9c") == value("AdKhQsJc9d")
    assert showdown("AsKd", "7h8h9cTc2d") == showdown("AdKs", "7h8h9cTc2d")


@settings(max_examples=300, deadline=None)
@given(hands(7), st.permutations(range(4)))
def test_relabelling_suits_keeps_the_value(cards: list[Card], perm: list[int]) -> None:
    """Any renaming of the four suits leaves a seven-card value unchanged."""
    renamed = [(c & ~3) | perm[c & 3] for c in cards]
    assert evaluate(renamed) == evaluate(cards)


# --- agreement with brute force, a reference ranking and PokerKit ----------------------------


@settings(max_examples=1000, deadline=None)
@given(hands(5), hands(5))
def test_five_card_order_matches_a_textbook_ranking(a: list[Card], b: list[Card]) -> None:
    """evaluate() orders any two five-card hands as an independent textbook ranking does."""
    assert sign(evaluate(a) - evaluate(b)) == sign(
        (reference_key(a) > reference_key(b)) - (reference_key(a) < reference_key(b))
    )
    assert hand_category(evaluate(a)) == CATEGORIES[reference_key(a)[0]]


@settings(max_examples=500, deadline=None)
@given(hands(6))
def test_six_cards_is_the_best_five_card_subset(cards: list[Card]) -> None:
    """evaluate(6 cards) equals the max of evaluate over its 5-card subsets."""
    assert evaluate(cards) == max(evaluate(five) for five in combinations(cards, 5))


@settings(max_examples=500, deadline=None)
@given(hands(7))
def test_seven_cards_is_the_best_five_card_subset(cards: list[Card]) -> None:
    """evaluate7 and evaluate(7 cards) equal the max of evaluate over the 5-card subsets."""
    brute = max(evaluate(five) for five in combinations(cards, 5))
    assert evaluate7(*cards) == evaluate(cards) == brute


@settings(max_examples=300, deadline=None)
@given(hands(7))
def test_best_five_plays_the_hand_value(cards: list[Card]) -> None:
    """best_five returns five of the given cards whose value is the whole hand's value."""
    five = best_five(cards)
    assert len(five) == 5 and set(five) <= set(cards)
    assert evaluate(five) == evaluate(cards)


def five_card_classes() -> list[tuple[Card, ...]]:
    """One hand for each of the 7,462 distinct five-card hand values."""
    found: list[tuple[Card, ...]] = []
    for ranks in combinations_with_replacement(range(13), 5):
        if max(Counter(ranks).values()) > 4:
            continue
        # Suits cycle so no five share one; the same ranks suited make the flush class.
        found.append(tuple(rank * 4 + i % 4 for i, rank in enumerate(ranks)))
        if len(set(ranks)) == 5:
            found.append(tuple(rank * 4 + 3 for rank in ranks))
    return found


def test_all_7462_five_card_classes_in_pokerkit_order() -> None:
    """Distinct values per category are the textbook counts, in PokerKit's exact order."""
    classes = sorted(five_card_classes(), key=evaluate)
    values = [evaluate(hand) for hand in classes]
    assert len(set(values)) == len(values) == 7462
    per_category = Counter(hand_category(v) for v in values)
    assert per_category == {
        "Straight flush": 10, "Four of a kind": 156, "Full house": 156, "Flush": 1277,
        "Straight": 10, "Three of a kind": 858, "Two pair": 858, "Pair": 2860,
        "High card": 1277,
    }  # fmt: skip
    theirs = [StandardHighHand(cards_text(hand)) for hand in classes]
    assert all(lower < higher for lower, higher in zip(theirs, theirs[1:], strict=False))


@pytest.mark.slow
def test_seven_card_order_matches_pokerkit() -> None:
    """On 20,000 seeded random pairs, ours says a>b, a==b or a<b exactly when PokerKit does."""
    rng = random.Random(2024)
    disagreements = []
    for i in range(20_000):
        if i % 2:
            # Independent hands: any two categories can meet.
            a, b = tuple(rng.sample(FULL_DECK, 7)), tuple(rng.sample(FULL_DECK, 7))
        else:
            # A showdown: two holes on one board, where ties and board-plays happen.
            dealt = rng.sample(FULL_DECK, 9)
            a, b = tuple(dealt[0:2] + dealt[4:]), tuple(dealt[2:4] + dealt[4:])
        ours = sign(evaluate7(*a) - evaluate7(*b))
        pa = StandardHighHand.from_game(cards_text(a[:2]), cards_text(a[2:]))
        pb = StandardHighHand.from_game(cards_text(b[:2]), cards_text(b[2:]))
        theirs = (pa > pb) - (pa < pb)
        if ours != theirs:
            disagreements.append((cards_text(a), cards_text(b), ours, theirs))
    assert disagreements == []


# --- misuse ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ((0, 1, 2, 3), "5 to 7 cards, got 4"),
        ((0, 1, 2, 3, 4, 5, 6, 7), "5 to 7 cards, got 8"),
        ((0, 1, 2, 3, 3), "repeated card"),
        ((0, 1, 2, 3, 52), "52"),
        ((0, 1, 2, 3, -1), "-1"),
    ],
)
def test_evaluate_rejects_bad_hands(cards: tuple[Card, ...], message: str) -> None:
    """evaluate and best_five refuse wrong counts, repeated cards and non-cards."""
    with pytest.raises(ValueError, match=message):
        evaluate(cards)
    with pytest.raises(ValueError, match=message):
        best_five(cards)


@pytest.mark.parametrize("bad", [-1, 0, 9 << 20, 0xF0000, 0x8D0000, 1 << 40])
def test_describe_rejects_non_values(bad: int) -> None:
    """hand_category and describe refuse ints no hand can have."""
    with pytest.raises(ValueError, match="not a hand value"):
        describe(bad)
    with pytest.raises(ValueError, match="not a hand value"):
        hand_category(bad)


@settings(max_examples=2000)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True))
def test_a_hand_valued_before_the_tables_pay_has_the_tables_value(cards: list[Card]) -> None:
    """The direct valuation (a process's first hundred thousand hands) and the tables give
    every hand the same value, and hand_rank takes it without building them."""
    from handlog.engine import evaluator

    total = evaluator._SUIT_BIAS + sum(evaluator._CARD_KEY[c] for c in cards)
    direct = evaluator._direct(total, cards)
    assert direct in evaluator._DIRECT_VALUES
    if not evaluator._BUILT[0]:
        evaluator._build_tables()
    tables = (evaluator._flush_value(total, cards) if total & evaluator._FLUSH_MASK
              else evaluator._RANK_VALUE[total & evaluator._RANK_MASK])
    assert direct == tables


def test_a_few_thousand_hands_are_valued_without_building_the_tables() -> None:
    """A process that values an evening's showdowns (here 3,000 seven-card hands, named as a
    showdown names them) never spends the tables' set-up."""
    import subprocess
    import sys

    script = (
        "import random\n"
        "from handlog.engine import evaluator as e\n"
        "rng = random.Random(7)\n"
        "for _ in range(3000):\n"
        "    cards = rng.sample(range(52), 7)\n"
        "    e.hand_rank(e.evaluate(cards)); e.evaluate7(*cards)\n"
        "print(e._BUILT[0], len(e._RANK_VALUE))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["False", "0"]
