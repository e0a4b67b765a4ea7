"""Sign-in holds up against guessing without locking anyone out: the limits count per real table
and overall and hold up the addresses that guessed wrong, made-up table names share one bucket,
memory stays bounded, no one else's wrong PINs lock the director (or a dealer) out of a new
device or one he signed in on, the console's recovery code gets past every limit, forwarded
headers are believed only from a proxy named, and the Host header is checked."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from web_support import DIRECTOR_PIN, Client, make_app, make_recorder, open_table

from handlog.recorder.auth import Auth, Limits
from handlog.recorder.cli import cli
from handlog.recorder.cli_serve import listening_hosts, serve, serve_in_thread
from handlog.recorder.service import Recorder

STREAM = "table-1"


@pytest.fixture
def recorder(tmp_path: Path) -> Any:
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM)
    yield recorder
    recorder.store.close()


def _known(stream: str) -> bool:
    return stream == STREAM


def _status(auth: Auth, client: str, **fields: Any) -> int:
    from handlog.recorder.auth import AuthError

    try:
        auth.login(client, fields.pop("role", "dealer"), table_known=_known, **fields)
    except AuthError as error:
        return error.status
    return 200


def test_guesses_at_made_up_table_names_hit_429_from_one_client(recorder: Recorder) -> None:
    """Each made-up name used to get a fresh budget of its own: now they all count together."""
    app, auth = make_app(recorder)
    with Client(app, auth) as client:
        answers = [client.login("dealer", f"nosuchtable-{n}", pin="0000000000").status_code
                   for n in range(8)]
    assert answers[:5] == [401] * 5
    assert set(answers[5:]) == {429}


def test_made_up_names_share_one_global_bucket_and_leave_no_state_per_name() -> None:
    """Guesses from many addresses at names that do not exist fill one shared bucket, which
    then holds up every address that guessed wrong; no bucket is keyed by such a name; a real
    table's dealer is not blocked by them."""
    clock = [1000.0]
    auth = Auth(secret=b"s" * 32, clock=lambda: clock[0],
                limits=Limits(unknown_tables=(20, 60.0)))
    answers = [_status(auth, f"10.1.0.{n % 10}", table=f"made-up-{n}", pin="1")
               for n in range(40)]
    assert answers[:20] == [401] * 20 and set(answers[20:]) == {429}
    assert not any("made-up" in str(key) for key in auth._buckets)
    assert _status(auth, "10.9.9.9", table=STREAM, pin=auth.table_pin(STREAM)) == 200
    clock[0] += 61
    assert _status(auth, "10.1.0.1", table="made-up-again", pin="1") == 401


def test_a_real_tables_pin_has_a_budget_over_all_guessers_not_over_its_dealers_new_tablet(
        ) -> None:
    """Rotating addresses buys one guess an address at one table's PIN: past the table's
    budget every address that guessed wrong waits out the window, even with the right PIN;
    a new tablet that has not guessed wrong (the dealer's) signs in with the right PIN."""
    clock = [1000.0]
    auth = Auth(secret=b"s" * 32, clock=lambda: clock[0], limits=Limits(per_table=(20, 600.0)))
    answers = [_status(auth, f"10.2.0.{n % 10}", table=STREAM, pin="0000000000")
               for n in range(30)]
    assert answers[:20] == [401] * 20 and set(answers[20:]) == {429}
    assert _status(auth, "10.2.0.3", table=STREAM, pin=auth.table_pin(STREAM)) == 429
    assert _status(auth, "10.2.1.1", table=STREAM, pin=auth.table_pin(STREAM)) == 200
    clock[0] += 601
    assert _status(auth, "10.2.0.3", table=STREAM, pin=auth.table_pin(STREAM)) == 200


def test_the_guess_buckets_kept_are_bounded() -> None:
    """100,000 guesses from as many addresses, at a real table and at made-up names, keep at
    most `max_buckets` buckets of clients (and a few shared ones)."""
    auth = Auth(secret=b"s" * 32, limits=Limits(max_buckets=500, everything=(10**6, 1.0),
                                                per_table=(10**6, 1.0)))
    for n in range(100_000):
        table = STREAM if n % 2 else f"made-up-{n}"
        _status(auth, f"10.{n // 65536}.{n // 256 % 256}.{n % 256}", table=table, pin="1")
    assert auth.bucket_count() <= 500 + 3


def test_a_flood_of_addresses_does_not_reset_a_tables_count() -> None:
    """Evicting clients from the LRU (by guessing from more addresses than it keeps) does not
    forget how often one table's PIN was guessed."""
    auth = Auth(secret=b"s" * 32, limits=Limits(max_buckets=50, per_table=(20, 600.0),
                                                everything=(10**6, 1.0)))
    for n in range(20):
        assert _status(auth, f"10.4.0.{n}", table=STREAM, pin="1") == 401
    for n in range(500):
        _status(auth, f"10.5.{n // 256}.{n % 256}", table=f"made-up-{n}", pin="1")
    assert _status(auth, "10.6.0.1", table=STREAM, pin="1") == 401
    assert _status(auth, "10.6.0.1", table=STREAM, pin="1") == 429  # (the table's count held)


