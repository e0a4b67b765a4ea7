"""Bad input answered cleanly, the same at every door: a structure nested past the limit, an
oversized one, a database URL that is not one, and a tournament id past its length are refused
with an error naming the field or the limit (the CLI exits 1 with no traceback, the API answers
422, never 500), and nothing is written."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from web_support import Client, make_app, make_recorder

from handlog.recorder.cli import cli
from handlog.recorder.structure import STRUCTURE_BYTES
from handlog.schema.store import open_store
from handlog.schema.text_limits import MAX_DEPTH, TextRefused, check_text

TESTS_DIR = Path(__file__).resolve().parent
EXAMPLES = TESTS_DIR.parent / "examples"
DEEP = "levels = " + "[" * 50_000 + "]" * 50_000 + "\n"


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_a_structure_nested_past_the_limit_is_refused_naming_the_limit_and_nothing_is_written(
        tmp_path: Path) -> None:
    """The CLI: exit 1, the file and the limit named (Python's parser would recurse 100,000
    levels); the database has no tournament."""
    deep = tmp_path / "deep.toml"
    deep.write_text(DEEP)
    url = f"sqlite:///{tmp_path / 'room.db'}"
    code, output = _run("tournament", "create", str(deep), "--db", url)
    assert code == 1
    assert "deep.toml" in output and f"more than {MAX_DEPTH} levels deep" in output
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * STRUCTURE_BYTES + "\n")
    code, output = _run("tournament", "create", str(big), "--db", url)
    assert code == 1 and f"at most {STRUCTURE_BYTES:,} are read" in output
    if (tmp_path / "room.db").exists():  # (the file is read before the database is opened)
        with open_store(url) as store:
            assert store.streams() == []


def test_a_structure_nested_past_the_limit_over_http_is_422_not_500(tmp_path: Path) -> None:
    """The floor page's "create" sends the file's text: a nested one is 422 `structure` with the
    limit named, as any wrong file; nothing is created."""
    recorder = make_recorder(tmp_path)
    app, auth = make_app(recorder)
    with Client(app, auth) as director:
        director.login("director")
        answer = director.http.post("/api/tournaments", headers={"X-CSRF-Token": director.csrf},
                                    json={"id": "deep", "structure": DEEP,
                                          "file": "deep.toml"})
        assert answer.status_code == 422, answer.text
        assert answer.json()["rule"] == "structure"
        assert f"more than {MAX_DEPTH} levels deep" in answer.json()["message"]
        assert not any(h.stream_id.endswith("deep") for h in recorder.store.streams())


def test_a_database_url_that_is_not_one_is_named(tmp_path: Path) -> None:
    code, output = _run("replay", "--db", "postgresql://::::/")
    assert code == 1 and "is not a database URL" in output


def test_a_tournament_id_is_held_to_the_same_limit_in_the_cli_and_the_api(tmp_path: Path) -> None:
    """A 100,000-character id: the CLI names the rule and what is allowed; the API's 422 comes
    from the same pattern (engine/limits.py)."""
    url = f"sqlite:///{tmp_path / 'room.db'}"
    code, output = _run("tournament", "create", str(EXAMPLES / "octobermuck.toml"),
                        "--id", "x" * 100_000, "--db", url)
    assert code == 1 and "(100,000 characters)" in output and "1 to 61 letters" in output
    recorder = make_recorder(tmp_path)
    app, auth = make_app(recorder)
    text = (EXAMPLES / "octobermuck.toml").read_text(encoding="utf-8")
    with Client(app, auth) as director:
        director.login("director")
        answer = director.http.post("/api/tournaments", headers={"X-CSRF-Token": director.csrf},
                                    json={"id": "x" * 62, "structure": text})
        assert answer.status_code == 422 and answer.json()["field"] == "id"


# --- the limits themselves (Hypothesis) ---------------------------------------------------

_ATOMS = st.sampled_from(['"]]"', "'[['", '"\\"["', '"""\n]\n"""', "'''{'''", "1", "true",
                          '"#"'])


@st.composite
def nested_arrays(draw: st.DrawFn) -> tuple[int, str]:
    """A TOML document `a = [[...]]` nested `depth` levels, with strings full of brackets."""
    depth = draw(st.integers(1, MAX_DEPTH + 8))
    text = draw(_ATOMS)
    for _ in range(depth):
        text = f"[{text}, {draw(_ATOMS)}]  # ]]\n" if draw(st.booleans()) else f"[{text}]"
    return depth, f"a = {text}\n"


@given(nested_arrays())
def test_the_toml_limit_counts_the_nesting_and_not_the_brackets_in_strings_or_comments(
        case: tuple[int, str]) -> None:
    """Refused exactly past the limit; every text it lets through tomllib reads."""
    depth, text = case
    if depth > MAX_DEPTH:
        with pytest.raises(TextRefused):
            check_text(text, "toml", "case")
    else:
        check_text(text, "toml", "case")
        tomllib.loads(text)


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


@given(st.text(alphabet='[]{}"\'#\\\n =a1,:', max_size=400))
def test_any_text_is_refused_by_the_limit_or_read_within_it(text: str) -> None:
    """Whatever the text, the check answers (TextRefused or nothing, no other error); a JSON
    text it lets through that JSON reads is nested no deeper than the limit, and a TOML one
    is read by tomllib or refused by its own decode error."""
    for kind in ("toml", "json"):
        try:
            check_text(text, kind, "case", max_depth=8)  # type: ignore[arg-type]
        except TextRefused:
            continue
        if kind == "toml":
            try:
                tomllib.loads(text)
            except tomllib.TOMLDecodeError:
                pass
            continue
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            continue
        assert _depth(value) <= 8


PHH = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = {min_bet}
starting_stacks = [200, 200]
actions = ["d dh p1 AsKs", "d dh p2 7h2c", "p2 f"]
players = ["Ann", "Bob"]
x = {nested}
"""


