"""`handlog serve`: the HTTP API with the floor, dealer and viewer pages.

Upgrades the database, creates a demo tournament when it holds none, prints the pages' URLs
with the director PIN and each table's dealer PIN, then serves until interrupted.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import uvicorn

from recorder.auth import Auth
from recorder.cli_db import db_option, user_errors
from recorder.service import Recorder
from schema.database import display_url, resolve_url
from schema.store import open_store


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def serve_in_thread(app: Any, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Run `app` with uvicorn in a thread; yields its base URL; stops it on exit."""
    port = port or free_port(host)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            timeout_graceful_shutdown=1, lifespan="on")
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
        if len(text) < 32:
            raise click.ClickException(f"{path}: the secret is too short ({len(text)} "
                                       "characters, at least 32): delete the file to make a "
                                       "new one (every PIN changes)") from None
        return text.encode()
    text = secrets.token_hex(32)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(text + "\n")
    return text.encode()


@click.command("serve")
@db_option
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Interface to listen on (0.0.0.0 for the tablets on the room's network).")
@click.option("--port", default=8000, show_default=True, type=int, help="TCP port.")
@click.option("--director-pin", default=None, metavar="PIN",
              help="The director's PIN (default: $HANDLOG_DIRECTOR_PIN, else derived from the "
              "secret).")
@click.option("--secret-file", default=None, type=click.Path(dir_okay=False, path_type=Path),
              help="The server's secret, made on first start (default: $HANDLOG_SECRET_FILE, "
              "else ./handlog.secret; $HANDLOG_SECRET overrides it). Dealer PINs, the director "
              "PIN and the sessions derive from it: the same file keeps them across restarts.")
@click.option("--forwarded-allow-ips", default="127.0.0.1", show_default=True, metavar="IPS",
              help="Reverse proxies whose X-Forwarded-For is believed (comma-separated, * for "
              "any): the PIN limit then counts per tablet, not per proxy.")
@click.option("--no-demo", is_flag=True, help="Do not create a demo tournament in an empty "
              "database.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Server processes sharing the port (on PostgreSQL: each table's commands "
              "are ordered by the database, live updates cross processes by LISTEN/NOTIFY).")
def serve(db_url: str | None, host: str, port: int, director_pin: str | None,
          secret_file: Path | None, forwarded_allow_ips: str, no_demo: bool,
          workers: int) -> None:
    """Serve the tablet, floor and viewer pages and the JSON API (Ctrl+C stops)."""
    from recorder.api import create_app
    from recorder.floor import setup_demo
    from recorder.tournament_service import Tournaments

    url = resolve_url(db_url)
    with user_errors():
        store = open_store(url, upgrade=True)
    recorder = Recorder(store)
    created = ""
    if not no_demo and not Tournaments(recorder).tournaments():
        created = setup_demo(recorder)
    pin = director_pin or os.environ.get("HANDLOG_DIRECTOR_PIN") or None
    # The PINs and the sessions derive from the secret: the same secret keeps them (and the
    # tablets signed in) across restarts.
    secret = os.environ.get("HANDLOG_SECRET", "").encode()
    kept = "$HANDLOG_SECRET"
    if not secret:
        path = secret_file or Path(os.environ.get("HANDLOG_SECRET_FILE") or "handlog.secret")
        with user_errors():
            secret = server_secret(path)
        kept = str(path)
    auth = Auth(director_pin=pin, secret=secret)
    shown_host = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    base = f"http://{shown_host}:{port}"
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
    click.echo(f"PINs and sign-ins are kept across restarts by {kept}")
    if host == "0.0.0.0":
        click.echo("(tablets use this machine's address on the room's network instead of "
                   "localhost)")
    options: dict[str, Any] = {
        "host": host, "port": port, "log_level": "warning", "timeout_graceful_shutdown": 2,
        "proxy_headers": True, "forwarded_allow_ips": forwarded_allow_ips,
    }
    if workers > 1:
        # Each worker process builds its own app (store, recorder, caches) from these; the
        # same secret gives every one of them the same PINs and sessions.
        store.close()
        os.environ[_WORKER_ENV] = json.dumps({"url": url, "pin": auth.director_pin,
                                              "secret": secret.decode()})
        click.echo(f"{workers} server processes")
        uvicorn.run("recorder.cli_serve:worker_app", factory=True, workers=workers, **options)
        return
    uvicorn.run(create_app(recorder, auth=auth), **options)
    store.close()


_WORKER_ENV = "HANDLOG_SERVE_WORKER"


def worker_app() -> Any:
    """The app of one `handlog serve --workers N` process (uvicorn calls it in each)."""
    from recorder.api import create_app

    config = json.loads(os.environ[_WORKER_ENV])
    store = open_store(config["url"])
    auth = Auth(director_pin=config["pin"], secret=config["secret"].encode())
    return create_app(Recorder(store), auth=auth)
