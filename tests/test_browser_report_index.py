"""The audit report of a whole event (25,000 hands on 20 tables, paged) opens in a browser in
a few seconds: a small index page linking each table's levels, and each table's hands on its
own page."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from test_browser import browser, new_page  # noqa: F401  (browser is a fixture)
from test_report_record import event_of, recorded  # noqa: F401  (recorded is a fixture)

from handlog.replay import report_html as report_module

pytestmark = pytest.mark.browser


def test_the_index_of_25000_hands_opens_in_a_few_seconds(
        browser: Any, recorded: Any, tmp_path: Path) -> None:  # noqa: F811
    """The index opens in under 5 s; a link to level 13 opens the table's page holding it
    (100 hands a page) in under 2 s, and the way back works."""
    data = event_of(recorded)
    assert sum(len(t["hands"]) for t in data["tables"]) == 25_000
    out = tmp_path / "event.html"
    pages = {t["stream"]: report_module.table_page_name(out, t["stream"])
             for t in data["tables"]}
    first = data["tables"][0]
    report_module.write_table_pages(data, first, out)
    out.write_text(report_module.render_html(data, pages), encoding="utf-8")
    page = new_page(browser)
    started = time.perf_counter()
    page.goto(out.as_uri(), wait_until="load")
    opened = time.perf_counter() - started
    assert opened < 5, f"the index page took {opened:.1f} s to open"
    assert page.locator("#verdict").count() == 1
    # Level 13 of table 1: its first hand (#1201), on the table's own page.
    thirteenth = report_module.page_file(pages[first["stream"]], 13)
    started = time.perf_counter()
    page.click(f'a[href="{thirteenth}#{first["stream"]}-v{1200 * 40 + 1}"]')
    page.wait_for_url(f"**/{Path(thirteenth).name}#*", wait_until="load")
    opened = time.perf_counter() - started
    assert opened < 2, f"the table's page took {opened:.1f} s to open"
    target = page.locator(f'[id="{first["stream"]}-v{1200 * 40 + 1}"]')
    assert target.count() == 1 and target.inner_text().startswith("Hand 1201 — level 13")
    assert page.locator("div.hand").count() == 50
    page.click('a:text-is("#1101–#1200")')  # the pager: the page before
    page.wait_for_url(f"**/{Path(report_module.page_file(pages[first['stream']], 12)).name}")
    assert page.locator("div.hand").count() == 100
    page.click('text="Back to the index and the verdict"')
    page.wait_for_url(f"**/{out.name}")
    assert page.errors == []
