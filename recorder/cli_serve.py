"""`handlog serve`: the HTTP API with the floor, dealer and viewer pages.

Upgrades the database, creates a demo tournament when it holds none, prints the pages' URLs
with the director PIN and each table's dealer PIN, then serves until interrupted: over HTTPS
with `--certfile/--keyfile`; answering only the Host names of `--allowed-hosts` (default: the
addresses it listens on and localhost); believing X-Forwarded-For/-Proto only from the proxies
of `--forwarded-allow-ips` (default: none).
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import json
import os
import secrets
import socket
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import click
import uvicorn

from handlog.recorder.auth import MIN_SECRET_BYTES, Auth
from handlog.recorder.cli_db import db_option, user_errors
from handlog.recorder.service import Recorder
from handlog.recorder.signing import (
    DEFAULT_DELAY_SECONDS,
    DEFAULT_INTERVAL_SECONDS,
    DIRECTOR_KEY_FILE,
    sign_checkpoints,
    signing_key,
    signing_key_option,
    signing_key_path,
)
from handlog.recorder.witness_client import to_witnesses, witness_clients
from handlog.schema.database import display_url, resolve_url
from handlog.schema.store import open_store

SWITCH_SECONDS = float(os.environ.get("HANDLOG_SWITCH_SECONDS") or 0.0005)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def server_config(app: Any, host: str, port: int, *, forwarded_allow_ips: str = "",
                  certfile: Path | None = None, keyfile: Path | None = None,
                  graceful_seconds: int = 2) -> uvicorn.Config:
    """uvicorn's settings, one place for `handlog serve` and the tests' servers. Forwarded
    headers are believed only from the proxies named (none by default: uvicorn's own default
    would believe 127.0.0.1)."""
    proxies = [ip.strip() for ip in forwarded_allow_ips.split(",") if ip.strip()]
    return uvicorn.Config(
        app, host=host, port=port, log_level="warning", lifespan="on",
        timeout_graceful_shutdown=graceful_seconds,
        proxy_headers=bool(proxies), forwarded_allow_ips=proxies or [],
        ssl_certfile=str(certfile) if certfile else None,
        ssl_keyfile=str(keyfile) if keyfile else None)


WILDCARD_HOSTS = ("0.0.0.0", "::", "")


def listening_hosts(host: str) -> list[str]:
    """The Host names a server listening on `host` answers by default: that address (for
    0.0.0.0 or ::, this machine's names and addresses) and localhost."""
    names = {host, "localhost", "127.0.0.1", "::1"} - set(WILDCARD_HOSTS)
    if host in WILDCARD_HOSTS:
        for name in (socket.gethostname(), socket.getfqdn()):
            names.update({name, f"{name}.local"} if name else set())
            with contextlib.suppress(OSError):
                names.update(str(info[4][0]) for info in socket.getaddrinfo(name, None))
        names.update(_interface_addresses())
    return sorted(n.lower() for n in names if n)


def _interface_addresses() -> set[str]:
    """The IPv4 address of each network interface (Linux), for a server on 0.0.0.0."""
    found: set[str] = set()
    try:
        import fcntl
        import struct

        interfaces = socket.if_nameindex()
    except (ImportError, OSError):
        return found
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _index, name in interfaces:
            with contextlib.suppress(OSError):
                packed = fcntl.ioctl(sock.fileno(), 0x8915,  # SIOCGIFADDR
                                     struct.pack("256s", name[:15].encode()))
                found.add(socket.inet_ntoa(packed[20:24]))
    return found


@contextlib.contextmanager
def serve_in_thread(app: Any, host: str = "127.0.0.1", port: int = 0,
                    forwarded_allow_ips: str = "") -> Iterator[str]:
    """Run `app` with uvicorn in a thread; yields its base URL; stops it on exit."""
    port = port or free_port(host)
    config = server_config(app, host, port, forwarded_allow_ips=forwarded_allow_ips,
                           graceful_seconds=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the test server did not start on {host}:{port}")
        time.sleep(0.02)
    try:
        yield f"http://{host}:{port}"
    finally:
        hub = getattr(getattr(app, "state", None), "hub", None)
        if hub is not None:
            hub.close()
        server.should_exit = True
        thread.join(timeout=10)


def server_secret(path: Path) -> bytes:
    """The secret in `path`, made (random, readable by this user only) when the file is new."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        text = path.read_text(encoding="ascii").strip()
        if len(text) < MIN_SECRET_BYTES:
            raise click.ClickException(f"{path}: the secret is too short ({len(text)} "
                                       f"characters, at least {MIN_SECRET_BYTES}): delete the "
                                       "file to make a new one (every PIN changes)") from None
        return text.encode()
    text = secrets.token_hex(32)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(text + "\n")
    return text.encode()


def the_secret(secret_file: Path | None) -> tuple[bytes, str]:
    """The server's secret and where it is kept: $HANDLOG_SECRET, else the file (made on first
    use). The PINs and the sessions derive from it: the same secret keeps them (and the
    tablets signed in) across restarts."""
    secret = os.environ.get("HANDLOG_SECRET", "").encode()
    if secret and len(secret) < MIN_SECRET_BYTES:
        raise click.ClickException(
            f"HANDLOG_SECRET is {len(secret)} bytes long: at least {MIN_SECRET_BYTES} are "
            "needed, or anyone could compute the PINs from it offline. Make one with "
            "`python3 -c 'import secrets; print(secrets.token_hex(32))'`, or unset it to "
            "keep the secret in a file")
    if secret:
        return secret, "$HANDLOG_SECRET"
    path = secret_file or Path(os.environ.get("HANDLOG_SECRET_FILE") or "handlog.secret")
    with user_errors():
        return server_secret(path), str(path)


_SECRET_FILE_HELP = ("The server's secret, made on first start (default: $HANDLOG_SECRET_FILE, "
                     "else ./handlog.secret; $HANDLOG_SECRET overrides it). Dealer PINs, the "
                     "director PIN and the sessions derive from it: the same file keeps them "
                     "across restarts.")


@click.command("recovery-code")
@click.option("--secret-file", default=None, type=click.Path(dir_okay=False, path_type=Path),
              help=_SECRET_FILE_HELP)
def recovery_code(secret_file: Path | None) -> None:
    """A one-time code the director signs in with in place of the PIN, past every limit on
    wrong PINs.

    For the server's console: it reads the server's secret."""
    from handlog.recorder.auth import RECOVERY_SECONDS, Auth

    secret, kept = the_secret(secret_file)
    click.echo(Auth(secret=secret).recovery_code())
    click.echo(f"Type it as the director PIN on the sign-in page. It is taken once by each "
               f"server using {kept}, for the next {RECOVERY_SECONDS // 60} to "
               f"{2 * RECOVERY_SECONDS // 60} minutes.")


@click.command("serve")
@db_option
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Interface to listen on (0.0.0.0 for the tablets on the room's network).")
@click.option("--port", default=8000, show_default=True, type=int, help="TCP port.")
@click.option("--director-pin", default=None, metavar="PIN",
              help="The director's PIN (default: $HANDLOG_DIRECTOR_PIN, else derived from the "
              "secret).")
@click.option("--secret-file", default=None, type=click.Path(dir_okay=False, path_type=Path),
              help=_SECRET_FILE_HELP)
@click.option("--forwarded-allow-ips", default="", metavar="IPS",
              help="The reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are "
              "believed (comma-separated addresses). Default: none, not even 127.0.0.1; name "
              "the proxy, and the PIN limits count per tablet, not per proxy.")
@click.option("--allowed-hosts", default=None, metavar="HOSTS",
              help="The Host names answered (comma-separated, '*.example.org' patterns, '*' "
              "for any). Default: the addresses it listens on and localhost.")
@click.option("--certfile", default=None, type=click.Path(exists=True, dir_okay=False,
              path_type=Path), help="Serve HTTPS with this certificate (PEM; with --keyfile).")
@click.option("--keyfile", default=None, type=click.Path(exists=True, dir_okay=False,
              path_type=Path), help="The certificate's private key (PEM).")
@click.option("--idle-minutes", default=120, show_default=True, type=click.IntRange(1),
              help="A director's or dealer's session unused this long is signed out.")
@click.option("--no-demo", is_flag=True, help="Do not create a demo tournament in an empty "
              "database.")
@signing_key_option
@click.option("--origin", default=None, metavar="NAME",
              help="The log's name in its checkpoints, given to a new signing key (default: "
              "$HANDLOG_ORIGIN, else handlog/<host name>); an existing key keeps its own.")
@click.option("--checkpoint-delay", default=DEFAULT_DELAY_SECONDS, show_default=True,
              type=click.FloatRange(min=0.01), metavar="SECONDS",
              help="Sign a checkpoint at most this long after any append (rulings, "
              "corrections, awards, deals and payouts are signed at once).")
@click.option("--checkpoint-interval", default=DEFAULT_INTERVAL_SECONDS, show_default=True,
              type=click.FloatRange(min=0.0), metavar="SECONDS",
              help="Sign at most one checkpoint this often: what is signed at once waits for "
              "the end of the interval when one was signed less than this ago.")
@click.option("--witness", "witnesses", multiple=True, metavar="URL=KEYFILE",
              help="Post every checkpoint to this witness (`handlog witness serve`; KEYFILE: "
              "its public key) and keep its cosignatures (repeatable).")
@click.option("--director-key", "director_key_file", default=None, metavar="FILE",
              type=click.Path(dir_okay=False, path_type=Path),
              help="The director's own signing key for the sign-off of results on the floor "
              "page (made there on first use; default: handlog.director-key beside the "
              "signing key).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Server processes sharing the port (on PostgreSQL: each table's commands "
              "are ordered by the database, live updates cross processes by LISTEN/NOTIFY).")
def serve(db_url: str | None, host: str, port: int, director_pin: str | None,
          secret_file: Path | None, forwarded_allow_ips: str, allowed_hosts: str | None,
          certfile: Path | None, keyfile: Path | None, idle_minutes: int,
          no_demo: bool, signing_key_file: Path | None, origin: str | None,
          checkpoint_delay: float, checkpoint_interval: float, witnesses: tuple[str, ...],
          director_key_file: Path | None,
          workers: int) -> None:
    """Serve the tablet, floor and viewer pages and the JSON API (Ctrl+C stops)."""
    server_runtime()
    from handlog.recorder.api import create_app
    from handlog.recorder.floor import setup_demo
    from handlog.recorder.tournament_service import Tournaments

    if (certfile is None) != (keyfile is None):
        raise click.UsageError("HTTPS needs both --certfile and --keyfile")
    secret, kept = the_secret(secret_file)
    url = resolve_url(db_url)
    with user_errors():
        store = open_store(url, upgrade=True)
    recorder = Recorder(store)
    key_path = signing_key_path(signing_key_file, secret_file)
    with user_errors():
        key = signing_key(key_path, origin)
    clients = witness_clients(witnesses, store, key_path.parent / "cosigned")
    signer = sign_checkpoints(recorder, store, key, checkpoint_delay,
                              after=to_witnesses(clients), interval=checkpoint_interval)
    director_key = director_key_file or key_path.parent / DIRECTOR_KEY_FILE
    created = ""
    if not no_demo and not Tournaments(recorder).tournaments():
        created = setup_demo(recorder)
    pin = director_pin or os.environ.get("HANDLOG_DIRECTOR_PIN") or None
    auth = Auth(director_pin=pin, secret=secret, idle_seconds=idle_minutes * 60)
    hosts = [h.strip() for h in allowed_hosts.split(",") if h.strip()] \
        if allowed_hosts is not None else listening_hosts(host)
    app = create_app(recorder, auth=auth, signing_key=key, allowed_hosts=hosts,
                     witnesses=clients, director_key_file=director_key)
    shown_host = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    base = f"{'https' if certfile else 'http'}://{shown_host}:{port}"
    click.echo(f"handlog serving {display_url(url)}")
    if created:
        click.echo(f"created the demo tournament {created!r} (level 1 running)")
    click.echo(f"floor page:   {base}/floor")
    click.echo(f"viewer page:  {base}/view")
    click.echo(f"join by code: {base}/join")
    click.echo(f"director PIN: {auth.director_pin}")
    for head in store.streams():
        if head.kind == "table":
            stream = head.stream_id
            click.echo(f"dealer page:  {base}/dealer/{stream}   PIN {auth.table_pin(stream)}")
    from handlog.recorder.offline import offline_note

    if offline_note():
        click.echo(offline_note())
    click.echo(f"PINs and sign-ins are kept across restarts by {kept}")
    click.echo(f"checkpoints signed by {key_path}; public key: {key.verifier.text()}")
    if host == "0.0.0.0":
        click.echo("(tablets use this machine's address on the room's network instead of "
                   "localhost)")
    click.echo(f"answering Host: {_shown(hosts)} (--allowed-hosts)")
    if forwarded_allow_ips:
        click.echo(f"believing X-Forwarded-For from {forwarded_allow_ips}")
    if workers > 1:
        # Each worker process builds its own app (store, recorder, caches, the same signing
        # key) from these; the same secret gives every one the same PINs and sessions.
        store.close()
        os.environ[_WORKER_ENV] = json.dumps({
            "url": url, "pin": auth.director_pin, "secret": secret.decode(),
            "idle_seconds": idle_minutes * 60, "hosts": hosts, "key": str(key_path),
            "origin": origin, "delay": checkpoint_delay, "interval": checkpoint_interval,
            "witnesses": list(witnesses),
            "director_key": str(director_key)})
        click.echo(f"{workers} server processes")
        proxies = [ip.strip() for ip in forwarded_allow_ips.split(",") if ip.strip()]
        uvicorn.run("handlog.recorder.cli_serve:worker_app", factory=True, workers=workers,
                    host=host, port=port, log_level="warning", timeout_graceful_shutdown=2,
                    proxy_headers=bool(proxies), forwarded_allow_ips=proxies or [],
                    ssl_certfile=str(certfile) if certfile else None,
                    ssl_keyfile=str(keyfile) if keyfile else None)
        return
    uvicorn.Server(server_config(app, host, port, forwarded_allow_ips=forwarded_allow_ips,
                                 certfile=certfile, keyfile=keyfile)).run()
    signer.flush()  # the last event covered before leaving
    signer.close()
    store.close()


def _shown(hosts: Sequence[str]) -> str:
    return ", ".join(hosts[:8]) + (f" and {len(hosts) - 8} more" if len(hosts) > 8 else "")


_WORKER_ENV = "HANDLOG_SERVE_WORKER"


GC_THRESHOLDS = (100_000, 50, 1_000)


def server_runtime() -> None:
    """The interpreter settings of a server process. The switch interval: the thread that
    holds PostgreSQL's append lock needs the interpreter back as soon as the database answers
    (5 ms, Python's default, per round trip under that lock is what capped a room's appends).
    The collector's thresholds: a server keeps every live table's state, and with Python's
    default (a young collection every 700 allocations, a full one every 100 of those) the
    collector walked that heap over and over while tablets recorded; handlog's garbage is
    freed by reference counting, the collector only finds cycles (benchmarks/room_load.py:
    about 5% more taps a second at 200 tablets)."""
    sys.setswitchinterval(SWITCH_SECONDS)
    gc.set_threshold(*GC_THRESHOLDS)


def worker_app() -> Any:
    """The app of one `handlog serve --workers N` process (uvicorn calls it in each)."""
    from handlog.recorder.api import create_app

    config = json.loads(os.environ[_WORKER_ENV])
    server_runtime()
    store = open_store(config["url"])
    recorder = Recorder(store)
    key = signing_key(Path(config["key"]), config["origin"])
    clients = witness_clients(config["witnesses"], store, Path(config["key"]).parent / "cosigned")
    signer = sign_checkpoints(recorder, store, key, config["delay"], after=to_witnesses(clients),
                              interval=config.get("interval", DEFAULT_INTERVAL_SECONDS))
    atexit.register(signer.flush)  # (before the signer's own close: the last event covered)
    auth = Auth(director_pin=config["pin"], secret=config["secret"].encode(),
                idle_seconds=config["idle_seconds"])
    return create_app(recorder, auth=auth, signing_key=key, allowed_hosts=config["hosts"],
                      witnesses=clients, director_key_file=Path(config["director_key"]))
