"""`handlog table`: list the tables of the log and show one as it stood at any moment."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import click

from handlog.engine.events import HandStarted
from handlog.engine.table import Level
from handlog.engine.tournament_state import fold_tournament
from handlog.engine.words import render_rule
from handlog.recorder.cli_db import db_option, user_errors
from handlog.recorder.hand_views import registered_names
from handlog.recorder.table_text import describe_table
from handlog.recorder.views import event_rows
from handlog.replay.fold import OTHER_RULES, TableFold, fold_table, level_of
from handlog.schema.store import EventStore, StoredEvent, open_store


@click.group("table")
def table() -> None:
    """Look at a table, now or at any earlier moment (for disputes)."""


@table.command("list")
@db_option
def list_tables(db_url: str | None) -> None:
    """Every table stream with its last version."""
    with user_errors(), open_store(db_url) as store:
        for head in store.streams():
            if head.kind == "table":
                click.echo(f"{head.stream_id}  version {head.version}")


def _at_time(value: str | None) -> datetime | None:
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a time like 2026-05-01T20:30 (UTC)",
                                 param_hint="--time") from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def cut_stream(stream: str, stored: list[StoredEvent], at_version: int | None,
               hand: int | None, moment: datetime | None) -> list[StoredEvent]:
    """The events up to the moment asked for: a version, the start of a hand, or a time."""
    if at_version is not None:
        if at_version > stored[-1].version:
            raise click.ClickException(f"{stream} has {stored[-1].version} versions")
        return [e for e in stored if e.version <= at_version]
    if hand is not None:
        started = [e.version for e in stored if e.type == HandStarted.TYPE
                   and e.decode().hand_number == hand]
        if not started:
            raise click.ClickException(f"{stream} has no hand #{hand}: see `handlog hands "
                                       f"--table {stream}`")
        # The hand's start with its forced posts (what the engine makes of hand_started).
        end = started[-1]
        for event in stored:
            if event.version > end and event.type == "chips_posted" and event.version == end + 1:
                end = event.version
        return [e for e in stored if e.version <= end]
    if moment is not None:
        cut = [e for e in stored if e.recorded_at <= moment]
        if not cut:
            raise click.ClickException(f"{stream} had no event yet at {moment:%Y-%m-%d %H:%M:%S} "
                                       "UTC")
        return cut
    return stored


def last_level(fold: TableFold) -> Level | None:
    """The stakes of the table's last hand (what the next hand is planned with)."""
    for _version, event in reversed(fold.effective):
        if isinstance(event, HandStarted):
            return level_of(event)
    return None


def table_at(store: EventStore, stream: str, at_version: int | None = None,
             hand: int | None = None, moment: datetime | None = None,
             names: dict[str, str] | None = None) -> dict[str, Any]:
    """The table as it stood at the moment asked for, as `handlog table show` prints it."""
    stored = store.read(stream)
    if not stored:
        raise click.ClickException(f"no table stream {stream!r}: see `handlog table list`")
    stored = cut_stream(stream, stored, at_version, hand, moment)
    fold = fold_table(stream, stored, verify=True)
    if fold.state is None:
        raise click.ClickException(f"{stream} has no table yet")
    known = names if names is not None else player_names(store)
    view = describe_table(fold.state, known, last_level(fold))
    view["stream"] = stream
    view["version"] = fold.version
    last = stored[-1]
    # The last entry in words, as the table's log shows it to anyone (no unshown card).
    text = event_rows(fold, [last], True, known)[0]["text"]
    view["last_event"] = {"version": last.version, "type": last.type, "text": text,
                          "actor": last.actor, "device": last.device,
                          "recorded_at": last.recorded_at.isoformat()}
    head = store.head(stream)
    cut = head is not None and fold.version < head.version
    # A moment in the middle of a hand is not a log that ends early.
    view["findings"] = [f.as_dict() | {"rule_words": render_rule(f.rule)} for f in fold.findings
                        if not (cut and f.rule == "log" and "ends before" in f.message)]
    return view


def _echo_table(view: dict[str, Any]) -> None:
    last = view["last_event"]
    click.echo(f"{view['stream']} at version {view['version']} (last: {last['text']} by "
               f"{last['actor']} on {last['device']}, {last['recorded_at'][:19]} UTC)")
    for line in view["lines"]:
        click.echo(line)
    for finding in view["findings"]:
        label = "RECORDED UNDER OTHER RULES" if finding.get("kind") == OTHER_RULES else "FINDING"
        click.echo(f"{label} v{finding['version']}: {finding['message']} [{finding['rule_words']}]")


