"""The director's sign-off and the archive for the record, used as the director and an auditor
use them: `handlog tournament sign-off`, `log verify --sign-off`, `handlog archive --out` and
`handlog archive verify` with no database."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from handlog.recorder.demo import run_demo
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.signing import sign_checkpoints
from handlog.recorder.tournament_service import Tournaments
from handlog.recorder.witness import Witness, cosigned, make_request
from handlog.replay.report import build_report
from handlog.schema.checkpoint import latest_checkpoint, load_or_create_signing_key
from handlog.schema.cosignature import WitnessSigningKey
from handlog.schema.sign_off import stored_sign_offs
from handlog.schema.store import open_store, upgrade_database

DIRECTOR = Actor("director", "director")
LEAGUE = WitnessSigningKey("league.example/treasurer", bytes(range(1, 33)))


def handlog(*arguments: str) -> Result:
    from handlog.recorder.cli import cli

    return CliRunner().invoke(cli, list(arguments), catch_exceptions=False)


@pytest.fixture
def event(db_url: str, tmp_path: Path) -> dict[str, Path | str]:
    """A short tournament recorded by a signing server, witnessed once, signed off."""
    upgrade_database(db_url)
    key_path = tmp_path / "handlog.signing-key"
    key, _ = load_or_create_signing_key(key_path, "casino.example/poker-room")
    with open_store(db_url) as store:
        recorder = Recorder(store)
        signer = sign_checkpoints(recorder, store, key, delay=3600)
        summary = run_demo(recorder, players=6, tables=1, seed=3, hands=6)
        signer.flush()
        signer.close()
    room_pub = tmp_path / "room.pub"
    room_pub.write_text(key.verifier.text() + "\n")
    sign_off = tmp_path / "sign-off.txt"
    result = handlog("tournament", "sign-off", summary.tournament, "--db", db_url,
                     "--director", "Ann Lee", "--director-key", str(tmp_path / "director.key"),
                     "--signing-key", str(key_path), "--out", str(sign_off))
    assert result.exit_code == 0, result.output
    director_pub = tmp_path / "director.pub"
    director_pub.write_text(handlog("log", "key", "--signing-key",
                                    str(tmp_path / "director.key")).output)
    witness = Witness(LEAGUE, {key.name: key.verifier}, tmp_path / "w.state")
    with open_store(db_url) as store:
        latest = latest_checkpoint(store)
        assert latest is not None
        answer = witness.add_checkpoint(make_request(0, [], latest.checkpoint.text))
    assert answer.status == 200
    folder = tmp_path / "cosigned" / "league"
    folder.mkdir(parents=True)
    (folder / f"{latest.checkpoint.size}.checkpoint").write_text(
        cosigned(latest.checkpoint, answer.body))
    witness_pub = tmp_path / "league.pub"
    witness_pub.write_text(LEAGUE.verifier.text())
    return {"url": db_url, "key_path": key_path, "room": room_pub, "sign_off": sign_off,
            "director": director_pub, "witness": witness_pub,
            "cosigned": tmp_path / "cosigned", "tournament": summary.tournament}


def test_the_sign_off_verifies_and_a_result_after_it_is_a_finding(
        event: dict[str, Path | str]) -> None:
    common = ["log", "verify", "--db", str(event["url"]), "--key", str(event["room"]),
              "--sign-off", str(event["sign_off"]), "--director-key", str(event["director"])]
    result = handlog(*common)
    assert result.exit_code == 0, result.output
    assert "sign-off of tournament-" in result.output and "by Ann Lee at " in result.output
    assert "(signature ok)" in result.output
    with open_store(str(event["url"])) as store:
        (kept,) = stored_sign_offs(store)
        assert kept[1].text == Path(str(event["sign_off"])).read_text()
        report = build_report(store)
        assert report.clean
        (shown,) = report.data["sign_offs"]
        assert (shown["director"], shown["changed"]) == ("Ann Lee", [])
        assert "unchanged since" in report.to_html()
        recorder = Recorder(store)
        Tournaments(recorder).ruling(str(event["tournament"]), "tda-1", "late change",
                                     DIRECTOR)
        after = build_report(store)
    assert not after.clean
    (late,) = after.data["verdict"]["sign_off"]
    assert "(ruling_recorded) was recorded after the sign-off" in late
    assert "Results changed after the director&#x27;s sign-off" in after.to_html() or \
        "Results changed after the director's sign-off" in after.to_html()
    changed = handlog(*common)
    assert changed.exit_code == 1
    assert "BREAK results changed after the director's sign-off at stream 'tournament-" \
        in changed.output
    assert "(ruling_recorded) was recorded after the sign-off" in changed.output


def test_a_sign_off_by_another_key_is_refused(event: dict[str, Path | str],
                                              tmp_path: Path) -> None:
    other = tmp_path / "other.pub"
    other.write_text(Path(str(event["room"])).read_text())
    result = handlog("log", "verify", "--db", str(event["url"]), "--sign-off",
                     str(event["sign_off"]), "--director-key", str(other))
    assert result.exit_code == 2
    assert "is not signed by the director's key" in result.output


def test_the_archive_verifies_offline_and_names_a_changed_file(
        event: dict[str, Path | str], tmp_path: Path) -> None:
    out = tmp_path / "EVENT.zip"
    made = handlog("archive", "--db", str(event["url"]), "--out", str(out), "--signing-key",
                   str(event["key_path"]), "--witness-key", str(event["witness"]),
                   "--cosigned", str(event["cosigned"]), "--sign-off", str(event["sign_off"]),
                   "--director-key", str(event["director"]))
    assert made.exit_code == 0, made.output
    with zipfile.ZipFile(out) as bundle:
        names = set(bundle.namelist())
        manifest = json.loads(bundle.read("manifest.json"))
        assert "handlog archive verify THIS.zip --key ROOM.pub" in bundle.read(
            "VERIFY.txt").decode()
    assert {"manifest.json", "VERIFY.txt", "log.jsonl", "keys/room.pub", "keys/witness-1.pub",
            "keys/director.pub", "sign-off.txt", "report.html", "report.pdf"} <= names
    assert any(name.startswith("checkpoints/league/") for name in names)
    assert manifest["retention_years"] == 10
    checked = handlog("archive", "verify", str(out), "--key", str(event["room"]),
                      "--min-witnesses", "1")
    assert checked.exit_code == 0, checked.output
    assert "every file matches the manifest" in checked.output
    assert "cosigned by league.example/treasurer at " in checked.output
    unkeyed = handlog("archive", "verify", str(out))
    assert unkeyed.exit_code == 3
    assert unkeyed.output.splitlines()[-1].startswith("NOT AUTHENTICATED: checked with the "
                                                      "keys inside the archive")
    tampered = tmp_path / "tampered.zip"
    with zipfile.ZipFile(out) as source, zipfile.ZipFile(tampered, "w") as sink:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "log.jsonl":
                data = data.replace(b'"actor":"director"', b'"actor":"nobody"', 1)
            sink.writestr(info, data)
    broken = handlog("archive", "verify", str(tampered), "--key", str(event["room"]))
    assert broken.exit_code == 1
    assert "damaged archive: log.jsonl differs from the manifest" in broken.output
    garbage = tmp_path / "garbage.zip"
    garbage.write_bytes(b"PK\x03\x04" + bytes(200))
    named = handlog("archive", "verify", str(garbage))
    assert named.exit_code == 1
    assert named.output.startswith("damaged archive: ")


def test_the_archive_takes_the_sign_off_kept_in_the_database(
        event: dict[str, Path | str], tmp_path: Path) -> None:
    """No --sign-off given: the latest sign-off kept in the database goes in, with the public
    key of the director's key beside the room's (where the floor page's sign-off keeps it)."""
    key_path = Path(str(event["key_path"]))
    (key_path.parent / "handlog.director-key").write_text(
        (tmp_path / "director.key").read_text())
    out = tmp_path / "EVENT.zip"
    made = handlog("archive", "--db", str(event["url"]), "--out", str(out), "--signing-key",
                   str(key_path), "--no-report")
    assert made.exit_code == 0, made.output
    with zipfile.ZipFile(out) as bundle:
        assert bundle.read("sign-off.txt").decode() == Path(str(event["sign_off"])).read_text()
        assert bundle.read("keys/director.pub").decode() == \
            Path(str(event["director"])).read_text()
    checked = handlog("archive", "verify", str(out), "--key", str(event["room"]))
    assert checked.exit_code == 0, checked.output
    assert "(signature ok)" in checked.output
