"""`handlog tournament create` and `handlog demo`."""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from pathlib import Path

import click

from handlog.engine.deals import deals_allowed
from handlog.engine.entries import not_sold
from handlog.engine.errors import RuleViolation
from handlog.engine.profiles import get_profile
from handlog.engine.structure import Structure, structure_problems
from handlog.engine.tournament_state import TournamentState
from handlog.engine.words import render_rule
from handlog.recorder.cli_db import db_option, user_errors
from handlog.recorder.demo import (
    DEMO_STRUCTURE,
    RE_ENTRY_STRUCTURE,
    REBUY_STRUCTURE,
    SATELLITE_STRUCTURE,
    DemoSummary,
    run_demo,
)
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.signing import (
    KEY_FILE,
    sign_checkpoints,
    signing_key,
    signing_key_option,
    signing_key_path,
)
from handlog.recorder.structure import StructureError, load_structure
from handlog.recorder.tournament_service import Tournaments
from handlog.schema.checkpoint import load_or_create_signing_key, record_checkpoint
from handlog.schema.database import resolve_url
from handlog.schema.sign_off import sign_off_results
from handlog.schema.store import open_store


@click.group("tournament")
def tournament() -> None:
    """Create and run tournaments."""


@tournament.command("create")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--id", "tournament_id", default=None, help="Tournament id (default: the file's "
              "name).")
@click.option("--flight", default=None, help="This log is that starting flight (1A, 1B...) "
              "of the structure's [days] event (sets days.flight, day 1).")
@click.option("--day", type=click.IntRange(1, 100), default=None,
              help="This log is that day of the structure's [days] event (sets days.day).")
@db_option
def create(file: Path, tournament_id: str | None, flight: str | None, day: int | None,
           db_url: str | None) -> None:
    """Create a tournament from a structure FILE (TOML): levels, chips, payouts, house rules.
    One structure serves every log of an event in flights and days (--flight, --day)."""
    try:
        structure = load_structure(file)
    except StructureError as error:
        raise click.ClickException(str(error)) from None
    if flight is not None or day is not None:
        if not structure.days.event:
            raise click.ClickException(f"--flight/--day: {file} has no [days] event (the "
                                       "event the flights and days belong to)")
        structure = replace(structure, days=replace(
            structure.days, flight=flight or "", day=day or 1))
    name = tournament_id or file.stem
    with user_errors(), open_store(db_url, upgrade=True) as store:
        try:
            Tournaments(Recorder(store)).create(name, structure, Actor("director", "director"))
        except RuleViolation as violation:
            raise click.ClickException(str(violation)) from None
    profile = get_profile(structure.profile)
    click.echo(f"created tournament {name!r}: {structure.name}, profile {profile.name}, "
               f"{len(structure.levels)} levels, {structure.starting_stack} chips each")


@tournament.command("sign-off")
@db_option
@click.argument("tournament_id", metavar="TOURNAMENT")
@click.option("--director", required=True, help="Who signs (the director's name).")
@click.option("--director-key", "director_key_file", required=True, metavar="FILE",
              type=click.Path(dir_okay=False, path_type=Path),
              help="The director's own signing key (made there on first use; `handlog log key "
              "--signing-key FILE` prints its public key).")
@signing_key_option
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The signed sign-off to write.")
def sign_off(db_url: str | None, tournament_id: str, director: str, director_key_file: Path,
             signing_key_file: Path | None, out: Path) -> None:
    """Sign the tournament's results (places, prizes, bounties, the high hand, deals, rulings
    and corrections) with the director's key, resting on a checkpoint signed now; the
    sign-off is written to --out and kept in the database (as the floor page's button does)."""
    stream = "tournament-" + tournament_id.removeprefix("tournament-")
    name = "director/" + "".join(c if c.isalnum() or c in "-_." else "-" for c in director)
    with user_errors():
        director_key, made = load_or_create_signing_key(director_key_file, name)
        room_key = signing_key(signing_key_path(signing_key_file))
        with open_store(db_url) as store:
            signed, taken = sign_off_results(
                store, director_key, stream, director,
                lambda reason: record_checkpoint(store, room_key, reason))
    try:
        out.write_text(signed.text, encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"cannot write {out}: {exc.strerror}") from None
    if made:
        click.echo(f"made the director's key {director_key_file}; public key: "
                   f"{director_key.verifier.text()}")
    click.echo(f"{len(signed.results)} results of {stream} signed off by {director} "
               f"on checkpoint {taken.number} ({taken.checkpoint.size} events): {out}")


