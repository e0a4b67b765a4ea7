"""The audit report's charts, as inline SVG: they need no script and no network, and print.

Drawn from the report's own data (replay/report.py), so they show exactly what the report
proves: the stacks of the players still in, hand by hand (each line ends at the player's final
stack, the name labels moved apart so none overlap), the average stack beside the blinds per
level, the pots' sizes, the players out in each level, and the prize pool by place. Each chart
has a title and a text summary (`<desc>`) for a screen reader, each line and bar a `<title>`
with its figure; a chart of thousands of hands draws at most `MAX_POINTS` points per line,
keeping the page small.
"""

from __future__ import annotations

from bisect import bisect_right
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


_Label = tuple[float, str, str]


def _spread(labels: list[_Label], gap: float = 10.0) -> list[_Label]:
    """End labels (y, name, colour) moved apart so that no two are closer than `gap`, inside
    the plot, in the order of their lines' ends."""
    low, high = TOP + 8, HEIGHT - BOTTOM - 2
    placed: list[_Label] = []
    for y, name, colour in sorted(labels):
        y = max(y, low, placed[-1][0] + gap if placed else low)
        placed.append((y, name, colour))
    overflow = placed[-1][0] - high if placed else 0
    if overflow > 0:  # pushed below the plot: shift the stack up, keeping the gaps
        placed = [(max(low, y - overflow), n, c) for y, n, c in placed]
    return placed


