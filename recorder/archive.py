"""The archive of an event for the record: one zip an auditor, a regulator or the league's
books keep, and check years later with no database and no network.

    manifest.json          format, when written, the retention period, SHA-256 of every file
    VERIFY.txt             what is inside and how to check it
    log.jsonl              the whole log as JSON lines with its hashes and the room's
                           checkpoints (`handlog log export`)
    checkpoints/...        the checkpoints cosigned by witnesses, one file each
    keys/room.pub          the room's public key
    keys/witness-N.pub     each witness's public key
    keys/director.pub      the director's public key (with a sign-off)
    sign-off.txt           the director's sign-off of the results
    report.html, report.pdf  the audit report

`verify_archive` checks every file against the manifest, then the log as `handlog log verify`
does: against the room's key, the cosignatures and the sign-off. The keys inside the archive
were put there by whoever wrote it: an auditor compares them with the keys the room, the
witnesses and the director published (or gives them), which is why without `--key` the
verdict is "not authenticated" however clean the log.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import zipfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from handlog.schema.checkpoint import CheckpointError, VerifierKey, parse_verifier
from handlog.schema.cosignature import WitnessKey, parse_witness_key
from handlog.schema.export import export_source, export_store
from handlog.schema.logcheck import (
    EXIT_BROKEN,
    EXIT_NOT_AUTHENTICATED,
    GivenCheckpoint,
    LogCheck,
    check_log,
    hold_to_sign_off,
)
from handlog.schema.sign_off import parse_sign_off, results_of, stored_sign_offs
from handlog.schema.store import EventStore

FORMAT = "handlog-archive"
FORMAT_VERSION = 1
DEFAULT_RETENTION_YEARS = 10
MAX_MEMBER_BYTES = 4 * 1024 * 1024 * 1024
INSTRUCTIONS = """\
handlog archive of {origin}, written {written}; keep it until {until} ({years} years).

What is inside (manifest.json lists every file with its SHA-256):
  log.jsonl            every event with its hashes, and the room's signed checkpoints
  checkpoints/         checkpoints cosigned by independent witnesses
  keys/                the public keys of the room, the witnesses and the director
  sign-off.txt         the director's signed sign-off of the results (if any)
  report.html/.pdf     the audit report as it was when the archive was written

To check it, offline (pip install handlog):
  handlog archive verify THIS.zip --key ROOM.pub

