"""The audit report as HTML: one self-contained printable page, or above PAGED_ABOVE hands an
index page with one page per table (`render_html`, `render_table_page`); renderings of
`AuditReport.data`."""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from handlog.engine import words
from handlog.replay.report_charts import charts_html

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
    tail = verdict.get("unsigned_tail", 0)
    if verdict["clean"] and not tail:
        parts.append('<div class="verdict clean">CLEAN: every event replays through the '
                     "engine, every hash chain is intact and every event is covered by a "
                     "signed checkpoint</div>")
    elif verdict["clean"]:
        parts.append('<div class="verdict findings">NO FINDINGS, NOT ALL SIGNED: every event '
                     "replays through the engine and every hash chain is intact, but "
                     f"{tail:,} events after the last checkpoint are not covered by a "
                     "signature</div>")
    else:
        count = (len(findings) + len(problems) + len(merkle["breaks"])
                 + len(verdict.get("sign_off", [])))
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
    if verdict.get("sign_off"):
        parts.append("<h3>Results changed after the director's sign-off</h3><ul>"
                     + "".join(f"<li>{_e(c)}</li>" for c in verdict["sign_off"]) + "</ul>")
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
    parts.append(_table_html(("of the chips", "chips"), [
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
        parts.append(_table_html(("place", "player", "amount", "why"),
                                 ([_e(a["place"]), _e(a["name"]),
                                   _e(_money(a["amount"], currency)), _e(a.get("why", ""))]
                                  for a in prizes["awards"]), numeric=(0, 2)))
        if prizes.get("seats"):
            parts.append(_table_html(("place", "player", "seat in", "value", "why"),
                                     ([_e(x["place"]), _e(x["name"]), _e(x["target"]),
                                       _e(_money(x["value"], currency)), _e(x["why"])]
                                      for x in prizes["seats"]), numeric=(0, 3)))
        if prizes.get("overlay"):
            parts.append(f"<p>{_e(prizes['overlay_why'])}</p>")
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
            "buy_ins", "re_entries", "rebuys", "add_ons", "overlay", "fees", "bounty_pool",
            "high_hand_pool", "prizes_paid", "seats_awarded", "bounties_paid",
            "high_hand_paid", "unaccounted") if key in money_block]
        parts.append("<h3>Money</h3>")
        parts.append(_table_html(("of the money", "amount"), ([_e(k), _e(_money(v, currency))]
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
        ("seat", "player", "role", "stack at start", "put in", "won", "stack at end", "cards"),
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
    """The corrections and rulings of one hand, where they happened, in words: who, when, why,
    rule ("Seat 4 Ann: bet 400 amended to 450 by Tina (miskeyed), TDA 40")."""
    items = []
    for c in corrections:
        items.append(f'<li class="correction">v{_e(c["version"])} <b>{_e(c["kind"])}</b>: '
                     f'{_e(c["what"])} <span class="muted">by {_e(c["actor"])} on '
                     f'{_e(c["device"])}, {_e(c["recorded_at"])}</span>: {_e(c["reason"])}'
                     + (f' <span class="rule">[{_e(c["rule"])}]</span>' if c["rule"] else "")
                     + "</li>")
    for r in rulings:
        items.append(f'<li class="ruling">v{_e(r["version"])} <b>{_e(r["kind"])}</b>'
                     + (f" {_e(r['player'])}" if r["player"] else "")
                     + f": {_e(r['text'])}"
                     + (f' <span class="rule">[{_e(r["rule"])}]</span>' if r["rule"] else "")
                     + f' <span class="muted">by {_e(r["by"] or r["actor"])}, '
                     f'{_e(r["recorded_at"])}</span></li>')
    return f'<ul class="inline">{"".join(items)}</ul>' if items else ""


def _corrections_html(corrections: Sequence[Mapping[str, Any]]) -> str:
    """Every correction in words with the players' seats and names; the entries' versions
    (the raw entries are in the JSON report and the log)."""
    rows = []
    for c in corrections:
        touched = ", ".join(f"v{a['version']} {a['event'].replace('_', ' ')}"
                            for a in c["affects"])
        rows.append([_e(c["stream"]), _e(c["version"]), _e(c["kind"]),
                     f'{_e(c["what"])}<br><span class="muted">{_e(touched)}</span>',
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


def _checkpoints_html(checkpoints: Sequence[Mapping[str, Any]]) -> str:
    """Every checkpoint: the time inside its signed text beside each witness's cosignature
    time (as kept beside it; `handlog log verify --witness-key` checks the signatures)."""
    if not checkpoints:
        return ""
    rows = ([_e(c["number"]), _e(c["size"]), _e(c["reason"].replace("_", " ")),
             _e(c.get("signed_at") or "no signed time"),
             _e("; ".join(f"{w['witness']} at {w['cosigned_at']}"
                          for w in c.get("cosignatures", [])) or "none")]
            for c in checkpoints)
    return ('<h3 id="checkpoints">Checkpoints, signed time and witnesses</h3>'
            '<p class="muted">The time each checkpoint was signed is inside its signed text; '
            "each witness's cosignature carries the witness's own clock. <code>handlog log "
            "verify --witness-key W.pub --min-witnesses N</code> checks the cosignatures.</p>"
            + _table_html(["#", "Events", "Why", "Signed at (room)", "Cosigned at (witness)"],
                          rows, numeric=(0, 1)))


def _sign_offs_html(sign_offs: Sequence[Mapping[str, Any]]) -> str:
    """The director's sign-offs of results, each with what changed since (a finding)."""
    if not sign_offs:
        return ""
    parts = ['<h3 id="sign-offs">Director\'s sign-off of the results</h3><ul>']
    for s in sign_offs:
        changed = s["changed"]
        parts.append(
            f'<li>{_e(s["tournament"])}: {_e(s["results"])} results signed off by '
            f'{_e(s["director"])} at {_e(s["signed_at"])} on checkpoint #{_e(s["checkpoint"])} '
            f'({_e(s["size"])} events): '
            + ('<span class="good">unchanged since</span>' if not changed else
               '<span class="bad">changed since</span><ul>'
               + "".join(f"<li>{_e(c)}</li>" for c in changed) + "</ul>") + "</li>")
    parts.append("</ul>")
    return "".join(parts)


PAGED_ABOVE = 1000
"""A report of more hands than this writes one page per table beside its index page."""


HANDS_PER_PAGE = 100
"""A table's hands in a paged report are on pages of this many hands: a page of ~17,000
elements opens in a browser in well under 2 s, whatever the table's length."""


def table_page_name(out: Path, stream: str, page: int = 1) -> str:
    """The file (relative to the index page) holding one page of a table's hands in a paged
    report: `<stem>-tables/<stream>.html`, then `<stream>-2.html`, `<stream>-3.html`..."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in stream)
    return f"{out.stem}-tables/{safe}{'' if page == 1 else f'-{page}'}.html"


def page_file(first: str, page: int) -> str:
    """Page `page` of the table whose first page is `first` (a `table_page_name`)."""
    return first if page == 1 else f"{first.removesuffix('.html')}-{page}.html"


def page_of(index: int) -> int:
    """The page (from 1) of a table's hand at `index` (from 0)."""
    return index // HANDS_PER_PAGE + 1


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
    table's page that holds it, with the hand numbers it holds) and the hands with findings,
    so the index page stays small however many hands there are; each table's pages list their
    hands."""
    levels: dict[Any, list[tuple[int, Mapping[str, Any]]]] = {}
    for k, hand in enumerate(table["hands"]):
        levels.setdefault(hand["level"], []).append((k, hand))

    def link(k: int, hand: Mapping[str, Any]) -> str:
        return (f'{_e(page_file(href, page_of(k)))}#{_e(hand["stream"])}-v'
                f'{_e(hand["first_version"])}')

    links = [f'<a href="{link(*hs[0])}">level {_e(level)}</a> <span class="muted">'
             f'#{_e(hs[0][1]["hand"])}&ndash;#{_e(hs[-1][1]["hand"])} ({len(hs)})</span>'
             for level, hs in levels.items()]
    bad = [(k, h) for k, h in enumerate(table["hands"])
           if h["findings"] or h["balanced"] is False]
    text = f'<p class="index">{" &middot; ".join(links)}</p>' if links else ""
    if bad:
        shown = "".join(f'<a class="bad" href="{link(k, h)}">#{_e(h["hand"])}</a> '
                        for k, h in bad[:INDEX_FINDINGS])
        more = (f' and {len(bad) - INDEX_FINDINGS} more on the table\'s pages'
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
        f"<main><h1>{_e(title)}</h1>",
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
        _checkpoints_html(data.get("checkpoints", [])),
        _sign_offs_html(data.get("sign_offs", [])),
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
            count = len(table["hands"])
            parts.append(f'<h2 id="{_e(table["stream"])}">Hands at table {_e(table["table"])}'
                         f'</h2><p><a href="{_e(pages[table["stream"]])}">'
                         f'{count} hands on {page_of(max(count - 1, 0))} page(s) of their '
                         f'own</a></p>')
        else:
            parts.append(_table_hands_html(table))
    parts.append('<h2 id="heads">Stream heads</h2>')
    parts.append(_table_html(("stream", "kind", "version", "head hash"), (
        [_e(h["stream"]), _e(h["kind"]), _e(h["version"]), f'<code>{_e(h["hash"])}</code>']
        for h in log["streams"]), numeric=(2,)))
    parts.append("</main></body></html>\n")
    return "\n".join(parts)


def _table_hands_html(table: Mapping[str, Any], count: int | None = None) -> str:
    return "\n".join([
        f'<h2 id="{_e(table["stream"])}">Hands at table {_e(table["table"])} '
        f'<span class="muted">({_e(table["stream"])}, '
        f'{len(table["hands"]) if count is None else count} hands, '
        f"{_e(table['profile'])})</span></h2>",
        *(_hand_html(h) for h in table["hands"])])


def _pager(table: Mapping[str, Any], first: str, page: int, pages: int) -> str:
    """The links to every page of one table's hands (with the hand numbers each holds)."""
    hands = table["hands"]
    items = []
    for n in range(1, pages + 1):
        held = hands[(n - 1) * HANDS_PER_PAGE:n * HANDS_PER_PAGE]
        label = f"#{held[0]['hand']}&ndash;#{held[-1]['hand']}" if held else str(n)
        name = Path(page_file(first, n)).name
        items.append(f'<li><b aria-current="page">{label}</b></li>' if n == page else
                     f'<li><a href="{_e(name)}">{label}</a></li>')
    return (f'<nav aria-label="Pages of this table" class="pager"><p class="index">Page '
            f'{page} of {pages}:</p><ul class="index">{"".join(items)}</ul></nav>')


def render_table_page(data: Mapping[str, Any], table: Mapping[str, Any], index: str,
                      page: int = 1, first: str = "") -> str:
    """One page of a table's hands (page `page` of pages of HANDS_PER_PAGE hands), for a
    paged report; `index` is the way back to the index page, `first` the table's first
    page's name (for the links to the other pages)."""
    hands = table["hands"]
    pages = page_of(max(len(hands) - 1, 0))
    held = {**table, "hands": hands[(page - 1) * HANDS_PER_PAGE:page * HANDS_PER_PAGE]}
    title = f"{_title(data)}: {table['stream']}" + (f" (page {page} of {pages})"
                                                     if pages > 1 else "")
    verdict = "CLEAN" if data["verdict"]["clean"] else "FINDINGS (see the index page)"
    first = first or Path(index).name
    pager = _pager(table, first, page, pages) if pages > 1 else ""
    after = (f'<p><a href="{_e(Path(page_file(first, page + 1)).name)}">Next page</a></p>'
             if page < pages else "")
    return "\n".join([
        *_head(title), f'<header class="running">{_e(title)}</header>',
        f"<main><h1>{_e(title)}</h1>",
        f'<p class="meta"><a href="{_e(index)}">Back to the index and the verdict</a> '
        f"(verdict: {verdict})</p>", pager, _hand_index(held, ""),
        _table_hands_html(held, len(hands)), after, "</main></body></html>\n"])


def write_table_pages(data: Mapping[str, Any], table: Mapping[str, Any], out: Path) -> list[Path]:
    """Write one table's pages of a paged report beside the index page `out`: the files."""
    first = table_page_name(out, table["stream"])
    pages = page_of(max(len(table["hands"]) - 1, 0))
    written = []
    for page in range(1, pages + 1):
        path = out.parent / page_file(first, page)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render_table_page(data, table, f"../{out.name}", page,
                                          Path(first).name), encoding="utf-8")
        written.append(path)
    return written
