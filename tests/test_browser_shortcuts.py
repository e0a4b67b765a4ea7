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

pytestmark = pytest.mark.browser


def _hand_events(site: Site, number: int) -> list[Any]:  # noqa: F811
    """The events of hand `number` (from its hand_started to the next)."""
    out: list[Any] = []
    inside = False
    for stored in site.recorder.store.read(STREAM):
        if stored.type == "hand_started":
            inside = stored.decode().hand_number == number
        if inside:
            out.append(stored)
    return out


def test_all_fold_to_the_big_blind_is_one_tap_recording_each_fold(
        browser: Any, site: Site) -> None:  # noqa: F811
    page = dealer(browser, site)
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
    events = _hand_events(site, hand["number"])
    types = [e.type for e in events]
    assert types.count("player_folded") == folds
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
