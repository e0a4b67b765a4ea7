"""A witness of a room's log (C2SP tlog-witness): it cosigns a checkpoint only after checking
that it extends the last one it cosigned for that log, and keeps what it refused as evidence.

The request (HTTP `POST <prefix>/add-checkpoint`, or a file for the offline `handlog witness
cosign`) is

    old <size of the previous checkpoint the witness cosigned, 0 for none>
    <one base64 hash a line: the RFC 9162 consistency proof from that size, at most 63>
    (a blank line)
    <the checkpoint, signed by the room>

and the answer is one of

    200  the cosignature line(s) `— <witness> base64(key ID || timestamp || signature)`
    400  the request is malformed, or old size > the checkpoint's size
    403  no signature by the room's key verifies
    404  the witness does not follow this origin
    409  old size is not the size the witness cosigned last (body: that size, `text/x.tlog.size`)
         or the same size with another root (equivocation: kept as evidence)
    422  the consistency proof does not verify (kept as evidence)

The witness's state is one small JSON file: per origin, the last size, root and checkpoint it
cosigned. Checking it and writing it is one step under a lock, and the file is replaced
atomically (fsync, rename) before the answer is sent, so a size once cosigned is never rolled
back. Evidence is kept beside it in `<state>.evidence/`: the checkpoint the witness holds and
the one refused, with the proof sent, one file per refusal.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from handlog.schema.checkpoint import Checkpoint, CheckpointError, VerifierKey, parse_checkpoint
from handlog.schema.cosignature import WitnessSigningKey, note_body
from handlog.schema.tlog import verify_consistency

MAX_PROOF_LINES = 63
MAX_REQUEST = 64 * 1024
SIZE_TYPE = "text/x.tlog.size"


@dataclass(frozen=True)
class Answer:
    status: int
    body: str
    content_type: str = "text/plain; charset=utf-8"


class Witness:
    """One witness: its key, the logs it follows (origin -> the room's public key), its state."""

    def __init__(self, key: WitnessSigningKey, logs: dict[str, VerifierKey], state: Path,
                 clock: Callable[[], float] = time.time) -> None:
        self.key = key
        self.logs = logs
        self.state_path = Path(state)
        self.evidence = self.state_path.with_name(self.state_path.name + ".evidence")
        self.clock = clock
        self._lock = threading.Lock()

    def state(self) -> dict[str, dict[str, object]]:
        try:
            data = json.loads(self.state_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            raise CheckpointError(f"the witness state {self.state_path} cannot be read: "
                                  f"{exc}") from None
        if not isinstance(data, dict):
            raise CheckpointError(f"the witness state {self.state_path} is not a JSON object")
        return data

    def add_checkpoint(self, request: bytes) -> Answer:
        try:
            text = request.decode("utf-8")
        except UnicodeDecodeError:
            return Answer(400, "the request is not UTF-8 text\n")
        try:
            old, proof, note = parse_request(text)
        except ValueError as exc:
            return Answer(400, f"{exc}\n")
        try:
            origin = parse_checkpoint(note).origin
        except CheckpointError as exc:
            return Answer(400, f"{exc}\n")
        room = self.logs.get(origin)
        if room is None:
            return Answer(404, f"this witness does not follow the log {origin!r}\n")
        try:
            checkpoint = parse_checkpoint(note, room)
        except CheckpointError as exc:
            return Answer(403, f"{exc}\n")
        if old > checkpoint.size:
            return Answer(400, f"old size {old} is larger than the checkpoint's size "
                               f"{checkpoint.size}\n")
        with self._lock:
            state = self.state()
            held = state.get(origin)
            held_size = int(held["size"]) if isinstance(held, dict) else 0  # type: ignore[call-overload]
            held_text = str(held["checkpoint"]) if isinstance(held, dict) else ""
            if old != held_size:
                return Answer(409, f"{held_size}\n", SIZE_TYPE)
            held_root = parse_checkpoint(held_text).root if held_text else b""
            if old == checkpoint.size and old and held_root != checkpoint.root:
                self._keep_evidence(origin, held_text, text, "equivocation")
                return Answer(409, f"{held_size}\n", SIZE_TYPE)
            if old and not verify_consistency(old, checkpoint.size, held_root, checkpoint.root,
                                              proof):
                self._keep_evidence(origin, held_text, text, "not_an_extension")
                return Answer(422, f"the consistency proof from size {old} to "
                                   f"{checkpoint.size} does not verify: refused and kept as "
                                   "evidence\n")
            state[origin] = {"size": checkpoint.size,
                             "root": base64.b64encode(checkpoint.root).decode(),
                             "checkpoint": _room_signed(note, room)}
            self._write_state(state)
        line = self.key.cosign(note_body(note), int(self.clock()))
        return Answer(200, line)

    def _write_state(self, state: dict[str, dict[str, object]]) -> None:
        folder = self.state_path.parent
        handle, temporary = tempfile.mkstemp(prefix=f".{self.state_path.name}.", dir=folder)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(state, out, sort_keys=True, indent=1)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, self.state_path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def _keep_evidence(self, origin: str, held: str, request: str, kind: str) -> None:
        self.evidence.mkdir(exist_ok=True)
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(self.clock()))
        safe = "".join(c if c.isalnum() else "_" for c in origin)
        path = self.evidence / f"{stamp}-{safe}-{kind}-{time.monotonic_ns()}.json"
        path.write_text(json.dumps({"kind": kind, "origin": origin, "cosigned": held,
                                    "refused_request": request}, indent=1), encoding="utf-8")


def _room_signed(note: str, room: VerifierKey) -> str:
    """The checkpoint as the room signed it (other signature lines dropped)."""
    body = note_body(note)
    mine = [line for line in note[len(body) + 1:].split("\n")
            if line.startswith(f"\u2014 {room.name} ")]
    return body + "\n" + "".join(line + "\n" for line in mine)


def parse_request(text: str) -> tuple[int, list[bytes], str]:
    """(old size, proof hashes, checkpoint text) of an add-checkpoint body; ValueError."""
    head, blank, note = text.partition("\n\n")
    if not blank:
        raise ValueError("an add-checkpoint request is `old N`, the proof lines, a blank line "
                         "and the checkpoint")
    lines = head.split("\n")
    first = lines[0]
    size = first[4:]
    if not first.startswith("old ") or not size.isascii() or not size.isdigit() or (
            size != "0" and size.startswith("0")):
        raise ValueError(f"the first line must be `old <size>`, not {first[:40]!r}")
    if len(lines) - 1 > MAX_PROOF_LINES:
        raise ValueError(f"more than {MAX_PROOF_LINES} consistency proof lines")
    proof = []
    for line in lines[1:]:
        try:
            node = base64.b64decode(line, validate=True)
        except (binascii.Error, ValueError):
            raise ValueError(f"proof line {line[:60]!r} is not base64") from None
        if len(node) != 32:
            raise ValueError("a proof line is one SHA-256 hash (32 bytes)")
        proof.append(node)
    if int(size) == 0 and proof:
        raise ValueError("the proof must be empty when the old size is 0")
    return int(size), proof, note


def make_request(old: int, proof: list[bytes], checkpoint: str) -> bytes:
    lines = [f"old {old}"] + [base64.b64encode(node).decode() for node in proof]
    return ("\n".join(lines) + "\n\n" + checkpoint).encode()


def cosigned(checkpoint: Checkpoint | str, lines: str) -> str:
    """The checkpoint with the cosignature lines added under its signatures."""
    text = checkpoint.text if isinstance(checkpoint, Checkpoint) else checkpoint
    return text + "".join(line + "\n" for line in lines.splitlines()
                          if line.startswith("\u2014 "))


# --- HTTP ---------------------------------------------------------------------------------------


def make_server(witness: Witness, host: str, port: int) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        server_version = "handlog-witness"

        def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
            if self.path.rstrip("/").rsplit("/", 1)[-1] != "add-checkpoint":
                self._answer(Answer(404, "POST <prefix>/add-checkpoint\n"))
                return
            try:
                length = int(self.headers.get("Content-Length", ""))
            except ValueError:
                self._answer(Answer(411, "Content-Length is required\n"))
                return
            if not 0 <= length <= MAX_REQUEST:
                self._answer(Answer(413, f"a request is at most {MAX_REQUEST} bytes\n"))
                return
            try:
                answer = witness.add_checkpoint(self.rfile.read(length))
            except CheckpointError as exc:
                answer = Answer(500, f"{exc}\n")
            self._answer(answer)

        def _answer(self, answer: Answer) -> None:
            body = answer.body.encode()
            self.send_response(answer.status)
            self.send_header("Content-Type", answer.content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

    return ThreadingHTTPServer((host, port), Handler)
