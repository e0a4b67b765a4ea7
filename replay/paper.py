"""The room's paper, read from a tournament's log: seat cards (after the draw, a late entry, a
move, a table break, a redraw), payout receipts with a line for the player's signature,
chip-count vouchers for the player to sign, and the day's bag sheet.

Rendering only: every figure is a fact of the tournament's stream (folded through the engine);
the words are engine/words.py's PAPER and REASONS. One `Paper` is drawn two ways: a PDF with
ReportLab (`handlog print`, the report's PDF library) and an HTML page with a print stylesheet
(the floor page's print view, which the browser prints).

The bag sheet is made from the bags recorded at the end of a day or a flight (`stack_bagged`:
the bag number and the director who confirmed the count); a log with no bag yet gets it from
the end-of-day chip counts (`stacks_counted`, occasion end_of_day), the bag number a column the
floor writes in by hand.
"""

from __future__ import annotations

import base64
import hashlib
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from html import escape as html_escape
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table

from handlog.engine.tournament_events import (
    LevelStarted,
    PlayerMoved,
    PlayerRegistered,
    SeatsDrawn,
    StackCorrected,
    StacksCounted,
)
from handlog.engine.tournament_state import TournamentState, fold_tournament
from handlog.engine.words import PAPER, reason
from handlog.replay.report import money_text
from handlog.replay.report_pdf import BODY, GRID, H1, H2, SMALL
from handlog.schema.store import EventStore, StoredEvent

KINDS = ("seat-cards", "receipts", "vouchers", "bag-sheet")
LATE_ENTRY_SEED = "late entry"  # engine/tournament_decide.py draws a late entrant with it


class NoPaper(LookupError):
    """Nothing to print: the message says why and what to do."""


@dataclass(frozen=True)
class Card:
    """One card (or, for the bag sheet, one table's sheet): `big` is printed large."""

    heading: str
    big: str
    fields: tuple[tuple[str, str], ...]
    signatures: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    """A sheet's table, its header first."""


@dataclass(frozen=True)
class Paper:
    kind: str
    tournament: str
    cards: tuple[Card, ...]

    @property
    def title(self) -> str:
        return f"{self.tournament}: {PAPER[self.kind]}"


def read_paper(store: EventStore, tournament: str | None, kind: str,
               players: Sequence[str] = ()) -> Paper:
    """The `kind` paper of `tournament` (None: the log's only tournament), for `players` (ids
    or registered names; none: everyone it concerns)."""
    if kind not in KINDS:
        raise NoPaper(f"kind: {kind!r} is not one of {', '.join(KINDS)}")
    streams = sorted(h.stream_id for h in store.streams() if h.kind == "tournament")
    known = [s.removeprefix("tournament-") for s in streams]
    if tournament is None and len(known) == 1:
        tournament = known[0]
    if tournament is None or tournament.removeprefix("tournament-") not in known:
        raise NoPaper(f"tournament: give one of {', '.join(known) or '(no tournament yet)'}")
    stored = store.read(f"tournament-{tournament.removeprefix('tournament-')}")
    return make_paper(stored, kind, players)


def make_paper(stored: Sequence[StoredEvent], kind: str, players: Sequence[str] = ()) -> Paper:
    state = fold_tournament(e.decode() for e in stored)
    wanted = _players(state, players)
    cards = {"seat-cards": _seat_cards, "receipts": _receipts, "vouchers": _vouchers,
             "bag-sheet": _bag_sheet}[kind](state, stored, wanted)
    if not cards:
        raise NoPaper(_NOTHING[kind])
    return Paper(kind, state.tournament, tuple(cards))


_NOTHING = {
    "seat-cards": "no player of these is seated: seat cards are printed after the draw",
    "receipts": "no prize has been paid to these players: receipts are printed once the "
                "prizes are awarded",
    "vouchers": "no chip count of these players: count a table's stacks first (the floor "
                "page's count, at a break or at the end of the day)",
    "bag-sheet": "no bag and no end-of-day chip count: bag each stack at the end of the day "
                 "(`handlog tournament bag`, the floor's days box) or count each table's "
                 "stacks first (the floor page's count, occasion end of the day)",
}


