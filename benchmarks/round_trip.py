"""How much of a demo event survives export -> import --into-log -> export (issue 27).

    .venv/bin/python benchmarks/round_trip.py [--folder DIR] [--json]

For each of the issue's two demo events (`handlog demo`: TDA, 27 players on 3 tables;
Octobermuck with bounties, 24 players) and each format (PokerStars text, OHH, PHH): the event is
exported with every hole card, the file imported with `--into-log` into a fresh database, that
database exported again in the same format, and the two files compared hand by hand (the n-th
hand of one against the n-th of the other). Printed per event and format: the hands in each
file, how many are byte-identical, and for each kind of difference (the first differing line
with its digits masked: a line of the first file replaced or left out, or `+ ` a line only the
second has) how many hands differ there, with one example pair of lines.
This is the figure of the issue's Done-when ("byte-identical, no hand lost"); its peer is the
original export itself (every hand identical to itself), so the ratio is identical / hands.
A second figure counts the hands identical but for what only says where and when the log holds
them (the hand's id and time, PHH `_stream`/`_versions`, OHH `handlog.stream`/`versions`/
`tournament`, and `tournament_info`'s `start_date_utc` and `tournament_number`, the time and id
of the tournament stream's first event): the content the import kept.
tests/test_import_round_trip.py asserts it per format.

Measured (2026-12-07): every hand byte-identical in each format, 105 of 105 TDA and 54 of 54
Octobermuck (before: PokerStars text 105 and 54; OHH and PHH 0, with 103/52 and 97/51 identical
but for the coordinates).
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from handlog.recorder.cli import cli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
FORMATS = ("pokerstars", "ohh", "phh")
EVENTS = {"tda": (), "oct": ("--players", "24", "--structure",
                             str(EXAMPLES / "octobermuck.toml"))}


def _run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    if result.exit_code not in (0, 1):
        raise SystemExit(f"handlog {' '.join(args)} failed: {result.output[-2000:]}")
    return result.output


def split_hands(fmt: str, text: str) -> list[str]:
    """A file's hands as their own text, in file order."""
    if fmt == "ohh":
        decoder, hands, at = json.JSONDecoder(), [], 0
        while True:
            while at < len(text) and text[at].isspace():
                at += 1
            if at >= len(text):
                return hands
            data, end = decoder.raw_decode(text, at)
            hands.append(json.dumps(data, indent=2, ensure_ascii=False))
            at = end
    start = r"^PokerStars Hand #" if fmt == "pokerstars" else r"^\[\d+\]$"
    parts = re.split(f"(?m)(?={start})", text)
    return [p.strip("\n") for p in parts if re.match(start, p, re.M)]


def coordinates_masked(fmt: str, hand: str) -> str:
    """A hand's text without what only says where and when the log holds it (the hand's id in
    the header, its time, its stream and versions), which a new log cannot give back."""
    if fmt == "ohh":
        data = json.loads(hand)
        body = data.get("ohh", data)
        for key in ("game_number", "start_date_utc"):
            body.pop(key, None)
        for key in ("stream", "versions", "tournament"):
            body.get("handlog", {}).pop(key, None)
        for key in ("start_date_utc", "tournament_number"):  # (its stream's first event)
            body.get("tournament_info", {}).pop(key, None)
        return json.dumps(data, indent=2, ensure_ascii=False)
    if fmt == "pokerstars":
        hand = re.sub(r"^PokerStars Hand #\d+", "PokerStars Hand #", hand)
        return re.sub(r" - \d{4}/\d\d/\d\d \d+:\d\d:\d\d UTC \[[\d/: ]+ ET\]$", "", hand,
                      flags=re.M)
    return re.sub(r"(?m)^(year|month|day|time|time_zone|_stream|_versions) = .*\n?", "", hand)


def _flat(value: Any, path: str = "") -> dict[str, str]:
    if isinstance(value, dict) and value:
        return {k: v for key, item in value.items()
                for k, v in _flat(item, f"{path}.{key}" if path else key).items()}
    if isinstance(value, list) and value:
        return {k: v for i, item in enumerate(value) for k, v in _flat(item, f"{path}[{i}]")
                .items()}
    return {path: json.dumps(value, ensure_ascii=False)}


