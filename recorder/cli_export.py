"""`handlog report` (the auditor's report) and `handlog export` (standard hand histories)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

import click

from handlog.recorder.cli_db import db_option, user_errors
from handlog.replay.export_hands import ExportOptions, HandsExport, stream_hands, tournament_id
from handlog.replay.export_ohh import write_ohh
from handlog.replay.export_phh import write_phh
from handlog.replay.export_pokerstars import write_pokerstars
from handlog.replay.report import REPORT_FORMATS
from handlog.replay.report_stream import NoSuchTournament, write_report
from handlog.schema.database import display_url, resolve_url
from handlog.schema.store import open_store

_WRITERS: dict[str, Callable[[HandsExport, ExportOptions, TextIO | None],
                             tuple[str, int, list[str]]]] = {
    "phh": write_phh,
    "pokerstars": write_pokerstars,
    "ohh": write_ohh,
}


@click.command("report")
@db_option
@click.option("--tournament", "tournament", metavar="ID", default=None,
              help="Only this tournament and its tables (default: the whole log).")
@click.option("--format", "fmt", type=click.Choice(REPORT_FORMATS), default="html",
              show_default=True)
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The file to write (replaced). CSV writes two files: OUT (one row per "
                   "hand and pot) and OUT's name with -corrections (findings, corrections, "
                   "rulings, penalties).")
@click.option("--all-cards", "all_cards", is_flag=True,
              help="Add every hole card the log knows (dealt, exposed, mucked): for the "
                   "director or an auditor. Default: only the cards shown at the table.")
def report(db_url: str | None, tournament: str | None, fmt: str, out: Path,
           all_cards: bool) -> None:
    """The auditor's report, built by replaying the log through the engine.

    The verdict first (clean, or every finding with its stream, version, event, rule, expected
    and recorded values; the hash chains and the Merkle log), the latest signed checkpoint, a
    table of contents with every hand, charts (the stacks of the players still in, average
    stack and blinds per level, pot sizes, players out per level, the prize pool), each
    tournament (structure, house rules, entrants, the chip ledger, eliminations, prizes), the
    corrections and rulings, and every
    hand per table with its actions in order, its corrections and rulings inline and an award
    by ruling beside the engine's proposal. HTML is a self-contained printable page (with more
    than 1,000 hands, an index page and one page per table beside it); PDF the same for print
    or an archive; JSON one object; CSV one row per hand and pot.

    Exit status 0 when the log is clean, 1 when the report lists findings (it is written
    either way).
    """

    with user_errors():
        url = resolve_url(db_url)
        with open_store(url) as store:
            try:
                audit, written = write_report(store, fmt, out, tournament, display_url(url),
                                              all_cards=all_cards)
            except NoSuchTournament:
                raise click.ClickException(f"no tournament {tournament!r} in the log") from None
            except OSError as exc:
                raise click.ClickException(f"cannot write {out}: {exc.strerror}") from None
    verdict = audit.data["verdict"]
    hands = sum(len(t["hands"]) for t in audit.data["tables"])
    click.echo(f"report of {hands} hands in {len(audit.data['tables'])} table stream(s) "
               f"written to {', '.join(map(str, written))} ("
               + ("every hole card the log knows" if all_cards else
                  "only the cards shown at the table") + ")")
    tail = verdict.get("unsigned_tail", 0)
    if audit.clean and tail:
        click.echo(f"no findings, but {tail} events after the last checkpoint are not covered "
                   "by a signature")
    elif audit.clean:
        click.echo("clean")
    else:
        count = len(verdict["findings"]) + len(verdict["chain"]["problems"])
        click.echo(f"{count} finding(s)")
        raise click.exceptions.Exit(1)


@click.command("export")
@db_option
@click.option("--format", "fmt", type=click.Choice(sorted(_WRITERS)), required=True,
              help="phh: a .phhs file (PHH, TOML); pokerstars: PokerStars-style text for "
                   "trackers; ohh: Open Hand History JSON objects separated by blank lines.")
@click.option("--table", "table", metavar="STREAM", default=None,
              help="Only this table stream (e.g. table-demo-3-1).")
@click.option("--tournament", "tournament", metavar="ID", default=None,
              help="Only the tables of this tournament.")
@click.option("--out", required=True, type=click.Path(dir_okay=False, allow_dash=True,
                                                      path_type=Path),
              help="The file to write (replaced); - for standard output.")
@click.option("--hero", metavar="NAME", default="",
              help="Write this player's view (his name or id): his hole cards when they were "
                   "recorded, the others' only when shown. Without it: the table's view "
                   "(PokerStars' observer form, OHH's Observed flag).")
@click.option("--all-cards", "all_cards", is_flag=True,
              help="Add every recorded hole card, shown or not (the director's or an "
                   "auditor's copy); the file says so.")
def export(db_url: str | None, fmt: str, table: str | None, tournament: str | None,
           out: Path, hero: str, all_cards: bool) -> None:
    """Export the recorded hands as standard hand histories.

    Only complete hands are written, as they count after corrections; a misdealt, voided or
    unfinished hand is left out with a note (on standard error, and as a comment in a PHH
    file). By default a file holds only what the table saw (cards shown); `--hero` adds one
    player's own cards, `--all-cards` every recorded card. PHH carries the house rules and
    the chip unit in `_rules` and `_chip_unit`, so `handlog phh verify` and `handlog import`
    re-check the export.
    """
    with user_errors():
        with open_store(db_url) as store:
            # The tables are read one at a time as the file is written (stream_hands).
            hands = stream_hands(store, table, tournament)
            if table and not hands.tables:
                raise click.ClickException(f"no table stream {table!r} in the log")
            if tournament and not hands.tables and (
                    tournament_id(tournament) not in hands.tournaments):
                raise click.ClickException(f"no tournament {tournament!r} in the log")
            options = ExportOptions(hero, all_cards)
            if str(out) == "-":
                _text, count, notes = _WRITERS[fmt](hands, options, sys.stdout)
            else:
                try:
                    with open(out, "w", encoding="utf-8") as stream:
                        _text, count, notes = _WRITERS[fmt](hands, options, stream)
                except OSError as exc:
                    raise click.ClickException(f"cannot write {out}: {exc.strerror}") from None
    for note in notes:
        click.echo(f"note: {note}", err=True)
    to_stdout = str(out) == "-"
    click.echo(f"exported {count} hand(s) from {len(hands.tables)} table stream(s) as {fmt} "
               f"to {'standard output' if to_stdout else out}"
               + (f"; {len(notes)} left out" if notes else ""), err=to_stdout)
