"""Who may do what through the HTTP API: roles, PINs, pairing codes, sessions, CSRF tokens.

- **director**: everything; joins with the director PIN.
- **dealer**: records the hands of one table; joins with that table's PIN or with a one-time
  pairing code the floor page shows (the code names the table).
- **viewer**: reads; joins without a PIN and never sees a hole card that was not shown.

A session is a token in an HTTP-only, SameSite=Strict cookie (`__Host-` prefixed and Secure over
HTTPS), made and checked by itsdangerous (URLSafeTimedSerializer, keyed by the server's secret of
at least 32 bytes): who (role, table, name, device) and a session id. The dealer PINs and the
director PIN derive from the same secret, so a restart with the same secret keeps them.

Directors' and dealers' sessions are kept in the database (schema/sessions.py): a token is
accepted while its session is signed in there, so signing out, the director revoking a tablet
and the idle timeout hold after a restart and on every server sharing the database. Viewers'
sessions are not stored: they read only what anyone may read, and expire sooner.

Every state-changing request also carries the session's CSRF token in a header (double submit:
the same token is in a cookie the page can read), itself signed from the session id.

Wrong PINs slow the guesser, never the right PIN from a new device (PINs have 10 digits: a
budget over all clients buys little against guessing and locked the director out of every new
device while someone guessed). Limits answer 429 with Retry-After, in buckets that only fill:
- per client and target (the director PIN, one real table, pairing codes, any unknown table):
  the client that guesses waits, no one else;
- over all clients (per real table, the director PIN, made-up table names, pairing codes,
  everything): filled by every wrong PIN, but they hold up only a client that guessed wrong in
  the last `Limits.guesser_seconds`: a client that has not (the director on a new device, a
  dealer on a new tablet) always has its PIN checked;
- a device that signed in before (a signed "known device" cookie naming the role and table)
  guesses against its own budget only; the director PIN from the server's own machine (a
  loopback address) counts only against that address's budget;
- and where even that is not enough (a director who mistyped on a new device while the room
  is being guessed at), the server's console gives a one-time recovery code
  (`handlog recovery-code`), taken in place of the director PIN past every limit.
The buckets of clients are kept in an LRU of bounded size: memory does not grow with guesses.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from itsdangerous import BadData, Signer, TimestampSigner, URLSafeTimedSerializer

from handlog.schema.sessions import MemorySessions, SessionStore, SignedIn

Role = Literal["director", "dealer", "viewer"]
ROLES: tuple[Role, ...] = ("director", "dealer", "viewer")

SESSION_COOKIE = "handlog_session"
CSRF_COOKIE = "handlog_csrf"
_CSRF_KEPT = 10_000  # sessions whose CSRF token is kept made (then all are made again)
DEVICE_COOKIE = "handlog_device"
CSRF_HEADER = "X-CSRF-Token"
SECURE_PREFIX = "__Host-"  # over HTTPS: Secure, Path=/, no Domain (the browser enforces it)
MIN_SECRET_BYTES = 32
PIN_DIGITS = 10
RECOVERY_SECONDS = 600  # a recovery code holds for this long (and the next window)
MAX_TOKEN_LENGTH = 2048
VERIFIED_KEEP = 10_000  # tokens whose signature this server has checked, kept to skip the check


def cookie_name(name: str, secure: bool) -> str:
    """The cookie's name over HTTPS (`__Host-` prefixed) or plain HTTP."""
    return SECURE_PREFIX + name if secure else name


class AuthError(Exception):
    """A request the caller's session does not allow (401, 403) or too many wrong PINs (429)."""

    def __init__(self, status: int, message: str, retry_after: int = 0) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


class SecretTooShort(ValueError):
    def __init__(self, length: int, where: str = "the server's secret") -> None:
        super().__init__(
            f"{where} is {length} bytes long: at least {MIN_SECRET_BYTES} are needed, or "
            "anyone could compute the PINs from it offline. Make one with "
            "`python3 -c 'import secrets; print(secrets.token_hex(32))'`")
        self.length = length


@dataclass
class Session:
    token: str
    id: str
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


