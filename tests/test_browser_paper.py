"""The room's paper from the floor page, in a real browser (issue 25, item 6): the director
opens the print view of the seat cards, the receipts, the vouchers and the bag sheet from a
tournament's box, prints it
to PDF (Playwright's page.pdf, Chromium's own printing with the print stylesheet) and the text
read back names every player with his seat, his prize and the line for his signature, his
counted stack, or his table's end-of-day count."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from test_browser import browser, new_page, shows  # noqa: F401 - the browser fixture
from web_support import DIRECTOR_PIN, make_app, make_recorder

from handlog.recorder.cli_serve import serve_in_thread
from handlog.recorder.demo import run_demo
from handlog.recorder.service import Actor
from handlog.recorder.tournament_service import Tournaments

pytestmark = pytest.mark.browser


def print_from_floor(floor: Any, tournament: str, kind: str, out: Path) -> str:
    link = f".tournament[data-tournament='{tournament}'] a[data-paper='{kind}']"
    shows(floor, link)
    with floor.context.expect_page() as opened:
        floor.click(link)
    view = opened.value
    view.wait_for_load_state()
    view.emulate_media(media="print")
    assert view.locator(".no-print").is_hidden()
    view.pdf(path=str(out), format="A4")
    return "\n".join(page.extract_text() for page in PdfReader(out).pages)


def test_seat_cards_receipts_vouchers_and_bag_sheet_print_from_the_floor_page(browser: Any,  # noqa: F811
                                                           tmp_path: Path) -> None:
    recorder = make_recorder(tmp_path)
    run_demo(recorder, players=9, tables=2, seed=5, chip_count=True)
    run_demo(recorder, players=9, tables=2, seed=6, hands=4)
    t = Tournaments(recorder)
    for table in t.state("demo-6").tables:  # the day ends: each table counted as the log has it
        seats = t.table("demo-6", table).state.seats
        t.count_stacks("demo-6", table, "end_of_day", {s.player: s.stack for s in seats},
                       Actor("td", "director", "test"))
    done, running = t.state("demo-5"), t.state("demo-6")
    app, _auth = make_app(recorder, level_for=lambda _s, _f: None)
    with serve_in_thread(app) as base:
        floor = new_page(browser)
        floor.goto(f"{base}/floor")
        floor.fill("#director-pin", DIRECTOR_PIN)
        floor.click("#signin-form button[type=submit]")

        cards = print_from_floor(floor, "demo-6", "seat-cards", tmp_path / "cards.pdf")
        assert cards.count("Seat card") == len(running.remaining) > 0
        for e in running.remaining:
            assert f"Table {e.table} · Seat {e.seat}" in cards and e.name in cards

        receipts = print_from_floor(floor, "demo-5", "receipts", tmp_path / "receipts.pdf")
        assert done.prizes is not None
        for award in done.prizes.awards:
            assert f"USD {award.amount / 100:,.2f}" in receipts
            assert done.entrant(award.player).name in receipts  # type: ignore[union-attr]
        assert receipts.count("Player's signature") == len({a.player
                                                             for a in done.prizes.awards})

        vouchers = print_from_floor(floor, "demo-5", "vouchers", tmp_path / "vouchers.pdf")
        counted = done.counts[0].counts
        assert vouchers.count("Chip-count voucher") == len(counted) > 0
        assert all(f"{x.counted:,}" in vouchers for x in counted)

        bags = print_from_floor(floor, "demo-6", "bag-sheet", tmp_path / "bags.pdf")
        for table in running.tables:
            assert f"Table {table}" in bags
            assert all(e.name in bags for e in running.seated_at(table))
        assert "Bag no." in bags
        assert not floor.errors
