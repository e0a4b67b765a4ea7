"""The auditor's report: everything in it comes from a replay of the log, nothing from a person.

`build_report(store)` reads one snapshot of the log, replays it (replay/verify.py: every event
re-decided by the engine), checks every hash chain, rebuilds every hand step by step
(replay/export_hands.py) and folds the tournament streams. The result is one JSON-ready object
(`AuditReport.data`); the HTML page and the CSV files are renderings of that same object.

What it holds: the verdict (clean, or every finding with its stream, version, event, rule,
expected and recorded values; the hash chains; hands cut off in progress); each tournament
(structure, profile, entrants, the chip ledger: the expected chip total and how it is made up,
and the chips actually at the tables; eliminations with places and chips at the start of the
hand; prizes); every hand per table (number, button and blind seats, level, stacks at the start,
each pot with its amount, eligible players, winners, shares and odd chips, stacks at the end,
and whether the chips balance); every correction (the versions voided or amended, what they
were, the reason, the rule, who and when); every ruling and penalty with its rule and who.

Cards: by default the report holds only the cards the table saw (the board and the hands shown
at showdown), so it can be handed to anyone; `all_cards=True` (`handlog report --all-cards`, for
the director or an auditor) adds every hole card the log knows (dealt face up to the dealer,
exposed, mucked). `scope.cards` says which ("shown" or "all"), and the HTML page says it too.

CSV: `<out>` has one row per hand and pot; `<stem>-corrections<suffix>` next to it has one row
per finding, correction, ruling and penalty (`csv_paths`).
"""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from engine import words
from engine.events import (
    BoardDealt,
    BoardExposedEarly,
    CardExposed,
    EventAmended,
    EventVoided,
    HandKilled,
    HandVoided,
    MisdealDeclared,
    PotAwarded,
    StackAdjusted,
)
from engine.money import money_block
from engine.tournament_events import (
    ChipsColoredUp,
    DealRecorded,
    HighHandAwarded,
    LevelStarted,
    PenaltyRecorded,
    PlayerEliminated,
    PlayerMoved,
    PlayerRegistered,
    PlayerWithdrew,
    PrizesAwarded,
    RulingRecorded,
    StackCorrected,
)
from engine.tournament_state import TournamentState
from replay.export_hands import (
    LogSnapshot,
    RecordedHand,
    TableHands,
    TournamentRecord,
    hands_of_log,
    read_tournaments,
    tournament_id,
)
from replay.fold import Finding
from replay.report_charts import charts_html
from replay.verify import replay_log
from schema.checkpoint import StoredCheckpoint, latest_checkpoint
from schema.codec import format_utc
from schema.hashing import verify_events
from schema.logcheck import Break, check_store
from schema.store import EventStore, StoredEvent

REPORT_FORMATS = ("html", "json", "csv", "pdf")


@dataclass
class AuditReport:
    """The report as one object; render it with `to_json`, `to_html` or `to_csv`."""

    data: dict[str, Any]

    @property
    def clean(self) -> bool:
        return bool(self.data["verdict"]["clean"])

    @property
    def findings(self) -> list[dict[str, Any]]:
        return list(self.data["verdict"]["findings"])

    def to_json(self) -> str:
        return json.dumps(self.data, indent=2, ensure_ascii=False) + "\n"

    def to_html(self) -> str:
        return render_html(self.data)

    def to_csv(self) -> tuple[str, str]:
        """(hand-pot rows, finding/correction/ruling/penalty rows)."""
        return pots_csv(self.data), log_csv(self.data)

    def write(self, fmt: str, out: Path, paged_above: int | None = None) -> list[Path]:
        """Write the report in `fmt` ("html", "json" or "csv"); the files written. HTML of
        more than `paged_above` hands (default PAGED_ABOVE) is paged."""
        if fmt == "json":
            out.write_text(self.to_json(), encoding="utf-8")
            return [out]
        if fmt == "html":
            hands = sum(len(t["hands"]) for t in self.data["tables"])
            if hands <= (PAGED_ABOVE if paged_above is None else paged_above):
                out.write_text(self.to_html(), encoding="utf-8")
                return [out]
            pages = {t["stream"]: table_page_name(out, t["stream"]) for t in self.data["tables"]}
            written = [out]
            for table in self.data["tables"]:
                page = out.parent / pages[table["stream"]]
                page.parent.mkdir(parents=True, exist_ok=True)
                page.write_text(render_table_page(self.data, table, f"../{out.name}"),
                                encoding="utf-8")
                written.append(page)
            out.write_text(render_html(self.data, pages), encoding="utf-8")
            return written
        if fmt == "pdf":
            from replay.report_pdf import write_pdf  # ReportLab is loaded for PDFs only

            return write_pdf(self.data, out)
        if fmt == "csv":
            pots, log = self.to_csv()
            first, second = csv_paths(out)
            first.write_text(pots, encoding="utf-8", newline="")
            second.write_text(log, encoding="utf-8", newline="")
            return [first, second]
        raise ValueError(f"unknown report format {fmt!r}; use one of {', '.join(REPORT_FORMATS)}")


def csv_paths(out: Path) -> tuple[Path, Path]:
    """`audit.csv` -> (`audit.csv`, `audit-corrections.csv`)."""
    suffix = out.suffix or ".csv"
    return out, out.with_name(f"{out.stem}-corrections{suffix}")


# ---------------------------------------------------------------------------------------------
# Building


def _who(stored: StoredEvent | None) -> dict[str, Any]:
    if stored is None:
        return {"actor": "", "device": "", "recorded_at": ""}
    return {"actor": stored.actor, "device": stored.device,
            "recorded_at": format_utc(stored.recorded_at)}


def _finding(finding: Finding, all_cards: bool = True) -> dict[str, Any]:
    found = finding.as_dict()
    if not all_cards and finding.event_type in _CARD_EVENTS:
        found |= {"expected": HIDDEN if found["expected"] else "",
                  "recorded": HIDDEN if found["recorded"] else ""}
    return found


def build_report(store: EventStore, tournament: str | None = None,
                 database: str = "", *, all_cards: bool = False) -> AuditReport:
    """Replay the log (or one tournament's streams) and build the report from the replay;
    only the cards shown at the table unless `all_cards`."""
    log = LogSnapshot.read(store)
    # The whole-log check: chains and Merkle leaves recomputed, held to the leaves recorded at
    # append and the room's stored checkpoints, so a rewrite that recomputed the chains shows.
    merkle = check_store(store)
    return build_report_from(log, tournament, database, latest_checkpoint(store),
                             merkle.breaks, all_cards=all_cards)


HIDDEN = "(hidden: cards not shown at the table; --all-cards shows them)"
_CARD_EVENTS = ("hole_cards_dealt", "card_exposed", "cards_mucked")


