"""`handlog import`: hand histories from other systems, checked against the engine."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from engine.profiles import PROFILES
from recorder.cli_phh import PROGRESS_MIN_FILES, summary
from replay.import_hands import FORMATS, NoHandHistories, find_files, import_files
from replay.phh_verify import DEFAULT_RULES

# Exit status when nothing given holds a hand history (as for `handlog phh verify`).
NO_HAND_HISTORIES = 2


# PokerStars and OHH files hold many hands each: a bar is worth it from fewer files than PHH's.
PROGRESS_MIN_IMPORT_FILES = PROGRESS_MIN_FILES // 10


def _wants_progress(file_count: int, as_json: bool) -> bool:
    # The bar is for a person watching a terminal on a long run; JSON and pipes get none.
    return not as_json and file_count >= PROGRESS_MIN_IMPORT_FILES and sys.stderr.isatty()


@click.command("import")
@click.argument("paths", nargs=-1, required=True,
                type=click.Path(exists=True, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(("auto", *FORMATS)), default="auto",
              show_default=True,
              help="The files' format: PokerStars text, Open Hand History JSON or PHH; auto "
                   "tells each file's from its content.")
@click.option("--rules", default=DEFAULT_RULES, show_default=True,
              type=click.Choice(sorted(PROFILES)),
              help="House-rule profile for hands that do not name one (PHH `_rules`, OHH "
                   "`handlog.rules`).")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object with the counts and every hand's result.")
def import_(paths: tuple[Path, ...], fmt: str, rules: str, as_json: bool) -> None:
    """Read NLHE hand histories and replay each hand strictly through the engine.

    PATHS are files or folders (searched recursively): PokerStars tournament or cash text
    (UTF-8 or cp1252, many hands a file), Open Hand History JSON, PHH (.phh, .phhs). Every
    hand is reported as matched (the engine's stacks after the hand equal the file's),
    mismatched (with the reason), illegal (the action and the rule), unverified or in error.
    Exit status 0 when nothing is mismatched, illegal or in error, 1 otherwise, 2 when no
    hand history is found.
    """
    files = find_files(paths)
    try:
        if not _wants_progress(len(files), as_json):
            report = import_files(files, fmt, rules)  # type: ignore[arg-type]
        else:
            with click.progressbar(files, label="Importing hand histories",
                                   file=sys.stderr) as bar:
                report = import_files(bar, fmt, rules)  # type: ignore[arg-type]
    except NoHandHistories:
        click.echo("no hand histories found in " + ", ".join(map(str, paths)), err=True)
        raise click.exceptions.Exit(NO_HAND_HISTORIES) from None
    if report.skipped:
        click.echo(f"skipped {len(report.skipped)} file(s) with no hand history: "
                   + ", ".join(report.skipped[:5]) + (" ..." if len(report.skipped) > 5 else ""),
                   err=True)
    if as_json:
        click.echo(json.dumps(report.as_dict(), indent=2, ensure_ascii=False))
    else:
        kinds = sorted(set(report.formats.values()))
        text = summary(report.verify, len(report.formats), rules)
        click.echo(text.replace("Verified ", f"Imported ({', '.join(kinds)}) ", 1))
    click.get_current_context().exit(0 if report.ok else 1)
