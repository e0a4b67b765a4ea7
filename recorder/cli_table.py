"""`handlog table`: list the tables of the log and show one as it stood at any moment."""

from __future__ import annotations

import json
from typing import Any

import click

from engine.hand import HandState, legal_actions, pots, showdown_order
from engine.profiles import get_profile
from engine.table import TableState
from recorder.cli_db import db_option, user_errors
from replay.fold import OTHER_RULES, fold_table
from schema.store import open_store


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


@table.command("show")
@click.argument("stream")
@click.option("--at", "at_version", type=click.IntRange(1), default=None,
              help="Show the table as it stood right after this version.")
@db_option
@click.option("--json", "as_json", is_flag=True)
def show(stream: str, at_version: int | None, db_url: str | None, as_json: bool) -> None:
    """Replay STREAM (up to --at VERSION) and show seats, stacks, pots, board and who acts."""
    with user_errors(), open_store(db_url) as store:
        stored = store.read(stream)
    if not stored:
        raise click.ClickException(f"no table stream {stream!r}: see `handlog table list`")
    if at_version is not None:
        if at_version > stored[-1].version:
            raise click.ClickException(f"{stream} has {stored[-1].version} versions")
        stored = [e for e in stored if e.version <= at_version]
    fold = fold_table(stream, stored, verify=True)
    if fold.state is None:
        raise click.ClickException(f"{stream} has no table yet")
    view = describe_table(fold.state)
    view["version"] = fold.version
    last = stored[-1]
    view["last_event"] = {"version": last.version, "type": last.type, "actor": last.actor,
                          "device": last.device, "recorded_at": last.recorded_at.isoformat()}
    view["findings"] = [f.as_dict() for f in fold.findings]
    if as_json:
        click.echo(json.dumps(view, indent=2))
        return
    click.echo(f"{stream} at version {fold.version} (last: {last.type} by {last.actor} on "
               f"{last.device}, {last.recorded_at:%Y-%m-%d %H:%M:%S} UTC)")
    for line in view["lines"]:
        click.echo(line)
    for finding in fold.findings:
        label = "RECORDED UNDER OTHER RULES" if finding.kind == OTHER_RULES else "FINDING"
        click.echo(f"{label} v{finding.version}: {finding.message} [{finding.rule}]")


def describe_table(state: TableState) -> dict[str, Any]:
    """A person's view of the table: one line per seat, then the hand."""
    rules = get_profile(state.profile).name
    lines: list[str] = [f"table {state.table} ({rules} rules), button seat "
                        f"{state.button}, {state.hands_played} hands played"]
    hand = state.hand if state.hand_in_progress else None
    in_hand: dict[int, int] = {}
    if hand is not None:
        in_hand = {seat: i for i, seat in enumerate(hand.setup.seats)}
    for seat in state.seats:
        position = in_hand.get(seat.seat)
        if hand is not None and position is not None:
            lines.append(_seat_line(hand, position, seat.seat, seat.player))
        else:
            lines.append(f"  seat {seat.seat}: {seat.player} {seat.stack}"
                         + (" (waiting)" if seat.waits else ""))
    if hand is not None:
        lines.extend(_hand_lines(hand))
    elif state.carry:
        lines.append(f"  carried into the next pot: {state.carry} (odd chips of a color-up, "
                     "nobody's until the next hand is won)")
    return {"lines": lines}


def _seat_line(hand: HandState, position: int, seat: int, player: str) -> str:
    marks = []
    if seat == hand.setup.button_seat:
        marks.append("button")
    if seat == hand.setup.small_blind_seat:
        marks.append("small blind")
    if seat == hand.setup.big_blind_seat:
        marks.append("big blind")
    state = "folded" if hand.folded[position] else (
        "all-in" if hand.stacks[position] == 0 else "")
    text = (f"  seat {seat}: {player} behind {hand.stacks[position]}, in front "
            f"{hand.bets[position]}, in the pot {hand.committed[position]}")
    if marks:
        text += f" [{', '.join(marks)}]"
    if state:
        text += f" {state}"
    if hand.to_act == position:
        text += "  <- to act"
    return text


def _hand_lines(hand: HandState) -> list[str]:
    from engine.cards import cards_text

    lines = [f"hand {hand.setup.hand_number}: {hand.phase}, board "
             f"{cards_text(hand.board) or '(none)'}"]
    if hand.setup.dead_money:
        lines.append(f"  carried into this pot: {hand.setup.dead_money} (odd chips of a "
                     "color-up, in the main pot)")
    for index, pot in enumerate(pots(hand)):
        name = "main pot" if index == 0 else f"side pot {index}"
        eligible = ", ".join(f"seat {hand.setup.seats[i]}" for i in pot.eligible)
        lines.append(f"  {name}: {pot.amount} (eligible: {eligible})")
    legal = legal_actions(hand)
    if legal is not None:
        seat = hand.setup.seats[legal.player]
        lines.append(f"  seat {seat} may: {'; '.join(legal.describe())}")
        lines.append(f"  the last full raise is {hand.last_full_raise}: a raise must be to at "
                     f"least {hand.current_bet + hand.last_full_raise} (TDA 43); a short all-in "
                     "does not reopen the betting (TDA 47)")
    if hand.phase == "showdown":
        order = ", ".join(f"seat {hand.setup.seats[i]}" for i in showdown_order(hand))
        lines.append(f"  showdown order (TDA 16): {order}")
    return lines
