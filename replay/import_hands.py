"""`handlog import`: hand histories from other systems, replayed strictly through the engine.

PokerStars text (replay/import_pokerstars.py), Open Hand History JSON (replay/import_ohh.py),
PHH (replay/phh.py), the sites pokerkit has a parser for (Full Tilt, iPoker, Ongame,
PartyPoker, Absolute: replay/import_sites.py) and those rewritten into PokerStars' text
(Winamax, GGPoker, 888poker: replay/import_winamax.py, import_ggpoker.py, import_888.py) are
each read into the same record PHH gives,
and every hand is verified exactly as `handlog phh verify` does (replay/phh_verify.py):
match, mismatch (with the reason), illegal (the action and the rule), unverified or error.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from handlog.replay.import_888 import looks_like_888, read_888
from handlog.replay.import_ggpoker import looks_like_ggpoker, read_ggpoker
from handlog.replay.import_ohh import looks_like_ohh, read_ohh
from handlog.replay.import_pokerstars import decode, looks_like_pokerstars, read_pokerstars
from handlog.replay.import_sites import SITE_NAMES, detect_site, read_site
from handlog.replay.import_winamax import looks_like_winamax, read_winamax
from handlog.replay.phh import PHH_SUFFIXES, PhhEntry, PhhHand, PhhProblem, loads_file
from handlog.replay.phh_verify import DEFAULT_RULES, HandResult, VerifyReport, verify_entry
from handlog.schema.text_limits import MAX_BYTES

Format = Literal["pokerstars", "ohh", "phh", "fulltilt", "ipoker", "ongame", "partypoker",
                 "absolute", "winamax", "ggpoker", "888"]
FORMATS: tuple[Format, ...] = ("pokerstars", "ohh", "phh", *SITE_NAMES, "winamax", "ggpoker",
                               "888")
# PokerStars' cash games in money are the site's own (handlog writes play chips): they are
# judged by the site's profile (engine/site_profiles.py) unless the hand names one.
POKERSTARS_PROFILE = "pokerstars"
_MONEY_BLINDS = re.compile(r"\([$€£][\d.,]+/[$€£][\d.,]+")  # `($0.50/$1.00 USD)`: a cash game
# Files a folder walk never opens: they cannot hold a hand history.
_SKIPPED_SUFFIXES = (".db", ".sqlite", ".zip", ".gz", ".png", ".jpg", ".pdf", ".parquet")


_HAND_TABLE = re.compile(r"^\[\d+\]\s*$", re.MULTILINE)  # `[1]`: a .phhs hand table


class NoHandHistories(ValueError):
    """Nothing in the paths given is a hand history (the CLI's exit status 2)."""


def find_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Every file under the given files and folders (folders walked in sorted order)."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for folder, dirs, files in os.walk(path):
                dirs.sort()
                found.extend(Path(folder, name) for name in sorted(files)
                             if not name.startswith(".")
                             and not name.lower().endswith(_SKIPPED_SUFFIXES))
        else:
            found.append(path)
    return found


def detect(path: Path, text: str) -> Format | None:
    """The format of a file's text, or None when it holds no hand history we know."""
    if path.suffix in PHH_SUFFIXES:
        return "phh"
    if looks_like_pokerstars(text):
        return "pokerstars"
    if looks_like_ohh(text):
        return "ohh"
    if looks_like_winamax(text):
        return "winamax"
    if looks_like_ggpoker(text):
        return "ggpoker"
    if looks_like_888(text):
        return "888"
    if (site := detect_site(text)) is not None:
        return site
    if "variant = " in text and "actions = " in text:
        return "phh"
    return None


@dataclass(frozen=True)
class FileRead:
    path: Path
    format: Format | None
    entries: tuple[PhhEntry, ...]


def read_file(path: Path, fmt: Format | Literal["auto"] = "auto") -> FileRead:
    """A file's hands in the format asked for (or the one detected); whatever goes wrong
    reading it is one error entry naming the file, never an exception."""
    source = os.fspath(path)
    try:
        # Held to the limit before it is read, whatever its format (PokerStars text has no
        # parser of its own that would refuse a file of gigabytes).
        size = path.stat().st_size
        if size > MAX_BYTES:
            return FileRead(path, None, (PhhProblem(
                source, None, "error", None,
                f"{source}: {size:,} bytes long (at most {MAX_BYTES:,} are read)"),))
        text = decode(path.read_bytes())
    except OSError as error:
        return FileRead(path, None, (PhhProblem(source, None, "error", None,
                                                f"{source}: cannot read the file: {error}"),))
    chosen = detect(path, text) if fmt == "auto" else fmt
    if chosen is None:
        return FileRead(path, None, ())
    try:
        return FileRead(path, chosen, tuple(_entries(chosen, text, source)))
    except Exception as error:  # noqa: BLE001  # one unreadable file never stops a batch
        return FileRead(path, chosen, (PhhProblem(
            source, None, "error", None,
            f"{source}: cannot be read as {chosen}: {type(error).__name__}: {error}"),))


def _entries(fmt: Format, text: str, source: str) -> Iterator[PhhEntry]:
    if fmt == "pokerstars":
        lines = text.split("\n")
        for entry in read_pokerstars(text, source):
            if isinstance(entry, PhhHand) and entry.rules is None and entry.line \
                    and _MONEY_BLINDS.search(lines[entry.line - 1]):
                entry = replace(entry, rules=POKERSTARS_PROFILE)
            yield entry
    elif fmt == "winamax":
        yield from read_winamax(text, source)
    elif fmt == "ggpoker":
        yield from read_ggpoker(text, source)
    elif fmt == "888":
        yield from read_888(text, source)
    elif fmt in SITE_NAMES:
        yield from read_site(fmt, text, source)
    elif fmt == "ohh":
        yield from read_ohh(text, source)
    else:
        many = source.endswith(".phhs") or _HAND_TABLE.search(text) is not None
        yield from loads_file(text, source, many=many)


@dataclass(frozen=True)
class FileSummary:
    """One file's outcome: its format, its hands' counts by status, or why it was skipped."""

    file: str
    format: str | None
    counts: dict[str, int]
    skipped: str | None = None  # why no hand was read ("no hand history found")

    @property
    def ok(self) -> bool:
        return not (self.counts.get("mismatch") or self.counts.get("illegal")
                    or self.counts.get("error"))

    def as_dict(self) -> dict[str, object]:
        status = "skipped" if self.skipped else "ok" if self.ok else "failed"
        data: dict[str, object] = {"file": self.file, "format": self.format or "",
                                   "status": status,
                                   "hands": sum(self.counts.values()),
                                   **{name: self.counts.get(key, 0) for key, name in _COUNTED}}
        if self.skipped:
            data["reason"] = self.skipped
        return data


_COUNTED = (("match", "matched"), ("mismatch", "mismatched"), ("illegal", "illegal"),
            ("unverified", "unverified"), ("error", "errors"))
NO_HAND_HISTORY = "no hand history found in the file"


@dataclass(frozen=True)
class ImportReport:
    """Every hand's result (with the line it starts on), the format of each file read and
    each file's counts, and how long it took."""

    verify: VerifyReport
    formats: dict[str, str]
    skipped: tuple[str, ...] = ()  # files that hold no hand history
    lines: tuple[int | None, ...] = ()  # the line of each of verify.results, when known
    files: tuple[FileSummary, ...] = ()

    @property
    def ok(self) -> bool:
        return self.verify.ok

    def as_dict(self) -> dict[str, object]:
        data = self.verify.as_dict()
        formats = self.formats
        results = data["results"]
        assert isinstance(results, list)
        for index, result in enumerate(results):
            result["format"] = formats.get(str(result["file"]), "")
            result["line"] = self.lines[index] if index < len(self.lines) else None
        files = ([f.as_dict() for f in self.files if not f.skipped] if self.files
                 else [{"file": f, "format": k} for f, k in formats.items()])
        skipped = [{"file": f.file, "reason": f.skipped} for f in self.files if f.skipped]
        return {"files": files, "skipped_files": skipped,
                "failed_files": sum(1 for f in self.files if not f.skipped and not f.ok),
                **data}


HandSink = Callable[[PhhEntry, HandResult, str], None]
"""Told of every hand read: the hand as read, its result and its file's format."""


def import_files(files: Iterable[Path], fmt: Format | Literal["auto"] = "auto",
                 rules: str = DEFAULT_RULES, sink: HandSink | None = None) -> ImportReport:
    """Read and verify every hand of the files (pass a progress-bar iterator freely); `sink`
    is told of each hand (`--into-log` records the verified ones). A file or a hand that
    cannot be read is an error result naming the file (and the line), and the rest go on."""
    started = time.perf_counter()
    results: list[HandResult] = []
    lines: list[int | None] = []
    formats: dict[str, str] = {}
    skipped: list[str] = []
    summaries: list[FileSummary] = []
    for path in files:
        source = os.fspath(path)
        read = read_file(path, fmt)
        if read.format is None and not read.entries:
            skipped.append(source)
            summaries.append(FileSummary(source, None, {}, NO_HAND_HISTORY))
            continue
        formats[source] = read.format or ""
        counts: dict[str, int] = {}
        for entry in read.entries:
            result = _verified(entry, rules)
            results.append(result)
            lines.append(entry.line)
            counts[result.status] = counts.get(result.status, 0) + 1
            if sink is not None:
                sink(entry, result, read.format or "")
        summaries.append(FileSummary(source, read.format, counts))
    if not formats:
        raise NoHandHistories("no hand histories found")
    return ImportReport(VerifyReport(tuple(results), time.perf_counter() - started), formats,
                        tuple(skipped), tuple(lines), tuple(summaries))


def _verified(entry: PhhEntry, rules: str) -> HandResult:
    """A hand's result; an unexpected failure of the replay is that hand's error."""
    try:
        return verify_entry(entry, rules)
    except Exception as error:  # noqa: BLE001  # one hand never stops a batch
        where = f"{entry.source}:{entry.line}" if entry.line else entry.source
        return HandResult(entry.source, entry.hand, "error",
                          reason=f"{where}: the replay failed: {type(error).__name__}: {error}")
