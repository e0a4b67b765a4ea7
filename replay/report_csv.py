"""The audit report as CSV: one row per hand and pot (`pots_csv`; a pot awarded by a ruling has
the engine's proposal beside it), and one row per finding, correction (in words, with seats and
names), ruling and penalty (`log_csv`); both renderings of `AuditReport.data`."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

POT_COLUMNS = (
    "tournament", "table", "stream", "hand", "status", "first_version", "last_version", "level",
    "small_blind", "big_blind", "ante", "button_seat", "small_blind_seat", "big_blind_seat",
    "chip_unit", "pot", "amount", "eligible", "winners", "odd_chips", "hand_name", "ruling",
    "engine_proposal", "award_version", "hand_put_in", "hand_dead_money", "hand_pots_total",
    "balanced", "stacks_start", "stacks_end", "findings",
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


def _proposal(hand: Mapping[str, Any], pot: int) -> str:
    """What the engine would have awarded of `pot` where a director ruled otherwise."""
    for proposed in hand.get("proposal", ()):
        if proposed["pot"] < 0:
            return f"the engine could not award: {proposed.get('why', '')}"
        if proposed["pot"] == pot:
            named = f" ({proposed['hand_name']})" if proposed["hand_name"] else ""
            return f"{';'.join(proposed['winners'])}{named}"
    return ""


def pots_csv(data: Mapping[str, Any]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(POT_COLUMNS)
    for table in data["tables"]:
        writer.writerows(pot_rows(table))
    return buffer.getvalue()


def pot_rows(table: Mapping[str, Any]) -> Iterator[list[object]]:
    """One table's rows of the hand-and-pot CSV (a streamed report writes them table by
    table)."""
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
                "engine_proposal": _proposal(hand, pot["pot"]) if pot["ruling"] else "",
                    "award_version": pot["version"],
                })
            yield [row.get(c, "") for c in POT_COLUMNS]


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
        affects = "; ".join(f"v{a['version']} {a['event']}" for a in c["affects"])
        writer.writerow([c["kind"], c["stream"], c["version"], "", c["rule"], c["text"], "",
                         affects, "", "", c["actor"], c["actor"], c["device"],
                         c["recorded_at"]])
    for r in data["rulings"]:
        writer.writerow([r["kind"], r["stream"], r["version"], r["event"], r["rule"], r["text"],
                         r["player"], r["affects"], "", "", r["by"], r["actor"], r["device"],
                         r["recorded_at"]])
    return buffer.getvalue()
