"""The hand replayer page in a real browser: stepping through a hand with a side pot shows the
right pots and the rule at each step, and a viewer never sees a card that was not shown."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_browser import browser, new_page, shot  # noqa: F401  (browser is a fixture)
from test_hands import STREAM, served_short_all_in_hand
from web_support import DIRECTOR_PIN

pytestmark = pytest.mark.browser


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    with served_short_all_in_hand(tmp_path) as url:
        yield url


def _step_text(page: Any) -> str:
    return str(page.inner_text("#action"))


def test_the_replayer_steps_through_a_side_pot_hand_with_the_rule_at_each_step(
        browser: Any, base: str) -> None:  # noqa: F811
    page = new_page(browser)
    page.goto(f"{base}/replayer?table={STREAM}&hand=1")
    page.wait_for_selector("#pot-total")
    assert "side pot 1 1000: Bob 1000" in _step_text(page)  # opens at the last step
    page.keyboard.press("Home")
    page.wait_for_function("() => document.querySelector('#action').textContent"
                           ".includes('started')")
    # Step forward with the arrow key to Ann's all-in.
    for _ in range(40):
        if "Ann raises to 1000" in _step_text(page):
            break
        page.keyboard.press("ArrowRight")
    assert "Ann raises to 1000 (all-in), not a full raise" in _step_text(page)
    ruling = page.inner_text("#ruling")
    assert "not a full raise" in ruling and "not reopened for Bob, Cy" in ruling
    assert "TDA 47" in ruling
    assert page.inner_text("#pot-total") == "2,500"  # 700 + 700 + 100 (Dee) + 1,000
    shot(page, "replayer-short-all-in")
    # On to the flop call: a side pot between Bob and Cy.
    for _ in range(10):
        if "Cy calls 500" in _step_text(page):
            break
        page.click("#next")
    pots = " ".join(page.inner_text("#pots").split())
    assert "Main pot 3,100 · eligible: Bob, Cy, Ann" in pots
    assert "Side pot 1 1,000 · eligible: Bob, Cy" in pots
    assert page.inner_text("#pot-total") == "4,100"
    assert "at=" in page.url
    # A viewer never sees Dee's unshown queens, at any step.
    page.click("#last")
    for _ in range(40):
        assert page.locator("[data-card='Qs'], [data-card='Qd']").count() == 0
        page.click("#prev")
    assert page.errors == []


def test_the_director_sees_the_recorded_cards_and_the_url_keeps_the_moment(
        browser: Any, base: str) -> None:  # noqa: F811
    page = new_page(browser)
    signed = page.request.post(f"{base}/api/session",
                               data={"role": "director", "pin": DIRECTOR_PIN})
    assert signed.ok
    page.goto(f"{base}/replayer?table={STREAM}&hand=1&at=9")
    page.wait_for_selector("#pot-total")
    assert _step_text(page).startswith("#9 ")
    page.click("#last")
    assert page.locator("tr[data-seat='7'] [data-card='Qs']").count() == 1  # Dee's, recorded
    assert page.locator("tr[data-seat='1'] [data-card='As']").count() == 1  # Ann's, shown
    assert page.errors == []


def test_the_director_tries_another_award_and_sees_the_stacks_beside_the_record(
        browser: Any, base: str) -> None:  # noqa: F811
    """At the award: the main pot to Bob instead. Ann is out, Bob has 5,600; nothing written."""
    page = new_page(browser)
    assert page.request.post(f"{base}/api/session",
                             data={"role": "director", "pin": DIRECTOR_PIN}).ok
    page.goto(f"{base}/replayer?table={STREAM}&hand=1")
    page.wait_for_selector("#whatif-form select")
    page.select_option("select[data-pot='0']", "Bob")
    page.click("#whatif-form [data-kind='award']")
    page.wait_for_selector("#whatif-verdict")
    assert "followed to the end" in page.inner_text("#whatif-verdict")
    assert page.inner_text("tr[data-player='Bob'] .whatif-stack") == "5,600"
    assert page.inner_text("tr[data-player='Ann'] .whatif-stack") == "0"
    shot(page, "replayer-whatif")
    assert page.errors == []


def test_a_viewer_has_no_whatif(browser: Any, base: str) -> None:  # noqa: F811
    page = new_page(browser)
    page.goto(f"{base}/replayer?table={STREAM}&hand=1")
    page.wait_for_selector("#pot-total")
    assert page.locator("#whatif").is_hidden()
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "handlog_csrf")
    answer = page.request.post(f"{base}/api/tables/{STREAM}/whatif",
                               data={"at": 5, "drop": True}, headers={"X-CSRF-Token": csrf})
    assert answer.status == 403


def test_a_dealer_log_entry_opens_the_replayer_at_that_moment(
        browser: Any, base: str) -> None:  # noqa: F811
    """The log's #version link opens the hand it belongs to at that entry."""
    page = new_page(browser)
    page.goto(f"{base}/replayer?table={STREAM}&at=12")
    page.wait_for_selector("#pot-total")
    assert _step_text(page).startswith("#12 ")
    assert "hand=1" in page.url


