"""Accessibility of the pages in a real browser: axe-core (the npm package, installed into
tests/js by .ci/run) run on the dealer's tablet, the floor, a viewer's screen, the join page and
the replayer, in the dark and the light theme; no critical or serious violation. The event list
is reached with the keyboard, and the light theme is chosen on the tablet and kept."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_browser import (  # noqa: F401  (browser and site are fixtures)
    DIRECTOR_PIN,
    LAPTOP,
    PHONE,
    STREAM,
    TEST_FLAG,
    Site,
    browser,
    pick_cards,
    shot,
    site,
    tap,
)
from test_hands import served_short_all_in_hand
from web_support import make_app, make_recorder

from handlog.recorder.cli_serve import serve_in_thread
from handlog.recorder.floor import setup_demo

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "js" / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("critical", "serious")


def axe_source() -> str:
    if not AXE.exists():
        reason = f"{AXE} is missing (npm ci --prefix tests/js)"
        if os.environ.get("HANDLOG_REQUIRE_BROWSER") == "1":
            pytest.fail(f"HANDLOG_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    return AXE.read_text()


def violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's critical and serious violations on the page as it is now (WCAG 2.x A/AA and
    best practices), each with its rule id and the elements it names."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated through the DevTools protocol: the pages' script-src 'self' does not apply.
        page.evaluate(axe_source() + "\n;0")
    found = page.evaluate("""async () => {
        const result = await axe.run(document, {resultTypes: ['violations']});
        return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => n.target.join(' ') + ': ' + n.failureSummary)}));
    }""")
    return [v for v in found if v["impact"] in BLOCKING]


def assert_clean(page: Any, where: str) -> None:
    """No critical or serious violation, and the page's landmarks: one main region and a
    first-level heading (axe rates their absence only moderate)."""
    found = violations(page)
    assert not found, f"{where}:\n" + json.dumps(found, indent=1)
    assert page.locator("main, [role=main]").count() == 1, f"{where}: no main landmark"
    assert page.locator("h1").count() >= 1, f"{where}: no heading"


THEMES = ("dark", "light")


def themed_page(browser: Any, scheme: str, viewport: dict[str, int] = LAPTOP) -> Any:  # noqa: F811
    """A page in a browser whose system asks for `scheme` (prefers-color-scheme); the tablet
    has made no choice, so that is the theme it shows."""
    context = browser.new_context(viewport=viewport, color_scheme=scheme)
    context.add_init_script(TEST_FLAG)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def signed_in_dealer(browser: Any, site: Site, scheme: str,  # noqa: F811
                     viewport: dict[str, int] = LAPTOP, check_signin: bool = False) -> Any:
    """`check_signin`: axe checks the sign-in keypad first."""
    page = themed_page(browser, scheme, viewport)
    page.goto(f"{site.base}/dealer/{STREAM}")
    if check_signin:
        page.wait_for_selector("[data-pin='join']")
        assert_clean(page, f"dealer sign-in ({scheme})")
    for digit in site.auth.table_pin(STREAM):
        page.click(f"[data-pin='{digit}']")
    page.click("[data-pin='join']")
    page.wait_for_selector("#actions .btn")
    return page


def theme_of(page: Any) -> str:
    """The theme the page shows, read from what it paints (the body's background)."""
    return str(page.evaluate("""() => {
        const [r, g, b] = getComputedStyle(document.body).backgroundColor
            .match(/\\d+/g).map(Number);
        return r + g + b > 382 ? 'light' : 'dark';
    }"""))


@pytest.mark.parametrize("scheme", THEMES)
def test_the_dealers_tablet_and_a_viewers_screen_have_no_serious_violation(
        browser: Any, site: Site, scheme: str) -> None:  # noqa: F811
    """The sign-in keypad, between hands, betting, the card picker, the showdown; the viewer's
    screen."""
    page = signed_in_dealer(browser, site, scheme, check_signin=True)
    assert theme_of(page) == scheme
    assert_clean(page, f"dealer between hands ({scheme})")
    tap(page, "[data-action='start']")
    assert_clean(page, f"dealer betting ({scheme})")
    shot(page, f"a11y-dealer-betting-{scheme}")
    tap(page, "[data-action='fold']")  # Ann folds: a folded seat is dimmed, still readable
    tap(page, "[data-action='call']")
    tap(page, "[data-action='check']")
    page.wait_for_selector(".sheet .picker")
    assert_clean(page, f"dealer card picker ({scheme})")
    pick_cards(page, "AhKhQd", "deal")
    for card in ("2c", "3d"):
        tap(page, "[data-action='check']")  # Bob
        tap(page, "[data-action='check']")  # Cy
        page.wait_for_selector(".sheet .picker")
        pick_cards(page, card, "deal")
    tap(page, "[data-action='check']")
    tap(page, "[data-action='check']")
    page.wait_for_selector(".sheet .picker")  # the card pad, on the first hand to show
    assert_clean(page, f"dealer showdown ({scheme})")
    viewer = themed_page(browser, scheme)
    viewer.goto(f"{site.base}/view/{STREAM}")
    viewer.wait_for_selector("#ring .seat")
    assert_clean(viewer, f"viewer ({scheme})")
    assert page.errors == [] and viewer.errors == []


@pytest.mark.parametrize("scheme", THEMES)
def test_the_floor_and_the_join_page_have_no_serious_violation(
        browser: Any, tmp_path: Path, scheme: str) -> None:  # noqa: F811
    """The floor before signing in, a director's floor of a running tournament (its forms,
    selects and file input named), the room seen by a viewer, the join page."""
    recorder = make_recorder(tmp_path)
    setup_demo(recorder, players=10, tables=2, seed=5)
    app, _auth = make_app(recorder, level_for=lambda _s, _f: None)
    with serve_in_thread(app) as base:
        floor = themed_page(browser, scheme)
        floor.goto(f"{base}/floor")
        floor.wait_for_selector("#director-pin")
        assert_clean(floor, f"floor sign-in ({scheme})")
        floor.fill("#director-pin", DIRECTOR_PIN)
        floor.click("#signin-form button[type=submit]")
        floor.wait_for_selector(".tournament")
        floor.wait_for_selector("#new-tournament:not([hidden])")
        assert_clean(floor, f"floor, director ({scheme})")
        shot(floor, f"a11y-floor-{scheme}")
        room = themed_page(browser, scheme)
        room.goto(f"{base}/view")
        room.wait_for_selector(".table-card")
        assert_clean(room, f"room viewer ({scheme})")
        join = themed_page(browser, scheme, PHONE)
        join.goto(f"{base}/join")
        join.wait_for_selector("[data-key='1']")
        assert_clean(join, f"join ({scheme})")
        assert floor.errors == [] and room.errors == [] and join.errors == []
    recorder.store.close()


@pytest.fixture
def played(tmp_path: Path) -> Iterator[str]:
    """A server whose table-1 has one hand recorded (with a side pot)."""
    with served_short_all_in_hand(tmp_path) as url:
        yield url


@pytest.mark.parametrize("scheme", THEMES)
def test_the_replayer_has_no_serious_violation(browser: Any, played: str, scheme: str) -> None:  # noqa: F811
    page = themed_page(browser, scheme)
    page.goto(f"{played}/replayer?table={STREAM}&hand=1&at=12")
    page.wait_for_selector("#action:not(:empty)")
    assert_clean(page, f"replayer ({scheme})")
    assert page.errors == []


def test_the_light_theme_is_chosen_on_the_tablet_and_kept(browser: Any, site: Site) -> None:  # noqa: F811
    """A tablet in a dark-preferring browser switches to the light theme with one tap; the
    choice outlives a reload and beats the system's preference; a second tap goes back."""
    page = signed_in_dealer(browser, site, "dark")
    assert theme_of(page) == "dark"
    assert page.get_attribute("#theme-toggle", "aria-pressed") == "false"
    page.click("#theme-toggle")
    assert theme_of(page) == "light"
    assert page.get_attribute("#theme-toggle", "aria-pressed") == "true"
    page.reload()
    page.wait_for_selector("#actions .btn")
    assert theme_of(page) == "light"
    shot(page, "dealer-1280x800-light")
    page.click("#theme-toggle")
    assert theme_of(page) == "dark"
    assert page.evaluate("() => localStorage.getItem('handlog.theme')") == "dark"


def focus_walk(page: Any, presses: int = 80) -> list[str]:
    """Tab through the page: for each stop, the id or class of the list it is in, if any."""
    stops = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        stops.append(str(page.evaluate("""() => {
            const list = document.activeElement && document.activeElement.closest('ol, ul');
            return list ? (list.id || list.className) : '';
        }""")))
    return stops


def test_the_lists_that_scroll_are_reached_by_keyboard(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """The floor's rulings and corrections lists scroll: each is a stop of the Tab key."""
    recorder = make_recorder(tmp_path)
    setup_demo(recorder, players=10, tables=2, seed=5)
    app, _auth = make_app(recorder, level_for=lambda _s, _f: None)
    with serve_in_thread(app) as base:
        floor = themed_page(browser, "dark")
        floor.goto(f"{base}/floor")
        floor.fill("#director-pin", DIRECTOR_PIN)
        floor.click("#signin-form button[type=submit]")
        floor.wait_for_selector(".tournament")
        stops = focus_walk(floor, 200)
        assert "corrections" in stops
        assert any("rulings" in s for s in stops)
    recorder.store.close()


def test_the_dealers_event_list_is_reached_by_keyboard(browser: Any, site: Site) -> None:  # noqa: F811
    """The last entries (a list that scrolls) are a Tab stop of their own on the tablet."""
    page = signed_in_dealer(browser, site, "dark")
    tap(page, "[data-action='start']")
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    stops = focus_walk(page, 80)
    assert "events" in stops
    assert page.evaluate("() => document.querySelector('#events').tabIndex") == 0


@pytest.fixture(scope="module")
def demo(tmp_path_factory: Any) -> Iterator[tuple[str, str, Path]]:
    """A 12-player demo tournament played out on two tables (hands, eliminations, prizes),
    served; its address, a table's stream and its audit report written as HTML."""
    from click.testing import CliRunner

    from handlog.recorder.cli import cli
    from handlog.recorder.service import Recorder
    from handlog.schema.store import open_store

    folder = tmp_path_factory.mktemp("a11y-demo")
    url = f"sqlite:///{folder / 'demo.db'}"
    made = CliRunner().invoke(cli, ["demo", "--players", "12", "--tables", "2", "--seed", "7",
                                    "--db", url])
    assert made.exit_code == 0, made.output
    report = folder / "report.html"
    written = CliRunner().invoke(cli, ["report", "--db", url, "--out", str(report)])
    assert written.exit_code in (0, 1), written.output
    recorder = Recorder(open_store(url))
    heads = recorder.store.streams()
    table = next(h.stream_id for h in heads if h.kind == "table")
    app, _auth = make_app(recorder, level_for=lambda _s, _f: None)
    with serve_in_thread(app) as base:
        yield base, table, report
    recorder.store.close()


@pytest.mark.parametrize("scheme", THEMES)
def test_the_as_of_page_the_clock_and_the_report_have_no_serious_violation(
        browser: Any, demo: tuple[str, str, Path], scheme: str) -> None:  # noqa: F811
    """A table's page as it stood at an earlier version (read-only), the room's clock screen,
    and the auditor's report (a file opened in the browser), with landmarks and a heading."""
    base, stream, report = demo
    table = themed_page(browser, scheme)
    table.goto(f"{base}/view/{stream}?at=40")
    table.wait_for_selector("#lines li")
    assert_clean(table, f"as-of ({scheme})")
    clock = themed_page(browser, scheme, {"width": 1280, "height": 720})
    clock.goto(f"{base}/clock")  # the room's (its one tournament)
    clock.wait_for_selector("[data-clock]")
    assert_clean(clock, f"clock ({scheme})")
    audit = themed_page(browser, scheme)
    audit.goto(report.as_uri())
    audit.wait_for_selector("#verdict")
    assert_clean(audit, f"report ({scheme})")
    assert audit.locator("th:empty").count() == 0  # every column of every table named
    assert table.errors == [] and clock.errors == [] and audit.errors == []


@pytest.mark.parametrize("scheme", THEMES)
def test_the_paged_report_has_no_serious_violation(
        browser: Any, demo: tuple[str, str, Path], scheme: str,  # noqa: F811
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A report paged as one of more than 1,000 hands is (here paged above 10 hands, 10 hands
    a page: the same pages): its index, a table's first page and its next, each with
    landmarks, a heading, and every column named."""
    from handlog.replay.report_stream import write_report
    from handlog.schema.store import open_store

    _base, _stream, report = demo
    monkeypatch.setattr("handlog.replay.report_html.HANDS_PER_PAGE", 10)
    out = tmp_path / "paged.html"
    with open_store(f"sqlite:///{report.parent / 'demo.db'}") as store:
        _audit, written = write_report(store, "html", out, paged_above=10)
    table_pages = [p for p in written if p != out]
    first = next(p for p in table_pages if p.with_name(f"{p.stem}-2.html") in table_pages)
    for path, ready in ((out, "#verdict"), (first, ".hand"),
                        (first.with_name(f"{first.stem}-2.html"), ".hand")):
        page = themed_page(browser, scheme)
        page.goto(path.as_uri())
        page.wait_for_selector(ready)
        assert_clean(page, f"{path.name} ({scheme})")
        assert page.locator("th:empty").count() == 0, path.name
        assert page.errors == []
        page.context.close()
