"""Who may do what through the HTTP API: roles, PINs, pairing codes, sessions, CSRF tokens.

- **director**: everything; joins with the director PIN.
- **dealer**: records the hands of one table; joins with that table's PIN or with a one-time
  pairing code the floor page shows (the code names the table).
- **viewer**: reads; joins without a PIN and never sees a hole card that was not shown.

Sessions live in server memory, keyed by a random token in an HTTP-only, SameSite=Strict
cookie; a server restart signs everybody out. Every state-changing request also carries the
session's CSRF token in a header (double submit: the same token is in a cookie the page can
read). Wrong PINs are limited per client and table; past the limit the answer is 429.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

Role = Literal["director", "dealer", "viewer"]
ROLES: tuple[Role, ...] = ("director", "dealer", "viewer")

SESSION_COOKIE = "handlog_session"
CSRF_COOKIE = "handlog_csrf"
CSRF_HEADER = "X-CSRF-Token"


class AuthError(Exception):
    """A request the caller's session does not allow (401, 403) or too many wrong PINs (429)."""

    def __init__(self, status: int, message: str, retry_after: int = 0) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


@dataclass
class Session:
    token: str
    role: Role
    table: str | None  # the one table a dealer records
    name: str
    device: str
    csrf: str
    expires: float

    def may_record(self, stream: str) -> bool:
        """May this session record at table `stream` (the play of hands)?"""
        return self.role == "director" or (self.role == "dealer" and self.table == stream)

    def public(self) -> dict[str, object]:
        return {"role": self.role, "table": self.table, "name": self.name,
                "device": self.device, "csrf": self.csrf}


@dataclass
class PairingCode:
    code: str
    table: str
    expires: float


@dataclass
class _Attempts:
    failures: deque[float] = field(default_factory=deque)


def _digits(count: int) -> str:
    return "".join(secrets.choice("0123456789") for _ in range(count))


class Auth:
    """PINs, pairing codes and sessions of one server process."""

    def __init__(
        self,
        director_pin: str | None = None,
        secret: bytes | None = None,
        *,
        max_failures: int = 5,
        window_seconds: float = 60.0,
        session_seconds: float = 16 * 3600,
        pairing_seconds: float = 600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.director_pin = director_pin or _digits(6)
        self._secret = secret or secrets.token_bytes(32)
        self._max_failures = max_failures
        self._window = window_seconds
        self._session_seconds = session_seconds
        self._pairing_seconds = pairing_seconds
        self._clock = clock
        self._sessions: dict[str, Session] = {}
        self._codes: dict[str, PairingCode] = {}
        self._attempts: dict[tuple[str, str], _Attempts] = {}
        self._lock = threading.Lock()

    # --- PINs and pairing codes -----------------------------------------------------------

    def table_pin(self, stream: str) -> str:
        """The dealer PIN of a table: stable for this server's secret, different per table."""
        digest = hmac.new(self._secret, f"table-pin:{stream}".encode(), hashlib.sha256).digest()
        return f"{int.from_bytes(digest[:8], 'big') % 1_000_000:06d}"

    def new_pairing_code(self, stream: str) -> PairingCode:
        """A one-time code that joins one tablet to `stream` as its dealer."""
        with self._lock:
            self._expire_codes()
            while True:
                code = _digits(8)
                if code not in self._codes:
                    break
            pairing = PairingCode(code, stream, self._clock() + self._pairing_seconds)
            self._codes[code] = pairing
            return pairing

    def pairing_codes(self) -> list[PairingCode]:
        with self._lock:
            self._expire_codes()
            return sorted(self._codes.values(), key=lambda c: (c.table, c.expires))

    def _expire_codes(self) -> None:
        now = self._clock()
        for code in [c for c, p in self._codes.items() if p.expires <= now]:
            del self._codes[code]

    # --- joining ------------------------------------------------------------------------------

    def _limit(self, client: str, key: str) -> None:
        attempts = self._attempts.setdefault((client, key), _Attempts())
        now = self._clock()
        while attempts.failures and attempts.failures[0] <= now - self._window:
            attempts.failures.popleft()
        if len(attempts.failures) >= self._max_failures:
            wait = int(attempts.failures[0] + self._window - now) + 1
            raise AuthError(429, f"too many wrong PINs: try again in {wait} seconds", wait)

    def _failed(self, client: str, key: str, message: str) -> AuthError:
        self._attempts.setdefault((client, key), _Attempts()).failures.append(self._clock())
        return AuthError(401, message)

    def login(
        self,
        client: str,
        role: Role,
        *,
        pin: str = "",
        code: str = "",
        table: str | None = None,
        name: str = "",
        device: str = "",
    ) -> Session:
        """A new session, or AuthError (401 wrong PIN, 429 too many, 400 bad request)."""
        with self._lock:
            if role == "director":
                self._limit(client, "director")
                if not hmac.compare_digest(pin.encode(), self.director_pin.encode()):
                    raise self._failed(client, "director", "wrong director PIN")
                return self._open(role, None, name or "director", device)
            if role == "dealer":
                if code:
                    self._limit(client, "pairing")
                    self._expire_codes()
                    pairing = self._codes.get(code)
                    if pairing is None or (table is not None and pairing.table != table):
                        raise self._failed(client, "pairing", "unknown or expired pairing code")
                    del self._codes[code]  # one time only
                    return self._open(role, pairing.table, name or f"dealer {pairing.table}",
                                      device)
                if not table:
                    raise AuthError(400, "a dealer joins one table: give the table and its PIN, "
                                    "or a pairing code")
                self._limit(client, f"table:{table}")
                if not hmac.compare_digest(pin.encode(), self.table_pin(table).encode()):
                    raise self._failed(client, f"table:{table}",
                                       f"wrong PIN for table {table}")
                return self._open(role, table, name or f"dealer {table}", device)
            return self._open("viewer", None, name or "viewer", device)

    def _open(self, role: Role, table: str | None, name: str, device: str) -> Session:
        session = Session(
            token=secrets.token_urlsafe(32), role=role, table=table, name=name[:80],
            device=(device or "unknown")[:80], csrf=secrets.token_urlsafe(24),
            expires=self._clock() + self._session_seconds,
        )
        self._sessions[session.token] = session
        return session

    # --- sessions -----------------------------------------------------------------------------

    def session(self, token: str | None) -> Session | None:
        if not token:
            return None
        with self._lock:
            session = self._sessions.get(token)
            if session is None:
                return None
            if session.expires <= self._clock():
                del self._sessions[token]
                return None
            return session

    def logout(self, token: str) -> None:
        with self._lock:
            self._sessions.pop(token, None)

    @staticmethod
    def csrf_ok(session: Session, header: str | None, cookie: str | None) -> bool:
        """The double submit: the header equals the cookie and the session's token."""
        if not header or not cookie:
            return False
        return hmac.compare_digest(header, cookie) and hmac.compare_digest(header, session.csrf)
