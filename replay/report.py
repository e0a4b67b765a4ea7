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

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from handlog.engine import words
from handlog.engine.errors import RuleViolation
from handlog.engine.events import (
    BoardDealt,
    BoardExposedEarly,
    CardExposed,
    HandKilled,
    HandVoided,
    MisdealDeclared,
    PotAwarded,
)
from handlog.engine.money import entries_by_person, money_block
from handlog.engine.structure import paid_basis_points, payout_bracket, payouts_for
from handlog.engine.table_events import EventAmended, EventVoided, StackAdjusted
from handlog.engine.tournament_events import (
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
from handlog.engine.tournament_state import TournamentState
from handlog.replay.days_check import event_report, events_of
from handlog.replay.export_hands import (
    LogSnapshot,
    RecordedHand,
    TableHands,
    TournamentRecord,
    hands_of_log,
    read_tournaments,
    tournament_id,
)
from handlog.replay.fold import Finding
from handlog.replay.report_csv import log_csv, pots_csv
from handlog.replay.report_html import (
    PAGED_ABOVE,
    render_html,
    table_page_name,
    write_table_pages,
)
from handlog.replay.verify import replay_log
from handlog.schema.checkpoint import StoredCheckpoint, stored_checkpoints
from handlog.schema.codec import decode_event, format_utc
from handlog.schema.hashing import verify_events
from handlog.schema.logcheck import Break, check_store
from handlog.schema.sign_off import SignOff, compare, results_of, stored_sign_offs
from handlog.schema.store import EventStore, StoredEvent

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
                written.extend(write_table_pages(self.data, table, out))
            out.write_text(render_html(self.data, pages), encoding="utf-8")
            return written
        if fmt == "pdf":
            from handlog.replay.report_pdf import write_pdf  # ReportLab is loaded for PDFs only

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
    # A report is read by people: its rules are words, as for the rulings it lists.
    found = finding.as_dict() | {"rule": words.render_rule(finding.rule)}
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
    history = stored_checkpoints(store)
    return build_report_from(log, tournament, database, history[-1] if history else None,
                             merkle.breaks, all_cards=all_cards, history=history,
                             sign_offs=stored_sign_offs(store))


HIDDEN = "(hidden: cards not shown at the table; --all-cards shows them)"
_CARD_EVENTS = ("hole_cards_dealt", "card_exposed", "cards_mucked")


def build_report_from(log: LogSnapshot, tournament: str | None = None,
                      database: str = "", checkpoint: StoredCheckpoint | None = None,
                      log_breaks: Sequence[Break] = (), *,
                      all_cards: bool = False,
                      history: Sequence[StoredCheckpoint] = (),
                      sign_offs: Sequence[tuple[int, SignOff]] = ()) -> AuditReport:
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
        "events": [event_report(logs) for logs in events_of(
            record.state for record in tournaments if record.state is not None).values()],
        "tables": [_table(table, replay.findings, log, all_cards) for table in export.tables],
        "corrections": _corrections(log, in_scope, all_cards,
                                    {t.stream: t.hands for t in export.tables}),
        "rulings": _rulings(log, tournaments, export.tables, all_cards),
        "checkpoint": _checkpoint(checkpoint),
        "checkpoints": [_checkpoint(stored) for stored in history],
        "sign_offs": [_sign_off(number, signed, log) for number, signed in sign_offs
                      if not wanted or signed.tournament == f"tournament-{wanted}"],
    }
    data["verdict"]["unsigned_tail"] = unsigned_tail(checkpoint, len(log.events))
    data["verdict"]["sign_off"] = [change for signed in data["sign_offs"]
                                   for change in signed["changed"]]
    data["verdict"]["clean"] = data["verdict"]["clean"] and not data["verdict"]["sign_off"]
    _attach(data)
    return AuditReport(data)


def unsigned_tail(stored: StoredCheckpoint | None, events: int) -> int:
    """The events of the whole log after its latest signed checkpoint (all, with none)."""
    return max(events - (stored.checkpoint.size if stored is not None else 0), 0)