def build_report_from(log: LogSnapshot, tournament: str | None = None,
                      database: str = "", checkpoint: StoredCheckpoint | None = None,
                      log_breaks: Sequence[Break] = (), *,
                      all_cards: bool = False) -> AuditReport:
    wanted = tournament_id(tournament) if tournament else None
    # The replay reads the same snapshot the rest of the report is built from.
    replay = replay_log(cast(EventStore, log), wanted)
    chain = verify_events(log.events, log.heads)
    tournaments = read_tournaments(log, wanted)
    export = hands_of_log(log, tournament=wanted, folds=replay.tables)
    if wanted:
        export.tables = [t for t in export.tables if t.stream in replay.tables]
    findings = [_finding(f, all_cards) for f in replay.findings]
    in_scope = {t.stream for t in export.tables} | {t.stream for t in tournaments}
    if not wanted:
        in_scope |= set(log.by_stream)
    chain_problems = [str(p) for p in chain if p.stream_id in in_scope]
    merkle_breaks = [str(b) for b in log_breaks if b.stream_id is None or b.stream_id in in_scope
                     or b.stream_id not in log.by_stream]
    data: dict[str, Any] = {
        "title": "handlog audit report",
        "scope": {"tournament": wanted, "database": database,
                  "cards": "all" if all_cards else "shown"},
        "log": {
            "events": sum(len(log.by_stream.get(s, [])) for s in in_scope),
            "last_position": max((e.position for e in log.events), default=0),
            "streams": [{"stream": h.stream_id, "kind": h.kind, "version": h.version,
                         "hash": h.hash} for h in sorted(log.heads, key=lambda h: h.stream_id)
                        if h.stream_id in in_scope],
        },
        "verdict": {
            "clean": replay.clean and not chain_problems and not merkle_breaks,
            "findings": findings,
            "chain": {"ok": not chain_problems, "problems": chain_problems},
            "merkle": {"ok": not merkle_breaks, "breaks": merkle_breaks},
            "in_progress": [{"stream": s, "hand": h} for s, h in replay.in_progress],
            "replayed": {"streams": replay.streams, "events": replay.events,
                         "hands": replay.hands},
            "tournament_checks": True,
        },
        "tournaments": [_tournament(record, export.tables, log) for record in tournaments],
        "tables": [_table(table, replay.findings, log, all_cards) for table in export.tables],
        "corrections": _corrections(log, in_scope, all_cards),
        "rulings": _rulings(log, tournaments, export.tables, all_cards),
        "checkpoint": _checkpoint(checkpoint),
    }
    _attach(data)
    return AuditReport(data)


def _checkpoint(stored: StoredCheckpoint | None) -> dict[str, Any] | None:
    """The latest signed checkpoint of the whole log, as the room recorded it."""
    if stored is None:
        return None
    cp = stored.checkpoint
    return {"number": stored.number, "reason": stored.reason,
            "created_at": format_utc(stored.created_at), "origin": cp.origin, "size": cp.size,
            "root": cp.root_hex, "text": cp.text}


def _table(table: TableHands, findings: Sequence[Finding], log: LogSnapshot,
           all_cards: bool = True) -> dict[str, Any]:
    stored = log.by_stream.get(table.stream, [])
    last = stored[-1].version if stored else 0
    hands = table.hands
    out = []
    for index, hand in enumerate(hands):
        end = hands[index + 1].first_version - 1 if index + 1 < len(hands) else last
        mine = [f for f in findings if f.stream == hand.stream
                and hand.first_version <= f.version <= end]
        out.append(_hand(hand, mine, all_cards))
    state = table.fold.state
    return {
        "stream": table.stream, "table": table.table, "tournament": table.tournament,
        "seat_count": table.seat_count, "profile": table.profile,
        "hands": out,
        "seats_now": [{"seat": s.seat, "player": s.player, "stack": s.stack}
                      for s in (state.seats if state else ())],
        "chips_now": state.chips() if state else 0,
    }


def _person(hand: RecordedHand, position: int) -> dict[str, Any]:
    return {"seat": hand.seats[position], "player": hand.players[position],
            "name": hand.names[position]}


def _hand(hand: RecordedHand, findings: Sequence[Finding],
          all_cards: bool = True) -> dict[str, Any]:
    put_in = hand.put_in()
    won = hand.won()
    returned = hand.returned()
    shown = hand.shown()
    known = hand.hole_cards() if all_cards else tuple(
        shown.get(i, ()) for i in range(hand.size))
    folded = hand.folded_on()
    start, end = hand.stacks_start, hand.stacks_end
    players = []
    for i in range(hand.size):
        players.append({
            "position": i, **_person(hand, i), "role": hand.role(i),
            "stack_start": start[i], "put_in": put_in[i], "returned": returned[i],
            "won": won[i], "stack_end": end[i], "cards": list(known[i]),
            "folded": i in folded or hand.final.folded[i],
        })
    versions = hand.award_versions
    pots = []
    for k, award in enumerate(hand.awards):
        pots.append({
            "pot": award.pot, "amount": award.amount,
            "eligible": [_person(hand, i) for i in award.eligible if 0 <= i < hand.size],
            "winners": [{**_person(hand, w), "share": s}
                        for w, s in zip(award.winners, award.shares, strict=False)
                        if 0 <= w < hand.size],
            "odd_chips": [_person(hand, w) for w in award.odd_chips if 0 <= w < hand.size],
            "hand_rank": list(award.hand_rank), "hand_name": words.hand_name(award.hand_rank),
            "ruling": award.ruling,
            "version": versions[k] if k < len(versions) else 0,
        })
    complete = hand.status == "complete"
    started = hand.started
    # Carried chips (Octobermuck buy-down odd chips) are in the pot without anyone putting
    # them in; a hand that did not complete leaves them for the next pot.
    dead = started.dead_money if complete else 0
    balanced: bool | None = None
    if hand.status != "in progress":
        balanced = sum(put_in) + dead == hand.pot_total() and all(
            end[i] == start[i] - put_in[i] + won[i] for i in range(hand.size))
        if not complete:
            balanced = balanced and end == start
    return {
        "stream": hand.stream, "table": hand.table, "hand": hand.number, "status": hand.status,
        "first_version": hand.first_version, "last_version": hand.last_version,
        "position": hand.position,
        "recorded_at": format_utc(hand.recorded_at) if hand.recorded_at else "",
        "level": started.level, "small_blind": hand.small_blind, "big_blind": hand.big_blind,
        "ante": hand.ante, "ante_kind": hand.ante_kind, "chip_unit": started.chip_unit,
        "profile": started.profile, "button_seat": started.button_seat,
        "small_blind_seat": started.small_blind_seat, "big_blind_seat": started.big_blind_seat,
        "players": players, "board": list(hand.board), "pots": pots,
        "put_in_total": sum(put_in), "dead_money": started.dead_money,
        "pots_total": hand.pot_total(), "balanced": balanced,
        "notes": hand.notes() if all_cards else _public_notes(hand),
        "findings": [_finding(f, all_cards) for f in findings],
        "actions": _actions(hand, all_cards),
        "proposal": _proposal(hand) if any(a.ruling for a in hand.awards) else [],
        "corrections": [], "rulings": [],  # filled in by _attach, from the whole log's lists
    }


_STREETS = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}


def _actions(hand: RecordedHand, all_cards: bool) -> list[dict[str, Any]]:
    """Every entry of the hand in order, as a person reads it, with its street."""
    def who(position: int) -> str:
        return hand.names[position] if 0 <= position < hand.size else f"position {position}"

    actions = []
    for step in hand.steps:
        text = words.action_text(step.event, who, public=not all_cards)
        board = step.board + (len(step.event.cards) if isinstance(step.event, BoardDealt)
                              else 0)  # a board card opens the street it deals
        if text is not None:
            actions.append({"version": step.version, "street": _STREETS.get(board, ""),
                            "type": getattr(step.event, "TYPE", ""), "text": text})
    return actions


def _proposal(hand: RecordedHand) -> list[dict[str, Any]]:
    """What the engine would have awarded where a director ruled otherwise: each pot with the
    engine's winners and the hand it would have named, printed beside the ruling."""
    from engine.commands import AwardPots
    from engine.errors import RuleViolation
    from engine.hand import apply, decide, initial_state

    state = apply(initial_state(hand.started), hand.started)
    for step in hand.steps:
        if isinstance(step.event, PotAwarded):
            break
        state = apply(state, step.event)
    try:
        proposed = decide(state, AwardPots())
    except RuleViolation as refused:
        return [{"pot": -1, "winners": [], "hand_name": "", "why": refused.message}]
    return [{"pot": e.pot, "amount": e.amount,
             "winners": [hand.names[w] for w in e.winners if 0 <= w < hand.size],
             "hand_name": words.hand_name(e.hand_rank)}
            for e in proposed if isinstance(e, PotAwarded)]


