"""Entered as the dealer sees and hears it (issue 24 item 4): a spoken amount as it was said
("raise 300" is a raise BY 300, "raise to 700" a total), recorded with what was said (the
words' code and the number, never a sentence) and converted by the engine; an exposed card in
the deal entered by its place in the deal (the 3rd card dealt, the big blind's second card)
and ruled by that place under each profile.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from handlog.engine.cards import parse_cards
from handlog.engine.commands import BetRaise, ExposeCard, PushChips
from handlog.engine.errors import RuleViolation
from handlog.engine.events import CardExposed, ChipsPushed, MisdealDeclared, RaiseMade
from handlog.engine.hand import HandSetup, HandState, decide, execute, start_hand
from handlog.engine.profiles import PROFILES
from handlog.replay.fold import command_for

ALL = list(PROFILES)


def facing_200(profile: str) -> HandState:
    """Blinds 50-100, four players; position 2 raises to 200: position 3 is to act."""
    state = start_hand(HandSetup((5000,) * 4, (50, 100, 0, 0), (0,) * 4, 100, 1, profile))
    return execute(state, BetRaise(2, 200))


def ruled(state: HandState, push: PushChips) -> tuple[ChipsPushed, tuple[object, ...]]:
    events = decide(state, push)
    facts = events[0]
    assert isinstance(facts, ChipsPushed)
    assert decide(state, command_for(facts)) == events  # the facts replay to the same ruling
    return facts, events[1:]


# --- a spoken amount -----------------------------------------------------------------------


@pytest.mark.parametrize("profile", ALL)
def test_octobermuck_say_raise_followed_by_x_raises_by_x(profile: str) -> None:
    """Octobermuck: 'say "raise" followed by "X$" and you can raise the amount you state'.
    Facing 200, "raise 300" is entered as said (raise_by, 300): a raise by 300, to 500; the
    event keeps what was said, the code and the number."""
    facts, action = ruled(facing_200(profile), PushChips(3, (100,) * 5, said="raise_by",
                                                         said_to=300))
    assert (facts.said, facts.said_to, facts.ruled, facts.to) == ("raise_by", 300, "raise", 500)
    assert isinstance(action[0], RaiseMade) and action[0].to == 500


@pytest.mark.parametrize("profile", ALL)
def test_raise_to_700_said_is_a_total(profile: str) -> None:
    """"Raise to 700" (raise_to, 700): the street total 700, whatever the chips put out."""
    facts, action = ruled(facing_200(profile), PushChips(3, (500, 100, 100), said="raise_to",
                                                         said_to=700))
    assert (facts.said, facts.said_to, facts.to) == ("raise_to", 700, 700)
    assert isinstance(action[0], RaiseMade) and action[0].to == 700


@pytest.mark.parametrize("profile", ALL)
def test_raise_by_less_than_a_raise_is_held_to_the_minimum(profile: str) -> None:
    """"Raise 50" facing 200 (a raise of 100 was the last): held to the minimum, to 300."""
    facts, _ = ruled(facing_200(profile), PushChips(3, (100, 100, 50), said="raise_by",
                                                    said_to=50))
    assert (facts.ruled, facts.to, facts.reason) == ("raise", 300, "held_to_minimum")


def test_a_spoken_amount_needs_its_number() -> None:
    """"Raise" with no number is raise (the chips are the amount); raise_by without a number,
    or a number with plain words, is refused naming the field."""
    with pytest.raises(RuleViolation, match="said_to"):
        decide(facing_200("tda"), PushChips(3, (100,) * 3, said="raise_by"))
    with pytest.raises(RuleViolation, match="said_to"):
        decide(facing_200("tda"), PushChips(3, (100,) * 3, said="call", said_to=300))


# --- an exposed card by its place in the deal ------------------------------------------------


def dealing(profile: str, players: int = 4) -> HandState:
    """Blinds posted, the deal under way: position 0 (small blind) gets the 1st card dealt,
    position 1 (big blind) the 2nd, ... the big blind's second card is card players + 2."""
    return start_hand(HandSetup((5000,) * players, (50, 100) + (0,) * (players - 2),
                                (0,) * players, 100, 1, profile))


def exposed(profile: str, place: int, players: int = 4) -> tuple[object, ...]:
    events = decide(dealing(profile, players), ExposeCard(-1, parse_cards("As")[0], place=place))
    first = events[0]
    assert isinstance(first, CardExposed) and first.place == place
    return events


