"""The floor's read model: each table's card (and its JSON text) and its rulings and corrections,
built once per version of the table and of its tournament (a floor read neither re-derives nor
re-encodes an idle table); the floor answer assembled from them; and the live floor's frames
(FloorFollower for a director or dealer, ViewerFloor shared by every viewer)."""

from __future__ import annotations

import heapq
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any, Protocol

from handlog.engine.errors import RuleViolation
from handlog.recorder.auth import Auth, Session
from handlog.recorder.floor import HandContext, TournamentDesk
from handlog.recorder.live import Hub, sse_text
from handlog.recorder.service import Recorder
from handlog.recorder.tournament_service import table_stream
from handlog.recorder.views import EventLog, broken_summary, notable_rows, table_summary
from handlog.recorder.witness_client import WitnessClient
from handlog.replay.fold import TableFold
from handlog.schema.checkpoint import StoredCheckpoint, latest_checkpoint
from handlog.schema.sign_off import SignOff, stored_sign_offs
from handlog.schema.store import EventStore, StoredEvent


class Services(Protocol):
    """What the floor's read model uses of the app's services (recorder/app_services.py)."""

    @property
    def recorder(self) -> Recorder: ...
    @property
    def desk(self) -> TournamentDesk: ...
    @property
    def hub(self) -> Hub: ...
    @property
    def cards(self) -> FloorCards: ...
    @property
    def clock(self) -> Callable[[], datetime]: ...
    @property
    def store(self) -> EventStore: ...
    @property
    def auth(self) -> Auth: ...
    @property
    def witnesses(self) -> Sequence[WitnessClient]: ...
    @property
    def log(self) -> EventLog: ...
    def context(self, stream: str, fold: TableFold) -> HandContext: ...

HEADS_SECONDS = 2.0
"""The floor reads the store's list of streams again at least this often (a stream made by
another process appears within it even when no notice of it came)."""

Card = dict[str, Any]
Row = dict[str, Any]


def checkpoint_view(stored: StoredCheckpoint | None) -> dict[str, Any] | None:
    if stored is None:
        return None
    cp = stored.checkpoint
    return {"number": stored.number, "reason": stored.reason,
            "created_at": stored.created_at.isoformat(), "origin": cp.origin,
            "size": cp.size, "root": cp.root_hex, "text": cp.text}


def witness_views(witnesses: Iterable[WitnessClient]) -> list[dict[str, Any]]:
    """Each witness the checkpoints are posted to: the size it last cosigned, a checkpoint
    still pending and why the last attempt failed (a witness that is down, retried)."""
    return [{"witness": c.status.witness, "cosigned_size": c.status.cosigned_size,
             "pending_size": c.status.pending_size, "error": c.status.error}
            for c in witnesses]


