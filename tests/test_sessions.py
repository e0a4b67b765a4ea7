"""Sessions that can be ended: sign-outs and revocations kept in the database hold after a
restart and on a second server (SQLite and PostgreSQL), an idle session is signed out, the
floor lists the signed-in tablets and revokes one, a short secret is refused, and `handlog
serve --certfile --keyfile` serves HTTPS with Secure `__Host-` cookies."""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from web_support import Client, make_app, open_table

from handlog.recorder.auth import CSRF_HEADER, Auth, SecretTooShort
from handlog.recorder.cli import cli
from handlog.recorder.cli_serve import free_port
from handlog.recorder.service import Recorder
from handlog.schema.sessions import SignedIn
from handlog.schema.store import open_store

STREAM = "table-1"
SECRET = b"s" * 48
UTC = dt.UTC


@pytest.fixture
def recorder(db_url: str) -> Iterator[Recorder]:
    recorder = Recorder(open_store(db_url, upgrade=True))
    open_table(recorder, STREAM)
    yield recorder
    recorder.store.close()


def _at(seconds: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(seconds, UTC)


def test_the_session_store_keeps_sign_ins_and_how_they_ended(db_url: str) -> None:
    """open / get / touch / end / revoked / signed_in, on SQLite and PostgreSQL."""
    with open_store(db_url, upgrade=True) as store:
        sessions = store.session_store()
        one = SignedIn("a1", "dealer", STREAM, "Dana", "tablet-A", "10.0.0.5", _at(100),
                       _at(100), _at(1000))
        two = SignedIn("b2", "director", None, "TD", "laptop", "10.0.0.6", _at(110), _at(110),
                       _at(1000))
        sessions.open(one)
        sessions.open(two)
        assert sessions.get("a1") == one and sessions.get("zz") is None
        sessions.touch("a1", _at(200))
        assert sessions.get("a1").last_seen == _at(200)  # type: ignore[union-attr]
        assert [s.id for s in sessions.signed_in(_at(300))] == ["a1", "b2"]
        assert sessions.end("a1", _at(300), "revoked", "TD") is True
        assert sessions.end("a1", _at(301), "revoked", "TD") is False  # once
        assert sessions.get("a1") is None
        ended = sessions.revoked("a1")
        assert ended is not None and (ended.reason, ended.by, ended.revoked_at) == (
            "revoked", "TD", _at(300))
        assert [s.id for s in sessions.signed_in(_at(300))] == ["b2"]
        assert sessions.signed_in(_at(1000)) == []  # expired


def _server(recorder_url: str, clock: Any = time.time, **options: Any) -> tuple[Any, Auth]:
    """A server process's app on the database: its own Recorder, store and Auth."""
    recorder = Recorder(open_store(recorder_url))
    auth = Auth(secret=SECRET, clock=clock, **options)
    return make_app(recorder, auth=auth)


def test_a_revoked_token_is_refused_after_a_restart_and_on_a_second_server(
        db_url: str, recorder: Recorder) -> None:
    """The director revokes a dealer's tablet on server A: its token is refused on A at once,
    on server B sharing the database as soon as B hears of it, and on A started again (a new
    app, the same secret)."""
    first, first_auth = _server(db_url)
    second, second_auth = _server(db_url)
    with Client(first, first_auth) as tablet, Client(first, first_auth) as director, \
            Client(second, second_auth) as on_second:
        assert tablet.login("dealer", STREAM).status_code == 200
        on_second.http.cookies.update(dict(tablet.http.cookies))
        assert on_second.http.get(f"/api/tables/{STREAM}").status_code == 200
        director.login("director", pin=first_auth.director_pin)
        listed = director.http.get("/api/sessions").json()["sessions"]
        dealer = next(s for s in listed if s["role"] == "dealer")
        assert (dealer["table"], dealer["device"]) == (STREAM, "tablet-test")
        revoked = director.http.delete(f"/api/sessions/{dealer['id']}",
                                       headers={CSRF_HEADER: director.csrf})
        assert revoked.status_code == 200
        refused = tablet.http.get(f"/api/tables/{STREAM}")
        assert refused.status_code == 401 and "signed out by director" in refused.json()[
            "message"]
        # Server B keeps the sessions it read in memory while it hears the database's
        # notices (PostgreSQL): it refuses the token once the revocation's notice arrives.
        deadline = time.monotonic() + 10
        while on_second.http.get(f"/api/tables/{STREAM}").status_code != 401:
            assert time.monotonic() < deadline, "server B still takes the revoked token"
        cookies = dict(tablet.http.cookies)
    restarted, restarted_auth = _server(db_url)
    with Client(restarted, restarted_auth) as again:
        again.http.cookies.update(cookies)
        assert again.http.get(f"/api/tables/{STREAM}").status_code == 401


def test_a_signed_out_token_is_refused_after_a_restart(db_url: str,
                                                        recorder: Recorder) -> None:
    first, first_auth = _server(db_url)
    with Client(first, first_auth) as tablet:
        tablet.login("dealer", STREAM)
        cookies = dict(tablet.http.cookies)
        assert tablet.http.delete("/api/session",
                                  headers={CSRF_HEADER: tablet.csrf}).status_code == 200
    restarted, restarted_auth = _server(db_url)
    with Client(restarted, restarted_auth) as replayed:
        replayed.http.cookies.update(cookies)
        answer = replayed.http.get(f"/api/tables/{STREAM}")
        assert answer.status_code == 401 and "signed out at" in answer.json()["message"]


def test_an_idle_session_is_signed_out_and_use_keeps_it(db_url: str,
                                                        recorder: Recorder) -> None:
    """Unused for `idle_seconds`, a dealer's session ends (and says why); a tablet in use
    stays signed in well past that. The clock is injected: no sleeping."""
    clock = [1_000_000.0]
    app, auth = _server(db_url, clock=lambda: clock[0], idle_seconds=600)
    with Client(app, auth) as busy, Client(app, auth) as idle:
        busy.login("dealer", STREAM)
        idle.login("dealer", STREAM)
        for _ in range(4):
            clock[0] += 300
            assert busy.http.get(f"/api/tables/{STREAM}").status_code == 200
        answer = idle.http.get(f"/api/tables/{STREAM}")
        assert answer.status_code == 401 and "10 minutes without use" in answer.json()[
            "message"]
        assert [s.id for s in auth.signed_in()] == [auth.session(
            busy.http.cookies["handlog_session"]).id]  # type: ignore[union-attr]


def test_the_floor_lists_the_signed_in_tablets_and_only_the_director_revokes(
        db_url: str, recorder: Recorder) -> None:
    app, auth = _server(db_url)
    with Client(app, auth) as director, Client(app, auth) as tablet, \
            Client(app, auth) as viewer:
        director.login("director", pin=auth.director_pin, device="floor-laptop")
        tablet.login("dealer", STREAM, device="tablet-7", name="Dana")
        viewer.login("viewer")
        listed = director.http.get("/api/sessions").json()
        rows = {s["device"]: s for s in listed["sessions"]}
        assert set(rows) == {"floor-laptop", "tablet-7"}  # viewers are not signed-in tablets
        assert rows["floor-laptop"]["current"] and not rows["tablet-7"]["current"]
        assert rows["tablet-7"]["name"] == "Dana" and rows["tablet-7"]["table"] == STREAM
        assert tablet.http.get("/api/sessions").status_code == 403
        assert tablet.http.delete(f"/api/sessions/{rows['floor-laptop']['id']}",
                                  headers={CSRF_HEADER: tablet.csrf}).status_code == 403
        gone = director.http.delete("/api/sessions/no-such-session",
                                    headers={CSRF_HEADER: director.csrf})
        assert gone.status_code == 404


def test_a_secret_shorter_than_32_bytes_is_refused(tmp_path: Path) -> None:
    """HANDLOG_SECRET=k3y would let anyone compute the director's PIN offline: refused with
    what to do, before anything is served."""
    with pytest.raises(SecretTooShort, match="at least 32"):
        Auth(secret=b"k3y")
    result = CliRunner().invoke(cli, ["serve", "--db", str(tmp_path / "h.db"), "--no-demo"],
                                env={"HANDLOG_SECRET": "k3y"})
    assert result.exit_code == 1
    assert "HANDLOG_SECRET is 3 bytes long: at least 32 are needed" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "h.db").exists()


