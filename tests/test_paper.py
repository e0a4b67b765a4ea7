"""The room's paper (issue 25, item 6) through `handlog print`: seat cards, payout receipts,
chip-count vouchers and the day's bag sheet printed to PDF from demo tournaments and read back
(pypdf, the dev extras' PDF reader), on SQLite and PostgreSQL."""

from __future__ import annotations

import io
import re
from pathlib import Path

from click.testing import CliRunner
from pypdf import PdfReader
from web_support import Client, make_app, make_recorder

from handlog.recorder.cli import cli
from handlog.recorder.demo import run_demo
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.tournament_service import Tournaments
from handlog.schema.store import open_store

DIRECTOR = Actor("td", "director", "test")


def printed(db_url: str, tmp_path: Path, kind: str, *args: str) -> str:
    out = tmp_path / f"{kind}.pdf"
    result = CliRunner().invoke(cli, ["print", kind, "--db", db_url, *args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return "\n".join(page.extract_text() for page in PdfReader(out).pages)


def two_demos(db_url: str) -> None:
    """demo-5 played to a winner with a chip count at the first break; demo-6 stopped after
    12 hands, its tables counted at the end of the day (`handlog tournament count
    --end-of-day`), the first player counted 100 over the log's stack and the director
    ruling that the log's stands."""
    runner = CliRunner()
    assert runner.invoke(cli, ["db", "upgrade", "--db", db_url]).exit_code == 0
    for args in (("--seed", "5", "--chip-count"), ("--seed", "6", "--hands", "12")):
        played = runner.invoke(cli, ["demo", "--db", db_url, "--players", "9", "--tables", "2",
                                     *args])
        assert played.exit_code == 0, played.output
    with open_store(db_url) as store:
        t = Tournaments(Recorder(store))
        stacks = {table: [(s.player, s.stack) for s in t.table("demo-6", table).state.seats]
                  for table in t.state("demo-6").tables}
    off = next(iter(stacks.values()))[0]
    for table, seats in stacks.items():
        counted = [f"{p}={chips + (100 if (p, chips) == off else 0)}" for p, chips in seats]
        done = runner.invoke(cli, ["tournament", "count", "demo-6", table, "--end-of-day",
                                   "--db", db_url, *[x for c in counted for x in ("--stack", c)]])
        assert done.exit_code == 0, done.output
    ruled = runner.invoke(cli, ["tournament", "correct-stack", "demo-6", off[0], "--stack",
                                str(off[1]), "--reason", "the log stands", "--db", db_url])
    assert ruled.exit_code == 0, ruled.output


def test_seat_cards_receipts_vouchers_and_the_bag_sheet_print_to_pdf(
        db_url: str, tmp_path: Path) -> None:
    """Each document names every player it concerns with the log's figures: seat cards the
    table and seat with how he came to it, receipts the prizes with the signature line,
    vouchers the counted stacks, the bag sheet each table's end-of-day counts and total."""
    two_demos(db_url)
    with open_store(db_url) as store:
        t = Tournaments(Recorder(store))
        done, running = t.state("demo-5"), t.state("demo-6")
        counts = {x.player: x.computed for c in running.counts for x in c.counts}
        off = next(x for c in running.counts for x in c.counts if x.counted != x.computed)
        tables = {tb: [e for e in running.seated_at(tb)] for tb in running.tables}
        broke = {x.player: x.counted for x in done.counts[0].counts}
    cards = printed(db_url, tmp_path, "seat-cards", "--tournament", "demo-6")
    for e in running.remaining:
        assert f"Table {e.table} · Seat {e.seat}" in cards and e.name in cards
    why = re.findall(r"\nWhy\n(.*)\n", cards)
    assert len(why) == len(running.remaining) == cards.count("Seat card")
    assert set(why) <= {"initial draw", "late entry", "balance", "table broken",
                        "final table drawn"}, why
    one = running.remaining[0]
    only = printed(db_url, tmp_path, "seat-cards", "--tournament", "demo-6", "--player",
                   one.name)
    assert only.count("Seat card") == 1 and one.name in only

    receipts = printed(db_url, tmp_path, "receipts", "--tournament", "demo-5")
    assert done.prizes is not None
    for award in done.prizes.awards:
        assert f"USD {award.amount / 100:,.2f}" in receipts
        assert f"Prize (place {award.place})" in receipts
        assert done.entrant(award.player).name in receipts  # type: ignore[union-attr]
    assert receipts.count("Player's signature") == len({a.player for a in done.prizes.awards})

    vouchers = printed(db_url, tmp_path, "vouchers", "--tournament", "demo-5")
    assert vouchers.count("Chip-count voucher") == len(broke)
    for chips in broke.values():
        assert f"{chips:,}" in vouchers
    assert "break, level" in vouchers and "Player's signature" in vouchers

    bags = printed(db_url, tmp_path, "bag-sheet", "--tournament", "demo-6")
    for table, seated in tables.items():
        assert f"Table {table}" in bags
        assert f"{sum(counts[e.player] for e in seated):,}" in bags
        for e in seated:
            assert e.name in bags
    assert "Bag no." in bags and "end of the day" in bags
    assert f"{off.counted:,}" not in bags  # the director ruled the log's stack stands

    ruled = printed(db_url, tmp_path, "vouchers", "--tournament", "demo-6", "--player",
                    off.player)
    assert ruled.count("Chip-count voucher") == 1
    assert f"Chips counted\n{off.counted:,}" in ruled
    assert f"Stack as ruled\n{off.computed:,}" in ruled
    assert "end of the day, level" in ruled


def test_print_says_what_is_missing_and_what_to_do(db_url: str, tmp_path: Path) -> None:
    """No traceback: a day with no end-of-day count, a tournament not in the log, two
    tournaments and none named, and an unknown player each get one line naming the field."""
    two_demos(db_url)
    runner = CliRunner()

    def refused(*args: str) -> str:
        result = runner.invoke(cli, ["print", *args, "--db", db_url, "--out",
                                     str(tmp_path / "x.pdf")])
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        return result.output

    assert "no end-of-day chip count" in refused("bag-sheet", "--tournament", "demo-5")
    assert "tournament: give one of demo-5, demo-6" in refused("seat-cards", "--tournament",
                                                               "nope")
    assert "tournament: give one of" in refused("receipts")
    assert "player: no entry 'Nobody'" in refused("vouchers", "--tournament", "demo-5",
                                                  "--player", "Nobody")
    assert "receipts are printed once the prizes are awarded" in refused(
        "receipts", "--tournament", "demo-6")
    assert not (tmp_path / "x.pdf").exists()


def test_seat_cards_after_a_move_and_a_table_break(db_url: str, tmp_path: Path) -> None:
    """12 players over 3 tables: after the first hand a table breaks (its players' cards say
    so); the director moves one player (`handlog tournament move`) and prints his card alone:
    his new table and seat, and the reason he gave."""
    runner = CliRunner()
    assert runner.invoke(cli, ["db", "upgrade", "--db", db_url]).exit_code == 0
    played = runner.invoke(cli, ["demo", "--db", db_url, "--players", "12", "--tables", "3",
                                 "--seed", "7", "--hands", "1"])
    assert played.exit_code == 0, played.output
    with open_store(db_url) as store:
        before = Tournaments(Recorder(store)).state("demo-7")
    mover = before.remaining[0]
    to = next(tb for tb in before.tables if tb != mover.table)
    moved = runner.invoke(cli, ["tournament", "move", "demo-7", mover.player, to, "--reason",
                                "seat change asked", "--db", db_url])
    assert moved.exit_code == 0, moved.output
    with open_store(db_url) as store:
        after = Tournaments(Recorder(store)).state("demo-7").entrant(mover.player)
    assert after is not None and after.table == to
    card = printed(db_url, tmp_path, "seat-cards", "--player", mover.player)
    assert card.count("Seat card") == 1
    assert f"Table {to} · Seat {after.seat}" in card and mover.name in card
    assert "Why\nseat change asked" in card
    every = printed(db_url, tmp_path, "seat-cards")
    assert "Why\ntable broken" in every
    drawn = every.split("Why\ninitial draw\n")[1:]
    assert drawn and all(card.startswith(f"Chips\n{before.structure.starting_stack:,}\n")
                         for card in drawn)


def test_the_paper_over_http_is_the_directors(tmp_path: Path) -> None:
    """GET /api/paper/{kind}: the director gets the print view (its only style allowed by
    hash, no script) or the PDF `handlog print` writes; a viewer 403; nothing to print a 404
    saying what to do; an unknown kind a 400 naming the field."""
    recorder = make_recorder(tmp_path)
    run_demo(recorder, players=6, tables=1, seed=5)
    app, auth = make_app(recorder)
    with Client(app, auth) as director, Client(app, auth) as viewer:
        assert director.login("director").status_code == 200
        assert viewer.login("viewer").status_code == 200
        url = "/api/paper/receipts"
        assert viewer.http.get(url).status_code == 403
        view = director.http.get(url, params={"tournament": "demo-5"})
        assert view.status_code == 200 and "Player&#x27;s signature" in view.text
        policy = view.headers["content-security-policy"]
        assert policy.startswith("default-src 'none'; style-src 'sha256-")
        assert "<script" not in view.text
        pdf = director.http.get(url, params={"tournament": "demo-5", "format": "pdf"})
        assert pdf.headers["content-type"] == "application/pdf"
        text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
        assert "Payout receipt" in text and "Player's signature" in text
        missing = director.http.get("/api/paper/bag-sheet")
        assert missing.status_code == 404 and "end-of-day" in missing.json()["message"]
        wrong = director.http.get("/api/paper/menus")
        assert wrong.status_code == 400 and "kind" in wrong.text, wrong.text


def test_the_bag_sheet_of_a_flight_lists_its_bags_with_their_numbers(
        db_url: str, tmp_path: Path) -> None:
    """A flight's bag sheet is its bags as recorded (`handlog tournament bag`): each player's
    bagged stack with the bag number and who confirmed the count, not a column left blank."""
    runner = CliRunner()
    assert runner.invoke(cli, ["db", "upgrade", "--db", db_url]).exit_code == 0
    played = runner.invoke(cli, ["demo", "--db", db_url, "--players", "12", "--seed", "3",
                                 "--flights", "2", "--days", "2"])
    assert played.exit_code == 0, played.output
    with open_store(db_url) as store:
        t = Tournaments(Recorder(store))
        flights = [(name, t.state(name).bags) for name in t.tournaments() if t.state(name).bags]
    assert flights, "the demo bagged no stack"
    name, bags = flights[0]
    text = printed(db_url, tmp_path, "bag-sheet", "--tournament", name)
    assert "the bags recorded" in text and "Count confirmed by" in text
    for bag in bags:
        assert bag.bag in text and f"{bag.chips:,}" in text