@dataclass(frozen=True)
class Limits:
    """How many wrong PINs each bucket takes in its window (seconds) before answering 429."""

    per_client: tuple[int, float] = (5, 60.0)
    per_table: tuple[int, float] = (20, 600.0)
    director: tuple[int, float] = (30, 600.0)
    unknown_tables: tuple[int, float] = (20, 60.0)
    pairing: tuple[int, float] = (30, 600.0)
    everything: tuple[int, float] = (120, 60.0)
    known_device: tuple[int, float] = (5, 60.0)
    guesser_seconds: float = 600.0  # a client with a wrong PIN this recent meets shared limits
    max_buckets: int = 10_000


class _Bucket:
    """The times of the last `limit` failures; full while the oldest is inside the window."""

    __slots__ = ("failures", "window")

    def __init__(self, limit: int, window: float) -> None:
        self.failures: deque[float] = deque(maxlen=limit)
        self.window = window

    def wait(self, now: float) -> float:
        if len(self.failures) < (self.failures.maxlen or 0):
            return 0.0
        return max(0.0, self.failures[0] + self.window - now)


def _digits(count: int) -> str:
    return "".join(secrets.choice("0123456789") for _ in range(count))


def _is_loopback(client: str) -> bool:
    try:
        return ipaddress.ip_address(client).is_loopback
    except ValueError:
        return False


