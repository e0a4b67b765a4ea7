"""Playing cards as small integers, and their text form ("As", "Td", "2c")."""

from __future__ import annotations

from collections.abc import Iterable

Card = int
"""A card is ``rank * 4 + suit``: 0 is the deuce of clubs, 51 the ace of spades."""

RANKS = "23456789TJQKA"
SUITS = "cdhs"

FULL_DECK: tuple[Card, ...] = tuple(range(52))

UNKNOWN = "??"
"""How a face-down or unseen card is written."""

_ALLOWED = "a rank 2-9, T (or 10), J, Q, K, A followed by a suit c, d, h, s, e.g. 'As' or 'Td'"

# Case-insensitive on input because dealers type "as" and "AS" as often as "As".
_RANK_INDEX = {r: i for i, r in enumerate(RANKS)} | {r.lower(): i for i, r in enumerate(RANKS)}
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)} | {s.upper(): i for i, s in enumerate(SUITS)}


def card_rank(card: Card) -> int:
    """Rank index of a card: 0 for a deuce up to 12 for an ace."""
    return card >> 2


def card_suit(card: Card) -> int:
    """Suit index of a card into ``SUITS``."""
    return card & 3


def parse_card(text: str) -> Card:
    """Parse one card such as "As", "Td", "2c" or "10h"."""
    token = text.strip()
    if token[:2] == "10":
        token = "T" + token[2:]
    if len(token) == 2:
        rank = _RANK_INDEX.get(token[0])
        suit = _SUIT_INDEX.get(token[1])
        if rank is not None and suit is not None:
            return rank * 4 + suit
    raise ValueError(f"bad card {text!r}: expected {_ALLOWED}")


def _tokens(text: str) -> list[str]:
    """Split "AsKd 10h??" into two-character card tokens ("10" counts as one rank)."""
    packed = "".join(text.split())
    tokens: list[str] = []
    i = 0
    while i < len(packed):
        width = 3 if packed.startswith("10", i) else 2
        tokens.append(packed[i : i + width])
        i += width
    return tokens


def _parse_tokens(tokens: list[str], text: str) -> tuple[Card, ...]:
    cards: list[Card] = []
    for token in tokens:
        try:
            card = parse_card(token)
        except ValueError:
            raise ValueError(f"bad card {token!r} in {text!r}: expected {_ALLOWED}") from None
        if card in cards:
            # A repeated card is always a typo; catching it here names the text the dealer typed.
            raise ValueError(f"card {card_text(card)!r} appears twice in {text!r}")
        cards.append(card)
    return tuple(cards)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse concatenated cards such as "AsKd7h" (spaces allowed); "" gives no cards."""
    return _parse_tokens(_tokens(text), text)


def parse_cards_or_unknown(text: str) -> tuple[Card, ...] | None:
    """Parse cards like ``parse_cards``, but return None when every card is "??" (unseen)."""
    tokens = _tokens(text)
    unknown = [token == UNKNOWN for token in tokens]
    if tokens and all(unknown):
        return None
    if any(unknown):
        # The result type cannot say which cards are missing, so a half-seen hand is refused
        # rather than silently shortened.
        raise ValueError(f"cards {text!r} mix known and unknown ('??') cards")
    return _parse_tokens(tokens, text)


def card_text(card: Card) -> str:
    """Text of one card, e.g. "As"."""
    if not 0 <= card < 52:
        raise ValueError(f"bad card number {card!r}: expected 0 to 51")
    return RANKS[card >> 2] + SUITS[card & 3]


def cards_text(cards: Iterable[Card]) -> str:
    """Text of several cards, concatenated, e.g. "AsKd7h" (the form ``parse_cards`` reads)."""
    return "".join(card_text(card) for card in cards)