@table.command("show")
@click.argument("stream")
@click.option("--at", "at_version", type=click.IntRange(1), default=None,
              help="Show the table as it stood right after this version.")
@click.option("--hand", type=click.IntRange(1), default=None,
              help="Show the table as hand N started.")
@click.option("--time", "moment", default=None, metavar="UTC-TIME",
              help="Show the table as it stood at this time (e.g. 2026-05-01T20:30).")
@db_option
@click.option("--json", "as_json", is_flag=True)
def show(stream: str, at_version: int | None, hand: int | None, moment: str | None,
         db_url: str | None, as_json: bool) -> None:
    """Replay STREAM (up to a version, a hand's start or a time) and show seats with names,
    stacks, the button and blinds with why, pots with totals and who is eligible, the board,
    who acts and what he may do."""
    if sum(x is not None for x in (at_version, hand, moment)) > 1:
        raise click.UsageError("give one of --at, --hand and --time")
    with user_errors(), open_store(db_url) as store:
        view = table_at(store, stream, at_version, hand, _at_time(moment))
    if as_json:
        click.echo(json.dumps(view, indent=2))
        return
    _echo_table(view)


@click.group("floor")
def floor() -> None:
    """The whole room: every tournament and table, now or as it stood at a time."""


@floor.command("show")
@click.option("--time", "moment", default=None, metavar="UTC-TIME",
              help="The room as it stood at this time (e.g. 2026-05-01T20:30).")
@db_option
@click.option("--json", "as_json", is_flag=True)
def floor_show(moment: str | None, db_url: str | None, as_json: bool) -> None:
    """Each tournament's level, who is left and who is out (with places), then each table."""
    at = _at_time(moment)
    with user_errors(), open_store(db_url) as store:
        room = floor_at(store, at)
    if as_json:
        click.echo(json.dumps(room, indent=2))
        return
    tournaments, tables = room["tournaments"], room["tables"]
    for t in tournaments:
        on_break = " (on a break)" if t["on_break"] else ""
        click.echo(f"{t['tournament']}: level {t['level']}{on_break}, {len(t['left'])} left of "
                   f"{t['entrants']}"
                   + (f", winner {t['winner']}" if t["winner"] else ""))
        if t["out"]:
            click.echo("  out: " + ", ".join(f"{o['place']}. {o['name']}" for o in t["out"]))
    for view in tables:
        _echo_table(view)


def floor_at(store: EventStore, at: datetime | None) -> dict[str, Any]:
    """The room as it stood at `at` (now when None): each tournament's level, who is left and
    who is out, then every table that was open by then as `table_at` shows it."""
    names = player_names(store)
    tournaments = []
    for head in store.streams():
        if head.kind != "tournament":
            continue
        stored = [e for e in store.read(head.stream_id) if at is None or e.recorded_at <= at]
        if stored:
            tournaments.append(_tournament_at(head.stream_id, stored))
    tables = []
    for head in store.streams():
        if head.kind != "table":
            continue
        first = store.read(head.stream_id)[:1]
        if at is not None and (not first or first[0].recorded_at > at):
            continue
        tables.append(table_at(store, head.stream_id, moment=at, names=names))
    return {"time": at.isoformat() if at else None, "tournaments": tournaments,
            "tables": tables}


def _tournament_at(stream: str, stored: list[StoredEvent]) -> dict[str, Any]:
    state = fold_tournament(e.decode() for e in stored)
    out = sorted((e for e in state.entrants if e.place), key=lambda e: e.place)
    return {
        "tournament": state.tournament, "stream": stream, "level": state.level,
        "on_break": state.on_break, "entrants": len(state.entrants),
        "left": [e.name for e in state.entrants if not e.place and not e.withdrew],
        "out": [{"place": e.place, "name": e.name, "table": e.out_table, "hand": e.out_hand}
                for e in out],
        "winner": next((e.name for e in state.entrants if e.player == state.winner), ""),
        "version": stored[-1].version,
    }


def player_names(store: EventStore) -> dict[str, str]:
    """Player id -> name over every tournament of the log."""
    names: dict[str, str] = {}
    for head in store.streams():
        if head.kind == "tournament":
            names |= registered_names(store.read(head.stream_id))
    return names