@tournament.command("penalty")
@click.argument("tournament_id")
@click.argument("player")
@click.option("--kind", type=click.Choice(["warning", "hands", "rounds", "disqualification"]),
              required=True, help="What the player gets.")
@click.option("--count", default=0, type=click.IntRange(0, 100),
              help="How many hands or rounds he misses.")
@click.option("--rule", default="tda-71", show_default=True, help="The rule it rests on.")
@click.option("--reason", default="", help="Why (shown on the floor and in the report).")
@click.option("--by", "director", default="director", show_default=True,
              help="Who gives the penalty.")
@db_option
def penalty(tournament_id: str, player: str, kind: str, count: int, rule: str, reason: str,
            director: str, db_url: str | None) -> None:
    """Give PLAYER (his id or registered name) a penalty in TOURNAMENT_ID: missed hands are
    served at the table (dealt in, blinds and antes posted, hand killed) until done."""
    with user_errors(), open_store(db_url) as store:
        t = Tournaments(Recorder(store))
        try:
            who = _entrant(t, tournament_id, player)
            t.penalty(tournament_id, who, kind, rule, reason, Actor(director, "director"),
                      count)
            owed = t.serving(tournament_id).get(who, 0)
        except RuleViolation as violation:
            raise click.ClickException(str(violation)) from None
    click.echo(f"{kind} for {player} ({rule})" + (f": {owed} hand(s) to serve" if owed else ""))


def _entrant(t: Tournaments, tournament_id: str, player: str) -> str:
    """The id of the one entrant whose id or registered name is `player`."""
    state = t.state(tournament_id)
    matches = [e.player for e in state.entrants if player in (e.player, e.name)]
    if len(matches) != 1:
        raise click.ClickException(
            f"no single entrant {player!r} in {tournament_id}: give his id"
            + (f" (one of {', '.join(matches)})" if matches else ""))
    return matches[0]


@tournament.command("count")
@click.argument("tournament_id")
@click.argument("table")
@click.option("--stack", "stacks", multiple=True, required=True, metavar="PLAYER=CHIPS",
              help="A counted stack (the player's id or registered name); repeat per player.")
@click.option("--end-of-day", is_flag=True, help="The count at the end of a day (else at a "
              "break, which must be on).")
@click.option("--by", "director", default="director", show_default=True,
              help="Who records the count.")
@db_option
def count(tournament_id: str, table: str, stacks: tuple[str, ...], end_of_day: bool,
          director: str, db_url: str | None) -> None:
    """Record the counted stacks at TABLE of TOURNAMENT_ID and show each beside the stack the
    log computes: a difference stays open until the director corrects the stack."""
    with user_errors(), open_store(db_url) as store:
        t = Tournaments(Recorder(store))
        try:
            counted: dict[str, int] = {}
            for item in stacks:
                who, sep, chips = item.rpartition("=")
                if not sep or not chips.strip().isdigit():
                    raise click.ClickException(f"--stack {item!r}: give PLAYER=CHIPS, chips a "
                                               "whole number")
                counted[_entrant(t, tournament_id, who.strip())] = int(chips)
            recorded = t.count_stacks(tournament_id, table,
                                      "end_of_day" if end_of_day else "break", counted,
                                      Actor(director, "director"))
            names = {e.player: e.name for e in t.state(tournament_id).entrants}
        except RuleViolation as violation:
            raise click.ClickException(str(violation)) from None
    event = recorded.events[0].decode()
    differ = [c for c in event.counts if c.counted != c.computed]
    click.echo(f"table {table}: {len(event.counts)} stack(s) counted, {len(differ)} differ "
               "from the log")
    for c in differ:
        click.echo(f"  {names.get(c.player, c.player)}: counted {c.counted}, the log says "
                   f"{c.computed}")


@tournament.command("correct-stack")
@click.argument("tournament_id")
@click.argument("player")
@click.option("--reason", required=True, help="Why the stack is what the director rules.")
@click.option("--stack", default=None, type=click.IntRange(0), help="The stack he rules "
              "(default: the counted one).")
@click.option("--by", "director", default="director", show_default=True,
              help="Who rules.")