def sign_off_view(number: int, sign_off: SignOff) -> dict[str, Any]:
    return {"tournament": sign_off.tournament.removeprefix("tournament-"),
            "director": sign_off.director, "signed_at": sign_off.signed_at,
            "checkpoint": number, "size": sign_off.size, "results": len(sign_off.results),
            "text": sign_off.text}


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class FloorCards:
    """The cards of every table and the floor views built from them."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.rows: dict[str, tuple[tuple[int, Any], Card, list[Row]]] = {}
        self.text: dict[str, tuple[tuple[int, Any], str]] = {}
        # The room's streams as the floor lists them: read from the store when a stream is
        # new (an append at version 1 here, a stream the hub had not heard of) or every few
        # seconds, and their versions from the recorder's heads in memory (no query a read).
        self.streams: list[tuple[str, str]] | None = None
        self.read_at = 0.0
        self.heard = -1
        services.recorder.on_appended(self._new_stream)

    def _new_stream(self, stored: Sequence[StoredEvent]) -> None:
        if any(e.version == 1 for e in stored):
            self.streams = None

    def card_text(self, stream: str, card: Card) -> str:
        """The card's JSON, encoded once per version of the card kept."""
        cached = self.rows.get(stream)
        if cached is None or cached[1] is not card:  # a card not kept (a table in trouble)
            return _dumps(card)
        kept = self.text.get(stream)
        if kept is None or kept[0] != cached[0]:
            kept = self.text[stream] = (cached[0], _dumps(card))
        return kept[1]

    def summary(self, stream: str, notable: bool = True) -> tuple[Card, list[Row]]:
        """One table's card and its rulings and corrections; a table that cannot be read says
        why on its card and leaves the others alone (one table's problem stays its own)."""
        s = self.services
        try:
            fold = s.recorder.table(stream)
            if fold.state is None and fold.findings:
                # Its opening cannot be applied (recorded by an older release): the card says
                # why, the director can void it.
                return broken_summary(stream, fold.version,
                                      RuleViolation(fold.findings[0].rule,
                                                    fold.findings[0].message)), []
            # The card shows the tournament's stakes and its players' names (which never
            # change): a registration or a clock change elsewhere leaves it as it is.
            key = (fold.version, s.desk.card_level(fold))
            cached = self.rows.get(stream)
            if cached is None or cached[0] != key:
                names = s.desk.names(fold)
                level = (key[1] if fold.state is not None and fold.state.tournament
                         else s.context(stream, fold).level)
                stored = s.log.notable(stream, fold.version)
                # (no rulings: the hands' names are not looked up through its history)
                cached = (key, table_summary(fold, level, names),
                          notable_rows(fold, stored, names) if stored else [])
                self.rows[stream] = cached
            return cached[1], (cached[2] if notable else [])
        except Exception as error:  # noqa: BLE001 - any entry an older release let in
            head = s.store.head(stream)
            return broken_summary(stream, head.version if head else 0, error), []

    def keep(self, stored: Sequence[StoredEvent]) -> None:
        """A table's floor card built and encoded as its events are appended (by the thread
        that appended them), once the floor has shown it: a floor read finds it ready. A
        tournament's stakes and names are taken as last kept (no lock waited for here); a
        card they do not match is built at the read."""
        s = self.services
        for stream in dict.fromkeys(e.stream_id for e in stored):
            if stream not in self.rows:
                continue
            try:
                fold = s.recorder.table(stream)
                state = fold.state
                if state is None:
                    continue
                tournament = state.tournament
                kept = s.desk.kept(tournament) if tournament else (None, {})
                if kept is None:
                    continue
                key = (fold.version, kept[0])
                if self.rows[stream][0] == key or (tournament and any(
                        seat.player not in kept[1] for seat in state.seats)):
                    continue  # (a player the names kept do not know yet: built at the read)
                level = kept[0] if tournament else s.context(stream, fold).level
                notable = s.log.notable(stream, fold.version)
                card = table_summary(fold, level, kept[1])
                self.rows[stream] = (key, card, notable_rows(fold, notable, kept[1])
                                     if notable else [])
                self.text[stream] = (key, _dumps(card))
            except Exception:  # noqa: BLE001 - the read builds it, or says what is wrong
                continue

    def floor(self, session: Session) -> dict[str, Any]:
        result, tables = self.parts(session)
        result["tables"] = tables
        return result

    def encoded(self, session: Session) -> tuple[str, int]:
        """The floor answer as JSON text, and its version: the tables' cards are joined from
        their cached text (only a card whose table changed is encoded again)."""
        result, tables = self.parts(session)
        cards = ",".join(self.card_text(card["stream"], card) for card in tables)
        return f'{_dumps(result)[:-1]},"tables":[{cards}]}}', int(result["version"])

    def heads(self) -> list[tuple[str, str, int]]:
        """(stream, kind, version) of every stream, by stream id."""
        s = self.services
        streams = self.streams
        heard = s.hub.heard()
        if (streams is None or heard != self.heard
                or time.monotonic() - self.read_at > HEADS_SECONDS):
            heads = s.store.streams()
            for head in heads:
                s.recorder.observe(head.stream_id, head.version)
            streams = self.streams = [(h.stream_id, h.kind) for h in heads]
            s.recorder.preload([h.stream_id for h in heads if h.kind == "table"])  # (heads too)
            self.read_at, self.heard = time.monotonic(), heard
        return [(stream, kind, s.recorder.head_version(stream)) for stream, kind in streams]

    def parts(self, session: Session) -> tuple[dict[str, Any], list[Card]]:
        s = self.services
        tables = []
        corrections: list[Row] = []
        heads = self.heads()
        levels: dict[str, Any] = {}  # each tournament's stakes, as its tables' cards show
        missing: list[str] = []
        for stream, kind, version in heads:
            if kind != "table":
                continue
            kept = self.rows.get(stream)
            if kept is not None:
                tournament = kept[1].get("tournament") or ""
                if tournament not in levels:
                    try:
                        levels[tournament] = s.desk.level_of(tournament)
                    except Exception:  # noqa: BLE001 - its cards say why (summary)
                        levels[tournament] = missing  # matches no card's key
                if kept[0] == (version, levels[tournament]):
                    continue  # the card as kept (no fold looked at)
            missing.append(stream)
        s.recorder.preload(missing)
        rebuild = set(missing)
        for stream, kind, _version in heads:
            if kind == "table":
                kept = self.rows.get(stream)
                if kept is not None and stream not in rebuild:
                    card, notable = kept[1], kept[2]
                else:
                    card, notable = self.summary(stream)
                tables.append(card)
                corrections.extend(notable)
        corrections = heapq.nlargest(100, corrections, key=lambda row: row["at"])
        problems: list[dict[str, Any]] = []
        tournaments = [stream.removeprefix("tournament-") for stream, kind, _v in heads
                       if kind == "tournament"]
        result: dict[str, Any] = {
            "role": session.role, "corrections": corrections,
            "tournaments": s.desk.views(s.clock(), problems, tournaments), "problems": problems,
            "version": sum(version for _s, _k, version in heads),
        }
        result["checkpoint"] = checkpoint_view(latest_checkpoint(s.store))
        result["witnesses"] = witness_views(s.witnesses)
        result["sign_offs"] = [sign_off_view(n, x) for n, x in stored_sign_offs(s.store)]
        if session.role == "director":
            result["dealer_pins"] = {t["stream"]: s.auth.table_pin(t["stream"]) for t in tables}
            result["pairing_codes"] = [
                {"code": c.code, "table": c.table} for c in s.auth.pairing_codes()
            ]
        return result, tables

    def corrections_now(self) -> list[Row]:
        """The floor's rulings and corrections over every table, newest first (its first 100),
        from the cards' read model."""
        rows: list[Row] = []
        for kept in list(self.rows.values()):
            rows.extend(kept[2])
        return heapq.nlargest(100, rows, key=lambda row: row["at"])


