"""`handlog phh ...`: PHH (Poker Hand History) files, checked against the engine."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from handlog.engine.profiles import PROFILES
from handlog.recorder.phh_run import report_text, wants_progress
from handlog.replay.phh import find_phh_files
from handlog.replay.phh_verify import DEFAULT_RULES, verify_files


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
    if not wants_progress(len(files), as_json):
        report = verify_files(files, rules)
    else:
        with click.progressbar(files, label="Verifying PHH files",
                               file=sys.stderr) as bar:
            report = verify_files(bar, rules)
    click.echo(report_text(report, len(files), rules, as_json))
    click.get_current_context().exit(0 if report.ok else 1)