@db_option
def correct_stack(tournament_id: str, player: str, reason: str, stack: int | None,
                  director: str, db_url: str | None) -> None:
    """Settle PLAYER's count that differs from the log: his stack is set to the counted one
    (or --stack), recorded at his table as a stack adjustment with the reason."""
    with user_errors(), open_store(db_url) as store:
        t = Tournaments(Recorder(store))
        try:
            recorded = t.correct_stack(tournament_id, _entrant(t, tournament_id, player),
                                       reason, Actor(director, "director"), stack)
        except RuleViolation as violation:
            raise click.ClickException(str(violation)) from None
    event = recorded.events[0].decode()
    click.echo(f"{player}: counted {event.counted}, the log had {event.computed}: "
               f"{event.amount:+} chips ({reason})")


@tournament.command("hand-for-hand")
@click.argument("tournament_id")
@click.argument("switch", type=click.Choice(["on", "off"]))
@click.option("--by", "director", default="director", show_default=True, help="Who rules.")
@db_option
def hand_for_hand(tournament_id: str, switch: str, director: str, db_url: str | None) -> None:
    """Turn hand-for-hand on or off in TOURNAMENT_ID: on, no table deals its next hand until
    every table has finished the round's hand."""
    with user_errors(), open_store(db_url) as store:
        t = Tournaments(Recorder(store))
        try:
            t.hand_for_hand(tournament_id, switch == "on", Actor(director, "director"))
        except RuleViolation as violation:
            raise click.ClickException(str(violation)) from None
    click.echo(f"hand-for-hand {switch} in {tournament_id}")


def _add_floor_commands() -> None:
    # The floor's steps (register, draw, level, break, move, deal...): cli_tournament_floor.
    from handlog.recorder.cli_tournament_floor import COMMANDS

    for command in COMMANDS:
        tournament.add_command(command)


_add_floor_commands()


@click.command("demo")
@db_option
@click.option("--players", default=27, show_default=True, type=click.IntRange(2, 200))
@click.option("--tables", default=3, show_default=True, type=click.IntRange(1, 30))
@click.option("--seed", default=7, show_default=True, type=int)
@click.option("--hands", default=0, show_default=True, type=click.IntRange(0),
              help="Stop after this many hands (0: play to a winner).")
@click.option("--structure", "structure_file",
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="A structure file (TOML) with its house rules, e.g. "
              "examples/octobermuck.toml (default: the built-in TDA demo structure).")
@click.option("--hands-per-level", default=0, show_default=True, type=click.IntRange(0),
              help="Hands played (over all tables) before the next level (0: 4 per table, "
              "at least 6).")
@click.option("--chip-count", is_flag=True, help="At the first break, count a table's stacks "
              "(one a chip over the log's) and correct the difference.")
@click.option("--hand-for-hand", is_flag=True, help="Play the last two tables hand-for-hand.")
@click.option("--re-entries", default=0, show_default=True, type=click.IntRange(0, 20),
              help="Each player out re-enters up to N times while the structure takes "
              "re-entries (default structure: examples/tda-re-entry.toml).")
@click.option("--rebuys", is_flag=True, help="Players short of the starting stack rebuy during "
              "the rebuy levels, most take the add-on at its break (default structure: "
              "examples/tda-rebuy.toml).")
@click.option("--satellite", "satellite_seats", default=0, type=click.IntRange(0),
              help="A satellite whose prizes are at most SEATS seats in another event, the "
              "cash left to the next place (default structure: examples/tda-satellite.toml).")
@click.option("--guarantee", default=None, metavar="AMOUNT",
              help="Guarantee a prize pool of AMOUNT (e.g. 1000 or 1000.50): the house adds "
              "the overlay when the entries fall short.")
@click.option("--deal", type=click.Choice(["icm", "chip-chop", "chip-chop-last-guaranteed"]),
              default=None, help="Record a deal of that kind when three players are left at "
              "the final table (where the house rules allow deals, e.g. Octobermuck).")
@click.option("--flights", default=0, show_default=True, type=click.IntRange(0, 8),
              help="An event in N starting flights (Day 1A, 1B...) of --players each, their "
              "survivors bagged, then --days days (default structure: "
              "examples/tda-flights.toml).")
@click.option("--days", default=2, show_default=True, type=click.IntRange(2, 5),
              help="With --flights: the days of the event (the last plays to a winner).")
