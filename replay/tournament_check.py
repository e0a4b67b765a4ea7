"""The tournament's checks across its streams: eliminations and places agree with the tables;
the chip total is what the tournament's events say it must be."""

from __future__ import annotations

from dataclasses import replace

from handlog.engine.chip_counts import count_findings
from handlog.engine.entries import add_on, next_entry, rebuy
from handlog.engine.errors import RuleViolation
from handlog.engine.money import money_findings
from handlog.engine.table import TableState
from handlog.engine.table_events import PlayerLeft, PlayerSeated, PotCarried, StackAdjusted
from handlog.engine.tournament_events import (
    AddOnPurchased,
    ChipsColoredUp,
    PlayerEliminated,
    PlayerRegistered,
    RebuyPurchased,
)
from handlog.engine.tournament_state import (
    apply_tournament,
    expected_chip_total,
    fold_tournament,
)
from handlog.replay.fold import Finding, TableFold
from handlog.schema.store import StoredEvent

MONEY_MESSAGES = {
    "prizes_missing": "the tournament is over but no prizes are recorded",
    "bounty_undecided": "the tournament is over with bounties still waiting for the director",
    "pool_differs": "the prizes' pool or overlay is not the pool the entries and the "
                    "guarantee make",
    "unaccounted": "money taken in (buy-ins, jackpot fees) is not all paid out or kept as fees",
}


def check_tournament(stream: str, stored: list[StoredEvent],
                     tables: dict[str, TableFold]) -> list[Finding]:
    """Eliminations and places agree with the tables; the chip total is what the tournament's
    events say it must be."""
    events = [e.decode() for e in stored]
    findings: list[Finding] = []
    try:
        state = fold_tournament(events)
    except RuleViolation as violation:
        return [Finding(stream, 0, "tournament", violation.rule, violation.message)]
    tournament = state.tournament
    mine = {k: f for k, f in tables.items() if f.state and f.state.tournament == tournament}
    eliminated_at_tables: dict[str, str] = {}
    chips = 0
    in_progress = False
    for key, fold in mine.items():
        table_state: TableState | None = fold.state
        assert table_state is not None
        chips += table_state.chips()
        in_progress = in_progress or table_state.hand_in_progress
        for _version, event in fold.effective:
            if isinstance(event, PlayerLeft) and event.reason == "eliminated":
                eliminated_at_tables[event.player] = key
    findings.extend(_seated_once(stream, tournament, mine))
    findings.extend(entry_findings(stream, [e.version for e in stored], events))
    out = {e.player: e for e in state.entrants if not e.alive and not e.withdrew}
    for version, event in zip((e.version for e in stored), events, strict=True):
        if isinstance(event, PlayerEliminated) and event.player not in eliminated_at_tables:
            findings.append(Finding(stream, version, event.TYPE, "eliminations",
                                    f"{event.player} is eliminated by the tournament but still "
                                    "seated at a table"))
    for player, key in eliminated_at_tables.items():
        if player not in out:
            findings.append(Finding(key, 0, "player_left", "eliminations",
                                    f"{player} left a table eliminated but the tournament has "
                                    "no place for him"))
    places = sorted(e.place for e in state.entrants if e.place)
    if places and (places[-1] > len(state.entrants) or places[0] < 1):
        findings.append(Finding(stream, 0, "player_eliminated", "places",
                                f"places {places} do not fit {len(state.entrants)} entrants"))
    for rule, table, count in count_findings(state):
        findings.append(Finding(stream, 0, "stacks_counted", rule,
                                f"{count.player}'s stack counted at table {table} differs from "
                                "the log's: the director settles it with a stack correction",
                                str(count.computed), str(count.counted)))
    for rule, code, want, got in money_findings(state):
        findings.append(Finding(stream, 0, "tournament", rule, MONEY_MESSAGES[code], want, got))
    expected = expected_chip_total(events)
    adjustments = sum(
        e.amount for f in mine.values() for _v, e in f.effective if isinstance(e, StackAdjusted)
    )
    # Chips brought to the tables, less what left play with a player who withdrew (or was
    # disqualified): the ledger counts those as withdrawn.
    seated_total = sum(
        e.stack for f in mine.values() for _v, e in f.effective
        if isinstance(e, PlayerSeated) and e.reason != "moved"
    ) - sum(
        e.stack for f in mine.values() for _v, e in f.effective
        if isinstance(e, PlayerLeft) and e.reason == "withdrawn"
    )
    carried = sum(
        e.amount for f in mine.values() for _v, e in f.effective if isinstance(e, PotCarried)
    )
    findings.extend(_carries(stream, events, mine, tuple(state.tables)))
    if mine and seated_total + adjustments + carried != expected and not in_progress:
        findings.append(Finding(stream, 0, "tournament", "chip-total",
                                "chips brought to the tables differ from the tournament's "
                                "entries, deductions and color-ups",
                                str(expected), str(seated_total + adjustments + carried)))
    if mine and not in_progress and chips != expected:
        findings.append(Finding(stream, 0, "tournament", "chip-total",
                                "the chips at the tables differ from what the tournament's "
                                "events allow", str(expected), str(chips)))
    return findings