def _attach(data: dict[str, Any]) -> None:
    """Each hand gets the corrections and rulings that touch its entries, inline."""
    spans: dict[str, list[tuple[int, int, dict[str, Any]]]] = {}
    for table in data["tables"]:
        hands = table["hands"]
        for k, hand in enumerate(hands):
            end = hands[k + 1]["first_version"] - 1 if k + 1 < len(hands) else 10**12
            spans.setdefault(table["stream"], []).append((hand["first_version"], end, hand))

    def hand_of(stream: str, version: int) -> dict[str, Any] | None:
        for first, end, hand in spans.get(stream, ()):
            if first <= version <= end:
                return hand
        return None

    for correction in data["corrections"]:
        touched = [a["version"] for a in correction["affects"] if a["version"]]
        hand = hand_of(correction["stream"], min(touched) if touched else
                       correction["version"])
        if hand is not None:
            hand["corrections"].append(correction)
    for ruling in data["rulings"]:
        hand = hand_of(ruling["stream"], ruling["version"])
        if hand is not None:
            hand["rulings"].append(ruling)


def _public_notes(hand: RecordedHand) -> list[str]:
    """The hand's notes without the cards that were exposed (the exposure is the fact)."""
    exposed = [s.event.card for s in hand.steps if isinstance(s.event, CardExposed)]
    notes = []
    for note in hand.notes():
        for card in exposed:
            note = note.replace(f"'s {card} exposed", "'s card exposed")
        notes.append(note)
    return notes


def _deal(deal: DealRecorded | None, names: Mapping[str, str]) -> dict[str, Any] | None:
    """The deal the players left made: method, stacks used, amounts and every consent."""
    if deal is None:
        return None
    return {"method": deal.method, "unpaid": deal.unpaid, "kept": deal.kept, "rule": deal.rule,
            "by": deal.by,
            "shares": [{"player": x.player, "name": names.get(x.player, x.player),
                        "stack": x.stack, "amount": x.amount, "consent": x.consent}
                       for x in deal.shares]}


def _chip_counts(state: TournamentState, names: Mapping[str, str]) -> dict[str, Any]:
    """The floor's counts beside the log's stacks, the differences still open and the
    director's corrections with their reasons."""
    return {
        "counts": [{"table": c.table, "occasion": c.occasion, "level": c.level,
                    "stacks": [{"player": x.player, "name": names.get(x.player, x.player),
                                "counted": x.counted, "computed": x.computed}
                               for x in c.counts]} for c in state.counts],
        "open": [{"table": table, "player": x.player, "name": names.get(x.player, x.player),
                  "counted": x.counted, "computed": x.computed}
                 for table, x in state.differences],
        "corrections": [{"player": c.player, "name": names.get(c.player, c.player),
                         "table": c.table, "counted": c.counted, "computed": c.computed,
                         "amount": c.amount, "reason": c.reason,
                         "rule": words.rule_words(c.rule), "by": c.by}
                        for c in state.corrections],
    }


def _tournament(record: TournamentRecord, tables: Sequence[TableHands],
                log: LogSnapshot) -> dict[str, Any]:
    state = record.state
    out: dict[str, Any] = {"id": record.tournament, "stream": record.stream,
                           "problem": record.problem}
    if state is None:
        return out
    names = record.names()
    structure = state.structure
    money = structure.money
    out["structure"] = {
        "name": structure.name, "profile": structure.profile,
        "starting_stack": structure.starting_stack,
        "seats_per_table": structure.seats_per_table,
        "levels": [{"level": lv.number, "small_blind": lv.small_blind,
                    "big_blind": lv.big_blind, "ante": lv.ante, "ante_kind": lv.ante_kind,
                    "minutes": lv.minutes} for lv in structure.levels],
        "money": {"currency": money.currency, "buy_in": money.buy_in,
                  "prize_pool_per_entry": money.prize_pool_per_entry, "bounty": money.bounty},
    }
    out["entrants"] = [{
        "player": e.player, "name": e.name, "late": e.late, "chips_deducted": e.chips_deducted,
        "place": e.place, "withdrew": e.withdrew, "table": e.table, "seat": e.seat,
        "out_table": e.out_table, "out_hand": e.out_hand, "chips_at_start": e.chips_at_start,
    } for e in state.entrants]
    ledger = state.ledger
    mine = [t for t in tables if t.tournament == record.tournament]
    at_tables = sum(t.fold.state.chips() for t in mine if t.fold.state is not None)
    in_hand = any(t.fold.state is not None and t.fold.state.hand_in_progress for t in mine)
    out["chip_ledger"] = {
        "entries": ledger.entries, "starting_stack": ledger.starting_stack,
        "starting_chips": ledger.starting_chips, "late_deductions": ledger.late_deductions,
        "color_up_change": ledger.color_up_change, "carried_to_pots": ledger.carried_to_pots,
        "withdrawn": ledger.withdrawn, "corrected": ledger.corrected,
        "expected_total": ledger.total,
        "at_tables": at_tables, "hand_in_progress": in_hand,
        "balanced": at_tables == ledger.total,
    }
    eliminations = []
    prizes: dict[str, Any] | None = None
    high_hand: dict[str, Any] | None = None
    for stored in record.stored:
        event = stored.decode()
        if isinstance(event, PlayerEliminated):
            eliminations.append({
                "kind": "eliminated", "place": event.place, "player": event.player,
                "name": names.get(event.player, event.player), "table": event.table,
                "hand": event.hand_number, "chips_at_start": event.chips_at_start,
                "bounty_to": event.bounty_to, "rule": words.rule_words(event.rule),
                "version": stored.version,
                **_who(stored),
            })
        elif isinstance(event, PlayerWithdrew):
            eliminations.append({
                "kind": "withdrew", "place": event.place, "player": event.player,
                "name": names.get(event.player, event.player), "table": "", "hand": 0,
                "chips_at_start": event.chips_removed, "bounty_to": "",
                "rule": words.rule_words(event.rule),
                "version": stored.version, **_who(stored),
            })
        elif isinstance(event, PrizesAwarded):
            prizes = {
                "pool": event.pool, "field_size": event.field_size, "currency": money.currency,
                "rule": words.rule_words(event.rule), "version": stored.version, **_who(stored),
                "awards": [{"place": a.place, "player": a.player,
                            "name": names.get(a.player, a.player), "amount": a.amount}
                           for a in event.awards],
                "bounties": [{"player": b.player, "name": names.get(b.player, b.player),
                              "bounties": b.bounties, "amount": b.amount}
                             for b in event.bounties],
                "unclaimed_bounties": event.unclaimed_bounties,
                "paid": sum(a.amount for a in event.awards) + sum(b.amount
                                                                   for b in event.bounties),
            }
        elif isinstance(event, HighHandAwarded):
            high_hand = {"hand": event.hand, "pool": event.pool, "version": stored.version,
                         "shares": [{"player": s.player, "name": names.get(s.player, s.player),
                                     "amount": s.amount} for s in event.shares],
                         **_who(stored)}
    out["eliminations"] = sorted(eliminations, key=lambda e: -int(e["place"]))
    out["winner"] = ({"player": state.winner, "name": names.get(state.winner, state.winner)}
                     if state.winner else None)
    out["prizes"] = prizes
    out["high_hand"] = high_hand
    out["money"] = {"currency": money.currency} | money_block(state).as_dict()
    out["deal"] = _deal(state.deal, names)
    out["chip_counts"] = _chip_counts(state, names)
    out["finished"] = state.finished
    out["level"] = state.level
    return out


def _describe_event(stored: StoredEvent | None, all_cards: bool = True) -> dict[str, Any]:
    if stored is None:
        return {"version": 0, "event": "", "payload": "", "actor": "", "device": "",
                "recorded_at": ""}
    payload = stored.payload_json
    if not all_cards and stored.type in _CARD_EVENTS:
        payload = HIDDEN
    return {"version": stored.version, "event": stored.type, "payload": payload,
            **_who(stored)}