def _checkpoint(stored: StoredCheckpoint | None) -> dict[str, Any] | None:
    """The latest signed checkpoint of the whole log, as the room recorded it."""
    if stored is None:
        return None
    cp = stored.checkpoint
    signed_at = cp.signed_at
    return {"number": stored.number, "reason": stored.reason,
            "created_at": format_utc(stored.created_at), "origin": cp.origin, "size": cp.size,
            "root": cp.root_hex, "text": cp.text,
            "signed_at": format_utc(signed_at) if signed_at else None,
            "cosignatures": [{"witness": c.witness, "cosigned_at": format_utc(c.cosigned_at)}
                             for c in stored.cosignatures]}


def _sign_off(number: int, signed: SignOff, log: LogSnapshot) -> dict[str, Any]:
    """A sign-off kept in the database and what changed in its results since (its signature
    is checked by `handlog log verify --sign-off FILE --director-key KEY`)."""
    rows = [(e.stream_id, e.version, e.type, e.hash)
            for e in log.by_stream.get(signed.tournament, [])]
    return {"tournament": signed.tournament, "director": signed.director,
            "signed_at": signed.signed_at, "checkpoint": number, "size": signed.size,
            "results": len(signed.results),
            "changed": compare(signed, results_of(rows, signed.tournament))}


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
    from handlog.engine.commands import AwardPots
    from handlog.engine.errors import RuleViolation
    from handlog.engine.hand import apply, decide, initial_state

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


def money_text(amount: int, currency: str) -> str:
    """An amount in the smallest currency unit as the reports, the paper and the CLI write it
    ("USD 1,234.50")."""
    return f"{currency} {amount / 100:,.2f}"


def satellite_reasons(state: TournamentState, event: PrizesAwarded) -> dict[str, str]:
    """Why each seat and the cash remainder of a satellite are what they are, in words
    (player -> text), and the overlay that made up the guarantee (key "")."""
    s = state.structure
    currency = s.money.currency
    reasons: dict[str, str] = {}
    if event.overlay:
        reasons[""] = (f"the pool collected ({money_text(event.pool - event.overlay, currency)}) "
                       f"fell short of the {money_text(s.money.guarantee, currency)} guarantee: "
                       f"the house added {money_text(event.overlay, currency)} (overlay)")
    satellite = s.satellite
    if not satellite.seat_value:
        return reasons
    count = len(event.seats)
    for seat in event.seats:
        reasons[seat.player] = (
            f"a seat in {seat.target} worth {money_text(seat.value, currency)}: the pool of "
            f"{money_text(event.pool, currency)} buys {count} seat(s)"
            + (f" (at most {satellite.seats})" if satellite.seats else "")
            + ("; the seats are equal prizes, shared by the last players"
               if satellite.share_equally else ""))
    seated = {seat.place for seat in event.seats}
    for award in event.awards:
        if award.place not in seated:
            reasons[award.player] = (
                f"the cash left after {count} seat(s) of "
                f"{money_text(satellite.seat_value, currency)}"
                f" ({money_text(event.pool, currency)} - {count} x "
                f"{money_text(satellite.seat_value, currency)}) goes to the next place")
    return reasons


