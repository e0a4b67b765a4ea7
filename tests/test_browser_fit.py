"""The dealer's tablet fits every screen: at 1024x768, 768x1024, 1280x800, 390x844, 412x915 and
844x390 the seats, the pots, the board and the action controls (the actions of the moment: Fold,
Check or Call, Bet or Raise, All-in, the amount) are all in the viewport while betting, with no
scrolling, every one of them a target of at least 48 px, no pot over a seat; on a phone the main
buttons are in the bottom half, within thumb reach. Screenshots of each size are kept in
test-artifacts/ (gitignored)."""

from __future__ import annotations

from typing import Any

import pytest
from test_browser import (  # noqa: F401  (browser and site are fixtures)
    Site,
    browser,
    dealer,
    shot,
    site,
    tap,
)
from test_browser_a11y import violations
from test_browser_offline import controlled, go_offline, no_pyodide  # noqa: F401

pytestmark = pytest.mark.browser

SIZES = [(1024, 768), (768, 1024), (1280, 800), (390, 844), (412, 915), (844, 390)]

# What must be on screen while betting: every occupied seat, the pot, the board, the betting
# buttons, the presets, the keypad, the Raise button and the tools row (Undo, Misdeal...), whole.
MUST_SEE = ("#ring .seat:not(.empty)", ".felt .pots", ".felt .board", ".actions-main .btn",
            ".sizes .btn", ".keypad .btn", "[data-action='raise']", "#tools .btn")

OUTSIDE = """selectors => {
    const w = window.innerWidth, h = window.innerHeight, out = [];
    for (const selector of selectors) {
        const found = Array.from(document.querySelectorAll(selector));
        if (!found.length) out.push(selector + ': missing');
        for (const el of found) {
            const r = el.getBoundingClientRect();
            if (r.width === 0 || r.height === 0) out.push(selector + ': not shown');
            else if (r.left < -1 || r.top < -1 || r.right > w + 1 || r.bottom > h + 1)
                out.push(`${selector} "${el.textContent.trim().slice(0, 20)}": ` +
                         `${Math.round(r.left)},${Math.round(r.top)}-` +
                         `${Math.round(r.right)},${Math.round(r.bottom)} in ${w}x${h}`);
        }
    }
    return out;
}"""


# The actions of the moment: each a target a thumb hits (WCAG 2.5.5's 44 px, Material's 48).
TARGETS = (".actions-main .btn", "[data-action='raise']", ".sizes .btn", ".keypad .btn")

SMALL_OR_OVERLAPPING = """([targets, least]) => {
    const out = [];
    for (const selector of targets) {
        for (const el of document.querySelectorAll(selector)) {
            const r = el.getBoundingClientRect();
            if (r.width < least || r.height < least)
                out.push(`${selector} "${el.textContent.trim().slice(0, 20)}": ` +
                         `${Math.round(r.width)}x${Math.round(r.height)}`);
        }
    }
    // No two targets over each other.
    const all = Array.from(document.querySelectorAll(targets.join(', ')));
    for (let i = 0; i < all.length; i += 1) {
        const a = all[i].getBoundingClientRect();
        for (let j = i + 1; j < all.length; j += 1) {
            const b = all[j].getBoundingClientRect();
            if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 &&
                b.top < a.bottom - 1)
                out.push(`"${all[i].textContent.trim().slice(0, 20)}" over ` +
                         `"${all[j].textContent.trim().slice(0, 20)}"`);
        }
    }
    const seats = Array.from(document.querySelectorAll('#ring .seat:not(.empty)'));
    for (const pot of document.querySelectorAll('.felt .pot')) {
        const p = pot.getBoundingClientRect();
        for (const seat of seats) {
            const s = seat.getBoundingClientRect();
            if (p.left < s.right - 1 && s.left < p.right - 1 && p.top < s.bottom - 1 &&
                s.top < p.bottom - 1)
                out.push(`pot "${pot.textContent.trim().slice(0, 20)}" over seat ` +
                         `"${seat.textContent.trim().slice(0, 20)}"`);
        }
    }
    return out;
}"""


def small_or_overlapping(page: Any) -> list[str]:
    """The actions of the moment smaller than 48 px, and any pot drawn over a seat."""
    return list(page.evaluate(SMALL_OR_OVERLAPPING, [list(TARGETS), 48]))