def _corrections(log: LogSnapshot, streams: Iterable[str],
                 all_cards: bool = True) -> list[dict[str, Any]]:
    out = []
    for stream in sorted(streams):
        stored = log.by_stream.get(stream, [])
        by_version = {e.version: e for e in stored}
        for entry in stored:
            if entry.type not in (EventVoided.TYPE, EventAmended.TYPE):
                continue
            event = entry.decode()
            if isinstance(event, EventVoided):
                out.append({
                    "stream": stream, "version": entry.version, "kind": "void",
                    "affects": [_describe_event(by_version.get(v), all_cards)
                                for v in event.versions],
                    "replacement": None, "reason": words.reason(event.reason),
                    "rule": words.rule_words(event.rule),
                    **_who(entry),
                })
            elif isinstance(event, EventAmended):
                out.append({
                    "stream": stream, "version": entry.version, "kind": "amend",
                    "affects": [_describe_event(by_version.get(event.version), all_cards)],
                    "replacement": {"event": event.replacement_type,
                                    "schema_version": event.replacement_version,
                                    "payload": event.replacement_payload
                                    if all_cards or event.replacement_type not in _CARD_EVENTS
                                    else HIDDEN},
                    "reason": event.reason, "rule": words.rule_words(event.rule), **_who(entry),
                })
    return out


def _rulings(log: LogSnapshot, tournaments: Sequence[TournamentRecord],
             tables: Sequence[TableHands], all_cards: bool = True) -> list[dict[str, Any]]:
    """Every decision that cites a rule: the director's rulings and penalties, color-ups,
    late-entry deductions and player moves, and the rule events at the tables (misdeals,
    voided hands, killed hands, exposed cards, awards by a ruling, chip adjustments)."""
    out: list[dict[str, Any]] = []
    for record in tournaments:
        names = record.names()
        for stored in record.stored:
            event = stored.decode()
            base = {"stream": record.stream, "version": stored.version, "event": stored.type,
                    **_who(stored)}
            if isinstance(event, RulingRecorded):
                out.append({**base, "kind": "ruling", "rule": words.rule_words(event.rule),
                            "text": event.text,
                            "by": event.by, "player": "",
                            "affects": f"{event.stream} v{event.version}" if event.stream
                            else ""})
            elif isinstance(event, StackCorrected):
                out.append({**base, "kind": "stack correction",
                            "rule": words.rule_words(event.rule),
                            "text": f"counted {event.counted}, the log {event.computed}: "
                            f"{event.amount:+} ({event.reason})", "by": event.by,
                            "player": names.get(event.player, event.player),
                            "affects": f"table {event.table}"})
            elif isinstance(event, PenaltyRecorded):
                hands = f" ({event.hands} hands)" if event.hands else ""
                out.append({**base, "kind": "penalty", "rule": words.rule_words(event.rule),
                            "text": f"{event.penalty}{hands}: {event.text}", "by": event.by,
                            "player": names.get(event.player, event.player), "affects": ""})
            elif isinstance(event, LevelStarted) and event.ruling:
                out.append({**base, "kind": "ruling", "rule": event.ruling,
                            "text": f"level {event.level} started", "by": stored.actor,
                            "player": "", "affects": ""})
            elif isinstance(event, ChipsColoredUp):
                out.append({**base, "kind": "color-up", "rule": words.rule_words(event.rule),
                            "text": f"after level {event.after_level}: {event.method}, "
                                    f"{', '.join(event.colours)} out, unit {event.old_unit} -> "
                                    f"{event.new_unit}", "by": stored.actor, "player": "",
                            "affects": ""})
            elif isinstance(event, PlayerMoved) and event.rule:
                out.append({**base, "kind": "move", "rule": words.rule_words(event.rule),
                            "text": f"{words.reason(event.reason)}: table {event.from_table} seat "
                                    f"{event.from_seat} -> table {event.to_table} seat "
                                    f"{event.to_seat} with {event.stack} chips",
                            "by": stored.actor, "player": names.get(event.player, event.player),
                            "affects": ""})
            elif isinstance(event, PlayerRegistered) and event.rule:
                out.append({**base, "kind": "late entry", "rule": words.rule_words(event.rule),
                            "text": f"{event.chips_deducted} chips deducted",
                            "by": stored.actor, "player": event.name, "affects": ""})
    names = {player: name for record in tournaments for player, name in record.names().items()}
    for table in tables:
        meta = {e.version: e for e in log.by_stream.get(table.stream, [])}
        for hand in table.hands:
            for step in hand.steps:
                entry = _table_ruling(hand, step.event, all_cards)
                if entry is not None:
                    found = meta.get(step.version)
                    out.append({"stream": table.stream, "version": step.version,
                                "event": getattr(step.event, "TYPE", ""), **_who(found),
                                "by": found.actor if found else "", "affects":
                                f"hand {hand.number}", **entry})
        for version, event in table.fold.effective:
            if isinstance(event, StackAdjusted):
                found = meta.get(version)
                out.append({"stream": table.stream, "version": version, "event": event.TYPE,
                            **_who(found), "by": found.actor if found else "",
                            "kind": "chip adjustment", "rule": words.rule_words(event.rule),
                            "text": f"{event.amount:+d} chips: {words.reason(event.reason)}",
                            "player": names.get(event.player, event.player),
                            "affects": f"seat {event.seat}"})
    return out


def _table_ruling(hand: RecordedHand, event: Any,
                  all_cards: bool = True) -> dict[str, Any] | None:
    def name(position: int) -> str:
        return hand.names[position] if 0 <= position < hand.size else str(position)

    said = words.render(event)
    if isinstance(event, MisdealDeclared):
        return {"kind": "misdeal", "rule": said["rules"], "text": said["cause"], "player": ""}
    if isinstance(event, HandVoided):
        return {"kind": "hand voided", "rule": said["rules"], "text": event.reason,
                "player": ""}
    if isinstance(event, HandKilled):
        return {"kind": "hand killed", "rule": said["rules"], "text": said["cause"],
                "player": name(event.player)}
    if isinstance(event, CardExposed):
        return {"kind": "card exposed", "rule": said["rules"],
                "text": f"{event.card if all_cards else 'a card'}: {said['consequence']}",
                "player": name(event.player)}
    if isinstance(event, BoardExposedEarly):
        return {"kind": "board exposed early", "rule": said["rules"],
                "text": f"{' '.join(event.cards)}: {said['procedure']}", "player": ""}
    if isinstance(event, PotAwarded) and event.ruling:
        winners = ", ".join(name(w) for w in event.winners)
        return {"kind": "award by ruling", "rule": event.ruling,
                "text": f"pot {event.pot} ({event.amount}) to {winners}", "player": ""}
    return None


# ---------------------------------------------------------------------------------------------
# CSV


POT_COLUMNS = (
    "tournament", "table", "stream", "hand", "status", "first_version", "last_version", "level",
    "small_blind", "big_blind", "ante", "button_seat", "small_blind_seat", "big_blind_seat",
    "chip_unit", "pot", "amount", "eligible", "winners", "odd_chips", "hand_name", "ruling",
    "award_version", "hand_put_in", "hand_dead_money", "hand_pots_total", "balanced",
    "stacks_start", "stacks_end", "findings",
)

LOG_COLUMNS = (
    "kind", "stream", "version", "event", "rule", "text", "player", "affects", "expected",
    "recorded", "by", "actor", "device", "recorded_at",
)


def _seat_names(people: Iterable[Mapping[str, Any]], value: str = "") -> str:
    parts = []
    for p in people:
        text = f"{p['seat']}:{p['name']}"
        if value:
            text += f"={p[value]}"
        parts.append(text)
    return ";".join(parts)


def _findings_text(findings: Iterable[Mapping[str, Any]]) -> str:
    return " | ".join(f"v{f['version']} {f['event']} [{f['rule']}] {f['message']}"
                      + (f" expected {f['expected']} recorded {f['recorded']}"
                         if f["expected"] or f["recorded"] else "") for f in findings)