def prize_reasons(state: TournamentState, awards: Sequence[Any], pool: int,
                  place_rules: Mapping[int, str], names: Mapping[str, str]) -> dict[str, str]:
    """Why each player is paid what he is, in words (player -> text): a place shared and the
    rule that shared it, the odd cents of a split, the rounding that went to first place,
    percentages that do not add up to 100, the deal that replaced the posted prizes."""
    s = state.structure
    currency = s.money.currency
    field = len(state.entrants)
    try:
        bracket = payout_bracket(s, field)
        amounts = payouts_for(s, field, pool)
        paid = paid_basis_points(s, field)
    except (RuleViolation, ValueError):
        return {}
    printed = sum(bracket.basis_points)
    weight = sum(paid)
    by_place: dict[int, list[str]] = {}
    for e in state.entrants:
        if e.place:
            by_place.setdefault(e.place, []).append(e.player)
    dealt = {x.player: x for x in state.deal.shares} if state.deal is not None else {}
    reasons: dict[str, str] = {}
    for award in awards:
        notes: list[str] = []
        group = sorted(by_place.get(award.place, [award.player]))
        if award.player in dealt and state.deal is not None:
            notes.append(f"deal ({state.deal.method.replace('_', ' ')}) at the final table, "
                         f"agreed {money_text(dealt[award.player].amount, currency)}")
            if award.player == state.winner and state.deal.kept:
                notes.append(f"plus {money_text(state.deal.kept, currency)} kept to play for")
        elif len(group) > 1:
            last = award.place + len(group) - 1
            total = sum(amounts[award.place - 1:last])
            others = ", ".join(names.get(p, p) for p in group if p != award.player)
            rule = place_rules.get(award.place, "")
            notes.append(f"place {award.place} shared with {others}"
                         + (f" ({rule})" if rule else "")
                         + f": places {award.place}-{last} pay {money_text(total, currency)}, "
                         f"split {len(group)} ways")
            if total % len(group):
                notes.append(f"{total % len(group)} odd cent(s) one each in player order")
        elif award.place <= len(amounts):
            share = pool * paid[award.place - 1] // weight
            rounded = share // s.money.payout_rounding * s.money.payout_rounding
            if award.place == 1 and amounts[0] != rounded:
                notes.append(f"{money_text(amounts[0] - rounded, currency)} left by rounding the "
                             "places to "
                             f"{money_text(s.money.payout_rounding, currency)} goes to first place")
            elif rounded != share:
                notes.append(f"{money_text(share, currency)} rounded down to "
                             f"{money_text(s.money.payout_rounding, currency)}")
        if printed != 10_000 and award.player not in dealt:
            if weight == 10_000:
                notes.append(f"the payout percentages add up to {printed / 100:g}%: the last "
                             f"place is paid the rest, {paid[-1] / 100:g}% (the reading "
                             "last_place_takes_the_rest)")
            else:
                notes.append(f"the payout percentages add up to {printed / 100:g}%: each "
                             "place is its share of that total (the reading scale_to_pool)")
        if notes:
            reasons[award.player] = "; ".join(notes)
    return reasons


def chip_count_rows(state: TournamentState,
                    names: Mapping[str, str]) -> dict[str, list[dict[str, Any]]]:
    """The differences between counted and computed stacks still open, and the director's
    corrections with their reasons (oldest first): as the report and the floor show them."""
    return {
        "open": [{"table": table, "player": x.player, "name": names.get(x.player, x.player),
                  "counted": x.counted, "computed": x.computed}
                 for table, x in state.differences],
        "corrections": [{"player": c.player, "name": names.get(c.player, c.player),
                         "table": c.table, "counted": c.counted, "computed": c.computed,
                         "amount": c.amount, "reason": c.reason,
                         "rule": words.rule_words(c.rule), "by": c.by}
                        for c in state.corrections],
    }