def entry_findings(stream: str, versions: list[int], events: list[object]) -> list[Finding]:
    """Each re-entry, rebuy and add-on decided again by the engine on the state before it:
    a recorded one the engine refuses (the rule it names), or one that differs in its
    entry number, chips or money, is a finding. A person's first entry only needs that he
    had none before (a set, not a re-decision: a field of thousands stays linear)."""
    findings: list[Finding] = []
    if not any(isinstance(e, RebuyPurchased | AddOnPurchased)
               or (isinstance(e, PlayerRegistered) and e.entry > 1) for e in events):
        return _first_entries(stream, versions, events)
    state = None
    for version, event in zip(versions, events, strict=True):
        if state is not None and isinstance(
                event, PlayerRegistered | RebuyPurchased | AddOnPurchased):
            try:
                again: object = None
                if isinstance(event, RebuyPurchased):
                    again = rebuy(state, event.player, event.stack_before)
                elif isinstance(event, AddOnPurchased):
                    again = add_on(state, event.player)
                elif event.person:
                    again = replace(event, entry=next_entry(state, event.person))
            except RuleViolation as violation:
                findings.append(Finding(stream, version, event.TYPE, violation.rule,
                                        violation.message, "refused", "recorded"))
            else:
                if again is not None and again != event:
                    findings.append(Finding(stream, version, event.TYPE, event.rule or
                                            "registration", "the entry differs from what the "
                                            "structure sells", str(again), str(event)))
        state = apply_tournament(state, event)  # type: ignore[arg-type]
    return findings


def _first_entries(stream: str, versions: list[int], events: list[object]) -> list[Finding]:
    """Without re-entries every person has one entry: a second is a finding."""
    seen: set[str] = set()
    findings: list[Finding] = []
    for version, event in zip(versions, events, strict=True):
        if isinstance(event, PlayerRegistered) and event.person:
            if event.person in seen:
                findings.append(Finding(stream, version, event.TYPE, "registration",
                                        f"{event.person} already holds an entry: one person, "
                                        "one live entry", "refused", "recorded"))
            seen.add(event.person)
    return findings


def _seated_once(stream: str, tournament: str,
                 tables: dict[str, TableFold]) -> list[Finding]:
    """A tournament's player has one seat: seated at two of its tables at once (a second seat
    without leaving the first; a move leaves first) is a finding."""
    seats: dict[str, list[tuple[str, str, int]]] = {}
    for key, fold in sorted(tables.items()):
        state = fold.state
        assert state is not None
        for seat in state.seats:
            seats.setdefault(seat.player, []).append((key, state.table, seat.seat))
    findings = []
    for player, where in sorted(seats.items()):
        if len(where) > 1:
            places = " and ".join(f"table {table} (seat {seat})" for _k, table, seat in where)
            findings.append(Finding(
                where[-1][0], 0, "player_seated", "seating",
                f"{player} is seated at two tables of tournament {tournament} at once: "
                f"{places}", "one seat", str(len(where))))
    return findings


def _carries(stream: str, events: list[object], tables: dict[str, TableFold],
             open_tables: tuple[str, ...]) -> list[Finding]:
    """The tables carry into their next pots what the color-ups say (Octobermuck): at each
    table its own carries, apart from what a broken table handed on to another."""
    owed: dict[str, int] = {}
    for event in events:
        if isinstance(event, ChipsColoredUp):
            for carry in event.next_pots:
                owed[carry.table] = owed.get(carry.table, 0) + carry.amount
    findings = []
    for fold in tables.values():
        state = fold.state
        assert state is not None
        got = sum(e.amount for _v, e in fold.effective
                  if isinstance(e, PotCarried) and not e.other_table)
        if got != owed.get(state.table, 0):
            findings.append(Finding(
                fold.stream, 0, "pot_carried", "dead-money",
                f"table {state.table} carries other chips into its next pot than the "
                "tournament's color-ups give it", str(owed.get(state.table, 0)), str(got)))
        if state.carry and state.table not in open_tables:
            findings.append(Finding(
                fold.stream, 0, "pot_carried", "dead-money",
                f"table {state.table} is broken with chips still waiting for its next pot: "
                "hand them on to the next pot of another table", "0", str(state.carry)))
    handed = sum(e.amount for f in tables.values() for _v, e in f.effective
                 if isinstance(e, PotCarried) and e.other_table)
    if handed:
        findings.append(Finding(stream, 0, "pot_carried", "dead-money",
                                "carries handed on from broken tables do not add up to zero",
                                "0", str(handed)))
    return findings