def _boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def test_the_replayer_draws_the_table_plays_it_and_opens_a_shared_link_at_that_action(
        browser: Any, base: str) -> None:  # noqa: F811
    """A drawn table: every seat around the felt with its name and stack, none over another,
    each bet in front of its seat, a bet nobody has called yet shown as such (not as a pot);
    Play runs the hand to its end at the speed chosen and Pause stops it; the link to a moment
    opens another browser at that very action."""
    page = new_page(browser)
    page.goto(f"{base}/replayer?table={STREAM}&hand=1")
    page.wait_for_selector("#pot-total")
    seats = page.locator(".rtable .rseat")
    count = seats.count()
    assert count == page.locator("#seats tr").count() >= 4
    boxes = [seats.nth(i).bounding_box() for i in range(count)]
    assert all(box is not None for box in boxes)
    for i in range(count):
        for j in range(i + 1, count):
            assert not _boxes_overlap(boxes[i], boxes[j]), (i, j)  # type: ignore[arg-type]
    # Play from the start at 4x: the steps advance by themselves to the last one.
    page.keyboard.press("Home")
    page.select_option("#speed", "4")
    page.click("#play")
    assert page.inner_text("#play") == "Pause"
    page.wait_for_function("() => document.querySelector('#play').textContent === 'Play'",
                           timeout=60_000)
    steps = int(page.locator("#slider").get_attribute("max") or 0)
    assert page.input_value("#slider") == str(steps)
    assert "side pot 1 1000: Bob 1000" in _step_text(page)
    # Pause stops it: play from the start, pause, and the step stays.
    page.keyboard.press("Home")
    page.keyboard.press("Space")
    page.wait_for_function("() => Number(document.querySelector('#slider').value) >= 1")
    page.keyboard.press("Space")
    stopped = page.input_value("#slider")
    assert page.inner_text("#play") == "Play"
    page.wait_for_timeout(800)  # at 4x a step is 300 ms: a running player would have moved
    assert page.input_value("#slider") == stopped
    # Ann's all-in: her bet in front of her seat, the 300 nobody has called yet not a pot.
    page.keyboard.press("Home")
    for _ in range(40):
        if "Ann raises to 1000" in _step_text(page):
            break
        page.keyboard.press("ArrowRight")
    ann = page.locator(".rseat", has_text="Ann")
    seat = ann.get_attribute("data-seat")
    assert page.inner_text(f".rbet[data-bet='{seat}']") == "1,000"
    uncalled = page.locator("#rpots [data-pot='uncalled']")
    assert uncalled.count() == 1 and "Not called yet (Ann's" in uncalled.inner_text()
    assert "Side pot" not in page.inner_text("#rpots")
    # The link to this moment opens at this action in another browser.
    version = _step_text(page).split()[0]
    page.click("#share")
    link = page.input_value("#share-link")
    assert f"at={version.lstrip('#')}" in link and "hand=1" in link
    shot(page, "replayer-drawn-table")
    other = new_page(browser)
    other.goto(link)
    other.wait_for_selector("#pot-total")
    assert _step_text(other).startswith(f"{version} ") and "Ann raises to 1000" in _step_text(
        other)
    assert other.input_value("#slider") == page.input_value("#slider")
    assert page.errors == [] and other.errors == []
