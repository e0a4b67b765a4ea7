"""The audit report's charts, as inline SVG: they need no script and no network, and print.

Drawn from the report's own data (replay/report.py), so they show exactly what the report
proves: every player's chips over the event, the average stack beside the blinds per level,
the pots' sizes, and the eliminations over time. Each chart has a title and a text summary
(`<desc>`) for a screen reader; a chart of thousands of hands draws at most `MAX_POINTS` points
per line, keeping the page small.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import Any

WIDTH, HEIGHT = 720, 260
LEFT, RIGHT, TOP, BOTTOM = 64, 12, 28, 34
MAX_POINTS = 200
MAX_LINES = 24
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf", "#ff7f0e")


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def _frame(title: str, summary: str, body: Iterable[str], y_max: float, y_label: str,
           x_labels: Sequence[tuple[float, str]] = ()) -> str:
    plot_h = HEIGHT - TOP - BOTTOM
    parts = [f'<figure class="chart"><svg role="img" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" aria-label="{_e(title)}">'
             f"<title>{_e(title)}</title><desc>{_e(summary)}</desc>",
             f'<text x="{LEFT}" y="16" font-size="13" font-weight="600">{_e(title)}</text>',
             f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{WIDTH - RIGHT}" y2="{TOP + plot_h}" '
             'stroke="#888"/>',
             f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}" stroke="#888"/>']
    for k in range(5):
        value = y_max * k / 4
        y = TOP + plot_h - plot_h * k / 4
        parts.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" font-size="10" '
                     f'text-anchor="end">{_short(value)}</text>')
        if k:
            parts.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" '
                         'stroke="#ddd" stroke-dasharray="2,3"/>')
    parts.append(f'<text x="12" y="{TOP + plot_h / 2:.0f}" font-size="10" '
                 f'transform="rotate(-90 12 {TOP + plot_h / 2:.0f})" text-anchor="middle">'
                 f"{_e(y_label)}</text>")
    for x, label in x_labels:
        anchor = "start" if x <= LEFT + 1 else "end" if x >= WIDTH - RIGHT - 1 else "middle"
        parts.append(f'<text x="{x:.1f}" y="{HEIGHT - 14}" font-size="10" '
                     f'text-anchor="{anchor}">{_e(label)}</text>')
    parts.extend(body)
    parts.append("</svg></figure>")
    return "".join(parts)


def _short(value: float) -> str:
    if value >= 1_000_000:
        return f"{value / 1_000_000:.1f}M"
    if value >= 10_000:
        return f"{value / 1000:.0f}k"
    return f"{value:,.0f}"


def _x(index: float, count: int) -> float:
    return LEFT + (WIDTH - LEFT - RIGHT) * (index / max(1, count - 1))


def _y(value: float, y_max: float) -> float:
    plot_h = HEIGHT - TOP - BOTTOM
    return TOP + plot_h - plot_h * (value / y_max if y_max else 0)


def _thin(points: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    if len(points) <= MAX_POINTS:
        return list(points)
    step = len(points) / MAX_POINTS
    kept = [points[int(k * step)] for k in range(MAX_POINTS)]
    return [*kept, points[-1]]


def _hands_in_order(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    hands = [h for t in data["tables"] for h in t["hands"]]
    return sorted(hands, key=lambda h: (h["recorded_at"], h["position"]))


def chips_over_event(data: Mapping[str, Any]) -> str:
    """Each player's stack at the end of each of his hands, in the order hands were played."""
    hands = _hands_in_order(data)
    if not hands:
        return ""
    series: dict[str, list[tuple[int, int]]] = {}
    for index, hand in enumerate(hands):
        for p in hand["players"]:
            series.setdefault(p["name"], []).append((index, p["stack_end"]))
    peak = {name: max(v for _i, v in points) for name, points in series.items()}
    shown = sorted(series, key=lambda n: -peak[n])[:MAX_LINES]
    y_max = max(peak.values()) or 1
    body = []
    for k, name in enumerate(shown):
        points = _thin(series[name])
        path = " ".join(f"{_x(i, len(hands)):.1f},{_y(v, y_max):.1f}" for i, v in points)
        colour = PALETTE[k % len(PALETTE)]
        body.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.4" '
                    f'points="{path}"><title>{_e(name)}</title></polyline>')
        last_i, last_v = points[-1]
        if k < 10:
            body.append(f'<text x="{min(_x(last_i, len(hands)) + 3, WIDTH - 40):.1f}" '
                        f'y="{_y(last_v, y_max) - 2:.1f}" font-size="9" fill="{colour}">'
                        f"{_e(name)}</text>")
    leader = shown[0]
    summary = (f"{len(series)} players over {len(hands)} hands; the biggest stack was "
               f"{leader}'s {peak[leader]:,} chips" + (f"; the {MAX_LINES} biggest stacks are "
                                                       "drawn" if len(series) > MAX_LINES
                                                       else ""))
    labels = [(_x(0, len(hands)), "first hand"), (_x(len(hands) - 1, len(hands)),
                                                   f"hand {len(hands)}")]
    return _frame("Chips of every player over the event", summary, body, y_max, "chips",
                  labels)