@pytest.mark.parametrize("profile", ["tda", "chairperson"])
def test_chairperson_first_or_second_pocket_card_dealt_exposed_is_a_misdeal(profile: str) -> None:
    """Chairperson: 'If the first or second pocket card dealt is exposed, a misdeal results.'
    (TDA 35-A-7.) The 2nd card dealt goes to the big blind (position 1)."""
    events = exposed(profile, 2)
    assert isinstance(events[0], CardExposed) and events[0].player == 1
    assert isinstance(events[-1], MisdealDeclared)


@pytest.mark.parametrize("profile", ["tda", "chairperson", "bse", "octobermuck"])
def test_chairperson_any_other_pocket_card_exposed_deal_continues_card_replaced(
        profile: str) -> None:
    """Chairperson: 'If any other pocket card is exposed due to dealer error, the deal
    continues. ... the dealer replaces the card with the top card on the deck, and the exposed
    card is then used for the burncard.' Four players: the 6th card dealt is the big blind's
    second card: replaced, the deal goes on (entered by seat alone it was judged a misdeal)."""
    events = exposed(profile, 6)
    assert len(events) == 1 and isinstance(events[0], CardExposed)
    assert (events[0].player, events[0].consequence) == (1, "replaced_as_burn")
    events = exposed(profile, 3)  # the 3rd card dealt: position 2's first card
    assert (events[0].player, events[0].consequence) == (2, "replaced_as_burn")  # type: ignore[attr-defined]


@pytest.mark.parametrize("profile", ["bse", "octobermuck"])
def test_bse_even_the_first_card_dealt_is_replaced(profile: str) -> None:
    """BSE: one card exposed, the dealer continues dealing and replaces it (Octobermuck too),
    even the first card dealt."""
    events = exposed(profile, 1)
    assert len(events) == 1 and events[0].consequence == "replaced_as_burn"  # type: ignore[attr-defined]


def test_league_any_card_exposed_in_the_deal_is_a_misdeal() -> None:
    """League misdeals: a card exposed in the deal is a misdeal, whatever its place."""
    assert isinstance(exposed("league", 7)[-1], MisdealDeclared)


def test_the_place_names_the_player_and_a_wrong_place_is_refused() -> None:
    """Heads-up the player without the button (position 0, the big blind) gets the 1st card;
    a place beyond the deal, or a player who did not get that card, is refused naming the
    field and what is allowed."""
    events = exposed("chairperson", 3, players=2)  # heads-up: the big blind's second card
    assert events[0].player == 0 and events[0].consequence == "replaced_as_burn"  # type: ignore[attr-defined]
    with pytest.raises(RuleViolation, match="place: 9 .*1 to 8"):
        decide(dealing("tda"), ExposeCard(-1, parse_cards("As")[0], place=9))
    with pytest.raises(RuleViolation, match="place: the 3rd card dealt goes to position 2"):
        decide(dealing("tda"), ExposeCard(1, parse_cards("As")[0], place=3))


# --- through the tablet's door ----------------------------------------------------------------


def test_the_tablet_enters_a_card_by_its_place_and_a_spoken_raise_as_said(tmp_path: Path) -> None:
    """The tablet's API takes what the dealer saw and heard: `expose_card` with its place in
    the deal and no player (the 6th card of four players: the big blind's second, replaced),
    a place beyond the deal refused naming the field; `push_chips` with "raise 300" said
    (raise_by) recorded as said and ruled a raise by 300."""
    from web_support import Client, make_app, make_recorder, open_table

    stream = "table-1"
    recorder = make_recorder(tmp_path)
    open_table(recorder, stream, [(1, "Ann", 5000), (3, "Bob", 5000), (5, "Cy", 5000),
                                  (7, "Dee", 5000)])
    app, auth = make_app(recorder)
    with Client(app, auth) as director:
        assert director.login("director").status_code == 200
        director.ok(stream, {"type": "start_hand"})
        director.ok(stream, {"type": "expose_card", "card": "As", "place": 6})
        bad = director.send(stream, {"type": "expose_card", "card": "Ks", "place": 9})
        assert bad.status_code in (409, 422) and "place" in bad.text, bad.text
        to_act = director.to_act(stream)
        director.ok(stream, {"type": "push_chips", "player": to_act, "said": "raise_by",
                             "said_to": 300, "motions": [[100] * 4]})
    events = [e.decode() for e in recorder.store.read(stream)]
    shown = [e for e in events if isinstance(e, CardExposed)]
    assert [(e.player, e.place, e.consequence) for e in shown] == [(1, 6, "replaced_as_burn")]
    pushed = next(e for e in events if isinstance(e, ChipsPushed))
    assert (pushed.said, pushed.said_to, pushed.ruled, pushed.to) == (
        "raise_by", 300, "raise", 400)  # facing the big blind of 100
    recorder.store.close()