Compare the keys in keys/ with the ones the room, the witnesses and the director published:
an archive carries its own keys, so only keys obtained separately authenticate it. Without
handlog, log.jsonl can be checked by hand: each event's hash is SHA-256 of the canonical JSON
array [prev_hash, stream, version, event id, type, schema version, payload, time, actor,
device]; the Merkle tree is RFC 9162's; checkpoints are C2SP signed notes (Ed25519) and
cosignatures C2SP tlog-cosignature (cosignature/v1).
"""


@dataclass
class Written:
    path: Path
    files: list[str] = field(default_factory=list)
    events: int = 0


def build_archive(store: EventStore, out: Path, room: VerifierKey,
                  witness_keys: list[Path], cosigned: list[Path], sign_off: Path | None,
                  director_key: Path | None, retention_years: int,
                  report: bool = True, director_public: str | None = None) -> Written:
    """The zip at `out`. With no `sign_off` file, the latest sign-off kept in the database
    (the floor page's or the CLI's); with no `director_key` file, `director_public` (the
    server's director's key, when it has one)."""
    now = datetime.now(UTC)
    written = Written(out)
    with tempfile.TemporaryDirectory(prefix="handlog-archive-") as folder:
        root = Path(folder)
        files: dict[str, Path] = {}
        events, _streams = export_store(store, root / "log.jsonl")
        written.events = events
        files["log.jsonl"] = root / "log.jsonl"
        (root / "room.pub").write_text(room.text() + "\n", encoding="utf-8")
        files["keys/room.pub"] = root / "room.pub"
        for number, path in enumerate(witness_keys, start=1):
            files[f"keys/witness-{number}.pub"] = path
        for path in cosigned:
            files[f"checkpoints/{path.parent.name}/{path.name}"] = path
        kept = stored_sign_offs(store)
        if sign_off is not None:
            files["sign-off.txt"] = sign_off
        elif kept:
            (root / "sign-off.txt").write_text(kept[-1][1].text, encoding="utf-8")
            files["sign-off.txt"] = root / "sign-off.txt"
        if director_key is not None:
            files["keys/director.pub"] = director_key
        elif director_public is not None:
            (root / "director.pub").write_text(director_public + "\n", encoding="utf-8")
            files["keys/director.pub"] = root / "director.pub"
        if report:
            from handlog.replay.report_stream import write_report

            for fmt in ("html", "pdf"):
                target = root / f"report.{fmt}"
                _audit, paths = write_report(store, fmt, target)
                for path in paths:
                    files[path.name] = path
        until = now.replace(year=now.year + retention_years)
        manifest = {
            "format": FORMAT, "format_version": FORMAT_VERSION,
            "written_at": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "retention_years": retention_years,
            "retain_until": until.strftime("%Y-%m-%d"),
            "origin": room.name, "room_key": room.text(),
            "files": {name: _sha256(path) for name, path in sorted(files.items())},
        }
        text = INSTRUCTIONS.format(origin=room.name, written=manifest["written_at"],
                                   until=manifest["retain_until"], years=retention_years)
        temporary = out.with_name(f".{out.name}.partial")
        with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as bundle:
            bundle.writestr("manifest.json", json.dumps(manifest, indent=1, sort_keys=True))
            bundle.writestr("VERIFY.txt", text)
            for name, path in sorted(files.items()):
                bundle.write(path, name)
        os.replace(temporary, out)
        written.files = ["manifest.json", "VERIFY.txt", *sorted(files)]
    return written


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass
class ArchiveCheck:
    report: LogCheck | None
    lines: list[str]
    status: int


def verify_archive(path: Path, key: VerifierKey | None, min_witnesses: int) -> ArchiveCheck:
    """Check the archive at `path` offline; every problem is a line, never a traceback."""
    lines: list[str] = []
    try:
        bundle = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile) as exc:
        return ArchiveCheck(None, [f"damaged archive: {path} is not a zip file ({exc})"],
                            EXIT_BROKEN)
    with bundle, tempfile.TemporaryDirectory(prefix="handlog-archive-") as folder:
        root = Path(folder)
        try:
            manifest = json.loads(bundle.read("manifest.json"))
            files = manifest["files"]
            if manifest.get("format") != FORMAT or not isinstance(files, dict):
                raise ValueError("not a handlog archive manifest")
        except (KeyError, ValueError, RecursionError, TypeError) as exc:
            return ArchiveCheck(None, [f"damaged archive: manifest.json cannot be read ({exc})"],
                                EXIT_BROKEN)
        broken = []
        for name, expected in sorted(files.items()):
            if not isinstance(name, str) or name.startswith("/") or ".." in name.split("/"):
                broken.append(f"damaged archive: {name!r} is not a name inside the archive")
                continue
            try:
                info = bundle.getinfo(name)
                if info.file_size > MAX_MEMBER_BYTES:
                    raise ValueError("too large")
                target = root / name
                target.parent.mkdir(parents=True, exist_ok=True)
                with bundle.open(info) as source, open(target, "wb") as sink:
                    for block in iter(lambda s=source: s.read(1 << 20), b""):  # type: ignore[misc]
                        sink.write(block)
            except (KeyError, ValueError, OSError, zipfile.BadZipFile) as exc:
                broken.append(f"damaged archive: {name} is missing or unreadable ({exc})")
                continue
            if _sha256(target) != expected:
                broken.append(f"damaged archive: {name} differs from the manifest (changed "
                              "after the archive was written)")
        extra = sorted(set(bundle.namelist()) - set(files) - {"manifest.json", "VERIFY.txt"})
        broken += [f"damaged archive: {name} is not in the manifest" for name in extra]
        lines += broken
        if "log.jsonl" not in files:
            return ArchiveCheck(None, [*lines, "damaged archive: no log.jsonl"], EXIT_BROKEN)
        try:
            inside = parse_verifier((root / "keys/room.pub").read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, CheckpointError) as exc:
            return ArchiveCheck(None, [*lines, f"damaged archive: keys/room.pub: {exc}"],
                                EXIT_BROKEN)
        if key is not None and key != inside:
            lines.append(f"the archive's room key {inside.text()} is not the key given "
                         f"({key.text()}): checked with the key given")
        witnesses: list[WitnessKey] = []
        for name in sorted(n for n in files if n.startswith("keys/witness-")):
            try:
                witnesses.append(parse_witness_key((root / name).read_text(encoding="utf-8")))
            except (OSError, UnicodeDecodeError, CheckpointError) as exc:
                lines.append(f"damaged archive: {name}: {exc}")
        given = []
        for name in sorted(n for n in files if n.startswith("checkpoints/")):
            try:
                given.append(GivenCheckpoint(name, (root / name).read_text(encoding="utf-8")))
            except (OSError, UnicodeDecodeError) as exc:
                lines.append(f"damaged archive: {name}: {exc}")
        used = key or inside
        report = check_log(export_source(root / "log.jsonl"), given, used, witnesses,
                           min(min_witnesses, len(witnesses)) if min_witnesses else 0)
        if min_witnesses > len(witnesses):
            lines.append(f"the archive holds {len(witnesses)} witness key(s), fewer than "
                         f"--min-witnesses {min_witnesses}")
            broken.append("witnesses")
        if "sign-off.txt" in files:
            try:
                director = (parse_verifier((root / "keys/director.pub").read_text("utf-8"))
                            if "keys/director.pub" in files else None)
                sign_off = parse_sign_off((root / "sign-off.txt").read_text("utf-8"), director)
                rows = [(e[1], e[2], e[4], e[11])
                        for e in export_source(root / "log.jsonl", reread=False).events]
                hold_to_sign_off(report, sign_off, results_of(rows, sign_off.tournament))
            except (OSError, UnicodeDecodeError, CheckpointError) as exc:
                lines.append(f"damaged archive: sign-off.txt: {exc}")
                broken.append("sign-off")
        lines.append(f"archive written {manifest.get('written_at')}, kept until "
                     f"{manifest.get('retain_until')} ({manifest.get('retention_years')} "
                     "years); every file matches the manifest" if not broken else
                     f"archive written {manifest.get('written_at')}")
        lines += report.lines()
        status = EXIT_BROKEN if broken else report.status
        if key is None and status == 0:
            lines.append("NOT AUTHENTICATED: checked with the keys inside the archive; give "
                         "--key ROOM.pub obtained from the room to authenticate it")
            status = EXIT_NOT_AUTHENTICATED
        return ArchiveCheck(report, lines, status)
