"""Fewer taps (issue 26): everyone folds to the big blind in one tap, each fold recorded as its
own entry, in turn, exactly as tapping Fold for each would (their events, players and order);
the pot then goes to the big blind and the next hand starts by themselves. A walk is two taps:
Start, and All fold."""

from __future__ import annotations

from typing import Any

import pytest
from test_browser import (  # noqa: F401  (browser and site are fixtures)
    STREAM,
    Site,
    browser,
    dealer,
    shot,
    site,
    tap,
)
from web_support import open_table

pytestmark = pytest.mark.browser


def _hand_events(site: Site, number: int, stream: str = STREAM) -> list[Any]:  # noqa: F811
    """The events of hand `number` (from its hand_started to the next)."""
    out: list[Any] = []
    inside = False
    for stored in site.recorder.store.read(stream):
        if stored.type == "hand_started":
            inside = stored.decode().hand_number == number
        if inside:
            out.append(stored)
    return out


EIGHT = [(seat, name, 2000) for seat, name in enumerate(
    ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"), start=1)]


@pytest.mark.parametrize("players", [0, 8], ids=["3-handed", "8-handed"])
def test_all_fold_to_the_big_blind_is_one_tap_recording_each_fold(
        browser: Any, site: Site, players: int) -> None:  # noqa: F811
    stream = STREAM
    if players:
        stream = "table-8"
        open_table(site.recorder, stream, players=EIGHT)
    page = dealer(browser, site, stream=stream)
    tap(page, "[data-action='start']")
    state = page.evaluate("() => window.handlogTable.state()")
    hand = state["hand"]
    live = [s for s in state["seats"] if s.get("in_hand") and not s.get("folded")]
    folds = len([s for s in live if s["seat"] != hand["big_blind_seat"] and s["stack"] > 0])
    shortcut = page.locator("#tools [data-action='folds-to-bb']")
    assert shortcut.count() == 1 and f"All fold to BB ({folds})" in shortcut.inner_text()
    box = shortcut.bounding_box()
    assert box is not None and box["height"] >= 48
    shot(page, "dealer-folds-to-bb")
    page.click("#tools [data-action='folds-to-bb']")  # the second and last tap
    page.wait_for_function(
        "n => { const s = window.handlogTable.state(); return s && s.hand && "
        "s.hand.number === n && s.hand_in_progress && !window.handlogTable.outbox().length }",
        arg=hand["number"] + 1, timeout=30_000)
    events = _hand_events(site, hand["number"], stream)
    types = [e.type for e in events]
    assert types.count("player_folded") == folds == (players or 3) - 1
    assert types[-1] == "pot_awarded" and "player_called" not in types
    decoded = [e.decode() for e in events]
    folded = [e.player for e in decoded if getattr(e, "TYPE", "") == "player_folded"]
    assert len(set(folded)) == folds  # each player once, in turn
    started = decoded[0]
    big_blind = started.seats.index(hand["big_blind_seat"])
    [award] = [e for e in decoded if getattr(e, "TYPE", "") == "pot_awarded"]
    assert award.winners == (big_blind,)
    assert len({e.event_id for e in events}) == len(events)
    # Once someone has called, there is no walk to offer.
    page.click(".actions-main [data-action='call']")
    page.wait_for_function("() => !window.handlogTable.outbox().length")
    assert page.locator("[data-action='folds-to-bb']").count() == 0
    assert page.errors == []


def test_a_preset_is_one_tap_and_all_check_records_each_check_in_turn(
        browser: Any, site: Site) -> None:  # noqa: F811
    """A preset records its bet or raise in one tap (the same event as the keypad and Raise);
    after the flop, with nobody acted yet, "All check" records a check for each player in turn,
    exactly as tapping Check for each (their players and order), and the picker for the turn
    opens."""
    page = dealer(browser, site)
    tap(page, "[data-action='start']")  # Ann (button), Bob SB, Cy BB
    assert page.locator("#tools [data-action='checks-around']").count() == 0  # pre-flop
    tap(page, "[data-action='size'][data-to='300']")  # Ann: 3 BB, one tap
    assert site.stream_types()[-1] == "raise_made"
    tap(page, "[data-action='call']")  # Bob
    tap(page, "[data-action='call']")  # Cy: the flop is due
    page.wait_for_selector(".sheet .picker")
    for card in ("Ah", "Kh", "Qd"):
        page.click(f".pick[data-card='{card}']")
    shortcut = page.locator("#tools [data-action='checks-around']")
    shortcut.wait_for()
    assert "All check (3)" in shortcut.inner_text()
    box = shortcut.bounding_box()
    assert box is not None and box["height"] >= 48
    page.click("#tools [data-action='checks-around']")
    page.wait_for_selector(".sheet .picker")  # the turn is due
    page.wait_for_function("() => !window.handlogTable.outbox().length")
    events = _hand_events(site, 1)
    decoded = [e.decode() for e in events]
    raised = next(e for e in decoded if getattr(e, "TYPE", "") == "raise_made")
    assert raised.to == 300
    dealt = [e.type for e in events].index("board_dealt")
    checks = [e for e in decoded[dealt:] if getattr(e, "TYPE", "") == "player_checked"]
    # Bob, Cy, then Ann on the button: the order of the hand, each once.
    seats = decoded[0].seats
    assert [seats[e.player] for e in checks] == [3, 5, 1]
    assert len({e.event_id for e in events}) == len(events)
    # Once someone has bet, there is nothing to check around.
    tap(page, "[data-action='pick'][data-card='2c']")
    page.wait_for_selector("#tools [data-action='checks-around']")
    tap(page, "[data-action='size']:not(.size-all-in) >> nth=0")  # Bob bets the minimum
    assert page.locator("[data-action='checks-around']").count() == 0
    assert page.errors == []
