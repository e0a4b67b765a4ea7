"""What the HTTP routes share: the recorder and its store, the tournament desk, sign-in, the live
hub and the read models (the tables' views, the floor's cards), built once per app by
`Services` and handed to the routes by recorder/routes/deps.py."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI
from starlette.exceptions import HTTPException as StarletteHTTPException

from handlog.engine.events import HandStarted
from handlog.engine.table import Level
from handlog.recorder.auth import Auth, Session
from handlog.recorder.floor import HandContext, TournamentDesk
from handlog.recorder.floor_cards import FloorCards, ViewerFloor
from handlog.recorder.live import Hub
from handlog.recorder.live_share import LiveCounter, LiveLimits, SharedViews
from handlog.recorder.service import Recorder
from handlog.recorder.views import EventLog, sees_hole_cards, table_view
from handlog.recorder.witness_client import WitnessClient
from handlog.replay.fold import TableFold, level_of
from handlog.schema.checkpoint import SigningKey

LevelFor = Callable[[str, TableFold], Level | None]
THREADS_ENV_VAR = "HANDLOG_THREADS"


def worker_threads() -> int:
    """Threads that run the routes of one server process: $HANDLOG_THREADS, else 32. The
    appends are group-committed (schema/store.py): a tap waiting for its batch's commit holds
    only its thread, and the more taps wait, the more each commit carries (with 8 threads a
    room's appends were capped by how many taps could wait at once: benchmarks/room_load.py,
    200 tablets, 300 taps/s against 540 with 32)."""
    raw = os.environ.get(THREADS_ENV_VAR, "").strip()
    return int(raw) if raw.isdigit() and int(raw) > 0 else 32


def last_level(stream: str, fold: TableFold) -> Level | None:
    """The level the table's last hand was played at (when nothing better is known)."""
    for _version, event in reversed(fold.effective):
        if isinstance(event, HandStarted):
            return level_of(event)
    return None


@dataclass
class Services:
    """One app's services; `level_for(stream, fold)` gives the level of a table outside any
    tournament (a tournament's table plays at the tournament's stakes)."""

    recorder: Recorder
    auth: Auth
    clock: Callable[[], datetime]
    level_for: LevelFor = last_level
    signing_key: SigningKey | None = None
    poll_seconds: float = 1.0
    live_limits: LiveLimits = field(default_factory=LiveLimits)
    witnesses: Sequence[WitnessClient] = ()
    """The witnesses each checkpoint is posted to (`serve --witness`), for their state."""
    director_key_file: Path | None = None
    """The director's own signing key for the sign-off on the floor page (None: none)."""

    def __post_init__(self) -> None:
        self.store = self.recorder.store
        self.auth.bind(self.store.session_store())
        self.live = LiveCounter(self.live_limits)
        self.shared = SharedViews()
        self.desk = TournamentDesk(self.recorder)
        self.hub = Hub(self.store, self.poll_seconds, observe=self.recorder.observe,
                       sessions=self.auth.sessions)
        self.log = EventLog(self.store)
        self.cards = FloorCards(self)
        self.viewers = ViewerFloor(self)
        # The floor is read on threads of its own: under load it does not queue behind the
        # tablets' commands for one of the worker threads they share.
        self.floor_threads = anyio.CapacityLimiter(4)

    @asynccontextmanager
    async def lifespan(self, _app: FastAPI) -> AsyncIterator[None]:
        # Python runs one thread at a time: forty worker threads (anyio's default) only wait
        # for the interpreter, and the one that holds the database's append lock waits with
        # them (recorder/cli_serve.py also shortens the interpreter's switch interval).
        anyio.to_thread.current_default_thread_limiter().total_tokens = worker_threads()
        await self.hub.start()
        unsubscribe = self.recorder.subscribe(self.hub.notify)
        forget = self.recorder.on_appended(self.log.add)
        forget_cards = self.recorder.on_appended(self.cards.keep)  # (after the log: it reads it)
        try:
            yield
        finally:
            forget_cards()
            forget()
            unsubscribe()
            await self.hub.stop()

    # --- one table ------------------------------------------------------------------------

    def fold_of(self, stream: str) -> TableFold:
        """The table `stream` (404 when there is none)."""
        if self.recorder.is_open_table(stream):
            return self.recorder.table(stream)
        head = self.store.head(stream)
        if head is None or head.kind != "table":
            raise StarletteHTTPException(404, f"no table {stream}")
        return self.recorder.table(stream)

    def context(self, stream: str, fold: TableFold) -> HandContext:
        return self.desk.hand_context(fold) or HandContext(self.level_for(stream, fold))

    def view(self, stream: str, session: Session, fold: TableFold | None = None
             ) -> dict[str, Any]:
        """The table as `session`'s role sees it (recorder/views.py table_view)."""
        fold = fold or self.recorder.table(stream)
        return table_view(fold, self.log.recent(stream, fold.version), session.role,
                          self.context(stream, fold).level, self.desk.names(fold),
                          dealer_of=session.table, due=self.desk.start_due(fold, self.clock()))

    @staticmethod
    def public_for(session: Session, stream: str) -> bool:
        """True when `session` gets only what was shown at table `stream`."""
        return not sees_hole_cards(session.role, stream, session.table)

    def is_open(self, stream: str) -> bool:
        """A table of this room that is open now: opened (under a profile this release knows)
        and, at a tournament, not broken."""
        head = self.store.head(stream)
        if head is None or head.kind != "table":
            return False
        state = self.recorder.table(stream).state
        if state is None:
            return False
        if state.tournament:
            tables = self.desk.open_tables(state.tournament)
            return tables is None or state.table in tables
        return True

    def table_streams(self) -> list[str]:
        return [h.stream_id for h in self.store.streams() if h.kind == "table"]
