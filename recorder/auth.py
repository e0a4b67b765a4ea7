"""Who may do what through the HTTP API: roles, PINs, pairing codes, sessions, CSRF tokens.

- **director**: everything; joins with the director PIN.
- **dealer**: records the hands of one table; joins with that table's PIN or with a one-time
  pairing code the floor page shows (the code names the table).
- **viewer**: reads; joins without a PIN and never sees a hole card that was not shown.

A session is a token in an HTTP-only, SameSite=Strict cookie: who (role, table, name, device)
and until when, signed with the server's secret (HMAC-SHA256). The server keeps the sessions it
opened in memory, and after a restart with the same secret (`handlog serve` keeps it in a file,
or $HANDLOG_SECRET) it accepts the tokens it signed before: the tablets stay signed in, and the
dealer PINs and the director PIN, derived from the same secret, stay the same. A session signed
out is refused until the process ends (its cookie is deleted at once). Every state-changing
request also carries the session's CSRF token in a header (double submit: the same token is in a
cookie the page can read), itself derived from the session token. Wrong PINs are limited per
client and table; past the limit the answer is 429.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
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
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._secret = secret or secrets.token_bytes(32)
        # Given a secret, the director's PIN derives from it too (the same across restarts).
        self.director_pin = director_pin or (
            self._derived_digits("director-pin") if secret else _digits(6))
        self._max_failures = max_failures
        self._window = window_seconds
        self._session_seconds = session_seconds
        self._pairing_seconds = pairing_seconds
        self._clock = clock
        self._sessions: dict[str, Session] = {}
        self._signed_out: set[str] = set()
        self._codes: dict[str, PairingCode] = {}
        self._attempts: dict[tuple[str, str], _Attempts] = {}
        self._lock = threading.Lock()

    # --- PINs and pairing codes -----------------------------------------------------------

    def _mac(self, text: str) -> bytes:
        return hmac.new(self._secret, text.encode(), hashlib.sha256).digest()

    def _derived_digits(self, purpose: str) -> str:
        return f"{int.from_bytes(self._mac(purpose)[:8], 'big') % 1_000_000:06d}"

    def table_pin(self, stream: str) -> str:
        """The dealer PIN of a table: stable for this server's secret, different per table."""
        return self._derived_digits(f"table-pin:{stream}")

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
        claims: dict[str, object] = {"role": role, "table": table, "name": name[:80],
                  "device": (device or "unknown")[:80],
                  "expires": int(self._clock() + self._session_seconds),
                  "nonce": secrets.token_urlsafe(12)}
        body = _b64(json.dumps(claims, separators=(",", ":"), sort_keys=True).encode())
        token = f"{body}.{_b64(self._mac('session:' + body))}"
        session = self._session_of(token, claims)
        self._sessions[token] = session
        return session

    def _session_of(self, token: str, claims: dict[str, object]) -> Session:
        return Session(
            token=token, role=claims["role"],  # type: ignore[arg-type]
            table=claims["table"],  # type: ignore[arg-type]
            name=str(claims["name"]), device=str(claims["device"]),
            csrf=_b64(self._mac("csrf:" + token)[:18]),
            expires=float(claims["expires"]),  # type: ignore[arg-type]
        )

    # --- sessions -----------------------------------------------------------------------------

    def session(self, token: str | None) -> Session | None:
        """The session of a token this server (or one with the same secret) signed and that
        has not expired or been signed out; else None."""
        if not token:
            return None
        with self._lock:
            session = self._sessions.get(token)
            if session is None:
                session = self._verified(token)
                if session is None:
                    return None
                self._sessions[token] = session  # signed before a restart: known again
            if session.expires <= self._clock():
                del self._sessions[token]
                return None
            return session

    def _verified(self, token: str) -> Session | None:
        if token in self._signed_out or len(token) > 2048:
            return None
        body, _, mac = token.partition(".")
        try:
            expected = self._mac("session:" + body)
            if not hmac.compare_digest(_unb64(mac), expected):
                return None
            claims = json.loads(_unb64(body))
        except (ValueError, binascii.Error):
            return None
        if not isinstance(claims, dict) or claims.get("role") not in ROLES or not isinstance(
                claims.get("expires"), int):
            return None
        if claims["role"] == "dealer" and not isinstance(claims.get("table"), str):
            return None
        return self._session_of(token, claims)

    def logout(self, token: str) -> None:
        with self._lock:
            self._sessions.pop(token, None)
            self._signed_out.add(token)

    @staticmethod
    def csrf_ok(session: Session, header: str | None, cookie: str | None) -> bool:
        """The double submit: the header equals the cookie and the session's token."""
        if not header or not cookie:
            return False
        return hmac.compare_digest(header, cookie) and hmac.compare_digest(header, session.csrf)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