def pots_csv(data: Mapping[str, Any]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(POT_COLUMNS)
    for table in data["tables"]:
        for hand in table["hands"]:
            common = {
                "tournament": table["tournament"], "table": table["table"],
                "stream": hand["stream"], "hand": hand["hand"], "status": hand["status"],
                "first_version": hand["first_version"], "last_version": hand["last_version"],
                "level": hand["level"], "small_blind": hand["small_blind"],
                "big_blind": hand["big_blind"], "ante": hand["ante"],
                "button_seat": hand["button_seat"],
                "small_blind_seat": hand["small_blind_seat"],
                "big_blind_seat": hand["big_blind_seat"], "chip_unit": hand["chip_unit"],
                "hand_put_in": hand["put_in_total"], "hand_dead_money": hand["dead_money"],
                "hand_pots_total": hand["pots_total"],
                "balanced": "" if hand["balanced"] is None else str(hand["balanced"]).lower(),
                "stacks_start": _seat_names(hand["players"], "stack_start"),
                "stacks_end": _seat_names(hand["players"], "stack_end"),
                "findings": _findings_text(hand["findings"]),
            }
            pots = hand["pots"] or [None]
            for pot in pots:
                row = dict(common)
                if pot is not None:
                    row.update({
                        "pot": pot["pot"], "amount": pot["amount"],
                        "eligible": _seat_names(pot["eligible"]),
                        "winners": _seat_names(pot["winners"], "share"),
                        "odd_chips": _seat_names(pot["odd_chips"]),
                        "hand_name": pot["hand_name"], "ruling": pot["ruling"],
                        "award_version": pot["version"],
                    })
                writer.writerow([row.get(c, "") for c in POT_COLUMNS])
    return buffer.getvalue()


def log_csv(data: Mapping[str, Any]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(LOG_COLUMNS)
    for f in data["verdict"]["findings"]:
        writer.writerow(["finding", f["stream"], f["version"], f["event"], f["rule"],
                         f["message"], "", "", f["expected"], f["recorded"], "", "", "", ""])
    for problem in data["verdict"]["chain"]["problems"]:
        writer.writerow(["chain", "", "", "", "hash chain", problem] + [""] * 8)
    for c in data["corrections"]:
        affects = "; ".join(f"v{a['version']} {a['event']} {a['payload']}"
                            for a in c["affects"])
        text = c["reason"]
        if c["replacement"]:
            text += f" -> {c['replacement']['event']} {c['replacement']['payload']}"
        writer.writerow([c["kind"], c["stream"], c["version"], "", c["rule"], text, "",
                         affects, "", "", "", c["actor"], c["device"], c["recorded_at"]])
    for r in data["rulings"]:
        writer.writerow([r["kind"], r["stream"], r["version"], r["event"], r["rule"], r["text"],
                         r["player"], r["affects"], "", "", r["by"], r["actor"], r["device"],
                         r["recorded_at"]])
    return buffer.getvalue()


# ---------------------------------------------------------------------------------------------
# HTML

_CSS = """
pre.checkpoint { white-space: pre-wrap; word-break: break-all; border: 1px solid var(--line);
  padding: 8px; }
.qr svg { width: 12rem; height: auto; }
:root { --ink: #1d2330; --muted: #5d6675; --line: #d5d9e0; --bad: #b42318; --good: #067647;
  --bg-bad: #fef3f2; --bg-good: #ecfdf3; --head: #f3f5f8; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--ink); margin: 24px auto; max-width: 1100px; padding: 0 16px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 32px 0 8px; border-bottom: 2px solid var(--ink);
  padding-bottom: 4px; }
h3 { font-size: 16px; margin: 20px 0 6px; }
h4 { font-size: 14px; margin: 14px 0 4px; }
.muted, .meta { color: var(--muted); }
table { border-collapse: collapse; width: 100%; margin: 6px 0 12px; }
th, td { border: 1px solid var(--line); padding: 3px 6px; text-align: left;
  vertical-align: top; }
th { background: var(--head); font-weight: 600; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.verdict { padding: 12px 16px; border-radius: 6px; font-size: 18px; font-weight: 700; }
.verdict.clean { background: var(--bg-good); color: var(--good);
  border: 1px solid var(--good); }
.verdict.findings { background: var(--bg-bad); color: var(--bad);
  border: 1px solid var(--bad); }
.bad { color: var(--bad); font-weight: 600; }
.good { color: var(--good); }
.hand { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px;
  margin: 10px 0; break-inside: avoid; page-break-inside: avoid; }
.hand.flagged { border-color: var(--bad); background: var(--bg-bad); }
.hand h4 { margin-top: 0; }
code, .cards { font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-size: 13px; }
.payload { font-family: ui-monospace, monospace; font-size: 12px; word-break: break-all; }
nav ul { columns: 2; }
nav li { break-inside: avoid; }
.index { font-size: 12px; margin: 2px 0 6px; line-height: 1.6; }
.index a { margin-right: 4px; }
.actions { margin: 4px 0; padding-left: 18px; font-size: 13px; }
.inline { margin: 4px 0; padding-left: 18px; }
.inline .correction, .inline .ruling { border-left: 3px solid var(--bad); padding-left: 6px;
  list-style: none; margin-left: -18px; }
.proposal { color: var(--bad); }
.rule { color: var(--muted); }
.chart { margin: 8px 0 16px; break-inside: avoid; page-break-inside: avoid; }
header.running { display: none; }
@page { size: A4; margin: 16mm 12mm 16mm;
  @top-left { content: "handlog audit report"; font-size: 9px; color: #5d6675; }
  @top-right { content: "replayed through the engine"; font-size: 9px; color: #5d6675; }
  @bottom-right { content: "page " counter(page) " of " counter(pages); font-size: 9px; } }
@media print {
  body { margin: 0; max-width: none; font-size: 11px; }
  nav { break-after: page; }
  nav .index { display: none; }
  h2 { break-after: avoid; page-break-after: avoid; }
  .hand { margin: 6px 0; }
  a { color: inherit; text-decoration: none; }
}
"""


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value))


def _table_html(headers: Sequence[str], rows: Iterable[Sequence[object]],
                numeric: Iterable[int] = ()) -> str:
    numbers = set(numeric)
    head = "".join(f'<th{" class=n" if i in numbers else ""}>{_e(h)}</th>'
                   for i, h in enumerate(headers))
    body = []
    for row in rows:
        cells = "".join(f'<td{" class=n" if i in numbers else ""}>{cell}</td>'
                        for i, cell in enumerate(row))
        body.append(f"<tr>{cells}</tr>")
    if not body:
        return '<p class="muted">None.</p>'
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _money(cents: int, currency: str) -> str:
    return f"{cents / 100:,.2f} {currency}".strip()


def _findings_html(findings: Sequence[Mapping[str, Any]]) -> str:
    return _table_html(
        ("stream", "version", "event", "rule", "what", "expected", "recorded"),
        ([_e(f["stream"]), _e(f["version"]), _e(f["event"]), _e(f["rule"]), _e(f["message"]),
          f'<span class="payload">{_e(f["expected"])}</span>',
          f'<span class="payload">{_e(f["recorded"])}</span>'] for f in findings),
        numeric=(1,),
    )


def _verdict_html(data: Mapping[str, Any]) -> str:
    verdict = data["verdict"]
    parts = []
    findings = verdict["findings"]
    problems = verdict["chain"]["problems"]
    merkle = verdict.get("merkle", {"ok": True, "breaks": []})
    replayed = verdict["replayed"]
    if verdict["clean"]:
        parts.append('<div class="verdict clean">CLEAN: every event replays through the '
                     "engine and every hash chain is intact</div>")
    else:
        count = len(findings) + len(problems) + len(merkle["breaks"])
        parts.append(f'<div class="verdict findings">{count} FINDING{"S" if count != 1 else ""}'
                     ": the log disagrees with the engine or its hash chains</div>")
    parts.append(f'<p>Replayed {replayed["events"]:,} events in {replayed["streams"]} streams '
                 f'({replayed["hands"]:,} hands). Hash chains: '
                 + ('<span class="good">intact</span>' if verdict["chain"]["ok"]
                    else '<span class="bad">broken</span>')
                 + ". Merkle log and checkpoints: "
                 + ('<span class="good">intact</span>' if merkle["ok"]
                    else '<span class="bad">broken</span>')
                 + ". Tournament cross-checks: "
                 + ("on" if verdict["tournament_checks"] else "not run") + ".</p>")
    if findings:
        parts.append("<h3>Findings</h3>" + _findings_html(findings))
    if problems:
        parts.append("<h3>Hash chain problems</h3><ul>"
                     + "".join(f"<li>{_e(p)}</li>" for p in problems) + "</ul>")
    if merkle["breaks"]:
        parts.append("<h3>Merkle log breaks</h3><ul>"
                     + "".join(f"<li>{_e(b)}</li>" for b in merkle["breaks"]) + "</ul>")
    if verdict["in_progress"]:
        parts.append("<p>Cut off in progress (not an error): " + ", ".join(
            f"{_e(p['stream'])} hand {_e(p['hand'])}" for p in verdict["in_progress"]) + "</p>")
    return "".join(parts)