def _players(state: TournamentState, players: Sequence[str]) -> set[str] | None:
    if not players:
        return None
    found = set()
    for who in players:
        ids = {e.player for e in state.entrants if who in (e.player, e.name)}
        if not ids:
            raise NoPaper(f"player: no entry {who!r} in {state.tournament}; give an entry id "
                          "or a registered name")
        found |= ids
    return found


def _name(state: TournamentState, player: str) -> str:
    entrant = state.entrant(player)
    return entrant.name if entrant is not None else player


def _chips(amount: int) -> str:
    return f"{amount:,}"


def _seat_cards(state: TournamentState, stored: Sequence[StoredEvent],
                wanted: set[str] | None) -> list[Card]:
    """Each seated player's card for the seat he holds now, with how he came to it."""
    level = 0
    registered: dict[str, int] = {}
    last: dict[str, tuple[str, int, str, str, int, datetime]] = {}
    for item in stored:
        event = item.decode()
        if isinstance(event, LevelStarted):
            level = event.level
        elif isinstance(event, PlayerRegistered):
            registered[event.player] = event.stack
        elif isinstance(event, SeatsDrawn):
            why = "late_entry" if event.seed == LATE_ENTRY_SEED else event.reason
            for a in event.assignments:
                # A player's first seat holds the stack he registered with; a redraw's stack
                # lives at the tables, not in this stream.
                first = a.player not in last and a.player in registered
                stack = _chips(registered[a.player]) if first else ""
                last[a.player] = (a.table, a.seat, why, stack, level, item.recorded_at)
        elif isinstance(event, PlayerMoved):
            last[event.player] = (event.to_table, event.to_seat, event.reason,
                                  _chips(event.stack), level, item.recorded_at)
    cards = []
    for e in sorted(state.remaining, key=lambda e: (e.table, e.seat)):
        if not e.table or (wanted is not None and e.player not in wanted):
            continue
        table, seat, why, stack, at_level, when = last.get(
            e.player, (e.table, e.seat, "", "", 0, datetime.min))
        fields = [(PAPER["player"], e.name), (PAPER["entry"], e.player),
                  (PAPER["why"], reason(why) if why else "")]
        fields += [(PAPER["stack"], stack)] if stack else []
        fields += [(PAPER["level"], str(at_level) if at_level else "before the start")]
        fields += [(PAPER["recorded"], when.strftime("%Y-%m-%d %H:%M UTC"))] \
            if when != datetime.min else []
        cards.append(Card(PAPER["seat-cards"],
                          f"{PAPER['table']} {e.table} · {PAPER['seat']} {e.seat}",
                          tuple(fields)))
    return cards


def _money(state: TournamentState, cents: int) -> str:
    return money_text(cents, state.structure.money.currency)


def _receipts(state: TournamentState, _stored: Sequence[StoredEvent],
              wanted: set[str] | None) -> list[Card]:
    """One receipt per player paid: his place's prize, his bounties, his high-hand share."""
    lines: dict[str, list[tuple[str, str]]] = {}
    totals: dict[str, int] = {}

    def add(player: str, label: str, cents: int) -> None:
        if cents and (wanted is None or player in wanted):
            lines.setdefault(player, []).append((label, _money(state, cents)))
            totals[player] = totals.get(player, 0) + cents

    prizes = state.prizes
    if prizes is not None:
        for award in prizes.awards:
            add(award.player, f"{PAPER['prize']} ({PAPER['place'].lower()} {award.place})",
                award.amount)
        for bounty in prizes.bounties:
            add(bounty.player, f"{PAPER['bounties']} ({bounty.bounties})", bounty.amount)
    if state.high_hand is not None:
        for share in state.high_hand.shares:
            add(share.player, PAPER["high_hand"], share.amount)
    order = {e.player: (e.place or 0, e.player) for e in state.entrants}
    return [Card(PAPER["receipts"], _money(state, totals[p]),
                 ((PAPER["player"], _name(state, p)), (PAPER["entry"], p),
                  *lines[p], (PAPER["total"], _money(state, totals[p]))),
                 (PAPER["sign_player"], PAPER["sign_paid_by"]))
            for p in sorted(lines, key=lambda p: order.get(p, (0, p)))]


