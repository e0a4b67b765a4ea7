"""`handlog print seat-cards|receipts|vouchers|bag-sheet --out FILE.pdf`: the room's paper as
a PDF, read from the tournament's log (replay/paper.py)."""

from __future__ import annotations

from pathlib import Path

import click

from handlog.recorder.cli_db import db_option, user_errors
from handlog.replay.paper import KINDS, NoPaper, paper_pdf, read_paper
from handlog.schema.store import open_store


@click.command("print")
@click.argument("kind", type=click.Choice(KINDS))
@db_option
@click.option("--tournament", "tournament", metavar="ID", default=None,
              help="The tournament (default: the log's only one).")
@click.option("--player", "players", multiple=True, metavar="PLAYER",
              help="Only this player's paper (entry id or registered name; repeatable).")
@click.option("--out", "out", required=True,
              type=click.Path(dir_okay=False, writable=True, path_type=Path),
              help="The PDF file to write.")
def print_(kind: str, db_url: str | None, tournament: str | None, players: tuple[str, ...],
           out: Path) -> None:
    """Print the room's paper to a PDF: seat cards, payout receipts, chip-count vouchers or the
    day's bag sheet.

    Seat cards show each seated player's table and seat and how he came to it (the draw, a
    late entry, a move, a table break, a redraw); receipts each paid player's prize, bounties
    and high-hand share with a line for his signature; vouchers each player's last counted
    stack for him to sign; the bag sheet each table's end-of-day counts with a column for the
    bag number and the player's signature.
    """
    with user_errors(), open_store(db_url) as store:
        try:
            paper = read_paper(store, tournament, kind, players)
        except NoPaper as why:
            raise click.ClickException(str(why)) from None
    out.write_bytes(paper_pdf(paper))
    click.echo(f"{len(paper.cards)} {kind} written to {out}")