@pytest.mark.parametrize(("name", "text", "said"), [
    ("inf.phh", PHH.format(min_bet="inf", nested="0"), "expected a finite number, got Infinity"),
    ("huge.phh", PHH.format(min_bet="1e400", nested="0"), "at most 1,000,000,000,000,000 chips"),
    ("deep.phh", PHH.format(min_bet="2", nested="[" * 5000 + "]" * 5000),
     f"nested more than {MAX_DEPTH} levels deep"),
])
def test_a_hostile_phh_file_is_named_in_verify_and_import(tmp_path: Path, name: str,
                                                          text: str, said: str) -> None:
    """`phh verify` and `import`: the file and the field or the limit named, exit 1, no
    traceback (an infinite min_bet was an OverflowError, a deep array a RecursionError)."""
    path = tmp_path / name
    path.write_text(text)
    for command in (["phh", "verify", str(path)], ["import", str(path)]):
        code, output = _run(*command)
        assert code == 1 and said in output, output


def test_a_hostile_ohh_file_is_named_in_import(tmp_path: Path) -> None:
    """`import --format ohh`: a value nested 100,000 deep and an amount of 1e400 in handlog's
    own export are each named (the limit, the field), exit 1, no traceback."""
    url = f"sqlite:///{tmp_path / 'demo.db'}"
    assert _run("demo", "--db", url, "--players", "6", "--tables", "1", "--hands", "3")[0] == 0
    exported = tmp_path / "hands.ohh"
    assert _run("export", "--db", url, "--format", "ohh", "--out", str(exported))[0] == 0
    text = exported.read_text()
    assert '"small_blind_amount": ' in text
    cases = [('{"ohh": ' + "[" * 100_000 + "]" * 100_000 + "}",
              f"nested more than {MAX_DEPTH} levels"),
             (re.sub(r'"small_blind_amount": [0-9.]+', '"small_blind_amount": 1e400', text,
                     count=1), "small_blind_amount: expected a finite number")]
    for hostile, said in cases:
        path = tmp_path / "hostile.ohh"
        path.write_text(hostile)
        code, output = _run("import", "--format", "ohh", str(path))
        assert code == 1 and said in output, output


def test_names_are_capped_the_same_in_the_cli_and_the_api(tmp_path: Path) -> None:
    """A tournament's name (its structure's `name`) of 100,000 characters and a player's of 81:
    the CLI exits 1 and the API answers 422, each saying at most 80 characters; the tournament
    is not created (a name of 80 is taken at both doors)."""
    from handlog.engine.limits import MAX_NAME

    text = (EXAMPLES / "octobermuck.toml").read_text(encoding="utf-8")
    named = re.compile(r'^name = .*$', re.MULTILINE)
    long_name = named.sub(f'name = "{"N" * 100_000}"', text, count=1)
    path = tmp_path / "long.toml"
    path.write_text(long_name)
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    code, output = _run("tournament", "create", str(path), "--id", "long", "--db", url)
    assert code == 1 and f"name: at most {MAX_NAME} characters, got 100000" in output, output
    assert _run("tournament", "create", str(EXAMPLES / "octobermuck.toml"), "--id", "oct",
                "--db", url)[0] == 0
    code, output = _run("tournament", "register", "oct", "P" * (MAX_NAME + 1), "--db", url)
    assert code == 1 and f"at most {MAX_NAME} characters" in output, output
    assert _run("tournament", "register", "oct", "P" * MAX_NAME, "--db", url)[0] == 0
    recorder = make_recorder(tmp_path)
    app, auth = make_app(recorder)
    with Client(app, auth) as director:
        director.login("director")
        csrf = {"X-CSRF-Token": director.csrf}
        answer = director.http.post("/api/tournaments", headers=csrf,
                                    json={"id": "long", "structure": long_name})
        assert answer.status_code == 422, answer.text
        assert f"name: at most {MAX_NAME} characters, got 100000" in answer.json()["message"]
        assert director.http.post("/api/tournaments", headers=csrf,
                                  json={"id": "oct", "structure": text}).status_code == 200
        for name, status in (("P" * (MAX_NAME + 1), 422), ("P" * MAX_NAME, 200)):
            answer = director.http.post("/api/tournaments/oct/commands", headers=csrf,
                                        json={"command": {"type": "register", "name": name}})
            assert answer.status_code == status, answer.text[:300]
    with open_store(url) as store:
        assert not any("long" in head.stream_id for head in store.streams())
    assert not any("long" in head.stream_id for head in recorder.store.streams())
    hand = tmp_path / "long.phh"  # and a hand imported into the log names its players
    hand.write_text((TESTS_DIR / "fixtures/phh/good/heads_up.phh").read_text(encoding="utf-8")
                    + f'players = ["{"A" * 81}", "Bob"]\n')
    imported = f"sqlite:///{tmp_path / 'imported.db'}"
    code, output = _run("import", "--into-log", "--db", imported, str(hand))
    assert f"not recorded: player: at most {MAX_NAME} characters, got 81" in output, output
    with open_store(imported) as store:
        assert store.streams() == []
