"""Reading PHH files: the TOML fast path, actions, fields, scaling and folder walking."""

from __future__ import annotations

import tomllib
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handlog.replay.phh import (
    PhhAction,
    PhhFormatError,
    PhhHand,
    PhhProblem,
    find_phh_files,
    load_file,
    loads_file,
    loads_toml,
    parse_action,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "phh"
# The repository is cloned next to shared/ (here and in CI).
SHARED_PHH = Path(__file__).resolve().parents[2] / "shared" / "data" / "phh"


@pytest.fixture
def shared_phh() -> Path:
    if not SHARED_PHH.is_dir():
        pytest.skip(f"the shared PHH data is not at {SHARED_PHH} (clone next to shared/)")
    return SHARED_PHH

MINIMAL = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [3000, 3000, 3000]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p1 f']
"""


def hand_of(text: str) -> PhhHand:
    (entry,) = loads_file(text, "t.phh", many=False)
    assert isinstance(entry, PhhHand), entry
    return entry


def problem_of(text: str) -> PhhProblem:
    (entry,) = loads_file(text, "t.phh", many=False)
    assert isinstance(entry, PhhProblem), entry
    return entry


# --- TOML -----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(FIXTURES.rglob("*.phh*")), ids=lambda p: p.name)
def test_fast_toml_agrees_with_tomllib_on_fixtures(path: Path) -> None:
    """The flat-file fast path gives exactly tomllib's result (floats as Decimal)."""
    text = path.read_text()
    try:
        expected = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError:
        with pytest.raises(tomllib.TOMLDecodeError):
            loads_toml(text)
        return
    assert loads_toml(text) == expected


_keys = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True)
_scalars = st.one_of(
    st.integers(-10**12, 10**12),
    st.decimals(allow_nan=False, allow_infinity=False, places=2, min_value=-10**6,
                max_value=10**6),
    st.booleans(),
    st.text(st.characters(codec="utf-8", exclude_characters="'\\\"\n\r",
                          exclude_categories=("Cc", "Cs")), max_size=12),
)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return str(value)


@given(st.dictionaries(_keys, st.one_of(_scalars, st.lists(_scalars, max_size=6)),
                       max_size=8))
def test_fast_toml_agrees_with_tomllib_on_generated_documents(doc: dict[str, object]) -> None:
    """Any flat `key = value` document reads the same through the fast path and tomllib."""
    text = "".join(f"{key} = {_toml_value(value)}\n" for key, value in doc.items())
    assert loads_toml(text) == tomllib.loads(text, parse_float=Decimal)


@pytest.mark.parametrize("text", [
    "a = 1 # a comment\n",
    "a = 'x' # 'quoted'\n",
    "[1]\na = 1\n",
    "a = [\n 1,\n 2,\n]\n",
    "a = 00:00:04\n",
    "a = \"tab\\there\"\n",
    "a = 1_000\n",
    "a = [1, 2, ]\n",
])
def test_fast_toml_hands_other_layouts_to_tomllib(text: str) -> None:
    """Comments, tables, multi-line arrays, times and escapes still parse (via tomllib)."""
    assert loads_toml(text) == tomllib.loads(text, parse_float=Decimal)


def test_fast_toml_rejects_what_tomllib_rejects() -> None:
    """A duplicate key is invalid TOML, fast path or not."""
    with pytest.raises(tomllib.TOMLDecodeError):
        loads_toml("a = 1\na = 2\n")


# --- actions --------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("d dh p1 AcKd", PhhAction("d dh p1 AcKd", "dh", 0, "AcKd")),
    ("d dh p3 ????", PhhAction("d dh p3 ????", "dh", 2, "????")),
    ("d db AhKh2c", PhhAction("d db AhKh2c", "db", None, "AhKh2c")),
    ("p2 cbr 300", PhhAction("p2 cbr 300", "cbr", 1, None, 300)),
    ("p1 cc", PhhAction("p1 cc", "cc", 0)),
    ("p3 f", PhhAction("p3 f", "f", 2)),
    ("p1 sm AcKd", PhhAction("p1 sm AcKd", "sm", 0, "AcKd")),
    ("p1 sm -", PhhAction("p1 sm -", "sm", 0, "-")),
    ("p1 sm", PhhAction("p1 sm", "sm", 0)),
    ("p10 cc # calls the clock", PhhAction("p10 cc # calls the clock", "cc", 9)),
    ("  p1   f  ", PhhAction("  p1   f  ", "f", 0)),
    ("", PhhAction("", "noop")),
    ("# burn card exposed", PhhAction("# burn card exposed", "noop")),
    ("p2 cbr 0.30", PhhAction("p2 cbr 0.30", "cbr", 1, None, None, Decimal("0.30"))),
    ("p2 cbr 300.0", PhhAction("p2 cbr 300.0", "cbr", 1, None, 300)),
])
def test_parse_action(text: str, expected: PhhAction) -> None:
    """Every PHH action form of no-limit hold'em splits into code, player, cards, amount."""
    assert parse_action(text) == expected


