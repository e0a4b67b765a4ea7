"""export -> import --into-log -> export, byte for byte (issue 27 item 2), for the issue's two
demo events (TDA, 27 players; Octobermuck with bounties) in each format, measured by
benchmarks/round_trip.py: no hand is lost, and every hand that is not yet byte-identical
differs only in what is listed here as not carried yet (a new kind of difference fails), and
as many hands as measured are identical but for the log's own coordinates. While a difference
remains, the test is an expected failure naming what is not carried; once none does, it
asserts every hand byte-identical."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "round_trip.py"
_spec = importlib.util.spec_from_file_location("round_trip", BENCH)
assert _spec is not None and _spec.loader is not None
round_trip: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(round_trip)

# Per format, what the imported log does not give back yet: a pattern of the original's line
# (or `+ ` the line only the second export has), and why.
_MISDEAL = (r"^$|^# table-\S+ hand \d+ .* not exported: the hand is misdealt$",
            "a misdealt hand is a comment in the export and is not imported")
REMAINING: dict[str, list[tuple[str, str]]] = {
    "phh": [
        (r"^_stream = ", "imported tables are streams import-<file>-<table>-<digest>"),
        (r"^_versions = ", "an imported hand has an import mark and seating events before it"),
        (r"^_notes = ", "rulings (penalties) are not imported"),
        (r"^_out_of_turn = ", "a hand killed out of turn is imported as a fold in turn"),
        _MISDEAL,
    ],
    "ohh": [  # (by JSON path)
        (r"^ohh\.tournament_info\.(start_date_utc|tournament_number) ",
         "a rebuilt tournament's start and number are its new stream's (the time and id of "
         "its first event)"),
        (r"^ohh\.handlog\.stream ", "imported tables are streams import-<file>-<table>-<digest>"),
        (r"^ohh\.handlog\.versions", "an imported hand has an import mark and seating events "
         "before it"),
        (r"^ohh\.handlog\.notes", "rulings (penalties) are not imported"),
        (r"^ohh\.handlog\.killed_out_of_turn", "a hand killed out of turn is imported as a "
         "fold in turn"),
    ],
    "pokerstars": [],  # every hand identical: the tournament stream is rebuilt
}


# Hands identical but for the hand's id, time, stream and versions (what only says where and
# when a log holds it): at least these many (measured; 0 in every format before issue 27).
KEPT = {"tda phh": 97, "oct phh": 51, "tda pokerstars": 105, "oct pokerstars": 54,
        "tda ohh": 103, "oct ohh": 52}


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    result: dict[str, dict[str, Any]] = round_trip.measure(tmp_path_factory.mktemp("rt"))
    return result


@pytest.mark.parametrize("event", ["tda", "oct"])
@pytest.mark.parametrize("fmt", ["pokerstars", "ohh", "phh"])
def test_the_round_trip_gives_every_hand_back_byte_for_byte(
        measured: dict[str, dict[str, Any]], fmt: str, event: str) -> None:
    result = measured[f"{event} {fmt}"]
    assert result["hands"] == result["back"] > 40  # no hand lost
    assert result["identical_but_coordinates"] >= KEPT.get(f"{event} {fmt}", 0)
    unexplained = []
    reasons: set[str] = set()
    for difference in result["differences"]:
        line = difference["before"]
        if line == "<none>":
            line = "+ " + difference["after"]
        why = next((r for p, r in REMAINING[fmt] if re.search(p, line)), None)
        if why is None:
            unexplained.append(difference)
        else:
            reasons.add(why)
    assert unexplained == []
    if result["identical"] != result["hands"]:
        assert reasons
        pytest.xfail(f"{result['identical']}/{result['hands']} byte-identical; not carried "
                     f"yet: {'; '.join(sorted(reasons))}")
