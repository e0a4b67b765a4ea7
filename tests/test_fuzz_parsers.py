"""Every parser a user's file reaches, fuzzed through its user's door (issue 28): a structure TOML
(`tournament create` and the floor page's POST), a log export JSONL and a checkpoint JSON (`log
verify`), PHH (`phh verify`, `import`), OHH and PokerStars text (`import`). A real file of each
kind is damaged the ways an attacker or a broken disk would: values nested hundreds of thousands
deep, numbers that are infinite, not a number or past any chip count, text cut anywhere, bytes
that are not the encoding, and sizes past the limit. Whatever it is, the answer is a named error
or a reading (exit 0, 1 or 2; 200, 413 or 422), never a traceback or a 500, and a refused file
writes nothing."""

from __future__ import annotations

import json
import os
import re
import tempfile
import traceback
import uuid
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import hostile_bytes
from web_support import Client, make_app, make_recorder

from handlog.recorder.cli import cli
from handlog.schema.store import open_store
from handlog.schema.text_limits import MAX_BYTES

TESTS = Path(__file__).resolve().parent
EXAMPLES = TESTS.parent / "examples"
STRUCTURE = (EXAMPLES / "octobermuck.toml").read_text(encoding="utf-8")
PHH = (TESTS / "fixtures/phh/good/heads_up.phh").read_text(encoding="utf-8")
# The first stream of the demo log (its header, the tournament's first events): enough for every
# record kind the reader knows, small enough to read a hundred times.
LOG = "".join((TESTS / "fixtures/logs/demo.jsonl").read_text(encoding="utf-8")
              .splitlines(keepends=True)[:40])
CHECKPOINT = json.dumps({"checkpoints": [{"size": 3, "root": "A" * 43 + "=",
                                          "signature": "B" * 86 + "=="}]})

# Python's own errors, which a user must never be shown in place of what was wrong.
UNNAMED = re.compile(r"Traceback|RecursionError|OverflowError|InvalidOperation|"
                     r"UnicodeDecodeError|UnicodeError|MemoryError|KeyError|TypeError|"
                     r"AttributeError|IndexError|ZeroDivisionError|decimal\.")
