"""`handlog phh verify`'s work and its report, without click.

`recorder/cli_phh.py` is the command; `recorder/cli.py` runs the plain form
(`handlog phh verify PATH... [--json]`, every path there, no progress bar) through here without
loading click, which is a sixth of a bar-sized run's instructions (issue 28). Both print the
same text and exit with the same status.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from handlog.engine.words import render_rule
from handlog.replay.phh import find_phh_files
from handlog.replay.phh_verify import DEFAULT_RULES, HandResult, Status, VerifyReport, verify_files

# Below this many files a run takes well under a second: no progress bar.
PROGRESS_MIN_FILES = 200
# Non-matching hands listed per status in the readable summary (--json lists them all).
LISTED_PER_STATUS = 20


def plain_verify(args: Sequence[str]) -> int | None:
    """Run `phh verify` for the arguments after `handlog` when they are the plain form:
    `phh verify`, then paths that exist (none starting with "-") and `--json` flags, finding
    PHH files, with no progress bar to show. Returns the exit status, or None (having done
    nothing) for any other arguments: click parses those, and words their errors."""
    if len(args) < 3 or args[0] != "phh" or args[1] != "verify":
        return None
    as_json = "--json" in args[2:]
    paths = [arg for arg in args[2:] if arg != "--json"]
    if not paths or any(path.startswith("-") or not os.path.exists(path) for path in paths):
        return None
    files = find_phh_files([Path(path) for path in paths])
    if not files or wants_progress(len(files), as_json):
        return None
    report = verify_files(files, DEFAULT_RULES)
    print(report_text(report, len(files), DEFAULT_RULES, as_json), flush=True)
    return 0 if report.ok else 1


def wants_progress(file_count: int, as_json: bool) -> bool:
    # The bar is for a person watching a terminal on a long run; JSON and pipes get none.
    return not as_json and file_count >= PROGRESS_MIN_FILES and sys.stderr.isatty()


def report_text(report: VerifyReport, file_count: int, rules: str, as_json: bool) -> str:
    """What `phh verify` prints: the JSON report, or the readable summary."""
    if as_json:
        return json.dumps(report.as_dict(), indent=2, ensure_ascii=False)
    return summary(report, file_count, rules)


def summary(report: VerifyReport, file_count: int, rules: str) -> str:
    """The readable report: counts, then every hand that did not match, worst first."""
    counts = report.counts
    hands = len(report.results)
    rate = f" ({hands / report.seconds:,.0f} hands/s)" if report.seconds > 0 and hands else ""
    lines = [
        f"Verified {hands:,} hand{'s' if hands != 1 else ''} from {file_count:,} "
        f"file{'s' if file_count != 1 else ''} in {report.seconds:.1f} s{rate}, "
        f"default rules: {rules}",
        f"  matched     {counts['match']:>7,}",
        f"  mismatched  {counts['mismatch']:>7,}",
        f"  illegal     {counts['illegal']:>7,}",
        f"  unverified  {counts['unverified']:>7,}",
        f"  errors      {counts['error']:>7,}",
    ]
    order: tuple[Status, ...] = ("error", "illegal", "mismatch", "unverified")
    for status in order:
        listed = [result for result in report.results if result.status == status]
        if not listed:
            continue
        lines.append("")
        for result in listed[:LISTED_PER_STATUS]:
            lines.extend(_describe(result))
        if len(listed) > LISTED_PER_STATUS:
            lines.append(f"... and {len(listed) - LISTED_PER_STATUS:,} more {status} "
                         "(--json lists every hand)")
    lines.append("")
    if report.ok:
        lines.append("OK: nothing mismatched, illegal or in error")
    else:
        failing: tuple[tuple[Status, str], ...] = (
            ("mismatch", "mismatched"), ("illegal", "illegal"), ("error", "in error"))
        bad = [f"{counts[s]:,} {word}" for s, word in failing if counts[s]]
        lines.append("FAILED: " + ", ".join(bad))
    return "\n".join(lines)


def _describe(result: HandResult) -> Sequence[str]:
    where = result.file if result.hand is None else f"{result.file} [{result.hand}]"
    lines = [f"{result.status.upper():<10} {where}"]
    violation = result.violation
    if violation is not None:
        if violation.action_index is None:
            at = "the set-up (antes, blinds_or_straddles, starting_stacks)"
        elif violation.action is None:
            at = "the end of the record"
        else:
            at = f"action {violation.action_index} {violation.action!r}"
        lines.append(f"           at {at}: {render_rule(violation.rule)}: {violation.message}")
    if result.reason:
        lines.append(f"           {result.reason}")
    return lines
