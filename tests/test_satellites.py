"""Satellites and guarantees (issue 25 item 4): prizes that are seats in another event with
a cash remainder, seats shared equally by the last players, and a guaranteed pool whose
overlay is the house's money; each balances to the cent."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from test_demo import demo_and_report
from test_tournament import Log, example, started

from handlog.engine.money import money_block, money_findings
from handlog.engine.structure import (
    Satellite,
    Structure,
    payouts_for,
    satellite_seats,
    structure_problems,
)
from handlog.engine.tournament import Bust, award_prizes, eliminate, withdraw
from handlog.engine.tournament_events import PrizesAwarded, SeatAward, TournamentFinished
from handlog.recorder.cli import cli as main
from handlog.recorder.structure import StructureError, loads_structure
from handlog.schema.codec import decode_event

_SATELLITE = example("tda-satellite")


def example_structure() -> Structure:
    return _SATELLITE


def _bust_all_but(log: Log, left: int) -> None:
    """Players out one at a time, the last registered first, until `left` remain (or the
    tournament ends)."""
    while len(log.state.remaining) > left and not log.state.finished:
        player = log.state.remaining[-1].player
        log.add(*eliminate(log.state, [Bust(player, 100, "A", 1)]))


def test_the_example_satellite_and_guarantee_read_into_the_structure() -> None:
    """examples/tda-satellite.toml: $200 seats in the Main Event, as many as the pool buys;
    examples/tda-guarantee.toml: a $1,000 guarantee (cents)."""
    s = example("tda-satellite")
    assert s.satellite == Satellite(seat_value=20000, seats=0, target="Main Event")
    assert example("tda-guarantee").money.guarantee == 100000


def test_a_bad_satellite_key_is_named() -> None:
    """A satellite without its target, and share_equally without a number of seats, are
    refused naming the field; an unknown key is named with the allowed ones."""
    s = example("tda-satellite")
    bad = replace(s, satellite=Satellite(seat_value=100, share_equally=True))
    assert {p.path for p in structure_problems(bad)} >= {"satellite.target", "satellite.seats"}
    text = (Path(__file__).parent.parent / "examples" / "tda-satellite.toml").read_text()
    with pytest.raises(StructureError, match=r"satellite.*seat_values?.*"):
        loads_structure(text.replace("seat_value = 200", "seat_values = 200"), "x.toml")


def test_satellite_seats_as_many_as_the_pool_buys_with_a_cash_remainder() -> None:
    """27 entries at $55 to the pool make $1,485: seven $200 seats and $85 cash; at most
    SEATS when the structure caps them, the rest cash."""
    s = example("tda-satellite")
    assert satellite_seats(s, 27, 148500) == (7, 8500)
    capped = replace(s, satellite=replace(s.satellite, seats=3))
    assert satellite_seats(capped, 27, 148500) == (3, 148500 - 60000)


def test_a_satellite_awards_seats_and_the_remainder_and_balances() -> None:
    """9 entries: a $495 pool buys two $200 seats (1st and 2nd) and $95 goes to 3rd; the
    money block counts the seats' value, nothing unaccounted."""
    log = started(example("tda-satellite"), 9, tables=("A",))
    _bust_all_but(log, 1)
    prizes = award_prizes(log.state)
    places = {e.player: e.place for e in log.state.entrants}
    first, second, third = (p for p, _ in sorted(places.items(), key=lambda x: x[1])[:3])
    assert prizes.seats == (SeatAward(1, first, 20000, "Main Event"),
                            SeatAward(2, second, 20000, "Main Event"))
    assert [(a.place, a.player, a.amount) for a in prizes.awards] == [(3, third, 9500)]
    assert prizes.rule == "satellite"
    log.add(prizes)
    block = money_block(log.state)
    assert (block.seats_awarded, block.prizes_paid, block.overlay) == (40000, 9500, 0)
    assert block.unaccounted == 0
    assert money_findings(log.state) == []


def test_seats_shared_equally_end_the_satellite_when_that_many_players_remain() -> None:
    """share_equally with 2 seats: when 2 players remain the tournament is over, both share
    first place and each wins a seat; the remainder goes to 3rd."""
    s = example("tda-satellite")
    s = replace(s, satellite=replace(s.satellite, seats=2, share_equally=True))
    log = started(s, 9, tables=("A",))
    _bust_all_but(log, 2)
    assert log.state.finished
    finished = [e for e in log.events if isinstance(e, TournamentFinished)]
    left = sorted(e.player for e in log.state.entrants if e.place == 1)
    assert log.state.remaining == ()
    assert finished == [TournamentFinished(left[0], tuple(left))]
    assert sorted(e.place for e in log.state.entrants)[:3] == [1, 1, 3]
    prizes = award_prizes(log.state)
    assert sorted(x.player for x in prizes.seats) == left
    assert {x.place for x in prizes.seats} == {1}
    assert [a.amount for a in prizes.awards] == [9500]
    log.add(prizes)
    assert money_block(log.state).unaccounted == 0


