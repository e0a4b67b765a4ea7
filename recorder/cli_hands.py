"""`handlog hands` (find hands) and `handlog hand show` (one hand as a person reads it)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import click

from handlog.recorder.cli_db import db_option, user_errors
from handlog.recorder.hand_views import hand_lines, hand_view, registered_names, summary_row
from handlog.replay.hands import HandFilter, HandRecord, hand_labels, table_hands
from handlog.schema.store import EventStore, open_store


def _tables(store: EventStore, only: str | None = None) -> list[tuple[str, list[Any]]]:
    tables = []
    for head in store.streams():
        if head.kind == "table" and (only is None or head.stream_id == only):
            tables.append((head.stream_id, store.read(head.stream_id)))
    return tables


def _names(store: EventStore) -> dict[str, str]:
    names: dict[str, str] = {}
    for head in store.streams():
        if head.kind == "tournament":
            names |= registered_names(store.read(head.stream_id))
    return names


def _time(value: str | None, option: str) -> datetime | None:
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a time like 2026-05-01T20:30 (UTC)",
                                 param_hint=option) from None
    if moment.tzinfo is None:
        from datetime import UTC

        moment = moment.replace(tzinfo=UTC)
    return moment


@click.command("hands")
@click.option("--player", help="A player's name or id.")
@click.option("--table", help="A table (its stream id or its name).")
@click.option("--level", type=click.IntRange(0), help="Hands played at this level.")
@click.option("--hand", "number", type=click.IntRange(1), help="Hands with this number.")
@click.option("--since", help="Hands started at or after this UTC time.")
@click.option("--until", help="Hands started at or before this UTC time.")
@click.option("--all-in", "all_in", is_flag=True, help="Only hands with an all-in (the "
              "player's, with --player).")
@click.option("--showdown", is_flag=True, help="Only hands that reached a showdown.")
@click.option("--rulings", is_flag=True, help="Only hands with a director's ruling.")
@click.option("--corrections", is_flag=True, help="Only hands with a correction.")
@click.option("--json", "as_json", is_flag=True)
@db_option
def hands(player: str | None, table: str | None, level: int | None, number: int | None,
          since: str | None, until: str | None, all_in: bool, showdown: bool, rulings: bool,
          corrections: bool, as_json: bool, db_url: str | None) -> None:
    """Find hands by player, table, level, number, time, all-ins, showdowns, rulings and
    corrections. Each line names the hand as `handlog hand show` takes it (STREAM#N)."""
    wanted = HandFilter(player=player, table=table, level=level, number=number,
                        since=_time(since, "--since"), until=_time(until, "--until"),
                        all_in=all_in, showdown=showdown, rulings=rulings,
                        corrections=corrections)
    with user_errors(), open_store(db_url) as store:
        names = _names(store)
        found: list[dict[str, Any]] = []
        for stream, stored in _tables(store):
            records = table_hands(stream, stored)
            found.extend(hand_view(h, names, public=False, with_steps=False, label=label)
                         for h, label in zip(records, hand_labels(records), strict=True)
                         if wanted.keeps(h, names))
    if as_json:
        click.echo(json.dumps({"hands": found, "count": len(found)}, indent=1))
        return
    for view in found:
        click.echo(summary_row(view))
    click.echo(f"{len(found)} hand{'s' if len(found) != 1 else ''} found")


def find_hand(store: EventStore, reference: str, table: str | None) -> tuple[HandRecord,
                                                                            dict[str, str],
                                                                            str]:
    """The hand that `reference` (STREAM#N, STREAM#N-misdealt, or N with --table) names, its
    names and its label. N alone is the last hand dealt under that number (a misdeal's
    redeal); `handlog hands` lists the misdealt one as STREAM#N-misdealt."""
    stream, _, label = reference.rpartition("#")
    stream = stream or (table or "")
    number_text = label.split("-", 1)[0]
    if not number_text.isdigit():
        raise click.BadParameter(f"{reference!r}: give a hand as STREAM#N or STREAM#N-misdealt "
                                 "(see `handlog hands`) or as N with --table",
                                 param_hint="HAND")
    if not stream:
        raise click.BadParameter("which table? give STREAM#N or --table", param_hint="HAND")
    tables = _tables(store, stream)
    if not tables:
        raise click.ClickException(f"no table stream {stream!r}: see `handlog table list`")
    records = table_hands(*tables[0])
    labelled = list(zip(records, hand_labels(records), strict=True))
    matches = [(h, name) for h, name in labelled if name == label]
    if not matches and label.isdigit():
        matches = [(h, name) for h, name in labelled if h.number == int(label)]
    if not matches:
        raise click.ClickException(f"{stream} has no hand #{label}: see `handlog hands "
                                   f"--table {stream}`")
    record, name = matches[-1]
    return record, _names(store), name


@click.group("hand")
def hand() -> None:
    """One hand, whole."""


@hand.command("show")
@click.argument("reference", metavar="HAND")
@click.option("--table", help="The table, when HAND is only a number.")
@click.option("--public", is_flag=True, help="Only the cards shown at the table (what a "
              "viewer saw); by default the cards the dealer recorded are shown too.")
@click.option("--json", "as_json", is_flag=True)
@db_option
def show(reference: str, table: str | None, public: bool, as_json: bool,
         db_url: str | None) -> None:
    """The whole hand as a person reads it: seats, posts, every action with the pot after it,
    the board, the showdown, pots and awards, and every correction and ruling."""
    with user_errors(), open_store(db_url) as store:
        record, names, label = find_hand(store, reference, table)
    view = hand_view(record, names, public=public, label=label)
    if as_json:
        click.echo(json.dumps(view, indent=1))
        return
    for line in hand_lines(view):
        click.echo(line)


@click.command("whatif")
@click.argument("stream")
@click.option("--at", "at_version", type=click.IntRange(1), required=True,
              help="The entry the other ruling is about (its version; see `handlog hand "
              "show`).")
@click.option("--award", "award", multiple=True, metavar="NAMES",
              help="The pots go to these players instead: one --award per pot, in pot order "
              "(main pot first), names separated by commas for a split.")
@click.option("--amount", type=click.IntRange(1), default=None,
              help="The bet or raise at --at was to this amount.")
@click.option("--drop", is_flag=True, help="The entry at --at (a kill, a misdeal, an action) "
              "did not happen.")
@click.option("--json", "as_json", is_flag=True)
@db_option
def whatif(stream: str, at_version: int, award: tuple[str, ...], amount: int | None,
           drop: bool, as_json: bool, db_url: str | None) -> None:
    """What would have followed another ruling at STREAM: stacks, eliminations, places and
    prizes beside what was recorded. Nothing is written to the log."""
    from handlog.engine.errors import RuleViolation
    from handlog.engine.words import render_rule
    from handlog.recorder.whatif_views import make_change, whatif_lines, whatif_view

    with user_errors(), open_store(db_url) as store:
        if store.head(stream) is None:
            raise click.ClickException(f"no table stream {stream!r}: see `handlog table list`")
        try:
            change, names = make_change(
                store, stream, at_version, award=[a.split(",") for a in award] or None,
                amount=amount, drop=drop)
            view = whatif_view(store, stream, change, names)
        except RuleViolation as violation:
            allowed = f" (allowed: {'; '.join(violation.legal)})" if violation.legal else ""
            raise click.ClickException(
                f"{violation.message}{allowed} [{render_rule(violation.rule)}]") from None
    if as_json:
        click.echo(json.dumps(view, indent=1))
        return
    for line in whatif_lines(view):
        click.echo(line)