@pytest.mark.parametrize("text", [
    "p3 raise 300", "p1", "x1 f", "p0 f", "d dh p1 AcK", "d dh p1", "d db", "d xx",
    "p1 cbr", "p1 cbr -5", "p1 cbr 1e3", "p1 sm A", "p1 f now", "p1 pb", "p1 sd",
])
def test_parse_action_refuses_malformed_actions(text: str) -> None:
    """Anything that is not a no-limit hold'em PHH action is a format error naming it."""
    with pytest.raises(PhhFormatError, match="'"):
        parse_action(text)


# --- fields ---------------------------------------------------------------------------------


def test_minimal_hand() -> None:
    """A hand with only the required fields reads with defaults for the rest."""
    hand = hand_of(MINIMAL)
    assert hand.starting_stacks == (3000, 3000, 3000)
    assert hand.blinds_or_straddles == (50, 100, 0)
    assert hand.ante_trimming_status is False
    assert hand.finishing_stacks is None
    assert hand.rules is None and hand.chip_unit == 1 and hand.scale == 1
    assert [a.code for a in hand.actions] == ["dh", "dh", "dh", "f", "f"]


def test_user_defined_fields() -> None:
    """`_rules` names the profile and `_chip_unit` the smallest chip."""
    hand = hand_of(MINIMAL + "_rules = 'league'\n_chip_unit = 25\n_dead_money = 100\n")
    assert hand.rules == "league"
    assert hand.chip_unit == 25
    assert hand.dead_money == 100
    assert hand_of(MINIMAL).dead_money == 0


def test_dead_hands_field_names_mucks_ruled_dead() -> None:
    """`_dead_hands` lists the `pN sm` actions that are a director's dead-hand ruling; anything
    else in it is refused, naming the field."""
    actions = "actions = ['d dh p1 AsKs', 'd dh p2 QdQc', 'd dh p3 2c3c', 'p3 f', 'p1 sm']\n"
    body = MINIMAL.replace(MINIMAL[MINIMAL.index("actions = "):].split("\n")[0] + "\n", actions)
    assert hand_of(body + "_dead_hands = [4]\n").dead_hands == frozenset({4})
    assert hand_of(body).dead_hands == frozenset()
    for bad in ("[3]", "[9]", "'4'", "[4.0]"):
        problem = problem_of(body + f"_dead_hands = {bad}\n")
        assert (problem.kind, problem.field) == ("error", "_dead_hands"), bad


@pytest.mark.parametrize(("change", "field"), [
    ("min_bet = 100\n", "min_bet"),
    ("antes = [0, 0, 0]\n", "antes"),
    ("actions = ", "actions"),
])
def test_missing_required_field_is_named(change: str, field: str) -> None:
    """Leaving out a required field names that field and the file."""
    lines = [line for line in MINIMAL.splitlines(keepends=True) if not line.startswith(change)]
    problem = problem_of("".join(lines))
    assert problem.kind == "error"
    assert problem.field == field
    assert problem.message.startswith("t.phh: ")
    assert f"'{field}'" in problem.message


@pytest.mark.parametrize(("line", "field"), [
    ("antes = '0'", "antes"),
    ("antes = [0, 0]", "antes"),
    ("antes = [0, true, 0]", "antes[1]"),
    ("blinds_or_straddles = [50, -100, 0]", "blinds_or_straddles[1]"),
    ("min_bet = 'big'", "min_bet"),
    ("min_bet = 0", "min_bet"),
    ("starting_stacks = [3000, 0, 3000]", "starting_stacks"),
    ("variant = 3", "variant"),
    ("ante_trimming_status = 'yes'", "ante_trimming_status"),
    ("finishing_stacks = [1, 2]", "finishing_stacks"),
    ("players = ['a', 'b']", "players"),
    ("_rules = 7", "_rules"),
    ("_chip_unit = 0", "_chip_unit"),
    ("_dead_money = -100", "_dead_money"),
    ("_dead_money = '100'", "_dead_money"),
    ("actions = ['d dh p1 ????', 5]", "actions[1]"),
    ("actions = ['p4 f']", "actions[0]"),
    ("actions = 'p1 f'", "actions"),
])
def test_wrong_field_is_named(line: str, field: str) -> None:
    """A field of the wrong type, length or sign is an error naming the field."""
    key = line.split(" = ")[0]
    kept = [row for row in MINIMAL.splitlines() if not row.startswith(key + " ")]
    problem = problem_of("\n".join([*kept, line]) + "\n")
    assert (problem.kind, problem.field) == ("error", field)
    assert f"field '{field}'" in problem.message


def test_other_variant_is_unsupported_not_an_error() -> None:
    """Valid PHH of another game is skipped with the variant named."""
    problem = problem_of("variant = 'PO'\nantes = [0, 0]\n")
    assert problem.kind == "unsupported"
    assert problem.message == "variant PO is not No-Limit Texas Hold'em"