def test_no_one_elses_wrong_pins_lock_the_director_out_of_his_device(
        recorder: Recorder) -> None:
    """100 wrong director PINs from 25 addresses (behind the proxy the server trusts) spend the
    director-PIN budget and hold up those addresses; the director signs in at once on a new
    device, and on his own device (which signed in before) also from an attacker's address;
    his own wrong PINs cost only his device a minute."""
    app, auth = make_app(recorder)
    with serve_in_thread(app, forwarded_allow_ips="127.0.0.1") as base, \
            httpx.Client(base_url=base, timeout=10) as director, \
            httpx.Client(base_url=base, timeout=10) as attacker:
        def login(http: httpx.Client, client_ip: str, pin: str) -> int:
            return http.post("/api/session", headers={"X-Forwarded-For": client_ip},
                             json={"role": "director", "pin": pin}).status_code

        assert login(director, "10.0.0.2", DIRECTOR_PIN) == 200  # earlier today, his laptop
        director.delete("/api/session", headers={"X-CSRF-Token": director.cookies[
            "handlog_csrf"], "X-Forwarded-For": "10.0.0.2"})
        answers = [login(attacker, f"10.0.1.{n % 25}", "0000") for n in range(100)]
        assert answers.count(401) == 30 and set(answers[30:]) == {429}
        assert login(attacker, "10.0.1.7", DIRECTOR_PIN) == 429  # a guesser waits
        with httpx.Client(base_url=base, timeout=10) as new_device:
            assert login(new_device, "10.0.2.1", DIRECTOR_PIN) == 200  # a new device does not
        assert login(director, "10.0.1.1", DIRECTOR_PIN) == 200  # nor his own
        for _ in range(5):
            assert login(director, "10.0.0.2", "1") == 401
        assert login(director, "10.0.0.2", DIRECTOR_PIN) == 429


def test_the_director_signs_in_at_the_servers_own_machine_whatever_the_room_guesses() -> None:
    clock = [1000.0]
    auth = Auth(secret=b"s" * 32, clock=lambda: clock[0], limits=Limits(director=(30, 600.0)))
    answers = [_status(auth, f"10.7.0.{n % 7}", role="director", pin="0") for n in range(35)]
    assert answers[:30] == [401] * 30 and set(answers[30:]) == {429}
    assert _status(auth, "10.7.0.1", role="director", pin=auth.director_pin) == 429
    assert _status(auth, "127.0.0.1", role="director", pin=auth.director_pin) == 200
    assert _status(auth, "::1", role="director", pin=auth.director_pin) == 200


def test_the_consoles_recovery_code_signs_the_director_in_once_past_every_limit() -> None:
    """A director who mistyped on his new device while the room was guessing waits like any
    guesser; the code `handlog recovery-code` prints from the server's secret signs him in
    once, within its window; a code of another secret, or the same code again, does not."""
    clock = [time.time()]  # (the command's clock)
    secret = b"s" * 32
    auth = Auth(secret=secret, clock=lambda: clock[0])
    for n in range(40):
        _status(auth, f"10.8.0.{n % 8}", role="director", pin="0")
    assert _status(auth, "10.8.0.1", role="director", pin=auth.director_pin) == 429
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "handlog.secret"
        path.write_text(secret.decode())
        printed = CliRunner().invoke(cli, ["recovery-code", "--secret-file", str(path)],
                                     env={"HANDLOG_SECRET": ""})
    assert printed.exit_code == 0, printed.output
    code = printed.output.splitlines()[0]
    other = Auth(secret=b"t" * 32, clock=lambda: clock[0]).recovery_code()
    assert _status(auth, "10.8.0.1", role="director", pin=other) == 429
    clock[0] += 300
    assert _status(auth, "10.8.0.1", role="director", pin=code.lower()) == 200
    assert _status(auth, "10.8.0.2", role="director", pin=code) == 429
    clock[0] += 1200
    fresh = Auth(secret=secret, clock=lambda: clock[0])  # (another server, much later)
    assert _status(fresh, "10.8.0.1", role="director", pin=code) == 401


def test_forwarded_headers_are_not_believed_by_default(recorder: Recorder) -> None:
    """Without --forwarded-allow-ips (not even from 127.0.0.1) a rotated X-Forwarded-For buys
    no guesses: they all count against the real address."""
    app, auth = make_app(recorder)
    assert next(p for p in serve.params if p.name == "forwarded_allow_ips").default == ""
    with serve_in_thread(app) as base, httpx.Client(base_url=base, timeout=10) as http:
        answers = [http.post("/api/session", headers={"X-Forwarded-For": f"10.3.0.{n}"},
                             json={"role": "dealer", "table": STREAM,
                                   "pin": "0000000000"}).status_code for n in range(8)]
    assert answers[:5] == [401] * 5 and set(answers[5:]) == {429}


def test_the_host_header_is_checked(recorder: Recorder) -> None:
    """A request naming another host (DNS rebinding) gets 400; the allowed names are served.
    By default those are the addresses it listens on and localhost."""
    app, auth = make_app(recorder, allowed_hosts=listening_hosts("127.0.0.1"))
    assert listening_hosts("127.0.0.1") == ["127.0.0.1", "::1", "localhost"]
    assert "localhost" in listening_hosts("0.0.0.0")
    with Client(app, auth, base_url="http://evil.example") as evil, \
            Client(app, auth, base_url="http://localhost:8000") as good:
        assert evil.login("viewer").status_code == 400
        assert evil.http.get("/floor").status_code == 400
        assert good.login("viewer").status_code == 200