def _kind(line: str) -> str:
    return re.sub(r"\d+", "N", re.sub(r"'[^']*'|\"[^\"]*\"", "S", line.strip()))[:60]


def compare(fmt: str, before: str, after: str) -> dict[str, Any]:
    first, second = split_hands(fmt, before), split_hands(fmt, after)
    same = masked = 0
    kinds: Counter[str] = Counter()
    examples: dict[str, tuple[str, str]] = {}
    for a, b in zip(first, second, strict=False):
        if a == b:
            same += 1
            masked += 1
            continue
        if coordinates_masked(fmt, a) == coordinates_masked(fmt, b):
            masked += 1
        seen: set[str] = set()
        if fmt == "ohh":  # by JSON path: `ohh.players[N].seat = 3`
            fa, fb = _flat(json.loads(a)), _flat(json.loads(b))
            for path in sorted(fa.keys() | fb.keys()):
                if fa.get(path, "<none>") == fb.get(path, "<none>"):
                    continue
                kind = re.sub(r"\[\d+\]", "[N]", path)
                if kind not in seen:
                    seen.add(kind)
                    kinds[kind] += 1
                    examples.setdefault(kind, (f"{path} = {fa.get(path, '<none>')}",
                                               f"{path} = {fb.get(path, '<none>')}"))
            continue
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
                None, a.splitlines(), b.splitlines(), autojunk=False).get_opcodes():
            if tag == "equal":
                continue
            xs = a.splitlines()[i1:i2] or ["<none>"] * (j2 - j1)
            ys = b.splitlines()[j1:j2] or ["<none>"] * (i2 - i1)
            for x, y in zip(xs, ys + ["<none>"] * (len(xs) - len(ys)), strict=False):
                kind = _kind(x if x != "<none>" else "+ " + y)
                if kind not in seen:
                    seen.add(kind)
                    kinds[kind] += 1
                    examples.setdefault(kind, (x, y))
    return {"hands": len(first), "back": len(second), "identical": same,
            "identical_but_coordinates": masked,
            "differences": [{"kind": k, "hands": n, "before": examples[k][0],
                             "after": examples[k][1]} for k, n in kinds.most_common()]}


def measure(folder: Path, events: dict[str, tuple[str, ...]] = EVENTS,
            formats: tuple[str, ...] = FORMATS) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for name, extra in events.items():
        url = f"sqlite:///{folder / (name + '.db')}"
        if not (folder / (name + ".db")).exists():
            _run("demo", "--db", url, *extra)
        for fmt in formats:
            original = folder / f"{name}.{fmt}"
            _run("export", "--db", url, "--format", fmt, "--all-cards", "--out", str(original))
            into = folder / f"{name}-{fmt}-imported.db"
            into.unlink(missing_ok=True)
            _run("import", str(original), "--into-log", "--db", f"sqlite:///{into}")
            back = folder / f"{name}-back.{fmt}"
            _run("export", "--db", f"sqlite:///{into}", "--format", fmt, "--all-cards",
                 "--out", str(back))
            out[f"{name} {fmt}"] = compare(fmt, original.read_text(encoding="utf-8"),
                                           back.read_text(encoding="utf-8"))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", type=Path, help="keep the files here (default: a temporary "
                        "folder)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.folder or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        result = measure(folder)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        return
    for key, r in result.items():
        print(f"{key}: {r['identical']}/{r['hands']} byte-identical "
              f"({r['back']} hands back, ratio {r['identical'] / max(r['hands'], 1):.2f}); "
              f"{r['identical_but_coordinates']} identical but for the hand id, time, stream "
              "and versions")
        for d in r["differences"][:8]:
            print(f"  {d['hands']:4d}  {d['before']!r}\n        -> {d['after']!r}")


if __name__ == "__main__":
    main()