def _tournament_html(t: Mapping[str, Any]) -> str:
    parts = [f'<h2 id="t-{_e(t["id"])}">Tournament {_e(t["id"])}</h2>']
    if t.get("problem"):
        parts.append(f'<p class="bad">{_e(t["problem"])}</p>')
    if "structure" not in t:
        return "".join(parts)
    s = t["structure"]
    currency = s["money"]["currency"]
    winner = t["winner"]["name"] if t.get("winner") else "not finished"
    parts.append(_table_html(("structure", "house rules", "starting stack", "seats per table",
                              "entrants", "level reached", "winner"),
                             [[_e(s["name"]), _e(s["profile"]), _e(s["starting_stack"]),
                               _e(s["seats_per_table"]), _e(len(t["entrants"])), _e(t["level"]),
                               _e(winner)]]))
    ledger = t["chip_ledger"]
    balanced = ('<span class="good">equal</span>' if ledger["balanced"]
                else '<span class="bad">DIFFERENT</span>')
    parts.append("<h3>Chip ledger</h3>")
    parts.append(_table_html(("", "chips"), [
        [f"{ledger['entries']} entries × {ledger['starting_stack']:,}",
         f"{ledger['starting_chips']:,}"],
        ["less late-entry deductions", f"−{ledger['late_deductions']:,}"],
        ["color-up changes (races, round-ups, forfeits)", f"{ledger['color_up_change']:+,}"],
        ["odd chips carried into next pots", f"{ledger['carried_to_pots']:+,}"],
        ["less chips of withdrawn players", f"−{ledger['withdrawn']:,}"],
        ["stack corrections after chip counts", f"{ledger.get('corrected', 0):+,}"],
        ["<b>expected chip total</b>", f"<b>{ledger['expected_total']:,}</b>"],
        ["chips at the tables (replayed)" + (" — a hand is in progress"
                                             if ledger["hand_in_progress"] else ""),
         f"{ledger['at_tables']:,} ({balanced})"],
    ], numeric=(1,)))
    parts.append("<h3>Eliminations</h3>")
    parts.append(_table_html(
        ("place", "player", "out", "table", "hand", "chips at the start of the hand",
         "version", "recorded by", "when"),
        ([_e(e["place"]), _e(e["name"]), _e(e["kind"]), _e(e["table"]), _e(e["hand"]),
          f"{e['chips_at_start']:,}", _e(e["version"]),
          _e(f"{e['actor']} ({e['device']})"), _e(e["recorded_at"])]
         for e in t["eliminations"]), numeric=(0, 4, 5, 6)))
    parts.append("<h3>Prizes</h3>")
    prizes = t.get("prizes")
    if prizes:
        parts.append(f"<p>Pool {_e(_money(prizes['pool'], currency))} for a field of "
                     f"{_e(prizes['field_size'])}; {_e(prizes['rule'])}. Recorded by "
                     f"{_e(prizes['actor'])} ({_e(prizes['device'])}) at "
                     f"{_e(prizes['recorded_at'])}, v{_e(prizes['version'])}.</p>")
        parts.append(_table_html(("place", "player", "amount"),
                                 ([_e(a["place"]), _e(a["name"]),
                                   _e(_money(a["amount"], currency))]
                                  for a in prizes["awards"]), numeric=(0, 2)))
        if prizes["bounties"]:
            parts.append(_table_html(("player", "bounties", "amount"),
                                     ([_e(b["name"]), _e(b["bounties"]),
                                       _e(_money(b["amount"], currency))]
                                      for b in prizes["bounties"]), numeric=(1, 2)))
    else:
        parts.append('<p class="muted">No prizes recorded.</p>')
    if t.get("high_hand"):
        h = t["high_hand"]
        parts.append(f"<p>High hand {_e(h['hand'])}: pool {_e(_money(h['pool'], currency))}, "
                     + ", ".join(f"{_e(s['name'])} {_e(_money(s['amount'], currency))}"
                                 for s in h["shares"]) + "</p>")
    deal = t.get("deal")
    if deal:
        parts.append(f"<h3>Deal ({_e(deal['method'])})</h3><p>Unpaid prize money "
                     f"{_e(_money(deal['unpaid'], currency))}; kept to play for "
                     f"{_e(_money(deal['kept'], currency))}; recorded by {_e(deal['by'])}.</p>")
        parts.append(_table_html(("player", "stack", "amount", "consent"),
                                 ([_e(x["name"]), f"{x['stack']:,}",
                                   _e(_money(x["amount"], currency)), _e(x["consent"])]
                                  for x in deal["shares"]), numeric=(1, 2)))
    counts = t.get("chip_counts")
    if counts and (counts["counts"] or counts["corrections"]):
        parts.append("<h3>Chip counts</h3>")
        parts.append(_table_html(
            ("table", "when", "player", "counted", "log"),
            ([_e(c["table"]), _e(f"{words.reason(c['occasion'])}, level {c['level']}"),
              _e(x["name"]), f"{x['counted']:,}", f"{x['computed']:,}"]
             for c in counts["counts"] for x in c["stacks"]), numeric=(3, 4)))
        if counts["corrections"]:
            parts.append(_table_html(
                ("player", "counted", "log", "change", "reason", "rule", "by"),
                ([_e(c["name"]), f"{c['counted']:,}", f"{c['computed']:,}",
                  f"{c['amount']:+,}", _e(c["reason"]), _e(c["rule"]), _e(c["by"])]
                 for c in counts["corrections"]), numeric=(1, 2, 3)))
        if counts["open"]:
            parts.append("<p><strong>Not settled:</strong> " + ", ".join(
                _e(f"{x['name']} counted {x['counted']:,}, the log says {x['computed']:,}")
                for x in counts["open"]) + "</p>")
    money_block = t.get("money")
    if money_block:
        rows = [(key.replace("_", " "), money_block[key]) for key in (
            "buy_ins", "fees", "bounty_pool", "high_hand_pool", "prizes_paid", "bounties_paid",
            "high_hand_paid", "unaccounted")]
        parts.append("<h3>Money</h3>")
        parts.append(_table_html(("", "amount"), ([_e(k), _e(_money(v, currency))]
                                                   for k, v in rows), numeric=(1,)))
    parts.append("<h3>Entrants</h3>")
    parts.append(_table_html(
        ("player", "id", "late", "deducted", "place", "seat now"),
        ([_e(e["name"]), _e(e["player"]), "yes" if e["late"] else "",
          _e(e["chips_deducted"] or ""), _e(e["place"] or ""),
          _e(f"table {e['table']} seat {e['seat']}" if e["table"] else "")]
         for e in t["entrants"]), numeric=(3, 4)))
    return "".join(parts)