def _utc(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def _timestamp_signer(clock: Callable[[], float]) -> type[TimestampSigner]:
    class ClockSigner(TimestampSigner):
        # itsdangerous reads time.time(); the tests inject a clock instead of sleeping.
        def get_timestamp(self) -> int:
            return int(clock())

    return ClockSigner


class Auth:
    """PINs, pairing codes, sign-in limits and sessions of one server process."""

    def __init__(
        self,
        director_pin: str | None = None,
        secret: bytes | None = None,
        *,
        sessions: SessionStore | None = None,
        limits: Limits | None = None,
        session_seconds: float = 16 * 3600,
        idle_seconds: float = 2 * 3600,
        viewer_seconds: float = 4 * 3600,
        pairing_seconds: float = 600.0,
        touch_seconds: float = 60.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if secret is not None and len(secret) < MIN_SECRET_BYTES:
            raise SecretTooShort(len(secret))
        self._secret = secret or secrets.token_bytes(32)
        self._table_pins: dict[str, str] = {}
        # Given a secret, the director's PIN derives from it too (the same across restarts).
        self.director_pin = director_pin or (
            self._derived_digits("director-pin") if secret else _digits(PIN_DIGITS))
        self._limits = limits or Limits()
        self._session_seconds = session_seconds
        self.idle_seconds = idle_seconds
        self._viewer_seconds = viewer_seconds
        self._pairing_seconds = pairing_seconds
        self._touch_seconds = touch_seconds
        self._clock = clock
        self._store: SessionStore = sessions or MemorySessions()
        self._bound = sessions is not None
        signer = _timestamp_signer(clock)
        self._tokens = URLSafeTimedSerializer(self._secret, salt="handlog-session", signer=signer)
        self._verified: dict[str, tuple[dict[str, Any], float]] = {}
        self._devices = URLSafeTimedSerializer(self._secret, salt="handlog-device", signer=signer)
        self._csrf = Signer(self._secret, salt="handlog-csrf")
        self._csrf_tokens: dict[str, str] = {}
        self._codes: dict[str, PairingCode] = {}
        self._buckets: OrderedDict[Hashable, _Bucket] = OrderedDict()  # per client or device
        self._shared: dict[Hashable, _Bucket] = {}
        self._used: set[int] = set()  # the recovery codes' windows taken here
        self._lock = threading.Lock()

    def now(self) -> float:
        """This server's clock (seconds since the epoch)."""
        return self._clock()

    @property
    def sessions(self) -> SessionStore:
        """Where the sessions are kept (the Hub tells it of sessions ended elsewhere)."""
        return self._store

    def bind(self, sessions: SessionStore) -> None:
        """Keep the sessions in this database (unless a store was given already)."""
        if not self._bound:
            self._store = sessions
            self._bound = True

    # --- PINs and pairing codes -----------------------------------------------------------

    def _derived_digits(self, purpose: str) -> str:
        digest = hmac.new(self._secret, purpose.encode(), hashlib.sha256).digest()
        return f"{int.from_bytes(digest[:8], 'big') % 10**PIN_DIGITS:0{PIN_DIGITS}d}"

    def table_pin(self, stream: str) -> str:
        """The dealer PIN of a table: stable for this server's secret, different per table
        (kept once derived: the floor shows every table's)."""
        pin = self._table_pins.get(stream)
        if pin is None:
            pin = self._table_pins[stream] = self._derived_digits(f"table-pin:{stream}")
        return pin

    def new_pairing_code(self, stream: str) -> PairingCode:
        """A one-time code that joins one tablet to `stream` as its dealer."""
        with self._lock:
            self._expire_codes()
            while True:
                code = _digits(PIN_DIGITS)
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

    # --- the guess limits -------------------------------------------------------------------

    def _bucket(self, key: tuple[Hashable, ...], limit: tuple[int, float]) -> _Bucket:
        if key[0] in ("all", "table"):
            # Shared buckets: one per real table and a few more, never evicted (a flood of
            # addresses must not push a table's count out of the LRU).
            shared = self._shared.get(key)
            if shared is None:
                shared = self._shared[key] = _Bucket(*limit)
            return shared
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(*limit)
            while len(self._buckets) > self._limits.max_buckets:
                self._buckets.popitem(last=False)  # the least recently used
        else:
            self._buckets.move_to_end(key)
        return bucket

    def bucket_count(self) -> int:
        """How many guess buckets are kept: at most Limits.max_buckets of clients and devices,
        and one per real table and a few shared ones."""
        return len(self._buckets) + len(self._shared)

    def _buckets_for(self, client: str, target: tuple[str, ...],
                     device: str | None) -> tuple[list[_Bucket], list[_Bucket]]:
        """(the buckets that may hold this attempt up, the buckets a wrong PIN fills)."""
        limits = self._limits
        if device is not None:
            # A device that signed in before guesses against its own budget only.
            own = [self._bucket(("device", device), limits.known_device)]
            return own, own
        kind = target[0]
        mine = [self._bucket(("client", client, *target), limits.per_client),
                self._bucket(("guesser", client), (1, limits.guesser_seconds))]
        shared: list[_Bucket] = []
        if kind == "table":
            shared.append(self._bucket(target, limits.per_table))
        elif kind == "director":
            if not _is_loopback(client):
                # At the server's own machine the director is never held up by guesses from
                # the room (a loopback address cannot be forged from the network).
                shared.append(self._bucket(("all", "director"), limits.director))
        elif kind == "unknown":
            shared.append(self._bucket(("all", "unknown"), limits.unknown_tables))
        elif kind == "pairing":
            shared.append(self._bucket(("all", "pairing"), limits.pairing))
        if kind != "director":
            shared.append(self._bucket(("all", "everything"), limits.everything))
        guessed = mine[1].wait(self._clock()) > 0
        return ([mine[0], *shared] if guessed else [mine[0]]), mine + shared

    def _check(self, buckets: list[_Bucket]) -> None:
        now = self._clock()
        wait = max((b.wait(now) for b in buckets), default=0.0)
        if wait > 0:
            seconds = int(wait) + 1
            raise AuthError(429, f"too many wrong PINs: try again in {seconds} seconds", seconds)

    def _failed(self, buckets: list[_Bucket], message: str) -> AuthError:
        now = self._clock()
        for bucket in buckets:
            bucket.failures.append(now)
        return AuthError(401, message)

    # --- the console's recovery code ------------------------------------------------------

    def recovery_code(self) -> str:
        """A code the server's console gives the director to sign in with in place of the PIN,
        past every guess limit: once, within RECOVERY_SECONDS (derived from the secret: any
        server sharing it takes it; each server takes it once)."""
        return self._recovery_at(int(self._clock() // RECOVERY_SECONDS))

    def _recovery_at(self, window: int) -> str:
        digest = hmac.new(self._secret, f"recovery:{window}".encode(), hashlib.sha256).digest()
        text = base64.b32encode(digest[:15]).decode()  # 120 bits: not worth guessing
        return "-".join(text[k:k + 4] for k in range(0, len(text), 4))

    def _take_recovery(self, pin: str) -> bool:
        given = pin.strip().upper().replace(" ", "")
        if len(given) < 24:
            return False
        window = int(self._clock() // RECOVERY_SECONDS)
        for at in (window, window - 1):  # (a code given just before a window's end holds)
            code = self._recovery_at(at)
            if hmac.compare_digest(given.replace("-", "").encode(),
                                   code.replace("-", "").encode()) and at not in self._used:
                self._used.add(at)
                return True
        return False

    # --- joining ------------------------------------------------------------------------------

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
        table_known: Callable[[str], bool] | None = None,
        known_device: str | None = None,
    ) -> Session:
        """A new session, or AuthError (401 wrong PIN, 429 too many, 400 bad request).

        `table_known(stream)` says whether a table exists (a guess at one that does not is
        counted in one shared bucket); `known_device` is the caller's known-device cookie."""
        device_claims = self._device_claims(known_device)
        opened: tuple[Role, str | None, str]
        with self._lock:
            if role == "director" and self._take_recovery(pin):
                opened = ("director", None, name or "director")
            elif role == "director":
                trusted = self._trusted(device_claims, "director", None)
                held, filled = self._buckets_for(client, ("director",), trusted)
                self._check(held)
                if not hmac.compare_digest(pin.encode(), self.director_pin.encode()):
                    raise self._failed(filled, "wrong director PIN")
                opened = ("director", None, name or "director")
            elif role == "dealer" and code:
                held, filled = self._buckets_for(client, ("pairing",), None)
                self._check(held)
                self._expire_codes()
                pairing = self._codes.get(code)
                if pairing is None or (table is not None and pairing.table != table):
                    raise self._failed(filled, "unknown or expired pairing code")
                del self._codes[code]  # one time only
                opened = ("dealer", pairing.table, name or f"dealer {pairing.table}")
            elif role == "dealer":
                if not table:
                    raise AuthError(400, "a dealer joins one table: give the table and its "
                                    "PIN, or a pairing code")
                known = table_known(table) if table_known is not None else True
                target = ("table", table) if known else ("unknown",)
                trusted = self._trusted(device_claims, "dealer", table) if known else None
                held, filled = self._buckets_for(client, target, trusted)
                self._check(held)
                if not known or not hmac.compare_digest(pin.encode(),
                                                        self.table_pin(table).encode()):
                    raise self._failed(filled, "wrong PIN, or no open table of that name")
                opened = ("dealer", table, name or f"dealer {table}")
            else:
                opened = ("viewer", None, name or "viewer")
        return self._open(opened[0], opened[1], opened[2], device, client)

    def _open(self, role: Role, table: str | None, name: str, device: str,
              client: str) -> Session:
        claims: dict[str, Any] = {"sid": secrets.token_urlsafe(16), "role": role,
                                  "table": table, "name": name[:80],
                                  "device": (device or "unknown")[:80]}
        token = self._tokens.dumps(claims)
        assert isinstance(token, str)
        now = self._clock()
        lifetime = self._viewer_seconds if role == "viewer" else self._session_seconds
        session = self._session_of(token, claims, now + lifetime)
        if role != "viewer":
            self._store.open(SignedIn(
                id=session.id, role=role, table=table, name=session.name,
                device=session.device, client=client, signed_in_at=_utc(now),
                last_seen=_utc(now), expires=_utc(now + lifetime)))
        return session

    def _session_of(self, token: str, claims: dict[str, Any], expires: float) -> Session:
        sid = str(claims["sid"])
        return Session(
            token=token, id=sid, role=claims["role"], table=claims["table"],
            name=str(claims["name"]), device=str(claims["device"]),
            csrf=self._csrf_of(sid), expires=expires,
        )

    def _csrf_of(self, sid: str) -> str:
        """The session's CSRF token: a signature of its id, so made once per session (an HMAC
        at every request was a tenth of a tap's sign-in check)."""
        known = self._csrf_tokens.get(sid)
        if known is None:
            if len(self._csrf_tokens) >= _CSRF_KEPT:
                self._csrf_tokens.clear()
            known = self._csrf_tokens[sid] = self._csrf.get_signature(sid).decode()
        return known

    # --- known devices ------------------------------------------------------------------------

    def device_cookie(self, session: Session) -> str:
        """The known-device cookie a director's or dealer's sign-in leaves on the device."""
        return str(self._devices.dumps({"id": secrets.token_urlsafe(12), "role": session.role,
                                        "table": session.table}))

    def _device_claims(self, cookie: str | None) -> dict[str, Any] | None:
        if not cookie or len(cookie) > MAX_TOKEN_LENGTH:
            return None
        try:
            claims = self._devices.loads(cookie, max_age=30 * 24 * 3600)
        except BadData:
            return None
        return claims if isinstance(claims, dict) else None

    @staticmethod
    def _trusted(claims: dict[str, Any] | None, role: str, table: str | None) -> str | None:
        if claims is None or claims.get("role") != role or claims.get("table") != table:
            return None
        return str(claims.get("id"))

    # --- sessions -----------------------------------------------------------------------------

    def _claims(self, token: str | None) -> tuple[dict[str, Any], float] | None:
        """The claims of a well-signed, unexpired token and when it was signed."""
        if not token or len(token) > MAX_TOKEN_LENGTH:
            return None
        known = self._verified.get(token)
        if known is not None:  # its signature was checked once; its time is checked each time
            return known if known[1] > self._clock() else None
        try:
            claims, signed = self._tokens.loads(
                token, max_age=int(max(self._session_seconds, self._viewer_seconds)),
                return_timestamp=True)
        except BadData:
            return None
        if not isinstance(claims, dict) or claims.get("role") not in ROLES or not isinstance(
                claims.get("sid"), str):
            return None
        if claims["role"] == "dealer" and not isinstance(claims.get("table"), str):
            return None
        lifetime = self._viewer_seconds if claims["role"] == "viewer" else self._session_seconds
        expires = signed.timestamp() + lifetime
        if expires <= self._clock():
            return None
        if len(self._verified) >= VERIFIED_KEEP:
            self._verified.clear()  # bounded: a flood of new tokens costs a check each, no more
        self._verified[token] = (claims, expires)
        return claims, expires

    def session(self, token: str | None) -> Session | None:
        """The session of a token this server (or one with the same secret) signed, that has
        not expired, and (a director's or dealer's) is still signed in; else None."""
        found = self._claims(token)
        if found is None:
            return None
        claims, expires = found
        assert token is not None
        session = self._session_of(token, claims, expires)
        if session.role == "viewer":
            return session
        kept = self._store.get(session.id)
        if kept is None:
            return None
        now = self._clock()
        seen = kept.last_seen.timestamp()
        if now - seen > self.idle_seconds:
            # Kept in memory (schema/sessions.py): its last use may have been on another
            # server; the database says.
            kept = self._store.get(session.id, cached=False)
            if kept is None:
                return None
            seen = kept.last_seen.timestamp()
        if now - seen > self.idle_seconds:
            self._store.end(session.id, _utc(now), "idle", "")
            return None
        if now - seen >= self._touch_seconds:
            self._store.touch(session.id, _utc(now))
        return session

    def refusal(self, token: str | None) -> str:
        """Why the token's session is refused, in words for the sign-in screen."""
        found = self._claims(token)
        if found is None:
            return "sign in first (director PIN, dealer PIN or pairing code, or as a viewer)"
        ended = self._store.revoked(str(found[0]["sid"]))
        if ended is None:
            return "this session has ended: sign in again"
        when = ended.revoked_at.strftime("%H:%M UTC")
        if ended.reason == "revoked":
            return f"this tablet was signed out by {ended.by or 'the director'} at {when}: " \
                "sign in again"
        if ended.reason == "idle":
            minutes = int(self.idle_seconds // 60)
            return f"signed out after {minutes} minutes without use: sign in again"
        return f"signed out at {when}: sign in again"

    def logout(self, token: str) -> None:
        found = self._claims(token)
        if found is not None and found[0]["role"] != "viewer":
            self._store.end(str(found[0]["sid"]), _utc(self._clock()), "signed_out",
                            str(found[0]["name"]))

    def signed_in(self) -> list[SignedIn]:
        """The directors' and dealers' sessions signed in now (idle ones left out)."""
        now = self._clock()
        return [s for s in self._store.signed_in(_utc(now))
                if now - s.last_seen.timestamp() <= self.idle_seconds]

    def revoke(self, session_id: str, by: str) -> bool:
        """End another session (the director revoking a tablet); False when not signed in."""
        return self._store.end(session_id, _utc(self._clock()), "revoked", by)

    @staticmethod
    def csrf_ok(session: Session, header: str | None, cookie: str | None) -> bool:
        """The double submit: the header equals the cookie and the session's token."""
        if not header or not cookie:
            return False
        return hmac.compare_digest(header, cookie) and hmac.compare_digest(header, session.csrf)