def average_stack_by_level(data: Mapping[str, Any]) -> str:
    """Per level: the average stack of the players dealt in, and the big blind."""
    by_level: dict[int, list[int]] = {}
    blinds: dict[int, int] = {}
    for hand in _hands_in_order(data):
        by_level.setdefault(hand["level"], []).extend(p["stack_start"] for p in hand["players"])
        blinds[hand["level"]] = max(blinds.get(hand["level"], 0), hand["big_blind"])
    if not by_level:
        return ""
    levels = sorted(by_level)
    averages = {lv: sum(v) / len(v) for lv, v in by_level.items()}
    y_max = max(averages.values()) or 1
    count = len(levels)
    width = (WIDTH - LEFT - RIGHT) / max(1, count) * 0.6
    body = []
    for k, level in enumerate(levels):
        x = LEFT + (WIDTH - LEFT - RIGHT) * (k + 0.5) / count
        y = _y(averages[level], y_max)
        body.append(f'<rect x="{x - width / 2:.1f}" y="{y:.1f}" width="{width:.1f}" '
                    f'height="{_y(0, y_max) - y:.1f}" fill="#9ec5e8"><title>level {level}: '
                    f"average {averages[level]:,.0f}, big blind {blinds[level]:,}</title></rect>")
        bb_y = _y(blinds[level], y_max)
        body.append(f'<line x1="{x - width / 2:.1f}" y1="{bb_y:.1f}" x2="{x + width / 2:.1f}" '
                    f'y2="{bb_y:.1f}" stroke="#d62728" stroke-width="2"/>')
        body.append(f'<text x="{x:.1f}" y="{y - 3:.1f}" font-size="9" text-anchor="middle">'
                    f"{averages[level] / max(1, blinds[level]):.0f} BB</text>")
    labels = [(LEFT + (WIDTH - LEFT - RIGHT) * (k + 0.5) / count, f"L{lv}")
              for k, lv in enumerate(levels)]
    summary = "; ".join(f"level {lv}: average stack {averages[lv]:,.0f}, big blind "
                        f"{blinds[lv]:,}" for lv in levels)
    return _frame("Average stack (bars) and big blind (red) by level", summary, body, y_max,
                  "chips", labels)


def pot_sizes(data: Mapping[str, Any]) -> str:
    """How many hands ended with how big a pot (ten bins)."""
    pots = [h["pots_total"] for h in _hands_in_order(data) if h["status"] == "complete"]
    if not pots:
        return ""
    top = max(pots) or 1
    bins = [0] * 10
    for pot in pots:
        bins[min(9, pot * 10 // (top + 1))] += 1
    y_max = max(bins) or 1
    slot = (WIDTH - LEFT - RIGHT) / 10
    body = []
    for k, count in enumerate(bins):
        y = _y(count, y_max)
        low, high = top * k // 10, top * (k + 1) // 10
        body.append(f'<rect x="{LEFT + slot * k + 2:.1f}" y="{y:.1f}" width="{slot - 4:.1f}" '
                    f'height="{_y(0, y_max) - y:.1f}" fill="#8fd19e"><title>{count} hands with '
                    f"a pot of {low:,} to {high:,}</title></rect>")
    labels = [(LEFT + slot * (k + 0.5), _short(top * (k + 1) / 10)) for k in range(10)]
    summary = (f"{len(pots)} complete hands; the biggest pot {top:,}; the median pot "
               f"{sorted(pots)[len(pots) // 2]:,}")
    return _frame("Pot sizes (hands per pot size, up to)", summary, body, y_max, "hands",
                  labels)


def eliminations_over_time(data: Mapping[str, Any]) -> str:
    """Players out, counted as the hands that put them out were played."""
    started: dict[tuple[str, str, int], str] = {}
    for table in data["tables"]:
        for hand in table["hands"]:
            started[(table["tournament"], hand["table"], hand["hand"])] = hand["recorded_at"]
    times: list[str] = []
    for t in data["tournaments"]:
        for out in t.get("eliminations", []):
            times.append(started.get((t["id"], out["table"], out["hand"]), out["recorded_at"]))
    if not times:
        return ""
    times.sort()
    count = len(times)
    points = [(k, k + 1) for k in range(count)]
    path = " ".join(f"{_x(i, count):.1f},{_y(v, count):.1f}" for i, v in points)
    body = [f'<polyline fill="none" stroke="#9467bd" stroke-width="2" points="{path}"/>']
    labels = [(_x(0, count), times[0][11:16]), (_x(count - 1, count), times[-1][11:16])]
    summary = (f"{count} players out between {times[0][:16]} and {times[-1][:16]} UTC")
    return _frame("Eliminations over time", summary, body, count, "players out", labels)


def charts_html(data: Mapping[str, Any]) -> str:
    """Every chart of the report, in one section (empty when the log has no hands)."""
    charts = [chips_over_event(data), average_stack_by_level(data), pot_sizes(data),
              eliminations_over_time(data)]
    return "".join(c for c in charts if c)
