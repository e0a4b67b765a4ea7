"""`handlog phh ...`: PHH (Poker Hand History) files, checked against the engine."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

import click

from handlog.engine.profiles import PROFILES
from handlog.engine.words import render_rule
from handlog.replay.phh import find_phh_files
from handlog.replay.phh_verify import DEFAULT_RULES, HandResult, Status, VerifyReport, verify_files

# Below this many files a run takes well under a second: no progress bar.
PROGRESS_MIN_FILES = 200
# Non-matching hands listed per status in the readable summary (--json lists them all).
LISTED_PER_STATUS = 20


@click.group("phh")
def phh() -> None:
    """Read and check PHH (Poker Hand History) files."""


@phh.command("verify")
@click.argument("paths", nargs=-1, required=True,
                type=click.Path(exists=True, path_type=Path))
@click.option("--rules", default=DEFAULT_RULES, show_default=True,
              type=click.Choice(sorted(PROFILES)),
              help="House-rule profile for hands without a `_rules` field.")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object with the counts and every hand's result.")
def verify(paths: tuple[Path, ...], rules: str, as_json: bool) -> None:
    """Replay PHH hands strictly through the engine and compare their finishing stacks.

    PATHS are .phh and .phhs files or folders (searched recursively). Nothing is inserted
    into a record: a hand that needs a fold or check it does not have is reported. A hand's
    `_rules` field names its house-rule profile and `_chip_unit` the smallest chip in play.
    Exit status 0 only when no hand is mismatched, illegal or in error; 2 when no PHH file
    is found.
    """
    files = find_phh_files(paths)
    if not files:
        click.echo("no hand histories found in " + ", ".join(map(str, paths))
                   + " (no .phh or .phhs files)", err=True)
        raise click.exceptions.Exit(2)
    if not _wants_progress(len(files), as_json):
        report = verify_files(files, rules)
    else:
        with click.progressbar(files, label="Verifying PHH files",
                               file=sys.stderr) as bar:
            report = verify_files(bar, rules)
    if as_json:
        click.echo(json.dumps(report.as_dict(), indent=2, ensure_ascii=False))
    else:
        click.echo(summary(report, len(files), rules))
    click.get_current_context().exit(0 if report.ok else 1)


def _wants_progress(file_count: int, as_json: bool) -> bool:
    # The bar is for a person watching a terminal on a long run; JSON and pipes get none.
    return not as_json and file_count >= PROGRESS_MIN_FILES and sys.stderr.isatty()


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
