"""`handlog import`: hand histories from other systems, checked against the engine."""

from __future__ import annotations

import getpass
import json
import sys
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import click

from handlog.engine.profiles import PROFILES, SITE_PROFILES
from handlog.recorder.cli_db import db_option, user_errors
from handlog.recorder.phh_run import PROGRESS_MIN_FILES, summary
from handlog.recorder.service import Actor, Recorder, StreamChange
from handlog.replay.import_hands import (
    FORMATS,
    ImportReport,
    NoHandHistories,
    find_files,
    import_files,
)
from handlog.replay.import_log import IntoLog, add_hand
from handlog.replay.phh_verify import DEFAULT_RULES, VerifyReport
from handlog.schema.store import open_store

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
              help="The files' format: PokerStars text, Open Hand History JSON, PHH, or a "
                   "site pokerkit reads (Full Tilt, iPoker, Ongame, PartyPoker, Absolute), or "
                   "Winamax; auto tells each file's from its content.")
@click.option("--rules", default=DEFAULT_RULES, show_default=True,
              type=click.Choice([*sorted(PROFILES), *sorted(SITE_PROFILES)]),
              help="House-rule profile for hands that do not name one (PHH `_rules`, OHH "
                   "`handlog.rules`; another site's hands and PokerStars cash hands in money "
                   "are judged by the site's profile).")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object with the counts and every hand's result.")
@click.option("--into-log", is_flag=True,
              help="Record the verified hands in the log as imported table streams (one per "
                   "table of each file, the players in their own seats; the file, the hand's "
                   "id and its format kept), to replay, report and export like recorded ones; "
                   "hands not verified are listed, not recorded.")
@db_option
def import_(paths: tuple[Path, ...], fmt: str, rules: str, as_json: bool, into_log: bool,
            db_url: str | None) -> None:
    """Read NLHE hand histories and replay each hand strictly through the engine.

    PATHS are files or folders (searched recursively): PokerStars tournament or cash text
    (UTF-8 or cp1252, many hands a file), Open Hand History JSON, PHH (.phh, .phhs). Every
    hand is reported as matched (the engine's stacks after the hand equal the file's),
    mismatched (with the reason), illegal (the action and the rule), unverified or in error.
    A file or a hand that cannot be read is listed with its file, line and reason, and the
    rest are read on; --json gives every file's counts and every hand's result. Exit status 0
    when nothing is mismatched, illegal or in error, 1 otherwise, 2 when no hand history is
    found.
    """
    files = find_files(paths)
    into = IntoLog() if into_log else None
    sink = None if into is None else (
        lambda entry, result, kind: add_hand(into, entry, result, kind, rules))
    try:
        if not _wants_progress(len(files), as_json):
            report = import_files(files, fmt, rules, sink)  # type: ignore[arg-type]
        else:
            with click.progressbar(files, label="Importing hand histories",
                                   file=sys.stderr) as bar:
                report = import_files(bar, fmt, rules, sink)  # type: ignore[arg-type]
    except NoHandHistories:
        click.echo("no hand histories found in " + ", ".join(map(str, paths)), err=True)
        raise click.exceptions.Exit(NO_HAND_HISTORIES) from None
    if report.skipped:
        click.echo(f"skipped {len(report.skipped)} file(s) with no hand history: "
                   + ", ".join(report.skipped[:5]) + (" ..." if len(report.skipped) > 5 else ""),
                   err=True)
    if into is not None:
        _record(into, db_url)
    if as_json:
        data = report.as_dict()
        if into is not None:
            data["into_log"] = into.as_dict()
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        kinds = sorted(set(report.formats.values()))
        text = summary(_located(report), len(report.formats), rules)
        click.echo(text.replace("Verified ", f"Imported ({', '.join(kinds)}) ", 1))
        failed = [f for f in report.files if not f.skipped and not f.ok]
        if failed:
            click.echo(f"Files with a hand not imported ({len(failed)} of "
                       f"{len(report.formats)}):")
            for item in failed:
                counted = ", ".join(f"{n} {k}" for k, n in sorted(item.counts.items()))
                click.echo(f"  {item.file} ({item.format}): {counted}")
        if into is not None:
            _echo_into_log(into)
    click.get_current_context().exit(0 if report.ok else 1)


def _located(report: ImportReport) -> VerifyReport:
    """The results with each hand's line beside its file (`file:12`), for the readable list."""
    located = tuple(replace(result, file=f"{result.file}:{line}") if line else result
                    for result, line in zip(report.verify.results, report.lines, strict=False))
    return VerifyReport(located, report.verify.seconds)


def _record(into: IntoLog, db_url: str | None) -> None:
    """Append the imported streams on the recorder's write path, in the order the hands were
    played (one transaction, or one between two moves of a player: `IntoLog.writes`); a file
    imported before is refused."""
    into.finish()
    with user_errors(), open_store(db_url, upgrade=True) as store:
        # A tournament already in the log keeps its stream: the new tables join it.
        into.streams = {s: e for s, e in into.streams.items()
                        if not (s.startswith("tournament-") and store.head(s) is not None)}
        known = [s for s in into.streams if store.head(s) is not None]
        if known:
            raise click.ClickException(
                f"already in the log: {', '.join(known)} (a file is imported once; see "
                "`handlog table list`)")
        # Each event a microsecond after the one before, in the order the hands were played.
        moment = datetime.now(UTC)
        actor = Actor(getpass.getuser() or "import", "director", "handlog-import")
        recorder = Recorder(store)
        for write in into.writes():
            changes = []
            for stream, (start, events) in write.items():
                times = tuple(moment + timedelta(microseconds=k) for k in range(len(events)))
                moment += timedelta(microseconds=len(events))
                changes.append(StreamChange(stream, start, tuple(events), times))
            recorder.record_many(changes, uuid.uuid4(), actor)


def _echo_into_log(into: IntoLog) -> None:
    streams = ", ".join(sorted(into.streams)) or "none"
    click.echo(f"Recorded {len(into.recorded)} verified hand(s) in the log: {streams}")
    if into.not_recorded:
        click.echo(f"Not recorded ({len(into.not_recorded)}):")
        for item in into.not_recorded:
            hand = f" [{item.hand}]" if item.hand else ""
            click.echo(f"  {item.file}{hand}: {item.status}: {item.reason}")
