"""The audit report as a PDF (`handlog report --format pdf`), built with ReportLab.

ReportLab is the long-kept PDF library of the Python world (since 2000, BSD licence) and
installs from wheels with no system library, so the README's two commands stay enough on a
fresh machine; svglib turns the report's own SVG charts into ReportLab drawings, so the PDF
shows the same charts as the HTML page. The PDF has what the printed page has: the verdict
first, the signed checkpoint, a table of contents with page numbers, running headers, "page N
of M" on every page, the charts, each tournament, the corrections and rulings, and every hand
with its players, pots, actions and inline corrections and rulings.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    PageBreak,
    PageTemplate,
    Paragraph,
    Preformatted,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.tableofcontents import TableOfContents

from handlog.replay import report_charts

_STYLES = getSampleStyleSheet()
BODY = ParagraphStyle("body", parent=_STYLES["BodyText"], fontSize=8.5, leading=10.5)
SMALL = ParagraphStyle("small", parent=BODY, fontSize=7.5, leading=9)
H1 = ParagraphStyle("h1", parent=_STYLES["Heading1"], fontSize=16)
H2 = ParagraphStyle("h2", parent=_STYLES["Heading2"], fontSize=12.5, spaceBefore=10)
H3 = ParagraphStyle("h3", parent=_STYLES["Heading3"], fontSize=9.5, spaceBefore=6,
                    spaceAfter=2)
GOOD = ParagraphStyle("good", parent=BODY, fontSize=11, textColor=colors.HexColor("#067647"))
BAD = ParagraphStyle("bad", parent=BODY, fontSize=11, textColor=colors.HexColor("#b42318"))
GRID = TableStyle([
    ("GRID", (0, 0), (-1, -1), 0.25, colors.HexColor("#d5d9e0")),
    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#f3f5f8")),
    ("FONTSIZE", (0, 0), (-1, -1), 7.5), ("LEADING", (0, 0), (-1, -1), 9),
    ("VALIGN", (0, 0), (-1, -1), "TOP"),
])


def _cite(rule: str, quoted: dict[str, str]) -> str:
    """A rule's words as cited in a row ("TDA 1"); its quote, if any, is kept in `quoted` to be
    printed once under the table, not on every row and page."""
    short = []
    for part in rule.split("; "):
        name, _sep, quote = part.partition(": ")
        if quote:
            quoted.setdefault(name, quote)
        short.append(name)
    return "; ".join(short)


def _quotes(quoted: Mapping[str, str]) -> list[Flowable]:
    return [_p(f"{name}: {quote}", SMALL) for name, quote in sorted(quoted.items())]


def _p(text: object, style: ParagraphStyle = BODY) -> Paragraph:
    return Paragraph(escape(str(text)), style)


def _table(headers: Sequence[str], rows: Sequence[Sequence[object]],
           widths: Sequence[float] | None = None) -> Table:
    data = [[_p(h, SMALL) for h in headers]] + [[_p(c, SMALL) for c in row] for row in rows]
    table = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(GRID)
    return table


class _NumberedCanvas(Canvas):  # type: ignore[misc]
    """A canvas that knows the page count when it saves, for "page N of M"."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pages: list[dict[str, Any]] = []

    def showPage(self) -> None:  # noqa: N802 - ReportLab's name
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._pages)
        for state in self._pages:
            self.__dict__.update(state)
            self.setFont("Helvetica", 7)
            self.setFillColor(colors.HexColor("#5d6675"))
            self.drawRightString(A4[0] - 12 * mm, 8 * mm, f"page {self._pageNumber} of {total}")
            super().showPage()
        super().save()


class _Document(BaseDocTemplate):  # type: ignore[misc]
    """Two passes (multiBuild) so that the contents carry page numbers."""

    def __init__(self, target: io.BytesIO, title: str) -> None:
        super().__init__(target, pagesize=A4, title=title, author="handlog",
                         leftMargin=12 * mm, rightMargin=12 * mm, topMargin=16 * mm,
                         bottomMargin=14 * mm)
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body")
        self.addPageTemplates([PageTemplate("page", [frame], onPage=self._header)])
        self.running_title = title

    def _header(self, canvas: Canvas, _doc: Any) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 7)
        canvas.setFillColor(colors.HexColor("#5d6675"))
        canvas.drawString(12 * mm, A4[1] - 9 * mm, self.running_title)
        canvas.drawRightString(A4[0] - 12 * mm, A4[1] - 9 * mm, "replayed through the engine")
        canvas.restoreState()

    def afterFlowable(self, flowable: Flowable) -> None:  # noqa: N802 - ReportLab's name
        if isinstance(flowable, Paragraph) and flowable.style.name in ("h2", "h3toc"):
            level = 0 if flowable.style.name == "h2" else 1
            self.notify("TOCEntry", (level, flowable.getPlainText(), self.page))