@signing_key_option
def demo(db_url: str | None, players: int, tables: int, seed: int, hands: int,
         structure_file: Path | None, hands_per_level: int, deal: str | None,
         chip_count: bool, hand_for_hand: bool, re_entries: int, rebuys: bool,
         flights: int, days: int, satellite_seats: int, guarantee: str | None,
         signing_key_file: Path | None) -> None:
    """Play a simulated tournament from registration to a winner through the recorder:
    table breaks down to the final table, a penalty, bounties and the high hand where the
    structure has them, and optionally a deal."""
    structure = None
    if structure_file is not None:
        try:
            structure = load_structure(structure_file)
        except StructureError as exc:
            raise click.ClickException(str(exc)) from None
    if flights:
        _days_demo(db_url, flights, days, players, seed, structure)
        return
    if deal is not None:
        # A room profile (a structure file's own) is read from the structure's text, not
        # looked up by its name.
        ref = (structure or load_structure(DEMO_STRUCTURE)).profile
        profile = get_profile(ref)
        if not deals_allowed(ref):
            raise click.ClickException(
                f"--deal: the {profile.name} rules allow no deals (deals_allowed is false, "
                f"{render_rule(profile.rule('deal'))}); try --structure "
                "examples/octobermuck.toml, or a room profile that sets deals_allowed = true")
    if re_entries or rebuys:
        _check_entries_offered(structure, re_entries, rebuys)
    if satellite_seats or guarantee is not None:
        structure = _prize_options(structure, satellite_seats, guarantee, re_entries, rebuys)
    key_path = _demo_key_path(signing_key_file, db_url)
    with user_errors(), open_store(db_url, upgrade=True) as store:
        recorder = Recorder(store)
        # Signed as `handlog serve` signs: at once after rulings, corrections, awards, deals
        # and payouts, and what is left unsigned at the end signed before leaving.
        checkpoints = sign_checkpoints(recorder, store, signing_key(key_path))
        with click.progressbar(length=players - 1, label="players out",
                               file=sys.stderr) as bar:
            seen = [players]

            def progress(summary: DemoSummary, remaining: int) -> None:
                if remaining < seen[0]:
                    bar.update(seen[0] - remaining)
                    seen[0] = remaining

            try:
                summary = run_demo(recorder, players, tables, seed, hands, structure,
                                   hands_per_level, on_progress=progress,
                                   deal=(deal or "").replace("-", "_"),
                                   chip_count=chip_count, hand_for_hand=hand_for_hand,
                                   re_entries=re_entries, rebuys=rebuys)
            except RuleViolation as violation:
                raise click.ClickException(str(violation)) from None
            finally:
                checkpoints.flush()
                checkpoints.close()
        prizes_note = _prizes_note(Tournaments(recorder).state(summary.tournament))
    rate = summary.hands / summary.seconds if summary.seconds else 0.0
    click.echo(f"tournament {summary.tournament}: {summary.hands} hands, {summary.commands} "
               f"commands in {summary.seconds:.1f} s ({rate:.1f} hands/s recorded)")
    click.echo(f"corrections {summary.corrections}, misdeals {summary.misdeals}, rulings "
               f"{summary.rulings}, penalties {summary.penalties}"
               + (f", deal {summary.deal}" if summary.deal else "")
               + (", high hand awarded" if summary.high_hand else "")
               + (f", chip counts {summary.chip_counts}" if summary.chip_counts else "")
               + (", hand-for-hand at the last two tables" if summary.hand_for_hand else "")
               + (f", re-entries {summary.re_entries}" if re_entries else "")
               + (f", rebuys {summary.rebuys}, add-ons {summary.add_ons}" if rebuys else ""))
    if deal and not summary.deal:
        click.echo(f"no deal recorded: {summary.no_deal or 'the final table was never reached'}")
    if prizes_note:
        click.echo(prizes_note)
    if summary.winner:
        click.echo(f"winner: {summary.winner}")
        for place, name in summary.places[:10]:
            click.echo(f"  {place:>3}. {name}")
        if len(summary.places) > 10:
            click.echo(f"  ... {len(summary.places)} places recorded")
    else:
        click.echo(f"stopped after {summary.hands} hands (no winner yet)")
    click.echo(f"check it: handlog replay --db {store.url}")