def _chip_counts(state: TournamentState, names: Mapping[str, str]) -> dict[str, Any]:
    """The floor's counts beside the log's stacks, the differences still open and the
    director's corrections with their reasons."""
    return {
        "counts": [{"table": c.table, "occasion": c.occasion, "level": c.level,
                    "stacks": [{"player": x.player, "name": names.get(x.player, x.player),
                                "counted": x.counted, "computed": x.computed}
                               for x in c.counts]} for c in state.counts],
    } | chip_count_rows(state, names)


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
        "person": e.who, "entry": e.entry, "rebuys": e.rebuys, "add_on": e.add_on,
    } for e in state.entrants]
    out["entries"] = entries_by_person(state)
    ledger = state.ledger
    mine = [t for t in tables if t.tournament == record.tournament]
    at_tables = sum(t.fold.state.chips() for t in mine if t.fold.state is not None)
    in_hand = any(t.fold.state is not None and t.fold.state.hand_in_progress for t in mine)
    out["chip_ledger"] = {
        "entries": ledger.entries, "starting_stack": ledger.starting_stack,
        "starting_chips": ledger.starting_chips, "late_deductions": ledger.late_deductions,
        "color_up_change": ledger.color_up_change, "carried_to_pots": ledger.carried_to_pots,
        "withdrawn": ledger.withdrawn, "corrected": ledger.corrected,
        "bought": ledger.bought, "expected_total": ledger.total,
        "at_tables": at_tables, "hand_in_progress": in_hand,
        "balanced": at_tables == ledger.total,
    }
    eliminations = []
    place_rules: dict[int, str] = {}
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
            if event.rule:
                place_rules[event.place] = words.rule_words(event.rule)
        elif isinstance(event, PlayerWithdrew):
            eliminations.append({
                "kind": "withdrew", "place": event.place, "player": event.player,
                "name": names.get(event.player, event.player), "table": "", "hand": 0,
                "chips_at_start": event.chips_removed, "bounty_to": "",
                "rule": words.rule_words(event.rule),
                "version": stored.version, **_who(stored),
            })
        elif isinstance(event, PrizesAwarded):
            why = prize_reasons(state, event.awards, event.pool, place_rules, names) \
                | satellite_reasons(state, event)
            prizes = {
                "pool": event.pool, "field_size": event.field_size, "currency": money.currency,
                "rule": words.rule_words(event.rule), "version": stored.version, **_who(stored),
                "awards": [{"place": a.place, "player": a.player,
                            "name": names.get(a.player, a.player), "amount": a.amount,
                            "why": why.get(a.player, "")}
                           for a in event.awards],
                "bounties": [{"player": b.player, "name": names.get(b.player, b.player),
                              "bounties": b.bounties, "amount": b.amount}
                             for b in event.bounties],
                "unclaimed_bounties": event.unclaimed_bounties,
                "paid": sum(a.amount for a in event.awards) + sum(b.amount
                                                                   for b in event.bounties),
                "overlay": event.overlay, "overlay_why": why.get("", ""),
                "seats": [{"place": x.place, "player": x.player,
                           "name": names.get(x.player, x.player), "value": x.value,
                           "target": x.target, "why": why.get(x.player, "")}
                          for x in event.seats],
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
    days = structure.days
    if days.event:
        # A log of an event in flights and days: its day, its bags, what it handed on or took.
        out["days"] = {
            "event": days.event, "day": days.day, "flight": days.flight, "carry": days.carry,
            "redraw": days.redraw,
            "survivors": list(state.day_ended.survivors) if state.day_ended else [],
            "handed_on": state.day_ended.prize_pool if state.day_ended else 0,
            "from": list(state.day_started.sources) if state.day_started else [],
            "taken_in": state.day_started.prize_pool if state.day_started else 0,
            "field_size": state.field_size}
        out["bags"] = [{"player": b.player, "name": names.get(b.player, b.player),
                        "table": b.table, "chips": b.chips, "bag": b.bag,
                        "confirmed_by": b.confirmed_by, "level": b.level} for b in state.bags]
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


def _corrections(log: LogSnapshot, streams: Iterable[str], all_cards: bool = True,
                 hands: Mapping[str, Sequence[RecordedHand]] | None = None
                 ) -> list[dict[str, Any]]:
    """Every void and amend of `streams`, with what it touched, and the same in words with
    the players' seats and names (`text`: "Seat 4 Ann: bet 400 amended to 450 by td
    (miskeyed), TDA 40") from the hands of each stream (`hands`)."""
    out = []
    for stream in sorted(streams):
        stored = log.by_stream.get(stream, [])
        by_version = {e.version: e for e in stored}
        said = _Said((hands or {}).get(stream, ()), all_cards)
        for entry in stored:
            if entry.type not in (EventVoided.TYPE, EventAmended.TYPE):
                continue
            event = entry.decode()
            if isinstance(event, EventVoided):
                reason = words.reason(event.reason)
                rule = words.rule_words(event.rule)
                what = "; ".join(said.event(by_version.get(v)) for v in event.versions)
                what += " voided"
                out.append({
                    "stream": stream, "version": entry.version,
                    # The dealer's undo cites the correction rule; a director's void cites his own.
                    "kind": "undo" if event.rule == UNDO_RULE else "void",
                    "affects": [_describe_event(by_version.get(v), all_cards)
                                for v in event.versions],
                    "replacement": None, "reason": reason, "rule": rule,
                    "what": what,
                    "text": f"{what} by {entry.actor} ({reason})" + (f", {rule}" if rule else ""),
                    **_who(entry),
                })
            elif isinstance(event, EventAmended):
                rule = words.rule_words(event.rule)
                original = by_version.get(event.version)
                what = said.amended(original, decode_event(
                    event.replacement_type, event.replacement_version,
                    json.loads(event.replacement_payload)))
                out.append({
                    "stream": stream, "version": entry.version, "kind": "amend",
                    "affects": [_describe_event(original, all_cards)],
                    "replacement": {"event": event.replacement_type,
                                    "schema_version": event.replacement_version,
                                    "payload": event.replacement_payload
                                    if all_cards or event.replacement_type not in _CARD_EVENTS
                                    else HIDDEN},
                    "reason": event.reason, "rule": rule,
                    "what": what,
                    "text": f"{what} by {entry.actor} ({words.reason(event.reason)})"
                            + (f", {rule}" if rule else ""),
                    **_who(entry),
                })
    return out


UNDO_RULE = "correction"
"""The rule a dealer's undo cites (replay/corrections.py), telling it from a director's void."""

_AMOUNTS = {"bet_made": ("bet", "to"), "raise_made": ("raise to", "to"),
            "player_called": ("call", "amount"), "chips_posted": ("post", "amount")}
"""The entries whose amount an amend changes, and how a person names them."""


class _Said:
    """Entries of one table in words, each player as "Seat 4 Ann" (the hand's seats and
    names at that entry's version)."""

    def __init__(self, hands: Sequence[RecordedHand], all_cards: bool) -> None:
        self.hands = sorted(hands, key=lambda h: h.first_version)
        self.public = not all_cards

    def _hand(self, version: int) -> RecordedHand | None:
        found = None
        for hand in self.hands:
            if hand.first_version > version:
                break
            found = hand
        return found

    def _who(self, version: int) -> Callable[[int], str]:
        hand = self._hand(version)

        def who(position: int) -> str:
            if hand is None or not 0 <= position < hand.size:
                return f"position {position}"
            return f"Seat {hand.seats[position]} {hand.names[position]}"
        return who

    def text(self, version: int, event: Any) -> str:
        said = words.action_text(event, self._who(version), public=self.public)
        return said or f"{getattr(event, 'TYPE', 'entry').replace('_', ' ')} (v{version})"

    def event(self, stored: StoredEvent | None) -> str:
        if stored is None:
            return "an entry not in the log"
        return self.text(stored.version, stored.decode())

    def amended(self, stored: StoredEvent | None, replacement: Any) -> str:
        if stored is None:
            return f"an entry not in the log amended to {self.text(0, replacement)}"
        original = stored.decode()
        kind = getattr(original, "TYPE", "")
        named = _AMOUNTS.get(kind)
        player = getattr(original, "player", None)
        if named is not None and getattr(replacement, "TYPE", "") == kind and \
                isinstance(player, int) and player == getattr(replacement, "player", None):
            noun, field = named
            if kind == "chips_posted":
                noun = f"{original.kind.replace('_', ' ')} post"
            return (f"{self._who(stored.version)(player)}: {noun} {getattr(original, field)} "
                    f"amended to {getattr(replacement, field)}")
        before, after = self.text(stored.version, original), self.text(stored.version,
                                                                       replacement)
        if isinstance(player, int):
            prefix = self._who(stored.version)(player) + " "
            after = after.removeprefix(prefix)
        return f"{before}, amended to: {after}"


def _rulings(log: LogSnapshot, tournaments: Sequence[TournamentRecord],
             tables: Sequence[TableHands], all_cards: bool = True,
             names: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
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
    if names is None:
        names = {player: name for record in tournaments
                 for player, name in record.names().items()}
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