def test_unknown_stack_is_unsupported() -> None:
    """`inf` (unknown) starting stacks are valid PHH but cannot be replayed."""
    text = MINIMAL.replace("[3000, 3000, 3000]", "[3000, inf, 3000]")
    assert problem_of(text).kind == "unsupported"


# --- amounts --------------------------------------------------------------------------------


def test_decimal_amounts_are_scaled_to_integers() -> None:
    """Dollars and cents become integer cents, bets included; results stay exact."""
    hand = load_file(FIXTURES / "good" / "decimal_cash.phh")[0]
    assert isinstance(hand, PhhHand)
    assert hand.scale == 100
    assert hand.blinds_or_straddles == (5, 10, 0)
    assert hand.starting_stacks == (1000, 1234, 555)
    assert [a.amount for a in hand.actions if a.code == "cbr"] == [30, 50]
    assert hand.finishing_stacks == (Decimal(995), Decimal(1204), Decimal(590))
    assert hand.recorded_finishing_stacks == (Decimal("9.95"), Decimal("12.04"),
                                              Decimal("5.90"))


def test_half_chip_results_do_not_change_the_scale() -> None:
    """A recorded x.5 stays a half chip: results never set the scale."""
    hand = hand_of(MINIMAL + "finishing_stacks = [2950, 3050.5, 2999.5]\n")
    assert hand.scale == 1
    assert hand.finishing_stacks == (Decimal(2950), Decimal("3050.5"), Decimal("2999.5"))


def test_too_many_decimal_places_is_an_error() -> None:
    """Amounts finer than any currency are refused."""
    problem = problem_of(MINIMAL.replace("min_bet = 100", "min_bet = 100.000001"))
    assert problem.kind == "error"


# --- files and folders ----------------------------------------------------------------------


def test_phhs_hands_are_numbered_by_their_table() -> None:
    """Each `[n]` table of a .phhs is one hand, numbered n."""
    entries = load_file(FIXTURES / "good" / "hands.phhs")
    assert [entry.hand for entry in entries] == [1, 2]
    assert all(isinstance(entry, PhhHand) for entry in entries)


def test_bad_hand_in_phhs_does_not_hide_the_others() -> None:
    """One malformed table is an error for that hand only."""
    entries = load_file(FIXTURES / "malformed" / "mixed.phhs")
    assert [type(entry).__name__ for entry in entries] == ["PhhHand", "PhhProblem", "PhhProblem"]
    assert isinstance(entries[1], PhhProblem)
    assert entries[1].message.startswith(f"{FIXTURES / 'malformed' / 'mixed.phhs'} [2]: ")


def test_bad_toml_is_one_error_for_the_file() -> None:
    """Invalid TOML names the file; there is no hand to name."""
    (problem,) = load_file(FIXTURES / "malformed" / "bad_toml.phh")
    assert isinstance(problem, PhhProblem)
    assert problem.kind == "error" and problem.hand is None
    assert "bad_toml.phh: invalid TOML" in problem.message


def test_unreadable_file_is_an_error(tmp_path: Path) -> None:
    """A file that is not UTF-8 text is reported, not raised."""
    path = tmp_path / "binary.phh"
    path.write_bytes(b"\xff\xfe\x00")
    (problem,) = load_file(path)
    assert isinstance(problem, PhhProblem) and "cannot read" in problem.message


def test_find_files_recurses_in_natural_order(tmp_path: Path) -> None:
    """Folders are walked recursively, numbers in numeric order; other files are ignored."""
    for name in ("b/10.phh", "b/9.phh", "a/x.phhs", "a/notes.txt", "b/c/1.phh"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    explicit = tmp_path / "a" / "notes.txt"
    found = find_phh_files([tmp_path, explicit])
    assert [p.relative_to(tmp_path).as_posix() for p in found] == [
        "a/x.phhs", "b/9.phh", "b/10.phh", "b/c/1.phh", "a/notes.txt",
    ]


@pytest.mark.slow
def test_every_shared_file_parses_and_the_fast_path_agrees(shared_phh: Path) -> None:
    """Every file of the shared PHH data reads without a problem, identically to tomllib."""
    files = find_phh_files([shared_phh])
    assert len(files) > 10_000
    for path in files:
        text = path.read_text()
        assert loads_toml(text) == tomllib.loads(text, parse_float=Decimal), path
        for entry in load_file(path):
            assert isinstance(entry, PhhHand), entry


def test_a_phhs_file_named_phh_is_told_to_be_renamed() -> None:
    """An export of many hands saved as `.phh`: the error says to name it `.phhs`."""
    text = "[1]\n" + MINIMAL + "\n[2]\n" + MINIMAL
    (problem,) = loads_file(text, "hands.phh", many=False)
    assert isinstance(problem, PhhProblem) and problem.kind == "error"
    assert "must be named .phhs" in problem.message
    assert len(loads_file(text, "hands.phhs", many=True)) == 2