@dataclass(frozen=True)
class _Counted:
    table: str
    occasion: str
    level: int
    counted: int
    ruled: int
    """The stack as the director ruled it after this count (the counted one, unless a
    correction said otherwise)."""


def _latest_counts(stored: Sequence[StoredEvent], occasions: Iterable[str]
                   ) -> dict[str, _Counted]:
    """player -> his last count on one of `occasions`, with the director's ruling on it."""
    wanted = set(occasions)
    latest: dict[str, _Counted] = {}
    for item in stored:
        event = item.decode()
        if isinstance(event, StacksCounted) and event.occasion in wanted:
            for x in event.counts:
                latest[x.player] = _Counted(event.table, event.occasion, event.level,
                                            x.counted, x.counted)
        elif isinstance(event, StackCorrected) and event.player in latest:
            latest[event.player] = replace(latest[event.player],
                                           ruled=event.computed + event.amount)
    return latest


def _vouchers(state: TournamentState, stored: Sequence[StoredEvent],
              wanted: set[str] | None) -> list[Card]:
    """One voucher per player counted: his last counted stack (and the stack ruled, when the
    director corrected it), for him to sign."""
    latest = _latest_counts(stored, ("break", "end_of_day"))
    cards = []
    for p, c in sorted(latest.items(), key=lambda i: (i[1].table, i[0])):
        if wanted is not None and p not in wanted:
            continue
        ruled = [(PAPER["ruled"], _chips(c.ruled))] if c.ruled != c.counted else []
        cards.append(Card(PAPER["vouchers"], _chips(c.ruled), (
            (PAPER["player"], _name(state, p)), (PAPER["entry"], p), (PAPER["table"], c.table),
            (PAPER["counted"], _chips(c.counted)), *ruled,
            (PAPER["occasion"], f"{reason(c.occasion)}, {PAPER['level'].lower()} {c.level}")),
            (PAPER["sign_player"], PAPER["sign_director"])))
    return cards


def _bag_sheet(state: TournamentState, stored: Sequence[StoredEvent],
               wanted: set[str] | None) -> list[Card]:
    """One sheet per table: the bags recorded (each with its number and who confirmed the
    count) or, before any bag, the end-of-day counts as ruled, the bag number written by
    hand."""
    # player -> (table, chips, bag number, confirmed by)
    bagged = {b.player: (b.table, b.chips, b.bag, b.confirmed_by) for b in state.bags}
    source = PAPER["from_bags"]
    if not bagged:
        source = PAPER["from_counts"]
        bagged = {p: (c.table, c.ruled, "", "")
                  for p, c in _latest_counts(stored, ("end_of_day",)).items()}
    by_table: dict[str, list[tuple[str, int, str, str]]] = {}
    for p, (table, chips, bag, by) in bagged.items():
        if wanted is None or p in wanted:
            by_table.setdefault(table, []).append((p, chips, bag, by))
    header = (PAPER["seat"], PAPER["player"], PAPER["entry"], PAPER["stack"], PAPER["bag"],
              PAPER["sign_player"])
    seats = {e.player: e.seat for e in state.entrants}
    cards = []
    for table in sorted(by_table):
        rows = sorted(((str(seats.get(p, 0) or ""), _name(state, p), p, _chips(chips), bag, "")
                       for p, chips, bag, _by in by_table[table]),
                      key=lambda r: (len(r[0]), r[0]))
        total = sum(chips for _p, chips, _bag, _by in by_table[table])
        confirmed = sorted({by for _p, _c, _b, by in by_table[table] if by})
        cards.append(Card(PAPER["bag-sheet"], f"{PAPER['table']} {table}",
                          ((PAPER["total_chips"], _chips(total)),
                           (PAPER["occasion"], f"{reason('end_of_day')} ({source})"),
                           *([(PAPER["confirmed_by"], ", ".join(confirmed))]
                             if confirmed else [])),
                          (PAPER["sign_director"], PAPER["sign_witness"]),
                          (header, *rows)))
    return cards


# --- drawing ----------------------------------------------------------------------------------