def chips_over_event(data: Mapping[str, Any]) -> str:
    """The stack of each player still in at the end of each of his hands, in the order hands
    were played (every player when none is left: a log of one table's hands); each line ends at
    the player's final stack, labelled with his name, no two labels overlapping."""
    hands = _hands_in_order(data)
    if not hands:
        return ""
    series: dict[str, list[tuple[int, int]]] = {}
    for index, hand in enumerate(hands):
        for p in hand["players"]:
            series.setdefault(p["name"], []).append((index, p["stack_end"]))
    peak = {name: max(v for _i, v in points) for name, points in series.items()}
    final = {name: points[-1][1] for name, points in series.items()}
    still_in = [n for n in series if final[n] > 0] or list(series)
    shown = sorted(still_in, key=lambda n: (-final[n], n))[:MAX_LINES]
    y_max = max(peak[n] for n in shown) or 1
    body = []
    ends: list[tuple[float, str, str]] = []
    for k, name in enumerate(shown):
        points = _thin(series[name])
        path = " ".join(f"{_x(i, len(hands)):.1f},{_y(v, y_max):.1f}" for i, v in points)
        colour = PALETTE[k % len(PALETTE)]
        body.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.4" '
                    f'points="{path}"><title>{_e(name)}: {final[name]:,} chips after hand '
                    f"{points[-1][0] + 1}</title></polyline>")
        if k < 10:
            ends.append((_y(points[-1][1], y_max) - 2, name, colour))
    for y, name, colour in _spread(ends):
        body.append(f'<text class="end-label" x="{WIDTH - RIGHT - 2}" y="{y:.1f}" font-size="9" '
                    f'text-anchor="end" fill="{colour}">{_e(name)}</text>')
    leader = max(series, key=lambda n: peak[n])
    summary = (f"{len(series)} players over {len(hands)} hands; the biggest stack was "
               f"{leader}'s {peak[leader]:,} chips; {len(shown)} "
               + ("players still in are drawn" if shown[0] in still_in and final[shown[0]]
                  else "players are drawn"))
    labels = [(_x(0, len(hands)), "first hand"), (_x(len(hands) - 1, len(hands)),
                                                   f"hand {len(hands)}")]
    return _frame("Chips of the players still in, hand by hand", summary, body, y_max, "chips",
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


def _level_at(data: Mapping[str, Any]) -> Any:
    """A function giving the level of a tournament's hand (tournament, table, hand), or the
    level played at a moment (for a withdrawal: the last hand started before it)."""
    by_hand: dict[tuple[str, str, int], int] = {}
    started: list[tuple[str, int]] = []
    for table in data["tables"]:
        for hand in table["hands"]:
            by_hand[(table["tournament"], hand["table"], hand["hand"])] = hand["level"]
            started.append((hand["recorded_at"], hand["level"]))
    started.sort()
    moments = [at for at, _lv in started]

    def level(tournament: str, out: Mapping[str, Any]) -> int:
        found = by_hand.get((tournament, out["table"], out["hand"]))
        if found is not None:
            return found
        k = bisect_right(moments, out["recorded_at"])
        return started[k - 1][1] if k else (started[0][1] if started else 1)

    return level


def eliminations_by_level(data: Mapping[str, Any]) -> list[str]:
    """Per tournament, the players out (eliminated or withdrawn) in each level, a bar a level
    from the first level played to the last, empty levels included."""
    level_of = _level_at(data)
    charts = []
    many = len(data["tournaments"]) > 1
    for t in data["tournaments"]:
        outs = t.get("eliminations", [])
        if not outs:
            continue
        counts: dict[int, int] = {}
        for out in outs:
            lv = level_of(t["id"], out)
            counts[lv] = counts.get(lv, 0) + 1
        played = [h["level"] for tb in data["tables"] if tb["tournament"] == t["id"]
                  for h in tb["hands"]]
        levels = list(range(min([*counts, *played]), max([*counts, *played]) + 1))
        y_max = max(4, max(counts.values()))
        slot = (WIDTH - LEFT - RIGHT) / len(levels)
        body = []
        for k, lv in enumerate(levels):
            n = counts.get(lv, 0)
            y = _y(n, y_max)
            body.append(f'<rect class="out-bar" data-level="{lv}" data-out="{n}" '
                        f'x="{LEFT + slot * k + slot * 0.15:.1f}" y="{y:.1f}" '
                        f'width="{slot * 0.7:.1f}" height="{_y(0, y_max) - y:.1f}" '
                        f'fill="#9467bd"><title>level {lv}: {n} out</title></rect>')
        every = max(1, len(levels) // 12)
        labels = [(LEFT + slot * (k + 0.5), f"L{lv}") for k, lv in enumerate(levels)
                  if k % every == 0]
        busiest = max(counts, key=lambda lv: (counts[lv], -lv))
        summary = (f"{len(outs)} players out over levels {levels[0]} to {levels[-1]}; the most "
                   f"in level {busiest} ({counts[busiest]})")
        title = "Players out by level" + (f" ({t['id']})" if many else "")
        charts.append(_frame(title, summary, body, y_max, "players out", labels))
    return charts


def prize_pool(data: Mapping[str, Any]) -> list[str]:
    """Per tournament with prizes awarded: each place's prize, a bar a place, beside the pool."""
    charts = []
    for t in data["tournaments"]:
        prizes = t.get("prizes")
        if not prizes or not prizes["awards"]:
            continue
        awards = sorted(prizes["awards"], key=lambda a: (a["place"], a["name"]))
        currency = prizes.get("currency", "")
        top = max(a["amount"] for a in awards) or 1
        slot = (WIDTH - LEFT - RIGHT) / len(awards)
        body = []
        for k, a in enumerate(awards):
            y = _y(a["amount"], top)
            body.append(f'<rect class="prize-bar" data-place="{a["place"]}" '
                        f'data-amount="{a["amount"]}" x="{LEFT + slot * k + slot * 0.15:.1f}" '
                        f'y="{y:.1f}" width="{slot * 0.7:.1f}" height="{_y(0, top) - y:.1f}" '
                        f'fill="#e3a21a"><title>place {a["place"]} {_e(a["name"])}: '
                        f'{a["amount"] / 100:,.2f} {_e(currency)}</title></rect>')
        every = max(1, len(awards) // 12)
        labels = [(LEFT + slot * (k + 0.5), f"#{a['place']}") for k, a in enumerate(awards)
                  if k % every == 0]
        summary = (f"a prize pool of {prizes['pool'] / 100:,.2f} {currency} for "
                   f"{prizes['field_size']} entries, {prizes['paid'] / 100:,.2f} paid to "
                   f"{len(awards)} places; first place {awards[0]['amount'] / 100:,.2f}")
        title = "Prize pool by place" + (f" ({t['id']})" if len(data["tournaments"]) > 1
                                         else "")
        charts.append(_frame(title, summary, body, top / 100, currency or "prize", labels))
    return charts


def charts(data: Mapping[str, Any]) -> list[str]:
    """Every chart of the report, as SVG figures (none when the log has no hands)."""
    out = [chips_over_event(data), average_stack_by_level(data), pot_sizes(data),
           *eliminations_by_level(data), *prize_pool(data)]
    return [c for c in out if c]


def charts_html(data: Mapping[str, Any]) -> str:
    """Every chart of the report, in one section (empty when the log has no hands)."""
    return "".join(charts(data))