H3_TOC = ParagraphStyle("h3toc", parent=H3)


def _charts(data: Mapping[str, Any]) -> list[Flowable]:
    from svglib.svglib import svg2rlg

    out: list[Flowable] = []
    for svg in report_charts.charts(data):
        body = svg[svg.index("<svg"):svg.index("</svg>") + 6].replace(
            "<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
        drawing = svg2rlg(io.StringIO(body))
        if drawing is None:
            continue
        scale = (A4[0] - 24 * mm) / drawing.width
        drawing.width, drawing.height = drawing.width * scale, drawing.height * scale
        drawing.scale(scale, scale)
        out.append(drawing)
        out.append(Spacer(1, 4))
    return out


_Line = tuple[float, tuple[tuple[float, str, float, str, str], ...], bool]
"""One line of a hand: its height, its texts (x, font, size, text, colour) and whether a hair
line goes under it."""

_INK, _MUTED, _RED = "#1d2330", "#5d6675", "#b42318"
_PLAYER_COLUMNS = (10, 42, 24, 20, 18, 18, 20, 34)  # mm: seat, player, role, start ... cards
_POT_COLUMNS = (14, 20, 62, 50, 40)  # mm: pot, amount, winners, hand, ruling


class _HandBlock(Flowable):  # type: ignore[misc]
    """A hand drawn line by line on the canvas: its title, set-up, players and pots in fixed
    columns, its actions, corrections, rulings and findings wrapped to the width. A table's
    document holds thousands: ReportLab's Paragraph and Table would measure every cell again
    (five times the time). It moves whole to the next page when it fits there, and is cut
    between lines when it is taller than a page."""

    def __init__(self, lines: list[_Line]) -> None:
        super().__init__()
        self.lines = lines

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width = available_width
        self.height = sum(line[0] for line in self.lines)
        return self.width, self.height

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        if sum(line[0] for line in self.lines) <= available_height or available_height < 150:
            return []  # whole on the next page
        used, cut = 0.0, 0
        while cut < len(self.lines) and used + self.lines[cut][0] <= available_height:
            used += self.lines[cut][0]
            cut += 1
        return [_HandBlock(self.lines[:cut]), _HandBlock(self.lines[cut:])] if cut else []

    def draw(self) -> None:
        # One text object for the whole block (a drawString per cell would make one each).
        canvas = self.canv
        text_object = canvas.beginText()
        y = self.height
        current: tuple[str, float, str] = ("", 0.0, "")
        rules: list[float] = []
        for height, texts, rule in self.lines:
            y -= height
            for x, font, size, text, colour in texts:
                if (font, size, colour) != current:  # each change is written to the page
                    if (font, size) != current[:2]:
                        text_object.setFont(font, size)
                    if colour != current[2]:
                        text_object.setFillColor(colors.HexColor(colour))
                    current = (font, size, colour)
                text_object.setTextOrigin(x, y + 2.5)
                # Each text has its own origin: the text cursor is not moved, which would
                # measure the text's width (textOut: a fifth of the drawing's time).
                text_object._textOut(text)
            if rule:
                rules.append(y + 1)
        canvas.drawText(text_object)
        if rules:
            canvas.setStrokeColor(colors.HexColor("#d5d9e0"))
            canvas.setLineWidth(0.3)
            canvas.lines([(0, at, self.width, at) for at in rules])


_WIDTH = A4[0] - 24 * mm


def _wrapped(text: str, size: float = 7.5, font: str = "Helvetica",
             colour: str = _INK) -> list[_Line]:
    from reportlab.lib.utils import simpleSplit

    return [(size + 2, ((0.0, font, size, part, colour),), False)
            for part in simpleSplit(text, font, size, _WIDTH)]


def _columns(cells: Sequence[object], widths: Sequence[float], bold: bool = False,
             colour: str = _INK) -> list[_Line]:
    """One row in fixed columns; a cell longer than its column goes on under it."""
    from reportlab.lib.utils import simpleSplit

    font = "Helvetica-Bold" if bold else "Helvetica"
    # A cell that cannot reach its column's width (7 points a character at most) is not
    # measured.
    parts = [[str(cell)] if len(str(cell)) * 7 <= w * mm - 3 else
             simpleSplit(str(cell), font, 7.5, w * mm - 3) or [""]
             for cell, w in zip(cells, widths, strict=True)]
    starts = [sum(widths[:k]) * mm for k in range(len(widths))]
    rows = max(len(p) for p in parts)
    return [(9.5, tuple((starts[k], font, 7.5, part[r], colour)
                        for k, part in enumerate(parts) if r < len(part)), r == rows - 1)
            for r in range(rows)]


def _hand(h: Mapping[str, Any]) -> list[Flowable]:
    title = (f"Hand {h['hand']} at {h['table']}: level {h['level']} "
             f"({h['small_blind']}/{h['big_blind']}), {h['status']}")
    lines: list[_Line] = [(14.0, ((0.0, "Helvetica-Bold", 9.5, title, _INK),), False)]
    lines += _wrapped(f"{h['stream']} v{h['first_version']}-v{h['last_version']}, "
                      f"{h['recorded_at']}; button seat {h['button_seat']}, small blind seat "
                      f"{h['small_blind_seat'] or '-'}, big blind seat {h['big_blind_seat']}"
                      + (f"; board {' '.join(h['board'])}" if h["board"] else ""),
                      colour=_MUTED)
    lines += _columns(("seat", "player", "role", "start", "put in", "won", "end", "cards"),
                      _PLAYER_COLUMNS, bold=True)
    for p in sorted(h["players"], key=lambda p: p["seat"]):
        lines += _columns((p["seat"], p["name"], p["role"], f"{p['stack_start']:,}",
                           f"{p['put_in']:,}", f"{p['won']:,}" if p["won"] else "",
                           f"{p['stack_end']:,}",
                           " ".join(p["cards"]) + (" folded" if p["folded"] else "")),
                          _PLAYER_COLUMNS)
    if h["pots"]:
        lines += _columns(("pot", "amount", "winners (share)", "hand", "ruling"), _POT_COLUMNS,
                          bold=True)
        for pot in h["pots"]:
            lines += _columns(("main" if pot["pot"] == 0 else f"side {pot['pot']}",
                               f"{pot['amount']:,}",
                               ", ".join(f"{w['name']} {w['share']:,}" for w in pot["winners"]),
                               pot["hand_name"], pot["ruling"]), _POT_COLUMNS)
    for proposal in h.get("proposal", []):
        lines += _wrapped(f"The engine proposed: {'main' if proposal['pot'] == 0 else 'side'} "
                          f"pot to {', '.join(proposal['winners'])} {proposal['hand_name']}")
    if h.get("actions"):
        lines += _wrapped("; ".join(a["text"] for a in h["actions"]
                                    if a["type"] != "hand_started"))
    for c in h.get("corrections", []):
        lines += _wrapped(f"{c['kind']} v{c['version']}: {c['text']}; on {c['device']}, "
                          f"{c['recorded_at']}")
    for r in h.get("rulings", []):
        lines += _wrapped(f"ruling v{r['version']} {r['kind']}: {r['text']} "
                          f"[{_cite(r['rule'], {})}] by {r['by'] or r['actor']}, "
                          f"{r['recorded_at']}")
    for f in h["findings"]:
        lines += _wrapped(f"FINDING v{f['version']} {f['event']}: {f['message']} "
                          f"[{f['rule']}]", 9, colour=_RED)
    return [_HandBlock(lines), Spacer(1, 6)]


def table_pdf_name(out: Path, stream: str) -> str:
    """The document (relative to the index document) of one table's hands in a streamed
    report: `<stem>-tables/<stream>.pdf`."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in stream)
    return f"{out.stem}-tables/{safe}.pdf"


def render_table_pdf(data: Mapping[str, Any], table: Mapping[str, Any]) -> bytes:
    """One table's hands as a document of their own (a streamed report's), numbered pages,
    built in one pass (its contents are the index document's)."""
    title = (f"handlog audit report: hands at table {table['table']} ({table['stream']}, "
             f"{len(table['hands'])} hands)")
    verdict = "clean" if data["verdict"]["clean"] else "FINDINGS: see the index document"
    story: list[Flowable] = [Paragraph(escape(title), H2), _p(f"Verdict of the whole log: "
                                                               f"{verdict}.", SMALL)]
    for h in table["hands"]:
        story.extend(_hand(h))
    target = io.BytesIO()
    document = _Document(target, title)
    document.build(story, canvasmaker=_NumberedCanvas)
    return target.getvalue()


def render_pdf(data: Mapping[str, Any], files: Mapping[str, str] | None = None) -> bytes:
    """The report's data as a PDF document; with `files` (stream -> document), each table's
    hands are in a document of their own, listed here."""
    scope = data["scope"]
    title = "handlog audit report" + (f": {scope['tournament']}" if scope["tournament"] else "")
    verdict = data["verdict"]
    story: list[Flowable] = [Paragraph(escape(title), H1)]
    story.append(Paragraph("Verdict", H2))
    count = len(verdict["findings"]) + len(verdict["chain"]["problems"]) + len(
        verdict.get("log_breaks", []))
    tail = verdict.get("unsigned_tail", 0)
    if data["verdict"]["clean"] and tail:
        story.append(_p(f"NO FINDINGS, NOT ALL SIGNED: every event replays through the engine "
                        f"and every hash chain is intact, but {tail:,} events after the last "
                        "checkpoint are not covered by a signature", BAD))
    else:
        story.append(_p("CLEAN: every event replays through the engine, every hash chain is "
                        "intact and every event is covered by a signed checkpoint"
                        if data["verdict"]["clean"] else f"{count} FINDING(S)",
                        GOOD if data["verdict"]["clean"] else BAD))
    if verdict["findings"]:
        story.append(_table(("stream", "version", "event", "rule", "what"),
                            [(f["stream"], f["version"], f["event"], f["rule"], f["message"])
                             for f in verdict["findings"]]))
    checkpoint = data.get("checkpoint")
    story.append(Paragraph("Signed checkpoint of the log", H2))
    if checkpoint:
        story.append(_p(f"Checkpoint #{checkpoint['number']} ({checkpoint['created_at']}): the "
                        f"first {checkpoint['size']} events, root {checkpoint['root']}", SMALL))
        story.append(Preformatted(checkpoint["text"], SMALL))
    else:
        story.append(_p("No checkpoint was signed yet.", SMALL))
    story.append(Paragraph("Contents", H2))
    contents = TableOfContents()
    contents.levelStyles = [ParagraphStyle("toc0", parent=BODY, fontSize=8.5),
                            ParagraphStyle("toc1", parent=SMALL, leftIndent=12)]
    story.extend([contents, PageBreak()])
    story.append(Paragraph("Charts", H2))
    story.extend(_charts(data))
    for t in data["tournaments"]:
        story.append(Paragraph(escape(f"Tournament {t['id']}"), H2))
        winner = t.get("winner") or {}
        story.append(_p(f"{len(t.get('entrants', []))} entrants; level {t.get('level', 0)}; "
                        + (f"winner {winner.get('name')}" if winner else "not finished")))
        if t.get("eliminations"):
            story.append(_table(("place", "player", "table", "hand"),
                                [(e["place"], e["name"], e["table"], e["hand"])
                                 for e in t["eliminations"]]))
        prizes = t.get("prizes")
        if prizes:
            story.append(_table(("place", "player", "prize"),
                                [(a["place"], a["name"], f"{a['amount'] / 100:,.2f}")
                                 for a in prizes["awards"]]))
            if prizes.get("seats"):
                story.append(_table(("place", "player", "seat in", "value", "why"),
                                    [(x["place"], x["name"], x["target"],
                                      f"{x['value'] / 100:,.2f}", x["why"])
                                     for x in prizes["seats"]]))
            if prizes.get("overlay"):
                story.append(_p(prizes["overlay_why"]))
    quoted: dict[str, str] = {}
    story.append(Paragraph("Corrections", H2))
    story.append(_table(("stream", "version", "kind", "what", "reason", "rule", "who", "when"),
                        [(c["stream"], c["version"], c["kind"], c["what"], c["reason"],
                          _cite(c["rule"], quoted), f"{c['actor']} ({c['device']})",
                          c["recorded_at"]) for c in data["corrections"]]))
    story.append(Paragraph("Rulings and penalties", H2))
    story.append(_table(("stream", "version", "kind", "rule", "decision", "by", "when"),
                        [(r["stream"], r["version"], r["kind"], _cite(r["rule"], quoted),
                          r["text"], r["by"], r["recorded_at"]) for r in data["rulings"]]))
    if quoted:
        story.append(Paragraph("Rules cited", H3))
        story.extend(_quotes(quoted))
    if files is not None:
        story.append(Paragraph("Hands, one document per table", H2))
        story.append(_table(("table", "stream", "hands", "document"),
                            [(t["table"], t["stream"], len(t["hands"]), files[t["stream"]])
                             for t in data["tables"]]))
    for table in data["tables"] if files is None else ():
        story.append(CondPageBreak(A4[1] / 3))  # a new page only when little is left
        story.append(Paragraph(escape(f"Hands at table {table['table']} ({table['stream']}, "
                                      f"{len(table['hands'])} hands)"), H2))
        for h in table["hands"]:
            story.extend(_hand(h))
    story.append(Paragraph("Stream heads", H2))
    story.append(_table(("stream", "kind", "version", "head hash"),
                        [(s["stream"], s["kind"], s["version"], s["hash"])
                         for s in data["log"]["streams"]]))
    target = io.BytesIO()
    document = _Document(target, title)
    document.multiBuild(story, canvasmaker=_NumberedCanvas)
    return target.getvalue()


def write_pdf(data: Mapping[str, Any], out: Path) -> list[Path]:
    out.write_bytes(render_pdf(data))
    return [out]