def _self_signed(folder: Path) -> tuple[Path, Path]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = dt.datetime.now(UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(minutes=5))
            .not_valid_after(now + dt.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([
                x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                critical=False)
            .sign(key, hashes.SHA256()))
    certfile, keyfile = folder / "cert.pem", folder / "key.pem"
    certfile.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    keyfile.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                          serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    return certfile, keyfile


def test_handlog_serve_serves_https_with_secure_host_prefixed_cookies(tmp_path: Path) -> None:
    """`handlog serve --certfile --keyfile`: HTTPS (verified against the certificate made
    here), the session cookie `__Host-handlog_session` Secure, HttpOnly, Path=/; a Host that is
    not the server's is refused."""
    certfile, keyfile = _self_signed(tmp_path)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANDLOG_")}
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "handlog"), "serve", "--port", str(port), "--db",
         str(tmp_path / "h.db"), "--certfile", str(certfile), "--keyfile", str(keyfile)],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    lines: list[str] = []
    try:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            if line.startswith("answering Host"):
                break
        text = "".join(lines)
        assert f"https://localhost:{port}/floor" in text, text
        pin = next(line.split(": ", 1)[1].strip() for line in lines
                   if line.startswith("director PIN"))
        trust = ssl.create_default_context(cafile=str(certfile))
        with httpx.Client(base_url=f"https://localhost:{port}", verify=trust,
                          timeout=10) as http:
            for _ in range(200):
                try:
                    http.get("/floor")
                    break
                except httpx.TransportError:
                    time.sleep(0.05)
            login = http.post("/api/session", json={"role": "director", "pin": pin})
            assert login.status_code == 200, login.text
            cookies = login.headers.get_list("set-cookie")
            session = next(c for c in cookies if c.startswith("__Host-handlog_session="))
            assert "Secure" in session and "HttpOnly" in session and "Path=/" in session
            assert "Domain" not in session
            assert all("Secure" in c for c in cookies)
            assert http.get("/api/floor").status_code == 200  # the __Host- cookie works
            evil = http.get("/api/floor", headers={"Host": "evil.example"})
            assert evil.status_code == 400
        with pytest.raises(httpx.TransportError):
            httpx.get(f"http://127.0.0.1:{port}/floor", timeout=5)  # no plain HTTP
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_a_server_reads_a_session_once_while_it_hears_endings(pg_url: str) -> None:
    """On PostgreSQL a listening server keeps the sessions it read (a tap reads no session
    row), and forgets one ended by another server sharing the database."""
    seed = Recorder(open_store(pg_url, upgrade=True))
    open_table(seed, STREAM)
    seed.store.close()
    first, first_auth = _server(pg_url)
    second, second_auth = _server(pg_url)
    with Client(first, first_auth) as tablet, Client(second, second_auth) as director:
        assert tablet.login("dealer", STREAM).status_code == 200
        token = tablet.http.cookies["handlog_session"]
        assert tablet.http.get(f"/api/tables/{STREAM}").status_code == 200
        kept = first_auth.sessions
        assert kept.caching
        reads = []
        original = kept._engine.connect

        def counted() -> Any:
            reads.append(1)
            return original()

        kept._engine.connect = counted  # type: ignore[method-assign]
        for _ in range(3):
            assert tablet.http.get(f"/api/tables/{STREAM}").status_code == 200
        kept._engine.connect = original  # type: ignore[method-assign]
        assert reads == []
        director.login("director", pin=second_auth.director_pin)
        session = first_auth.session(token)
        assert session is not None
        assert director.http.delete(f"/api/sessions/{session.id}",
                                    headers={CSRF_HEADER: director.csrf}).status_code == 200
        deadline = time.monotonic() + 10
        while tablet.http.get(f"/api/tables/{STREAM}").status_code != 401:
            assert time.monotonic() < deadline, "server A still takes the revoked token"