def paper_pdf(paper: Paper) -> bytes:
    """The paper as a PDF: cards kept whole, a bag sheet per page."""
    out = io.BytesIO()
    doc = SimpleDocTemplate(out, pagesize=A4, title=paper.title, author="handlog",
                            leftMargin=15 * mm, rightMargin=15 * mm, topMargin=15 * mm,
                            bottomMargin=15 * mm)
    story: list[object] = []
    for card in paper.cards:
        parts: list[object] = [Paragraph(escape(f"{paper.tournament} · {card.heading}"), SMALL),
                               Paragraph(escape(card.big), H1)]
        parts.append(Table([[Paragraph(escape(k), BODY), Paragraph(escape(v), BODY)]
                            for k, v in card.fields], colWidths=[45 * mm, None],
                           hAlign="LEFT"))
        if card.rows:
            table = Table([[Paragraph(escape(c), SMALL) for c in row] for row in card.rows],
                          colWidths=[14 * mm, 45 * mm, 18 * mm, 25 * mm, 22 * mm, None],
                          repeatRows=1, hAlign="LEFT", rowHeights=[None] + [9 * mm] * (
                              len(card.rows) - 1))
            table.setStyle(GRID)
            parts += [Spacer(1, 4 * mm), table]
        for line in card.signatures:
            parts += [Spacer(1, 9 * mm), Paragraph("_" * 60, BODY), Paragraph(escape(line),
                                                                              SMALL)]
        box = Table([[parts]], colWidths=[doc.width])
        box.setStyle([("BOX", (0, 0), (-1, -1), 0.75, colors.HexColor("#5d6675")),
                      ("TOPPADDING", (0, 0), (-1, -1), 4 * mm),
                      ("BOTTOMPADDING", (0, 0), (-1, -1), 4 * mm)])
        story += [KeepTogether([box]), Spacer(1, 6 * mm)]
    if not story:
        story.append(Paragraph(escape(paper.title), H2))
    doc.build(story)
    return out.getvalue()


_PRINT_CSS = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1rem; color: #111; }
.card { border: 1px solid #5d6675; padding: 1rem 1.25rem; margin: 0 0 1rem;
        break-inside: avoid; page-break-inside: avoid; }
.card h2 { font-size: 2rem; margin: .2rem 0 .6rem; }
.card .of { font-size: .8rem; color: #5d6675; }
dl { display: grid; grid-template-columns: 12rem auto; margin: 0; }
dt { font-weight: 600; } dd { margin: 0; }
table { border-collapse: collapse; width: 100%; margin-top: .8rem; }
th, td { border: 1px solid #999; padding: .35rem .5rem; text-align: left; height: 1.6rem; }
.sign { margin-top: 2.2rem; border-top: 1px solid #111; width: 60%; font-size: .8rem; }
.bag-sheet .card { break-after: page; page-break-after: always; }
@media print { .no-print { display: none; } body { margin: 0; } }
"""


def paper_html(paper: Paper) -> str:
    """The paper as one page with a print stylesheet (the floor page's print view)."""
    e = html_escape
    cards = []
    for card in paper.cards:
        fields = "".join(f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in card.fields)
        rows = ""
        if card.rows:
            head, *body = card.rows
            rows = ("<table><thead><tr>" + "".join(f"<th>{e(c)}</th>" for c in head)
                    + "</tr></thead><tbody>"
                    + "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>"
                              for row in body) + "</tbody></table>")
        signs = "".join(f'<div class="sign">{e(s)}</div>' for s in card.signatures)
        cards.append(f'<section class="card"><div class="of">{e(paper.tournament)} · '
                     f'{e(card.heading)}</div><h2>{e(card.big)}</h2><dl>{fields}</dl>{rows}'
                     f'{signs}</section>')
    return ('<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<title>{e(paper.title)}</title><style>{_PRINT_CSS}</style></head>'
            f'<body class="{e(paper.kind)}"><p class="no-print">{e(PAPER["print_hint"])}</p>'
            + "".join(cards) + "</body></html>")


def style_hash() -> str:
    """The print stylesheet's CSP source (the page has no script and no other style)."""
    digest = hashlib.sha256(_PRINT_CSS.encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"