def _days_demo(db_url: str | None, flights: int, days: int, players: int, seed: int,
               structure: Structure | None) -> None:
    from handlog.recorder.demo_days import run_days_demo

    with user_errors(), open_store(db_url, upgrade=True) as store:
        try:
            result = run_days_demo(Recorder(store), flights, days, players, seed, structure)
        except RuleViolation as violation:
            raise click.ClickException(str(violation)) from None
    click.echo(f"event {result.event}: {len(result.logs)} logs ({', '.join(result.logs)}), "
               f"{result.hands} hands, {result.bags} bags in {result.seconds:.1f} s")
    click.echo(f"winner: {result.winner}")
    click.echo(f"check it: handlog replay --db {store.url}; handlog tournament event "
               f"{result.event} --db {store.url}")
def _prizes_note(state: TournamentState) -> str:
    """The seats a satellite awarded and the house's overlay, in words ("" when neither)."""
    prizes = state.prizes
    if prizes is None or not (prizes.seats or prizes.overlay):
        return ""
    from handlog.replay.report import money_text

    cur = state.structure.money.currency
    parts = []
    if prizes.seats:
        cash = sum(a.amount for a in prizes.awards)
        parts.append(f"seats: {len(prizes.seats)} in {prizes.seats[0].target} "
                     f"({money_text(prizes.seats[0].value, cur)} each), cash remainder "
                     f"{money_text(cash, cur)}")
    if prizes.overlay:
        parts.append(f"overlay: the house added {money_text(prizes.overlay, cur)} to reach "
                     f"the {money_text(state.structure.money.guarantee, cur)} guarantee")
    return "; ".join(parts)


def _prize_options(structure: Structure | None, seats: int, guarantee: str | None,
                   re_entries: int, rebuys: bool) -> Structure:
    """The structure with --satellite's seats and --guarantee's amount; each refusal names
    its option and what is allowed."""
    chosen = structure or load_structure(
        SATELLITE_STRUCTURE if seats else RE_ENTRY_STRUCTURE if re_entries
        else REBUY_STRUCTURE if rebuys else DEMO_STRUCTURE)
    if seats:
        if not chosen.satellite.seat_value:
            raise click.ClickException(f"--satellite: {chosen.name} pays no seats (its "
                                       "[satellite] seat_value is 0); try --structure "
                                       "examples/tda-satellite.toml")
        chosen = replace(chosen, satellite=replace(chosen.satellite, seats=seats))
    if guarantee is not None:
        try:
            amount = Decimal(guarantee) * 100
        except InvalidOperation:
            amount = Decimal(-1)
        if not amount.is_finite() or amount < 0 or amount != int(amount):
            raise click.ClickException(f"--guarantee: {guarantee!r} is not an amount of money "
                                       "(a number of at most 2 decimals, e.g. 1000 or 1000.50)")
        chosen = replace(chosen, money=replace(chosen.money, guarantee=int(amount)))
    problems = structure_problems(chosen)
    if problems:
        raise click.ClickException("; ".join(str(p) for p in problems))
    return chosen


def _check_entries_offered(structure: Structure | None, re_entries: int, rebuys: bool) -> None:
    """--re-entries and --rebuys need a structure that offers them under rules that allow
    them: else the refusal names the rule, before anything is recorded."""
    chosen = structure or load_structure(RE_ENTRY_STRUCTURE if re_entries else REBUY_STRUCTURE)
    option = "--re-entries" if re_entries else "--rebuys"
    refusal = not_sold(chosen)
    if refusal is not None:
        raise click.ClickException(f"{option}: {refusal}")
    if re_entries and not chosen.re_entry.per_person:
        raise click.ClickException(f"--re-entries: {chosen.name} offers no re-entry (its "
                                   "[re_entry] per_person is 0); try --structure "
                                   "examples/tda-re-entry.toml")
    if rebuys and not chosen.rebuy.last_level:
        raise click.ClickException(f"--rebuys: {chosen.name} offers no rebuys (its [rebuy] "
                                   "last_level is 0); try --structure examples/tda-rebuy.toml")


def _demo_key_path(option: Path | None, db_url: str | None) -> Path:
    """--signing-key, else $HANDLOG_SIGNING_KEY, else beside a SQLite file, else ./."""
    if option is not None or os.environ.get("HANDLOG_SIGNING_KEY"):
        return signing_key_path(option)
    url = resolve_url(db_url)
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        return Path(url.removeprefix("sqlite:///")).parent / KEY_FILE
    return signing_key_path(None)
