"""`handlog tournament register|draw|level|break|...`: every floor step from the command line.

Each command builds the floor's own tournament command (engine/tournament_commands.py) and
records it through `Tournaments.execute`, the one dispatch the floor page's
`POST /api/tournaments/{t}/commands` records through: the same decisions, the same events, the
same refusals (printed as one line with the rule, exit 1). An event can be scripted, and a page
that fails has a fallback.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal, InvalidOperation

import click

from handlog.engine import tournament_commands as tc
from handlog.engine.errors import RuleViolation
from handlog.engine.money import money_block
from handlog.engine.tournament_state import TournamentState
from handlog.recorder.cli_db import db_option, user_errors
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.tournament_service import Tournaments
from handlog.replay.days_check import event_report, events_of
from handlog.replay.registry import find_person, registry
from handlog.schema.store import open_store

BY = click.option("--by", "director", default="director", show_default=True,
                  help="Who gives the command (recorded with it).")

Build = Callable[[Tournaments, TournamentState], tc.TournamentCommand]
Report = Callable[[Tournaments, TournamentState, TournamentState], str]


def run(db_url: str | None, tournament_id: str, director: str, build: Build,
        report: Report) -> None:
    """Record the command `build` makes (given the tournament now) as the floor does and echo
    `report` of the state before and after."""
    with user_errors(), open_store(db_url) as store:
        t = Tournaments(Recorder(store))
        try:
            before = t.state(tournament_id)
            command = build(t, before)
            t.execute(tournament_id, command, Actor(director, "director", "cli"))
            after = t.state(tournament_id)
        except RuleViolation as violation:
            raise click.ClickException(str(violation)) from None
        click.echo(report(t, before, after))


def entrant(state: TournamentState, player: str, alive: bool | None = None) -> str:
    """The id of the one entry whose id or registered name is `player` (a person's entries
    share his name: `alive` picks his live entry, or his last one out)."""
    found = [e for e in state.entrants if player in (e.player, e.name)]
    if len(found) > 1 and alive is not None:
        found = [e for e in found if e.alive == alive][-1:]
    matches = [e.player for e in found]
    if len(matches) != 1:
        raise click.ClickException(
            f"no single entrant {player!r} in {state.tournament}: give his id or registered "
            "name" + (f" (one of {', '.join(matches)})" if matches else ""))
    return matches[0]


def cents(text: str, field: str) -> int:
    """An amount typed in the currency ("12.50") in cents."""
    try:
        amount = Decimal(text)
    except InvalidOperation:
        raise click.ClickException(f"{field} {text!r}: give an amount such as 12.50") from None
    if amount < 0 or amount != amount.quantize(Decimal("0.01")):
        raise click.ClickException(f"{field} {text!r}: an amount of 0 or more, to the cent")
    return int(amount * 100)


def _name(state: TournamentState, player: str) -> str:
    found = state.entrant(player)
    return found.name if found is not None else player


def _where(state: TournamentState, player: str) -> str:
    e = state.entrant(player)
    return f"table {e.table} seat {e.seat}" if e is not None and e.table else "not seated"


@click.command("register")
@click.argument("tournament_id")
@click.argument("name")
@click.option("--high-hand", is_flag=True, help="He paid the high-hand jackpot's fee.")
@click.option("--person", default="", help="The room's player id (generated when omitted); "
              "a person whose entry is out re-enters with it.")
@BY
@db_option
def register(tournament_id: str, name: str, high_hand: bool, person: str, director: str,
             db_url: str | None) -> None:
    """Register NAME in TOURNAMENT_ID (a late entry once play has started: seated at once at
    the shortest table, with the house's late-entry deduction)."""
    run(db_url, tournament_id, director,
        lambda _t, _s: tc.Register(name=name, high_hand=high_hand, person=person),
        _registered)


def _registered(_t: Tournaments, before: TournamentState, after: TournamentState) -> str:
    e = after.entrants[-1]
    kind = f" (re-entry {e.entry - 1} of {e.who})" if e.entry > 1 else ""
    return (f"registered {e.name} as {e.player}{kind}" + (" (late)" if e.late else "")
            + (", high-hand fee paid" if e.high_hand else "")
            + (f", {_where(after, e.player)}" if e.table else "")
            + f"; {len(after.entrants)} entries")


@click.command("re-enter")
@click.argument("tournament_id")
@click.argument("player")
@BY
@db_option
def re_enter(tournament_id: str, player: str, director: str, db_url: str | None) -> None:
    """Re-enter the person whose entry PLAYER (id or name) is out: a new entry, a full
    starting stack, where the structure's [re_entry] and the house rules allow it."""
    run(db_url, tournament_id, director,
        lambda _t, s: tc.ReEnter(player=entrant(s, player, alive=False)), _registered)


def _bought(what: str) -> Report:
    """What a rebuy or an add-on bought: the entry whose count changed, the money, the chips."""
    def report(_t: Tournaments, before: TournamentState, after: TournamentState) -> str:
        e = next(a for a, b in zip(after.entrants, before.entrants, strict=False)
                 if (a.rebuys, a.add_on) != (b.rebuys, b.add_on))
        cur = after.structure.money.currency
        paid = money_block(after).as_dict()[what] - money_block(before).as_dict()[what]
        kind = "rebuy" if what == "rebuys" else "add-on"
        return (f"{e.name} ({e.player}): {kind} {cur} {paid / 100:.2f}, "
                f"{after.ledger.total - before.ledger.total} chips; prize pool "
                f"{cur} {after.prize_pool / 100:.2f}")
    return report


@click.command("rebuy")
@click.argument("tournament_id")
@click.argument("player")
@BY
@db_option
def rebuy(tournament_id: str, player: str, director: str, db_url: str | None) -> None:
    """A rebuy by PLAYER (id or name): during the structure's [rebuy] levels, at its stack or
    below; the chips go on his stack at his table."""
    run(db_url, tournament_id, director,
        lambda _t, s: tc.Rebuy(player=entrant(s, player, alive=True)), _bought("rebuys"))


@click.command("add-on")
@click.argument("tournament_id")
@click.argument("player")
@BY
@db_option
def add_on(tournament_id: str, player: str, director: str, db_url: str | None) -> None:
    """The add-on by PLAYER (id or name), at the break after the structure's
    add_on.after_level; the chips go on his stack at his table."""
    run(db_url, tournament_id, director,
        lambda _t, s: tc.AddOn(player=entrant(s, player, alive=True)), _bought("add_ons"))


@click.command("high-hand-fee")
@click.argument("tournament_id")
@click.argument("player")
@click.option("--paid/--not-paid", default=True, show_default=True,
              help="Whether he paid the jackpot's fee.")
@BY
@db_option
def high_hand_fee(tournament_id: str, player: str, paid: bool, director: str,
                  db_url: str | None) -> None:
    """Record PLAYER's high-hand fee after his entry (or take back a tick given in error):
    the jackpot's pool follows, until the jackpot is awarded."""
    def report(_t: Tournaments, _b: TournamentState, after: TournamentState) -> str:
        block = money_block(after)
        paying = sum(1 for e in after.entrants if e.high_hand)
        return (f"{player}: high-hand fee {'paid' if paid else 'not paid'}; {paying} paid, "
                f"pool {after.structure.money.currency} {block.high_hand_pool / 100:.2f}")
    run(db_url, tournament_id, director,
        lambda _t, s: tc.HighHandFee(player=entrant(s, player), paid=paid), report)


@click.command("draw")
@click.argument("tournament_id")
@click.option("--tables", type=click.IntRange(1, 10_000), default=None,
              help="Tables to draw (default: as few as the seats per table allow).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None,
              help="The draw's seed (recorded; random when omitted).")
@BY
@db_option
def draw(tournament_id: str, tables: int | None, seed: int | None, director: str,
         db_url: str | None) -> None:
    """Draw the seats of every entrant not yet seated."""
    def build(_t: Tournaments, s: TournamentState) -> tc.TournamentCommand:
        needed = -(-len([e for e in s.entrants if e.alive]) // s.structure.seats_per_table)
        return tc.DrawSeats(tables=tables or max(1, needed), seed=seed)

    def report(_t: Tournaments, _b: TournamentState, after: TournamentState) -> str:
        seated = [e for e in after.entrants if e.seated]
        return f"seats drawn: {len(seated)} players at table(s) {', '.join(after.tables)}"
    run(db_url, tournament_id, director, build, report)


def _level_report(_t: Tournaments, _b: TournamentState, after: TournamentState) -> str:
    s = after.stakes
    if after.on_break:
        return f"break after level {after.level}"
    if s is None:
        return "no level yet"
    return (f"level {after.level}: {s.small_blind}/{s.big_blind}"
            + (f" ante {s.ante}" if s.ante else ""))


@click.command("level")
@click.argument("tournament_id")
@click.option("--ruling", default="", help="The director's reason to skip a scheduled break "
              "or color-up.")
@BY
@db_option
def level(tournament_id: str, ruling: str, director: str, db_url: str | None) -> None:
    """Start the next level (refused, naming what comes first, while a break, a color-up or
    the ante checkpoint is due)."""
    run(db_url, tournament_id, director, lambda _t, _s: tc.StartLevel(ruling=ruling),
        _level_report)


@click.command("break")
@click.argument("tournament_id")
@click.option("--minutes", type=click.IntRange(0, 24 * 60), default=0, show_default=True,
              help="An extra break's length (0: the scheduled break's).")
@click.option("--end", is_flag=True, help="End the break on now.")
@BY
@db_option
def break_(tournament_id: str, minutes: int, end: bool, director: str,
           db_url: str | None) -> None:
    """Start a break (the scheduled one, or an extra one of --minutes), or --end it."""
    command: tc.TournamentCommand = tc.EndBreak() if end else tc.StartBreak(minutes=minutes)
    run(db_url, tournament_id, director, lambda _t, _s: command,
        lambda _t, _b, a: ("the break is on" if a.on_break else "the break is over"))


@click.command("color-up")
@click.argument("tournament_id")
@BY
@db_option
def color_up(tournament_id: str, director: str, db_url: str | None) -> None:
    """Color up the chips the schedule takes out now (every table, between hands)."""
    def report(_t: Tournaments, before: TournamentState, after: TournamentState) -> str:
        return (f"colored up: smallest chip {before.chip_unit} -> {after.chip_unit}; chips "
                f"in play {before.ledger.total} -> {after.ledger.total}")
    run(db_url, tournament_id, director, lambda _t, _s: tc.ColorUp(), report)


@click.command("antes")
@click.argument("tournament_id")
@BY
@db_option
def antes(tournament_id: str, director: str, db_url: str | None) -> None:
    """Decide the antes at the structure's checkpoint (the players left against its count)."""
    run(db_url, tournament_id, director, lambda _t, _s: tc.DecideAntes(),
        lambda _t, _b, a: f"antes decided: {a.antes_used}")


@click.command("clock")
@click.argument("tournament_id")
@click.argument("action", type=click.Choice(["pause", "resume", "add"]))
@click.option("--seconds", type=click.IntRange(-4 * 3600, 4 * 3600), default=60,
              show_default=True, help="For add: the seconds added (negative: taken off).")
@click.option("--reason", default="", help="Why (recorded).")
@BY
@db_option
def clock(tournament_id: str, action: str, seconds: int, reason: str, director: str,
          db_url: str | None) -> None:
    """Pause or resume the level clock, or add (take off) time."""
    command = tc.Clock(action="add_time" if action == "add" else action,  # type: ignore[arg-type]
                       seconds=seconds if action == "add" else 0, reason=reason)
    run(db_url, tournament_id, director, lambda _t, _s: command,
        lambda _t, _b, _a: f"clock {action}" + (f" {seconds:+} s" if action == "add" else ""))


@click.command("message")
@click.argument("tournament_id")
@click.argument("text", default="")
@BY
@db_option
def message(tournament_id: str, text: str, director: str, db_url: str | None) -> None:
    """Post TEXT to the room: every clock screen of the tournament shows it (no TEXT: take
    the message down)."""
    run(db_url, tournament_id, director, lambda _t, _s: tc.Message(text=text),
        lambda _t, _b, a: f"clock screen message: {a.message}" if a.message
        else "clock screen message taken down")


@click.command("move")
@click.argument("tournament_id")
@click.argument("player")
@click.argument("to_table")
@click.option("--seat", type=click.IntRange(0, 10), default=0,
              help="The seat (0: the seat the rules give).")
@click.option("--reason", default="floor move", show_default=True, help="Why (recorded).")
@click.option("--rule", default="", help="The rule it rests on.")
@BY
@db_option
def move(tournament_id: str, player: str, to_table: str, seat: int, reason: str, rule: str,
         director: str, db_url: str | None) -> None:
    """Move PLAYER (his id or registered name) to TO_TABLE between hands."""
    def build(_t: Tournaments, s: TournamentState) -> tc.TournamentCommand:
        return tc.Move(player=entrant(s, player), to_table=to_table, to_seat=seat,
                       reason=reason, rule=rule)
    run(db_url, tournament_id, director, build,
        lambda _t, _b, a: f"{player} moved to {_where(a, entrant(a, player))}")


def _moves_report(_t: Tournaments, before: TournamentState, after: TournamentState) -> str:
    moved = [e for e in after.entrants
             if (b := before.entrant(e.player)) is not None and (b.table, b.seat)
             != (e.table, e.seat) and e.table]
    closed = [x for x in before.tables if x not in after.tables]
    lines = [f"{e.name}: {_where(after, e.player)}" for e in moved]
    head = (f"table {', '.join(closed)} broken; " if closed else "") + f"{len(moved)} moved"
    return "\n".join([head, *lines])


@click.command("balance")
@click.argument("tournament_id")
@BY
@db_option
def balance(tournament_id: str, director: str, db_url: str | None) -> None:
    """Make the balancing moves the rules call for now."""
    run(db_url, tournament_id, director, lambda _t, _s: tc.Balance(), _moves_report)


@click.command("break-table")
@click.argument("tournament_id")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None,
              help="The draw's seed (recorded; random when omitted).")
@BY
@db_option
def break_table(tournament_id: str, seed: int | None, director: str,
                db_url: str | None) -> None:
    """Break the table the rules name now (its players drawn into the free seats, or the
    final table redrawn)."""
    run(db_url, tournament_id, director, lambda _t, _s: tc.BreakTable(seed=seed),
        _moves_report)


@click.command("assign-bounty")
@click.argument("tournament_id")
@click.argument("player")
@click.argument("to")
@BY
@db_option
def assign_bounty(tournament_id: str, player: str, to: str, director: str,
                  db_url: str | None) -> None:
    """Decide a bounty the rules left open: PLAYER's bounty goes to TO."""
    run(db_url, tournament_id, director,
        lambda _t, s: tc.AssignBounty(player=entrant(s, player), to=entrant(s, to)),
        lambda _t, _b, _a: f"{player}'s bounty to {to}")


@click.command("award-high-hand")
@click.argument("tournament_id")
@click.option("--player", "players", multiple=True,
              help="A holder the director names (repeat; default: the engine's proposal, the "
              "holders of the best hand shown).")
@BY
@db_option
def award_high_hand(tournament_id: str, players: tuple[str, ...], director: str,
                    db_url: str | None) -> None:
    """Award the high-hand jackpot: to the best hand shown (equal hands split), or to the
    players named when none was shown."""
    def report(_t: Tournaments, _b: TournamentState, after: TournamentState) -> str:
        h = after.high_hand
        assert h is not None
        cur = after.structure.money.currency
        return f"jackpot {cur} {h.pool / 100:.2f} ({h.hand}): " + ", ".join(
            f"{_name(after, s.player)} {cur} {s.amount / 100:.2f}" for s in h.shares)
    run(db_url, tournament_id, director,
        lambda _t, s: tc.AwardHighHand(players=tuple(entrant(s, p) for p in players)), report)


METHODS = ("icm", "chip-chop", "chip-chop-last-guaranteed", "typed")


@click.command("deal")
@click.argument("tournament_id")
@click.option("--method", type=click.Choice(METHODS), default="icm", show_default=True)
@click.option("--kept", default="0", show_default=True,
              help="Kept back to play for, in the currency (e.g. 100.00).")
@click.option("--consent", "consents", multiple=True, metavar="PLAYER",
              help="A player who agrees (his id or registered name); repeat for each.")
@click.option("--amount", "amounts", multiple=True, metavar="PLAYER=AMOUNT",
              help="For --method typed: what he takes, in the currency; repeat for each.")
@click.option("--preview", is_flag=True, help="Show every method's amounts and record "
              "nothing (what each player hears before he agrees).")
@BY
@db_option
def deal(tournament_id: str, method: str, kept: str, consents: tuple[str, ...],
         amounts: tuple[str, ...], preview: bool, director: str, db_url: str | None) -> None:
    """A deal at the final table: --preview shows each player's amount under each method;
    without it the deal is recorded once every player left has consented."""
    kept_cents = cents(kept, "--kept")
    if preview:
        with user_errors(), open_store(db_url) as store:
            t = Tournaments(Recorder(store))
            try:
                shown = t.deal_preview(tournament_id, kept_cents)
                state = t.state(tournament_id)
            except RuleViolation as violation:
                raise click.ClickException(str(violation)) from None
        cur = state.structure.money.currency
        click.echo(f"prizes still to pay: {cur} {sum(shown.prizes) / 100:.2f}, kept "
                   f"{cur} {kept_cents / 100:.2f}")
        for offer in shown.offers:
            if offer.refused:
                click.echo(f"{offer.method}: not possible: {offer.refused}")
                continue
            click.echo(f"{offer.method}: " + ", ".join(
                f"{_name(state, p)} ({stack} chips) {cur} {a / 100:.2f}"
                for p, stack, a in zip(shown.players, shown.stacks, offer.amounts,
                                       strict=True)))
        return

    def build(_t: Tournaments, s: TournamentState) -> tc.TournamentCommand:
        agreed = {entrant(s, p): _name(s, entrant(s, p)) for p in consents}
        typed: dict[str, int] = {}
        for item in amounts:
            who, sep, amount = item.rpartition("=")
            if not sep:
                raise click.ClickException(f"--amount {item!r}: give PLAYER=AMOUNT")
            typed[entrant(s, who.strip())] = cents(amount.strip(), "--amount")
        return tc.Deal(method=method.replace("-", "_"),  # type: ignore[arg-type]
                       consents=agreed, kept=kept_cents, amounts=typed)

    def report(_t: Tournaments, _b: TournamentState, after: TournamentState) -> str:
        d = after.deal
        assert d is not None
        cur = after.structure.money.currency
        return f"deal ({d.method}) recorded: " + ", ".join(
            f"{_name(after, x.player)} {cur} {x.amount / 100:.2f}" for x in d.shares)
    run(db_url, tournament_id, director, build, report)


@click.command("ruling")
@click.argument("tournament_id")
@click.argument("rule")
@click.argument("text")
@click.option("--table", default="", help="The table the ruling is about (its name).")
@BY
@db_option
def ruling(tournament_id: str, rule: str, text: str, table: str, director: str,
           db_url: str | None) -> None:
    """Record a ruling: the RULE it rests on and the decision TEXT."""
    def build(_t: Tournaments, s: TournamentState) -> tc.TournamentCommand:
        if table and table not in s.tables:
            raise click.ClickException(f"--table {table!r}: no such table in play (one of "
                                       f"{', '.join(s.tables) or 'none'})")
        stream = f"table-{tournament_id}-{table}" if table else ""
        return tc.Ruling(rule=rule, text=text, stream=stream)
    run(db_url, tournament_id, director, build, lambda _t, _b, _a: f"ruling recorded ({rule})")


@click.command("status")
@click.argument("tournament_id")
@db_option
def status(tournament_id: str, db_url: str | None) -> None:
    """The tournament at a glance: level, players, tables, what is due next, the money."""
    with user_errors(), open_store(db_url) as store:
        t = Tournaments(Recorder(store))
        try:
            state = t.state(tournament_id)
        except RuleViolation as violation:
            raise click.ClickException(str(violation)) from None
        plan = t.break_plan(tournament_id)
    alive = [e for e in state.entrants if e.alive]
    block = money_block(state)
    cur = state.structure.money.currency
    click.echo(f"{state.structure.name}: level {state.level}"
               + (" (break)" if state.on_break else "")
               + f", {len(alive)}/{len(state.entrants)} players, tables "
               + (", ".join(state.tables) or "none"))
    if plan is not None:
        click.echo(f"due: {plan.label}")
    if state.finished:
        click.echo(f"winner: {_name(state, state.winner)}")
    click.echo(", ".join(f"{k.replace('_', ' ')} {cur} {v / 100:.2f}"
                         for k, v in block.as_dict().items()))


@click.command("players")
@click.argument("person", required=False, default="")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@db_option
def players(person: str, as_json: bool, db_url: str | None) -> None:
    """The player registry across every tournament in the log: each person (the room's player
    id) and his entries; with PERSON (an id or a registered name) each entry's kind, what it
    paid, its place, prize and penalties. No hole card is ever shown."""
    with user_errors(), open_store(db_url) as store:
        t = Tournaments(Recorder(store))
        people = registry(t.state(name) for name in t.tournaments())
    if person:
        found = find_person(people, person)
        if not found:
            raise click.ClickException(f"no person {person!r} in the registry: give his id "
                                       "or a name he registered under")
        people = {p["person"]: p for p in found}
    if as_json:
        click.echo(json.dumps({"people": list(people.values())}, indent=2))
        return
    for row in people.values():
        entries = row["entries"]
        click.echo(f"{row['person']}: {', '.join(row['names'])}, {len(entries)} entries in "
                   f"{len({e['tournament'] for e in entries})} tournament(s)")
        if not person:
            continue
        for e in entries:
            click.echo(f"  {e['tournament']} {e['entry']} {e['kind'].replace('_', '-')}: paid "
                       f"{e['paid'] / 100:.2f}, rebuys {e['rebuys']}"
                       + (", add-on" if e["add_on"] else "")
                       + (f", place {e['place']}" if e["place"] else ", in play")
                       + (f", prize {e['prize'] / 100:.2f}" if e["prize"] else "")
                       + "".join(f", penalty {pen['penalty']} ({pen['rule']})"
                                 for pen in e["penalties"]))


@click.command("bag")
@click.argument("tournament_id")
@click.argument("player")
@click.option("--chips", required=True, type=click.IntRange(0), help="The counted stack.")
@click.option("--bag", "bag_number", required=True, help="The number on the bag.")
@BY
@db_option
def bag(tournament_id: str, player: str, chips: int, bag_number: str, director: str,
        db_url: str | None) -> None:
    """At the end of a day (or a flight): PLAYER's counted stack put in a bag; --by is the
    director who confirms the count. The count must be the log's (else `count --end-of-day`
    and `correct-stack` first)."""
    def report(_t: Tournaments, _b: TournamentState, after: TournamentState) -> str:
        left = [e for e in after.remaining if after.bag_of(e.player) is None]
        return (f"bag {bag_number}: {_name(after, entrant(after, player, alive=True))} "
                f"{chips} chips, confirmed by {director}; {len(left)} stack(s) left to bag")
    run(db_url, tournament_id, director,
        lambda _t, s: tc.BagStack(player=entrant(s, player, alive=True), chips=chips,
                                  bag=bag_number), report)


@click.command("end-day")
@click.argument("tournament_id")
@BY
@db_option
def end_day(tournament_id: str, director: str, db_url: str | None) -> None:
    """End the day (or the flight) without a winner: every stack in play must be bagged; the
    survivors and the prize pool go on to the next day."""
    def report(_t: Tournaments, _b: TournamentState, after: TournamentState) -> str:
        ended = after.day_ended
        assert ended is not None
        return (f"day {ended.day}{' flight ' + ended.flight if ended.flight else ''} over: "
                f"{len(ended.survivors)} survivor(s) bagged {ended.chips} chips; prize pool "
                f"{ended.prize_pool / 100:.2f} handed on")
    run(db_url, tournament_id, director, lambda _t, _s: tc.EndDay(), report)


@click.command("next-day")
@click.argument("tournament_id")
@click.option("--from", "sources", multiple=True, required=True, metavar="TOURNAMENT",
              help="A flight (or earlier day) whose survivors come; repeat per log.")
@click.option("--tables", type=click.IntRange(1, 10_000), default=None,
              help="Tables to draw (default: as few as the seats per table allow).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None,
              help="The redraw's seed (recorded; random when omitted).")
@BY
@db_option
def next_day(tournament_id: str, sources: tuple[str, ...], tables: int | None,
             seed: int | None, director: str, db_url: str | None) -> None:
    """The next day (TOURNAMENT_ID, created from a structure with [days] day = 2 or more)
    takes the survivors of the --from logs with their bags (a person in two flights as the
    structure's days.carry says), then their seats are redrawn by the engine's seat draw."""
    def report(_t: Tournaments, _b: TournamentState, after: TournamentState) -> str:
        started = after.day_started
        assert started is not None
        return (f"day {started.day}: {len(after.entrants)} player(s) from "
                f"{', '.join(started.sources)} with "
                f"{sum(e.carried for e in after.entrants)} chips (carry: {started.carry}), "
                f"prize pool {after.prize_pool / 100:.2f}")
    run(db_url, tournament_id, director, lambda _t, _s: tc.StartDay(sources=sources), report)

    def build(_t: Tournaments, s: TournamentState) -> tc.TournamentCommand:
        needed = -(-len(s.remaining) // s.structure.seats_per_table)
        return tc.DrawSeats(tables=tables or max(1, needed), seed=seed)

    def drawn(_t: Tournaments, _b: TournamentState, after: TournamentState) -> str:
        return (f"seats redrawn: {sum(1 for e in after.entrants if e.seated)} players at "
                f"table(s) {', '.join(after.tables)}")
    run(db_url, tournament_id, director, build, drawn)


@click.command("event")
@click.argument("event_id")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@db_option
def event(event_id: str, as_json: bool, db_url: str | None) -> None:
    """An event in flights and days over all its logs: each day, the bags, the stacks
    carried, the places across days and the money (`handlog replay` checks them)."""
    with user_errors(), open_store(db_url) as store:
        t = Tournaments(Recorder(store))
        logs = events_of(t.state(name) for name in t.tournaments()).get(event_id)
    if not logs:
        raise click.ClickException(f"no event {event_id!r}: no tournament's structure has "
                                   "[days] event = that id")
    data = event_report(logs)
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    for day in data["days"]:
        click.echo(f"{day['tournament']}: day {day['day']} {day['flight']}".rstrip()
                   + f", {day['entries']} entries, {day['carried_in']} carried in, "
                   f"{len(day['survivors'])} bagged"
                   + (f", winner {data['places'][0]['name']}" if day["winner"] else ""))
    click.echo(f"{len(data['bags'])} bag(s); places: " + ", ".join(
        f"{p['place']} {p['name']}" for p in data["places"][:10]))
    click.echo(f"money unaccounted {data['money']['unaccounted'] / 100:.2f}")


COMMANDS = (register, re_enter, rebuy, add_on, high_hand_fee, draw, level, break_, color_up,
            antes, clock, message, move, balance, break_table, assign_bounty, award_high_hand,
            deal, ruling, status, players, bag, end_day, next_day, event)
"""The floor's steps as `handlog tournament` subcommands (cli_tournament.py adds them)."""