def outside(page: Any, must_see: tuple[str, ...] = MUST_SEE) -> list[str]:
    """What must be seen but is not, with the page scrolled to its top (a tap may have
    scrolled it: the dealer does not)."""
    page.evaluate("() => window.scrollTo(0, 0)")
    return list(page.evaluate(OUTSIDE, list(must_see)))


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_table_and_the_controls_are_in_view_while_betting(
        browser: Any, site: Site, width: int, height: int) -> None:  # noqa: F811
    page = dealer(browser, site, {"width": width, "height": height})
    tap(page, "[data-action='start']")
    page.click("[data-action='key'][data-key='5']")  # an amount typed: the raise box in use
    page.click("[data-action='key'][data-key='00']")
    assert outside(page) == []
    assert small_or_overlapping(page) == []
    shot(page, f"fit-{width}x{height}-preflop")
    tap(page, "[data-action='call']")  # Ann calls
    tap(page, "[data-action='call']")  # Bob completes
    tap(page, "[data-action='check']")  # Cy: the flop is due, the picker opens by itself
    page.wait_for_selector(".sheet .picker")
    shot(page, f"fit-{width}x{height}-flop-picker")
    for card in ("Ah", "Kh", "Qd"):
        page.click(f".pick[data-card='{card}']")  # the third card deals the flop
    page.wait_for_selector(".actions-main [data-action='check']")
    assert outside(page) == []
    assert small_or_overlapping(page) == []
    shot(page, f"fit-{width}x{height}-flop")
    if width < 600 or height < 600:  # a phone: the main buttons within thumb reach
        tops = page.evaluate("""() => Array.from(document.querySelectorAll('.actions-main .btn'))
            .map(b => b.getBoundingClientRect().top)""")
        assert min(tops) >= height / 2, tops
    assert page.errors == []


# The five sizes of issue 26, offline without the tablet's engine (the README's first command:
# no Pyodide): the panel that queues every tap as tapped.
FIVE = [(390, 844), (412, 915), (768, 1024), (1024, 768), (1280, 800)]
QUEUE_MUST_SEE = (".actions-main .btn", "#amount", ".keypad .btn", "[data-action='raise']")


@pytest.mark.parametrize(("width", "height"), FIVE, ids=[f"{w}x{h}" for w, h in FIVE])
def test_offline_without_the_engine_the_actions_are_in_view(
        browser: Any, site: Site, no_pyodide: Any, width: int, height: int) -> None:  # noqa: F811
    """Offline with entries waiting (the box of what is still to send above the panel): Fold,
    Check, Call, All-in, the amount, its keypad and Bet/raise all in view, 48 px or more,
    none over another."""
    page = dealer(browser, site, {"width": width, "height": height})
    controlled(page)
    tap(page, "[data-action='start']")
    go_offline(page)
    page.click("[data-action='call']")
    page.wait_for_selector(".outbox .engine[data-engine='missing']", state="attached",
                           timeout=60_000)
    page.click("[data-action='fold']")
    page.click("[data-action='key'][data-key='5']")
    page.click("[data-action='key'][data-key='00']")
    page.wait_for_selector(".queue-title")
    shot(page, f"fit-{width}x{height}-offline-queue")
    assert outside(page, QUEUE_MUST_SEE) == []
    assert small_or_overlapping(page) == []
    assert page.errors == []


SIX = [(1, "Ann", 400), (2, "Bob", 900), (4, "Cy", 1600), (5, "Dee", 3000), (7, "Eve", 3000),
       (9, "Flo", 3000)]


@pytest.mark.parametrize(("width", "height"), FIVE, ids=[f"{w}x{h}" for w, h in FIVE])
def test_side_pots_are_clear_of_the_seats_and_the_actions_in_view(
        browser: Any, site: Site, width: int, height: int) -> None:  # noqa: F811
    """Six players, three all-in for different amounts before the flop: the main pot and its
    side pots are drawn clear of every seat, and on the flop the actions of the two players
    still betting are in view, 48 px or more, none over another."""
    from web_support import open_table

    open_table(site.recorder, "table-6", players=SIX)
    page = dealer(browser, site, {"width": width, "height": height}, stream="table-6")
    tap(page, "[data-action='start']")  # Ann button, Bob SB, Cy BB: Dee first
    for action in ("call", "call", "call", "allin", "allin", "allin", "call", "call", "fold"):
        tap(page, f".actions-main [data-action='{action}']")
    page.wait_for_selector(".sheet .picker")
    for card in ("Ah", "Kh", "Qd"):
        page.click(f".pick[data-card='{card}']")
    page.wait_for_selector(".actions-main [data-action='check']")
    assert page.locator(".felt .pot:not(.total)").count() >= 3  # the main pot and side pots
    page.evaluate("() => window.scrollTo(0, 0)")
    shot(page, f"fit-{width}x{height}-side-pots")
    assert outside(page) == []
    assert small_or_overlapping(page) == []
    assert violations(page) == []  # the side pots' labels readable on the felt (contrast)
    assert page.errors == []