class FloorFollower:
    """One live floor: the whole floor first (`state`), then only what changed since the
    frame before (`changes`): the cards of the tables that moved on, each tournament's
    delta against the version this screen holds (TournamentDesk.delta), the rulings and
    corrections when a changed table has any. Nothing is folded or encoded again for a
    table that did not change (the cards are the floor's read model)."""

    def __init__(self, services: Services, session: Session) -> None:
        self.services = services
        self.session = session
        self.tables: dict[str, int] | None = None
        self.tournaments: dict[str, int] = {}

    def frame(self) -> str:
        s, floor = self.services, self.services.cards
        if self.tables is None:
            result, cards = floor.parts(self.session)
            self.tables = {c["stream"]: c["version"] for c in cards}
            self.tournaments = {t["id"]: t["version"] for t in result["tournaments"]}
            text = ",".join(floor.card_text(c["stream"], c) for c in cards)
            return sse_text("state", f'{_dumps(result)[:-1]},"tables":[{text}]}}',
                            int(result["version"]))
        heads = floor.heads()
        version = sum(v for _s, _k, v in heads)
        deltas = []
        restaked: set[str] = set()  # tables whose cards show new stakes
        for stream_id, kind, at in heads:
            tournament = stream_id.removeprefix("tournament-")
            if kind != "tournament" or self.tournaments.get(tournament) == at:
                continue
            delta = s.desk.delta(tournament, self.tournaments.get(tournament, 0), s.clock())
            if delta is not None:
                deltas.append(delta)
                self.tournaments[tournament] = delta["version"]
                if {"stakes", "level", "finished"} & set(delta):
                    restaked.update(delta.get("table_streams", {}).values() or (
                        table_stream(tournament, t)
                        for t in s.desk.open_tables(tournament) or ()))
        changed = [stream_id for stream_id, kind, at in heads if kind == "table"
                   and (self.tables.get(stream_id) != at or stream_id in restaked)]
        s.recorder.preload(changed)
        cards, notable = [], False
        for stream in changed:
            card, rows = floor.summary(stream)
            cards.append(card)
            self.tables[stream] = card["version"]
            notable = notable or bool(rows)
        body: dict[str, Any] = {"version": version, "tournaments": deltas}
        if notable:
            body["corrections"] = floor.corrections_now()
        if cards:
            body["checkpoint"] = checkpoint_view(latest_checkpoint(s.store))
            body["witnesses"] = witness_views(s.witnesses)
        if self.session.role == "director" and cards:
            body["dealer_pins"] = {c["stream"]: s.auth.table_pin(c["stream"]) for c in cards}
        cards_text = ",".join(floor.card_text(c["stream"], c) for c in cards)
        return sse_text("changes", f'{_dumps(body)[:-1]},"tables":[{cards_text}]}}', version)


class ViewerFloor:
    """The viewers' live floor, built once for all of them: one follower makes each
    `changes` frame (one per change heard of), every viewer is sent the frames after the
    one it had; a viewer new or further behind than the frames kept gets the whole floor
    (its frame shared too while nothing changed)."""

    KEEP = 64

    def __init__(self, services: Services) -> None:
        self.services = services
        self.lock = threading.Lock()
        self.follower: FloorFollower | None = None
        self.frames: deque[tuple[int, str]] = deque(maxlen=self.KEEP)
        self.state: tuple[int, int, str] | None = None  # (frame number, second, text)
        self.number = 0
        self.generation = -1
        self.builds = 0

    def since(self, session: Session, seen: int | None) -> tuple[str, int]:
        hub = self.services.hub
        with self.lock:
            second = int(self.services.clock().timestamp())  # the whole view carries the clock
            if self.follower is None:
                self.follower = FloorFollower(self.services, session)
                self.generation = hub.generation
                self.state = (0, second, self.follower.frame())
                self.builds += 1
            elif hub.generation != self.generation:
                self.generation = hub.generation
                self.number += 1
                self.frames.append((self.number, self.follower.frame()))
                self.builds += 1
            if seen is not None and (seen == self.number or (
                    self.frames and self.frames[0][0] <= seen + 1)):
                return "".join(t for n, t in self.frames if n > seen), self.number
            if self.state is None or self.state[:2] != (self.number, second):
                text, version = self.services.cards.encoded(session)
                self.state = (self.number, second, sse_text("state", text, version))
                self.builds += 1
            return self.state[2], self.number