def _hand_html(h: Mapping[str, Any]) -> str:
    flagged = bool(h["findings"]) or h["balanced"] is False
    title = (f"Hand {_e(h['hand'])} — level {_e(h['level'])} "
             f"({_e(h['small_blind'])}/{_e(h['big_blind'])}"
             + (f", ante {_e(h['ante'])}" + (" big blind ante" if h["ante_kind"] == "big_blind"
                                              else "") if h["ante"] else "") + ")")
    status = "" if h["status"] == "complete" else f' <span class="bad">{_e(h["status"])}</span>'
    parts = [f'<div class="hand{" flagged" if flagged else ""}" '
             f'id="{_e(h["stream"])}-v{_e(h["first_version"])}"><h4>{title}{status}</h4>']
    parts.append(f'<p class="meta">{_e(h["stream"])} v{_e(h["first_version"])}–'
                 f'v{_e(h["last_version"])}, {_e(h["recorded_at"])}; button seat '
                 f'{_e(h["button_seat"])}, small blind seat {_e(h["small_blind_seat"] or "—")}, '
                 f'big blind seat {_e(h["big_blind_seat"])}; smallest chip '
                 f'{_e(h["chip_unit"])} ({_e(h["profile"])})'
                 + (f'; board <span class="cards">{_e(" ".join(h["board"]))}</span>'
                    if h["board"] else "") + "</p>")
    parts.append(_table_html(
        ("seat", "player", "", "stack at start", "put in", "won", "stack at end", "cards"),
        ([_e(p["seat"]), _e(p["name"]), _e(p["role"]), f"{p['stack_start']:,}",
          f"{p['put_in']:,}", f"{p['won']:,}" if p["won"] else "", f"{p['stack_end']:,}",
          f'<span class="cards">{_e(" ".join(p["cards"]))}</span>'
          + (" <span class=muted>folded</span>" if p["folded"] else "")]
         for p in sorted(h["players"], key=lambda p: p["seat"])), numeric=(0, 3, 4, 5, 6)))
    if h["pots"]:
        # Odd chips exist only where a pot is split: the column is shown only then.
        split = any(len(p["winners"]) > 1 for p in h["pots"])
        headers = ("pot", "amount", "eligible", "winners (share)") + (
            ("odd chips to",) if split else ()) + ("hand", "version")
        parts.append(_table_html(headers, (
            [_e("main" if p["pot"] == 0 else f"side {p['pot']}"), f"{p['amount']:,}",
             _e(", ".join(f"{x['name']} (seat {x['seat']})" for x in p["eligible"])),
             _e(", ".join(f"{w['name']} {w['share']:,}" for w in p["winners"]))]
            + ([_e(", ".join(o["name"] for o in p["odd_chips"]))] if split else [])
            + [_e(p["hand_name"]) + (f' <span class="bad">ruling: {_e(p["ruling"])}</span>'
                                     if p["ruling"] else ""), _e(p["version"])]
            for p in h["pots"]), numeric=(1, len(headers) - 1)))
        if split:
            parts.append(f'<p class="meta">odd chips of a split pot in units of '
                         f'{_e(h["chip_unit"])}</p>')
    if h["balanced"] is not None:
        put_in = f'{h["put_in_total"]:,} put in'
        if h["dead_money"]:
            put_in += f' + {h["dead_money"]:,} carried into the pot'
        check = (f'<span class="good">chips balance</span>: {put_in} = '
                 f'{h["pots_total"]:,} in pots' if h["balanced"]
                 else f'<span class="bad">chips do not balance</span>: {put_in}, '
                      f'{h["pots_total"]:,} in pots')
        parts.append(f"<p>{check}</p>")
    if h.get("proposal"):
        parts.append('<p class="proposal">Awarded by a ruling; the engine proposed: ' + "; ".join(
            (f'{"main" if p["pot"] == 0 else "side " + str(p["pot"])} pot to '
             f'{_e(", ".join(p["winners"]))}' + (f" ({_e(p['hand_name'])})"
                                                 if p["hand_name"] else ""))
            if p["pot"] >= 0 else _e(p.get("why", "")) for p in h["proposal"]) + "</p>")
    if h.get("actions"):
        parts.append(_actions_html(h["actions"]))
    inline = _inline_html(h.get("corrections", []), h.get("rulings", []))
    if inline:
        parts.append(inline)
    if h["notes"]:
        parts.append("<ul>" + "".join(f"<li>{_e(n)}</li>" for n in h["notes"]) + "</ul>")
    if h["findings"]:
        parts.append(_findings_html(h["findings"]))
    parts.append("</div>")
    return "".join(parts)


def _actions_html(actions: Sequence[Mapping[str, Any]]) -> str:
    """The hand's entries in order, one line per street."""
    lines: list[tuple[str, list[str]]] = []
    for action in actions:
        if action["type"] == "hand_started":
            continue
        street = action["street"] or (lines[-1][0] if lines else "preflop")
        if not lines or lines[-1][0] != street:
            lines.append((street, []))
        lines[-1][1].append(f'<span title="v{_e(action["version"])}">{_e(action["text"])}</span>')
    return '<ol class="actions">' + "".join(
        f"<li><b>{_e(street)}</b>: {'; '.join(items)}</li>" for street, items in lines) + "</ol>"


def _inline_html(corrections: Sequence[Mapping[str, Any]],
                 rulings: Sequence[Mapping[str, Any]]) -> str:
    """The corrections and rulings of one hand, where they happened: who, when, why, rule."""
    items = []
    for c in corrections:
        touched = ", ".join(f"v{a['version']} {a['event']}" for a in c["affects"])
        now = f", now {c['replacement']['event']}" if c["replacement"] else ""
        items.append(f'<li class="correction">v{_e(c["version"])} <b>{_e(c["kind"])}</b> of '
                     f"{_e(touched)}{_e(now)}: {_e(c['reason'])}"
                     + (f' <span class="rule">[{_e(c["rule"])}]</span>' if c["rule"] else "")
                     + f' <span class="muted">by {_e(c["actor"])} on {_e(c["device"])}, '
                     f'{_e(c["recorded_at"])}</span></li>')
    for r in rulings:
        items.append(f'<li class="ruling">v{_e(r["version"])} <b>{_e(r["kind"])}</b>'
                     + (f" {_e(r['player'])}" if r["player"] else "")
                     + f": {_e(r['text'])}"
                     + (f' <span class="rule">[{_e(r["rule"])}]</span>' if r["rule"] else "")
                     + f' <span class="muted">by {_e(r["by"] or r["actor"])}, '
                     f'{_e(r["recorded_at"])}</span></li>')
    return f'<ul class="inline">{"".join(items)}</ul>' if items else ""


def _corrections_html(corrections: Sequence[Mapping[str, Any]]) -> str:
    rows = []
    for c in corrections:
        affected = "<br>".join(
            f"v{_e(a['version'])} {_e(a['event'])} "
            f'<span class="payload">{_e(a["payload"])}</span> '
            f'<span class="muted">({_e(a["actor"])}, {_e(a["device"])}, '
            f'{_e(a["recorded_at"])})</span>' for a in c["affects"])
        if c["replacement"]:
            affected += (f"<br>now counts as {_e(c['replacement']['event'])} "
                         f'<span class="payload">{_e(c["replacement"]["payload"])}</span>')
        rows.append([_e(c["stream"]), _e(c["version"]), _e(c["kind"]), affected,
                     _e(c["reason"]), _e(c["rule"]), _e(f"{c['actor']} ({c['device']})"),
                     _e(c["recorded_at"])])
    return _table_html(("stream", "version", "correction", "what it voids or amends", "reason",
                        "rule", "who (device)", "when"), rows, numeric=(1,))


def _rulings_html(rulings: Sequence[Mapping[str, Any]]) -> str:
    return _table_html(
        ("stream", "version", "kind", "rule", "decision", "player", "affects", "by",
         "recorded by (device)", "when"),
        ([_e(r["stream"]), _e(r["version"]), _e(r["kind"]), _e(r["rule"]), _e(r["text"]),
          _e(r["player"]), _e(r["affects"]), _e(r["by"]),
          _e(f"{r['actor']} ({r['device']})"), _e(r["recorded_at"])] for r in rulings),
        numeric=(1,))