def test_a_guarantee_adds_the_overlay_as_the_houses_money_and_pays_on_it() -> None:
    """9 entries at $20 collect $180 of a $1,000 guarantee: the house adds $820, the payouts
    are on $1,000 (65/35 for 9 players), nothing unaccounted."""
    log = started(example("tda-guarantee"), 9, tables=("A",))
    assert (log.state.collected_pool, log.state.overlay, log.state.prize_pool) == \
        (18000, 82000, 100000)
    _bust_all_but(log, 1)
    prizes = award_prizes(log.state)
    assert (prizes.pool, prizes.overlay) == (100000, 82000)
    assert sorted(a.amount for a in prizes.awards) == [35000, 65000]
    log.add(prizes)
    block = money_block(log.state)
    assert block.overlay == 82000 and block.prizes_paid == 100000
    assert block.unaccounted == 0
    assert block.as_dict()["overlay"] == 82000


def test_no_overlay_when_the_pool_beats_the_guarantee() -> None:
    """A guarantee under the pool collected costs the house nothing."""
    s = example("tda-guarantee")
    log = started(replace(s, money=replace(s.money, guarantee=10000)), 9, tables=("A",))
    assert (log.state.overlay, log.state.prize_pool) == (0, 18000)


def test_replay_finds_prizes_whose_overlay_is_not_the_guarantees() -> None:
    """A prizes event claiming a smaller overlay than the guarantee needs is a finding."""
    log = started(example("tda-guarantee"), 9, tables=("A",))
    _bust_all_but(log, 1)
    prizes = award_prizes(log.state)
    log.add(replace(prizes, overlay=0, pool=prizes.pool - prizes.overlay))
    assert [f[:2] for f in money_findings(log.state)][0] == ("money:guarantee", "pool_differs")


# --- the CLI: handlog demo --satellite / --guarantee, replay and the JSON report -------------


def _demo_and_replay(db_url: str, tmp_path: Path, *options: str) -> dict[str, object]:
    tournament, _types = demo_and_report(db_url, tmp_path, "--players", "18", "--tables", "2",
                                         "--seed", "3", *options)
    return tournament


def test_demo_satellite_awards_seats_and_a_remainder_and_balances(db_url: str,
                                                                   tmp_path: Path) -> None:
    """`handlog demo --satellite 3`: 18 entries at $55 ($990) buy three $200 seats and
    $390 cash; replay exits 0, the report explains each seat and the remainder."""
    t = _demo_and_replay(db_url, tmp_path, "--satellite", "3")
    money = t["money"]
    assert isinstance(money, dict)
    assert (money["seats_awarded"], money["prizes_paid"], money["unaccounted"]) == \
        (60000, 39000, 0)
    prizes = t["prizes"]
    assert isinstance(prizes, dict)
    assert [x["place"] for x in prizes["seats"]] == [1, 2, 3]
    assert all("a seat in Main Event worth USD 200.00" in x["why"] for x in prizes["seats"])
    assert [(a["place"], a["amount"]) for a in prizes["awards"]] == [(4, 39000)]
    assert "cash left after 3 seat(s)" in prizes["awards"][0]["why"]
    html = tmp_path / "report.html"
    written = CliRunner().invoke(main, ["report", "--db", db_url, "--format", "html",
                                        "--out", str(html)])
    assert written.exit_code == 0, written.output
    page = html.read_text()
    assert "a seat in Main Event worth USD 200.00" in page and "seats awarded" in page


def test_demo_guarantee_shows_its_overlay_in_the_pdf_report(tmp_path: Path) -> None:
    """The PDF report of a guaranteed event says what the house added."""
    import pypdf

    db = f"sqlite:///{tmp_path / 'g.db'}"
    runner = CliRunner()
    played = runner.invoke(main, ["demo", "--db", db, "--players", "9", "--tables", "1",
                                  "--guarantee", "500"])
    assert played.exit_code == 0, played.output
    assert "overlay: the house added USD 320.00 to reach the USD 500.00 guarantee" in \
        played.output
    out = tmp_path / "report.pdf"
    written = runner.invoke(main, ["report", "--db", db, "--format", "pdf", "--out", str(out)])
    assert written.exit_code == 0, written.output
    text = " ".join(" ".join(p.extract_text().split()) for p in pypdf.PdfReader(out).pages)
    assert "the house added USD 320.00 (overlay)" in text