# HANDLOG_FUZZ_EXAMPLES=1000 for a longer search than the suite's.
FUZZ = settings(max_examples=int(os.environ.get("HANDLOG_FUZZ_EXAMPLES", "40")),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _answered(args: list[str], codes: tuple[int, ...] = (0, 1, 2, 3, 4)) -> tuple[int, str]:
    """Run the CLI: it exits with one of `codes`, and says nothing of Python's."""
    result = CliRunner().invoke(cli, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError("".join(traceback.format_exception(result.exception)))
    assert result.exit_code in codes, (result.exit_code, result.output)
    assert not UNNAMED.search(result.output), result.output[-2000:]
    return result.exit_code, result.output


def _streams(url: str, folder: Path) -> list[str]:
    if not (folder / "room.db").exists():
        return []
    with open_store(url) as store:
        return [head.stream_id for head in store.streams()]


@FUZZ
@given(hostile_bytes(STRUCTURE, "toml"))
def test_a_hostile_structure_file_is_named_and_creates_nothing(raw: bytes) -> None:
    """`tournament create FILE`: created (exit 0) or refused naming what (exit 1), and refused
    writes no stream."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "structure.toml"
        path.write_bytes(raw)
        url = f"sqlite:///{Path(folder) / 'room.db'}"
        code, output = _answered(["tournament", "create", str(path), "--id", "fuzz",
                                  "--db", url], codes=(0, 1))
        if code:
            assert "structure.toml" in output or "structure" in output, output
            assert _streams(url, Path(folder)) == []


@pytest.fixture(scope="module")
def director(tmp_path_factory: pytest.TempPathFactory) -> Any:
    recorder = make_recorder(tmp_path_factory.mktemp("fuzz-api"))
    app, auth = make_app(recorder)
    with Client(app, auth) as client:
        client.login("director")
        yield client, recorder
    recorder.store.close()


@FUZZ
@given(raw=hostile_bytes(STRUCTURE, "toml"))
def test_a_hostile_structure_over_http_is_422_never_500(director: Any, raw: bytes) -> None:
    """The floor page's "create" with the file's text (as the page reads it, bad bytes
    replaced): created, or 422 naming `structure` (413 for a body past the server's limit),
    and a refused one creates nothing."""
    client, recorder = director
    name = f"fuzz-{uuid.uuid4().hex}"  # (one server for every example)
    answer = client.http.post("/api/tournaments", headers={"X-CSRF-Token": client.csrf},
                              json={"id": name, "structure": raw.decode("utf-8", "replace"),
                                    "file": "structure.toml"})
    assert answer.status_code in (200, 409, 413, 422), answer.text
    if answer.status_code == 413:  # (a body past the server's limit: refused before read)
        assert answer.json()["field"] == "body", answer.text
    if answer.status_code == 422:
        refusal = answer.json()
        assert refusal.get("rule") == "structure" or "structure" in refusal.get("message", "") \
            or refusal.get("field") == "id", refusal
    if answer.status_code in (413, 422):
        assert not any(h.stream_id.endswith(name) for h in recorder.store.streams())


@FUZZ
@given(hostile_bytes(PHH, "toml"))
def test_a_hostile_phh_file_is_named_by_verify_and_import_and_imports_nothing(
        raw: bytes) -> None:
    """`phh verify` and `import --into-log`: each hand matched or named (exit 0 or 1), and a
    file with no matched hand records nothing."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hand.phh"
        path.write_bytes(raw)
        url = f"sqlite:///{Path(folder) / 'room.db'}"
        _answered(["phh", "verify", str(path)], codes=(0, 1, 2))
        _imported_or_nothing(path, "phh", url, Path(folder))


def _imported_or_nothing(path: Path, fmt: str, url: str, folder: Path) -> None:
    code, output = _answered(["import", "--format", fmt, "--into-log", "--json", "--db", url,
                              str(path)], codes=(0, 1, 2))
    if code == 2:
        assert _streams(url, folder) == []
        return
    if "{" not in output:
        raise AssertionError(output)
    report = json.loads(output[output.index("{"):])
    recorded = report.get("into_log", {}).get("recorded", [])
    if not recorded:
        assert _streams(url, folder) == [], output


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """One demo table's first hands in OHH and PokerStars text, as `handlog export` writes
    them."""
    folder = tmp_path_factory.mktemp("fuzz-exports")
    url = f"sqlite:///{folder / 'demo.db'}"
    assert _answered(["demo", "--db", url, "--players", "6", "--tables", "1", "--hands",
                      "2"])[0] == 0
    texts = {}
    for fmt in ("ohh", "pokerstars"):
        out = folder / f"hands.{fmt}"
        assert _answered(["export", "--db", url, "--format", fmt, "--all-cards", "--out",
                          str(out)])[0] == 0
        texts[fmt] = out.read_text(encoding="utf-8")
    return texts


@FUZZ
@given(data=st.data())
def test_a_hostile_ohh_file_is_named_by_import_and_imports_nothing(
        exported: dict[str, str], data: st.DataObject) -> None:
    raw = data.draw(hostile_bytes(exported["ohh"], "json"))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hands.ohh"
        path.write_bytes(raw)
        _imported_or_nothing(path, "ohh", f"sqlite:///{Path(folder) / 'room.db'}", Path(folder))


@FUZZ
@given(data=st.data())
def test_a_hostile_pokerstars_file_is_named_by_import_and_imports_nothing(
        exported: dict[str, str], data: st.DataObject) -> None:
    raw = data.draw(hostile_bytes(exported["pokerstars"], "text"))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hands.txt"
        path.write_bytes(raw)
        _imported_or_nothing(path, "pokerstars", f"sqlite:///{Path(folder) / 'room.db'}",
                             Path(folder))


# The readers handlog writes for other sites (GGPoker and 888 rewritten into PokerStars' text):
# one public sample of each, the first hands of a GGPoker cash file.
SITES = TESTS / "fixtures" / "hand-histories"
SITE_SAMPLES = {
    "888": (SITES / "888" / "hhsmithy__Tables-Table1.txt").read_text(encoding="utf-8-sig"),
    "ggpoker": "\n".join((SITES / "ggpoker" / "layorx__RushAndCash9515431.txt").read_text(
        encoding="utf-8-sig").split("\n")[:104]),
}


@FUZZ
@given(data=st.data())
@pytest.mark.parametrize("fmt", sorted(SITE_SAMPLES))
def test_a_hostile_site_file_is_named_by_import_and_imports_nothing(
        fmt: str, data: st.DataObject) -> None:
    raw = data.draw(hostile_bytes(SITE_SAMPLES[fmt], "text"))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hands.txt"
        path.write_bytes(raw)
        _imported_or_nothing(path, fmt, f"sqlite:///{Path(folder) / 'room.db'}", Path(folder))


@FUZZ
@given(hostile_bytes(LOG, "json"))
def test_a_hostile_log_export_is_named_by_log_verify(raw: bytes) -> None:
    """`log verify FILE.jsonl`: every damaged line named (exit 1), or the log's verdict."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.jsonl"
        path.write_bytes(raw)
        _answered(["log", "verify", str(path)])


@FUZZ
@given(hostile_bytes(CHECKPOINT, "json"))
def test_a_hostile_checkpoint_file_is_named_by_log_verify(raw: bytes) -> None:
    """`log verify --checkpoint FILE`: the file named, a usage error (exit 2), never Python's."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "checkpoint.json"
        path.write_bytes(raw)
        log = Path(folder) / "log.jsonl"
        log.write_text(LOG, encoding="utf-8")
        _answered(["log", "verify", str(log), "--checkpoint", str(path)])


@pytest.mark.parametrize(("name", "command"), [
    ("structure.toml", ["tournament", "create"]),
    ("hand.phh", ["phh", "verify"]),
    ("hand.phh", ["import", "--format", "phh"]),
    ("hands.ohh", ["import", "--format", "ohh"]),
    ("hands.txt", ["import", "--format", "pokerstars"]),
    ("log.jsonl", ["log", "verify"]),
])
def test_a_file_past_the_size_limit_is_refused_by_its_size(tmp_path: Path, name: str,
                                                           command: list[str]) -> None:
    """A file one byte past what any parser reads (a hand history is kilobytes, a month of one
    table 2 MB): refused naming the limit, exit 1."""
    path = tmp_path / name
    with open(path, "wb") as out:
        out.write(b"PokerStars Hand #1: " if name == "hands.txt" else b"")
        out.truncate(MAX_BYTES + 1)
        out.seek(0, 2)
    url = f"sqlite:///{tmp_path / 'room.db'}"
    args = [*command, str(path)]
    if command[0] in ("tournament", "import"):
        args += ["--db", url]
    code, output = _answered(args, codes=(1,))
    if name == "log.jsonl":  # (a log may be any size: its lines are held to MAX_LINE)
        assert "longer than" in output, output
    else:
        assert "at most" in output and "read" in output, output
    assert _streams(url, tmp_path) == []