def _checkpoint_html(checkpoint: Mapping[str, Any] | None) -> str:
    """The latest signed checkpoint in full, and as a QR code to photograph at the desk."""
    parts = ['<h2 id="checkpoint">Signed checkpoint of the log</h2>']
    if checkpoint is None:
        parts.append('<p class="muted">No checkpoint was signed yet.</p>')
        return "\n".join(parts)
    import segno

    qr = segno.make(checkpoint["text"], error="m").svg_inline(scale=3, title="checkpoint")
    parts.append(
        f'<p class="meta">Checkpoint #{_e(checkpoint["number"])} '
        f'({_e(checkpoint["reason"].replace("_", " "))}, {_e(checkpoint["created_at"])}): the '
        f'first {_e(checkpoint["size"])} events of the log, root <code>{_e(checkpoint["root"])}'
        "</code>. Anyone holding it can check that the log only grew since: "
        "<code>handlog log verify --checkpoint FILE --key PUBLIC_KEY</code>.</p>")
    parts.append(f'<pre class="checkpoint">{_e(checkpoint["text"])}</pre>')
    parts.append(f'<div class="qr">{qr}</div>')
    return "\n".join(parts)


PAGED_ABOVE = 1000
"""A report of more hands than this writes one page per table beside its index page."""


def table_page_name(out: Path, stream: str) -> str:
    """The file (relative to the index page) holding one table's hands of a paged report."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in stream)
    return f"{out.stem}-tables/{safe}.html"


def _head(title: str) -> list[str]:
    return ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>"]


def _title(data: Mapping[str, Any]) -> str:
    scope = data["scope"]
    return "handlog audit report" + (f": {scope['tournament']}" if scope["tournament"] else "")


def _hand_index(table: Mapping[str, Any], href: str) -> str:
    links = [f'<a href="{_e(href)}#{_e(h["stream"])}-v{_e(h["first_version"])}"'
             + (' class="bad"' if h["findings"] or h["balanced"] is False else "")
             + f'>#{_e(h["hand"])}</a>' for h in table["hands"]]
    return f'<p class="index">{" ".join(links)}</p>' if links else ""


INDEX_FINDINGS = 20
"""A paged report's index page links at most this many hands with findings per table (the
rest are marked on the table's page)."""


def _level_index(table: Mapping[str, Any], href: str) -> str:
    """A paged report's index entry for one table: a link per level (to its first hand on the
    table's page, with the hand numbers it holds) and the hands with findings, so the index
    page stays small however many hands there are; each table's page lists its hands."""
    levels: dict[Any, list[Mapping[str, Any]]] = {}
    for hand in table["hands"]:
        levels.setdefault(hand["level"], []).append(hand)
    links = [f'<a href="{_e(href)}#{_e(hs[0]["stream"])}-v{_e(hs[0]["first_version"])}">'
             f'level {_e(level)}</a> <span class="muted">#{_e(hs[0]["hand"])}&ndash;'
             f'#{_e(hs[-1]["hand"])} ({len(hs)})</span>' for level, hs in levels.items()]
    bad = [h for h in table["hands"] if h["findings"] or h["balanced"] is False]
    text = f'<p class="index">{" &middot; ".join(links)}</p>' if links else ""
    if bad:
        shown = "".join(f'<a class="bad" href="{_e(href)}#{_e(h["stream"])}-v'
                        f'{_e(h["first_version"])}">#{_e(h["hand"])}</a> '
                        for h in bad[:INDEX_FINDINGS])
        more = (f' and {len(bad) - INDEX_FINDINGS} more on the table\'s page'
                if len(bad) > INDEX_FINDINGS else "")
        text += f'<p class="index">Hands with findings: {shown}{more}</p>'
    return text


def render_html(data: Mapping[str, Any], pages: Mapping[str, str] | None = None) -> str:
    """The report as one self-contained page (no scripts, no external resources), readable and
    printable: the verdict first, then an index of every hand, the charts, each tournament,
    the corrections and rulings, and every hand with its actions, corrections and rulings.
    With `pages` (stream -> file), the hands are on one page per table instead, linked from
    the index (a whole event of thousands of hands stays quick to open)."""
    scope = data["scope"]
    title = _title(data)
    log = data["log"]
    where = f" at {_e(scope['database'])}" if scope["database"] else ""
    nav = ['<nav aria-label="Contents"><h2 class="toc">Contents</h2><ul>'
           '<li><a href="#verdict">Verdict</a></li>'
           '<li><a href="#checkpoint">Signed checkpoint</a></li>'
           '<li><a href="#charts">Charts</a></li>']
    for t in data["tournaments"]:
        nav.append(f'<li><a href="#t-{_e(t["id"])}">Tournament {_e(t["id"])}</a></li>')
    nav.append('<li><a href="#corrections">Corrections</a></li>'
               '<li><a href="#rulings">Rulings and penalties</a></li>')
    for table in data["tables"]:
        href = pages[table["stream"]] if pages else ""
        nav.append(f'<li><a href="{_e(href)}#{_e(table["stream"])}">Hands at '
                   f'{_e(table["stream"])} ({len(table["hands"])})</a>'
                   f'{_level_index(table, href) if pages else _hand_index(table, href)}</li>')
    nav.append('<li><a href="#heads">Stream heads</a></li></ul></nav>')
    parts = [
        *_head(title),
        f'<header class="running">{_e(title)}</header>',
        f"<h1>{_e(title)}</h1>",
        '<h2 id="verdict">Verdict</h2>', _verdict_html(data),
        f'<p class="meta">Built by replaying the log{where} through the engine: '
        f'{log["events"]:,} events up to position {log["last_position"]:,}; '
        f'{len(log["streams"])} streams (their heads at the end).</p>',
        '<p class="meta">Cards: ' + (
            "every hole card the log knows (--all-cards: for the director or an auditor)."
            if scope.get("cards") == "all" else
            "only those shown at the table (the board and hands shown); hole cards dealt, "
            "exposed or mucked are left out (--all-cards adds them).") + "</p>",
        _checkpoint_html(data.get("checkpoint")),
        "".join(nav),
        '<h2 id="charts">Charts</h2>', charts_html(data) or '<p class="muted">No hands yet.</p>',
    ]
    parts.extend(_tournament_html(t) for t in data["tournaments"])
    parts.append('<h2 id="corrections">Corrections</h2>')
    parts.append('<p class="muted">Nothing is erased: a correction voids or amends earlier '
                 "entries, which stay in the log. Each is also shown in its hand.</p>")
    parts.append(_corrections_html(data["corrections"]))
    parts.append('<h2 id="rulings">Rulings and penalties</h2>')
    parts.append(_rulings_html(data["rulings"]))
    for table in data["tables"]:
        if pages:
            parts.append(f'<h2 id="{_e(table["stream"])}">Hands at table {_e(table["table"])}'
                         f'</h2><p><a href="{_e(pages[table["stream"]])}">'
                         f'{len(table["hands"])} hands on their own page</a></p>')
        else:
            parts.append(_table_hands_html(table))
    parts.append('<h2 id="heads">Stream heads</h2>')
    parts.append(_table_html(("stream", "kind", "version", "head hash"), (
        [_e(h["stream"]), _e(h["kind"]), _e(h["version"]), f'<code>{_e(h["hash"])}</code>']
        for h in log["streams"]), numeric=(2,)))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _table_hands_html(table: Mapping[str, Any]) -> str:
    return "\n".join([
        f'<h2 id="{_e(table["stream"])}">Hands at table {_e(table["table"])} '
        f'<span class="muted">({_e(table["stream"])}, {len(table["hands"])} hands, '
        f"{_e(table['profile'])})</span></h2>",
        *(_hand_html(h) for h in table["hands"])])


def render_table_page(data: Mapping[str, Any], table: Mapping[str, Any], index: str) -> str:
    """One table's hands, for a paged report; `index` is the way back to the index page."""
    title = f"{_title(data)}: {table['stream']}"
    verdict = "CLEAN" if data["verdict"]["clean"] else "FINDINGS (see the index page)"
    return "\n".join([
        *_head(title), f'<header class="running">{_e(title)}</header>',
        f'<p class="meta"><a href="{_e(index)}">Back to the index and the verdict</a> '
        f"(verdict: {verdict})</p>", _hand_index(table, ""), _table_hands_html(table),
        "</body></html>\n"])