def test_demo_guarantee_shows_its_overlay_and_balances(db_url: str, tmp_path: Path) -> None:
    """`handlog demo --guarantee 1000`: 18 entries at $20 collect $360, the house adds $640;
    replay exits 0, the money block shows the overlay, nothing unaccounted."""
    t = _demo_and_replay(db_url, tmp_path, "--guarantee", "1000")
    money = t["money"]
    assert isinstance(money, dict)
    assert (money["overlay"], money["prizes_paid"], money["unaccounted"]) == (64000, 100000, 0)
    prizes = t["prizes"]
    assert isinstance(prizes, dict)
    assert prizes["overlay"] == 64000 and "the house added USD 640.00" in prizes["overlay_why"]


@pytest.mark.parametrize(("options", "message"), [
    (["--satellite", "2", "--structure", "examples/tda-demo.toml"], "--satellite: TDA demo "
     "turbo pays no seats"),
    (["--guarantee", "ten"], "--guarantee: 'ten' is not an amount of money"),
    (["--guarantee", "10.001"], "--guarantee: '10.001' is not an amount of money"),
])
def test_demo_prize_options_refuse_bad_input_naming_the_option(
        tmp_path: Path, options: list[str], message: str) -> None:
    """Bad --satellite / --guarantee input is refused naming the option, no traceback."""
    root = Path(__file__).parent.parent
    options = [str(root / o) if o.startswith("examples/") else o for o in options]
    result = CliRunner().invoke(main, ["demo", "--db", f"sqlite:///{tmp_path / 'd.db'}",
                                       *options])
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output


def test_prizes_awarded_v2_reads_as_no_overlay_and_no_seats() -> None:
    """A prizes event written before guarantees and satellites reads with none of either."""
    event = decode_event("prizes_awarded", 2, {"pool": 100, "field_size": 2, "awards": [],
                                               "rule": "payouts:2-10"})
    assert isinstance(event, PrizesAwarded)
    assert (event.overlay, event.seats) == (0, ())


def test_demo_satellite_shared_equally_ends_when_the_seats_remain(db_url: str,
                                                                   tmp_path: Path) -> None:
    """`handlog demo --satellite 3` on a structure with share_equally: the satellite ends
    with 3 players left, who share first place and win a seat each; $390 cash to 4th;
    replay exits 0, nothing unaccounted."""
    text = (Path(__file__).parent.parent / "examples" / "tda-satellite.toml").read_text()
    structure = tmp_path / "shared.toml"
    structure.write_text(text.replace("share_equally = false", "share_equally = true")
                         .replace("seats = 0", "seats = 3"))
    t = _demo_and_replay(db_url, tmp_path, "--satellite", "3", "--structure", str(structure))
    prizes = t["prizes"]
    assert isinstance(prizes, dict)
    assert [x["place"] for x in prizes["seats"]] == [1, 1, 1]
    assert all("shared by the last players" in x["why"] for x in prizes["seats"])
    assert [(a["place"], a["amount"]) for a in prizes["awards"]] == [(4, 39000)]
    money = t["money"]
    assert isinstance(money, dict)
    assert (money["seats_awarded"], money["unaccounted"]) == (60000, 0)


@settings(max_examples=200)
@given(field=st.integers(2, 500), per_entry=st.integers(0, 100_000),
       seat_value=st.integers(1, 1_000_000), cap=st.integers(0, 50))
def test_satellite_seats_and_remainder_add_up_to_the_pool(field: int, per_entry: int,
                                                          seat_value: int, cap: int) -> None:
    """Seats times their value plus the remainder is the pool; never more seats than the cap
    or than players, and the remainder always has a place to go."""
    s = replace(example_structure(), satellite=Satellite(seat_value=seat_value, seats=cap,
                                                         target="Main"))
    pool = field * per_entry
    seats, remainder = satellite_seats(s, field, pool)
    assert seats * seat_value + remainder == pool
    assert 0 <= seats <= field and (not cap or seats <= cap)
    assert remainder >= 0 and (not remainder or seats < field)
    assert sum(payouts_for(s, field, pool)) == pool
    assert len(payouts_for(s, field, pool)) <= field


def test_a_withdrawal_that_leaves_as_many_players_as_seats_ends_a_shared_satellite() -> None:
    """share_equally with 2 seats: a player withdrawing with 3 left ends it as a bust does;
    the two left share first place."""
    s = example("tda-satellite")
    s = replace(s, satellite=replace(s.satellite, seats=2, share_equally=True))
    log = started(s, 9, tables=("A",))
    _bust_all_but(log, 3)
    leaving = log.state.remaining[0].player
    log.add(*withdraw(log.state, leaving, 100))
    assert log.state.finished
    assert sorted(e.place for e in log.state.entrants)[:3] == [1, 1, 3]
