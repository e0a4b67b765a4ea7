"""The dealer page enters what the dealer saw and heard (issue 24 item 4): an exposed card by
its place in the deal, a raise as it was said ("raise 300")."""

from __future__ import annotations

from typing import Any

from test_browser import (  # noqa: F401  (browser and site are fixtures)
    STREAM,
    Site,
    browser,
    dealer,
    pick_cards,
    shot,
    site,
    tap,
    to_act,
)

from handlog.engine.events import CardExposed, ChipsPushed


def test_the_dealer_enters_an_exposed_card_by_its_place_and_a_raise_as_said(
        browser: Any, site: Site) -> None:  # noqa: F811
    """Three players (Bob small blind, Cy big blind, Ann button): the 5th card of the deal is
    Cy's second; under TDA 35 it is replaced (not a misdeal, as the 2nd card would be). Then
    Ann, facing the big blind of 100, says "raise 300": typed 300, "Said raise 300" records
    what was said and the engine makes it a raise to 400."""
    page = dealer(browser, site)
    tap(page, "[data-action='start']")
    page.click("[data-action='exposed']")
    page.wait_for_selector("#deal-places")
    labels = page.locator("#deal-places [data-action='expose-place']").all_inner_texts()
    assert labels == ["1st card · Bob", "2nd card · Cy", "3rd card · Ann", "4th card · Bob (2nd)",
                      "5th card · Cy (2nd)", "6th card · Ann (2nd)"]
    page.click("[data-action='expose-place'][data-place='5']")
    pick_cards(page, "9d", "expose")
    assert "Cy: 9d (the 5th card dealt) exposed; replaced" in page.inner_text(
        ".events li:first-child")
    assert to_act(page) == "Ann"
    for key in "300":
        page.click(f"[data-action='key'][data-key='{key}']")
    tap(page, "[data-action='said-raise-by']")
    shot(page, "dealer-said-raise-by")
    assert to_act(page) == "Bob"
    assert page.errors == []
    events = [e.decode() for e in site.recorder.store.read(STREAM)]
    exposed = [e for e in events if isinstance(e, CardExposed)]
    assert [(e.player, e.place, e.consequence) for e in exposed] == [(1, 5, "replaced_as_burn")]
    pushed = [e for e in events if isinstance(e, ChipsPushed)]
    assert [(p.said, p.said_to, p.ruled, p.to) for p in pushed] == [("raise_by", 300, "raise",
                                                                       400)]
