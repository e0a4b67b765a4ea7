"""Canonical JSON and the event codec: round trips for every event class, golden fixtures that
must decode forever, and upcasting an old version."""

from __future__ import annotations

import dataclasses
import enum
import json
import re
import types
import typing
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handlog.schema.codec import (
    EventCodec,
    _to_json,
    canonical_json,
    decode_event,
    encode_event,
    format_utc,
)
from handlog.schema.errors import CanonicalJsonError, EventCodecError

events_module = pytest.importorskip("handlog.engine.events",
                                    reason="engine/events.py not written yet")
EVENT_TYPES: tuple[type, ...] = events_module.all_event_types()

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "events"
FIXTURE_NAME = re.compile(r"^(?P<type>[a-z][a-z0-9_]*)\.v(?P<version>[1-9][0-9]*)\.json$")


# --- canonical JSON ---------------------------------------------------------------------------


def test_canonical_json_is_sorted_compact_and_unescaped() -> None:
    """Keys sorted, no spaces, non-ASCII kept as is, tuples as lists."""
    value = {"b": 1, "a": [True, None, "Zoë ♠"], "c": {"z": (1, 2), "y": ""}}
    assert canonical_json(value) == '{"a":[true,null,"Zoë ♠"],"b":1,"c":{"y":"","z":[1,2]}}'


def test_canonical_json_writes_utc_datetimes_in_one_form() -> None:
    assert canonical_json(datetime(2025, 3, 4, 5, 6, 7, 89, tzinfo=UTC)) == (
        '"2025-03-04T05:06:07.000089Z"'
    )


@pytest.mark.parametrize(
    "value",
    [
        1.0,
        {"pot": [100, 2.5]},
        float("nan"),
        datetime(2025, 1, 1),
        datetime(2025, 1, 1, tzinfo=timezone(timedelta(hours=1))),
        {1: "a"},
        {"s": "\ud800"},
        {"b": b"bytes"},
        {1, 2},
    ],
    ids=["float", "nested-float", "nan", "naive", "not-utc", "int-key", "surrogate", "bytes",
         "set"],
)
def test_canonical_json_refuses_what_has_no_single_form(value: object) -> None:
    with pytest.raises(CanonicalJsonError):
        canonical_json(value)


def test_canonical_json_error_names_the_place() -> None:
    with pytest.raises(CanonicalJsonError, match=r"\$\.pots\[1\] is a float"):
        canonical_json({"pots": [1, 2.5]})


def test_bools_and_int_like_values_stay_what_they_are() -> None:
    class Seat(enum.IntEnum):
        ONE = 1

    big = 10**30
    assert canonical_json([True, False, Seat.ONE, big]) == f"[true,false,1,{big}]"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda children: st.lists(children) | st.dictionaries(st.text(), children),
    max_leaves=30,
)


@given(json_values)
def test_canonical_json_is_a_fixed_point(value: object) -> None:
    """Parsing canonical JSON and writing it again gives the same text (stable hashes)."""
    text = canonical_json(value)
    assert json.loads(text) == value
    assert canonical_json(json.loads(text)) == text


# Any text, lone surrogates included (not valid Unicode: refused, naming the place).
any_text = st.text(st.characters(codec=None, categories=None))
plain_values = st.recursive(
    st.none() | st.booleans() | st.integers() | any_text,
    lambda children: (st.lists(children) | st.lists(children).map(tuple)
                      | st.dictionaries(any_text, children)),
    max_leaves=30,
)


def defined_text(value: object) -> str:
    """The definition (module docstring), without canonical_json: json.dumps with its options,
    refused when the text is not valid Unicode."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    text.encode("utf-8")
    return text


@given(plain_values)
def test_canonical_json_of_plain_values_is_the_definition(value: object) -> None:
    """The shortcut for values already plain (every append's payloads) writes exactly the
    definition's text, and refuses text that is not valid Unicode naming the place."""
    try:
        expected = defined_text(value)
    except UnicodeEncodeError:
        with pytest.raises(CanonicalJsonError, match="is not valid Unicode text"):
            canonical_json(value)
        return
    assert canonical_json(value) == expected


def test_a_surrogate_deep_in_a_plain_value_is_named() -> None:
    with pytest.raises(CanonicalJsonError, match=r"\$\.seats\[1\]\.name is not valid Unicode"):
        canonical_json({"seats": [{"name": "a"}, {"name": "b\udc80"}]})


def test_a_surrogate_in_a_key_is_named() -> None:
    """(Found by the test above: a key that is not valid Unicode was written as it came.)"""
    with pytest.raises(CanonicalJsonError, match=r"\$\.seats has a key .* not valid Unicode"):
        canonical_json({"seats": {"\ud800": None}})


@given(st.datetimes(timezones=st.just(UTC)) | st.datetimes(timezones=st.timezones()))
def test_utc_text_is_strftimes(moment: datetime) -> None:
    """format_utc's shortcut writes what strftime writes, every year from 1 to 9999."""
    if moment.utcoffset() != timedelta(0):
        with pytest.raises(CanonicalJsonError, match="not in UTC"):
            format_utc(moment)
        return
    assert format_utc(moment) == moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# --- round trips ------------------------------------------------------------------------------

_INVALID = object()


def strategy_for(hint: Any) -> st.SearchStrategy[Any]:
    """Values of a field type; chips and counts are ints (never floats)."""
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers()
    if hint is str:
        return st.text()
    if hint is type(None):
        return st.none()
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return st.sampled_from(list(hint))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return events_of(hint)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        return st.one_of(*(strategy_for(arm) for arm in args))
    if origin is typing.Literal:
        return st.sampled_from(args)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return st.lists(strategy_for(args[0]), max_size=6).map(tuple)
    if origin is tuple:
        return st.tuples(*(strategy_for(arm) for arm in args))
    raise TypeError(f"no strategy for {hint!r}")


def _construct(cls: type, arguments: dict[str, Any]) -> Any:
    try:
        return cls(**arguments)
    except (TypeError, ValueError):  # the class's own validation refused these values
        return _INVALID


def events_of(cls: type) -> st.SearchStrategy[Any]:
    """Instances of a frozen event dataclass (values its __post_init__ refuses are skipped)."""
    hints = typing.get_type_hints(cls)
    fields = {f.name: strategy_for(hints[f.name]) for f in dataclasses.fields(cls) if f.init}
    return (
        st.fixed_dictionaries(fields)
        .map(lambda arguments: _construct(cls, arguments))
        .filter(lambda event: event is not _INVALID)
    )


@pytest.mark.parametrize("cls", EVENT_TYPES, ids=lambda cls: cls.TYPE)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_event_class_round_trips(cls: type, data: st.DataObject) -> None:
    """decode(encode(e)) == e, through the canonical JSON text the store keeps."""
    event = data.draw(events_of(cls))
    event_type, version, payload = encode_event(event)
    assert (event_type, version) == (cls.TYPE, cls.VERSION)  # type: ignore[attr-defined]
    stored = json.loads(canonical_json(payload))
    assert decode_event(event_type, version, stored) == event


@pytest.mark.parametrize("cls", EVENT_TYPES, ids=lambda cls: cls.TYPE)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_the_encoders_shortcut_gives_the_walks_payload(cls: type, data: st.DataObject) -> None:
    """encode's per-class shortcut (`_to_json_fast`) gives `_to_json`'s payload, key order
    and types included, for every event class."""
    event = data.draw(events_of(cls))
    walked = _to_json(event, "$")
    _event_type, _version, payload = encode_event(event)
    assert payload == walked and repr(payload) == repr(walked)


class _Colour(enum.Enum):
    RED = "red"


@dataclass(frozen=True)
class _Tagged:
    TYPE: ClassVar[str] = "tagged"
    VERSION: ClassVar[int] = 1
    colour: Any
    note: Any = ""


def test_what_the_shortcut_does_not_take_the_walk_encodes_or_names() -> None:
    """An enum is the walk's (its value); a value that cannot be stored is named with its
    place, as before the shortcut."""
    codec = EventCodec([_Tagged])
    assert codec.encode(_Tagged(_Colour.RED, "x")) == ("tagged", 1, {"colour": "red",
                                                                    "note": "x"})
    with pytest.raises(EventCodecError, match=r"\$\.note\[1\] cannot be stored: float"):
        codec.encode(_Tagged("red", (1, 2.5)))


def test_event_types_are_unique_snake_case_names() -> None:
    """Stored names are stable snake_case, never module paths, and no two classes share one."""
    names = [cls.TYPE for cls in EVENT_TYPES]  # type: ignore[attr-defined]
    assert len(names) == len(set(names))
    for name in names:
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", name), name
    for cls in EVENT_TYPES:
        params = cls.__dataclass_params__  # type: ignore[attr-defined]
        assert params.frozen, f"{cls.__name__} is not frozen"


# --- golden fixtures --------------------------------------------------------------------------


def _fixtures() -> list[Path]:
    return sorted(FIXTURES.glob("*.json"))


def test_every_current_event_version_has_a_golden_fixture() -> None:
    """Each (TYPE, VERSION) the code writes has tests/fixtures/events/<type>.v<N>.json."""
    missing = [
        f"{cls.TYPE}.v{cls.VERSION}.json"  # type: ignore[attr-defined]
        for cls in EVENT_TYPES
        if not (FIXTURES / f"{cls.TYPE}.v{cls.VERSION}.json").exists()  # type: ignore[attr-defined]
    ]
    assert missing == [], (
        "run `.venv/bin/python tests/fixtures/make_event_fixtures.py` to add: " + ", ".join(missing)
    )


@pytest.mark.parametrize("path", _fixtures(), ids=lambda path: path.name)
def test_golden_fixture_decodes(path: Path) -> None:
    """Every fixture ever written decodes with today's code (through upcasters if old)."""
    match = FIXTURE_NAME.match(path.name)
    assert match, f"fixture name {path.name} is not <type>.v<N>.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    assert (record["type"], record["schema_version"]) == (
        match["type"], int(match["version"])
    )
    try:
        event = decode_event(record["type"], record["schema_version"], record["payload"])
    except EventCodecError as exc:
        pytest.fail(
            f"{path.name} no longer decodes: {exc}. If the class changed, bump its VERSION and "
            "register an upcaster (schema/upcasters.py); before the first release the "
            "fixture may instead be rewritten with make_event_fixtures.py --rewrite-current.",
            pytrace=False,
        )
    cls = type(event)
    if record["schema_version"] == cls.VERSION:
        # Today's encoding of a current-version fixture is the fixture itself.
        assert encode_event(event)[2] == record["payload"]


def test_event_amended_v1_replaced_version_1_payloads() -> None:
    """An amendment stored before event_amended v2 decodes with replacement_version 1, the
    version every replacement payload had then, and its replacement still decodes."""
    from handlog.engine.events import RaiseMade
    from handlog.engine.table_events import EventAmended

    stored = {"version": 7, "replacement_type": "raise_made", "reason": "typo", "rule": "TDA 1",
              "replacement_payload": '{"all_in":false,"full":true,"player":2,"to":80}'}
    event = decode_event("event_amended", 1, stored)
    assert isinstance(event, EventAmended) and event.replacement_version == 1
    assert decode_event(event.replacement_type, event.replacement_version,
                        json.loads(event.replacement_payload)) == RaiseMade(2, 80)


def test_hand_started_v1_had_no_dead_money() -> None:
    """A hand started before hand_started v2 decodes with dead_money 0 (every pot then started
    empty), and the engine starts it exactly as before."""
    from handlog.engine.events import HandStarted
    from handlog.engine.hand import setup_from_event, start_hand

    fixture = json.loads((FIXTURES / "hand_started.v1.json").read_text(encoding="utf-8"))
    event = decode_event("hand_started", 1, fixture["payload"])
    assert isinstance(event, HandStarted) and event.dead_money == 0
    stored = {"hand_number": 3, "players": ["a", "b", "c"], "seats": [1, 2, 3],
              "stacks": [1000, 1000, 1000], "blinds": [50, 100, 0], "antes": [0, 0, 0],
              "min_bet": 100, "chip_unit": 25, "profile": "octobermuck", "button_seat": 3}
    old = decode_event("hand_started", 1, stored)
    assert isinstance(old, HandStarted)
    assert start_hand(setup_from_event(old)).pot_total == 150


def test_fixture_names_are_known_event_types() -> None:
    known = {cls.TYPE for cls in EVENT_TYPES}  # type: ignore[attr-defined]
    names = {FIXTURE_NAME.match(path.name)["type"] for path in _fixtures()}  # type: ignore[index]
    assert names <= known


# --- upcasting and decoding errors (on a codec of their own) -----------------------------------


@dataclass(frozen=True, slots=True)
class Seat:
    number: int
    player: str | None = None


@dataclass(frozen=True, slots=True)
class ChipsCountedV1:
    """How the class looked at version 1: one amount in the 25-chip unit."""

    TYPE: ClassVar[str] = "chips_counted"
    VERSION: ClassVar[int] = 1
    seat: int
    units: int


@dataclass(frozen=True, slots=True)
class ChipsCounted:
    """Version 2: chips as plain ints, the chip unit explicit, the seat a nested value."""

    TYPE: ClassVar[str] = "chips_counted"
    VERSION: ClassVar[int] = 2
    seat: Seat
    amount: int
    chip_unit: int
    tags: tuple[tuple[str, int], ...] = ()


def chips_counted_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    return {
        "seat": {"number": payload["seat"]},
        "amount": payload["units"] * 25,
        "chip_unit": 25,
    }


def test_upcaster_brings_a_version_1_payload_to_version_2() -> None:
    """A v1 payload stored long ago decodes as today's v2 class."""
    old = EventCodec([ChipsCountedV1])
    event_type, version, payload = old.encode(ChipsCountedV1(seat=4, units=48))
    assert (event_type, version, payload) == ("chips_counted", 1, {"seat": 4, "units": 48})

    codec = EventCodec([ChipsCounted])
    codec.register_upcaster("chips_counted", 1, chips_counted_v1_to_v2)
    assert codec.decode(event_type, version, payload) == ChipsCounted(
        seat=Seat(4), amount=1200, chip_unit=25
    )


def test_nested_dataclasses_and_tuples_round_trip() -> None:
    codec = EventCodec([ChipsCounted])
    event = ChipsCounted(Seat(2, "Ana"), 1000, 25, (("red", 5), ("green", 3)))
    event_type, version, payload = codec.encode(event)
    assert payload == {
        "seat": {"number": 2, "player": "Ana"},
        "amount": 1000,
        "chip_unit": 25,
        "tags": [["red", 5], ["green", 3]],
    }
    assert codec.decode(event_type, version, json.loads(canonical_json(payload))) == event


def test_missing_upcaster_is_a_clear_error() -> None:
    codec = EventCodec([ChipsCounted])
    with pytest.raises(EventCodecError, match="no upcaster for 'chips_counted' from version 1"):
        codec.decode("chips_counted", 1, {"seat": 1, "units": 2})


def test_version_newer_than_the_code_is_a_clear_error() -> None:
    codec = EventCodec([ChipsCounted])
    with pytest.raises(EventCodecError, match="version 3 is newer than this handlog"):
        codec.decode("chips_counted", 3, {})


def test_unknown_type_is_a_clear_error() -> None:
    with pytest.raises(EventCodecError, match="unknown event type 'chips_teleported'"):
        EventCodec([ChipsCounted]).decode("chips_teleported", 1, {})


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"seat": {"number": 1}, "amount": "10", "chip_unit": 25}, r"\$\.amount should be an int"),
        ({"seat": {"number": 1}, "amount": 1.5, "chip_unit": 25}, r"\$\.amount should be an int"),
        ({"seat": {"number": True}, "amount": 1, "chip_unit": 25}, r"\$\.seat\.number should be"),
        ({"seat": {"number": 1}, "amount": 1}, "missing field 'chip_unit'"),
        ({"seat": {"number": 1}, "amount": 1, "chip_unit": 1, "x": 0}, r"unknown field\(s\) x"),
        ({"seat": {"number": 1}, "amount": 1, "chip_unit": 1, "tags": [["a"]]}, "2 items"),
    ],
)
def test_malformed_payload_is_a_clear_error(payload: dict[str, Any], message: str) -> None:
    with pytest.raises(EventCodecError, match=message):
        EventCodec([ChipsCounted]).decode("chips_counted", 2, payload)


def test_two_classes_cannot_share_a_type() -> None:
    with pytest.raises(TypeError, match="both claim TYPE 'chips_counted'"):
        EventCodec([ChipsCounted, ChipsCountedV1])


def test_encoding_refuses_what_is_not_an_event() -> None:
    with pytest.raises(EventCodecError):
        encode_event(Seat(1))


# --- version 1 sentences become codes (events hold facts, not prose) --------------------------

_OLD_PROCEDURES = [
    ("the burn card stays; the premature flop goes back into the stub, the entire stub is "
     "reshuffled and the flop re-dealt without another burn once the betting is done",
     "reshuffle_keep_burn", "TDA RP-5", ["tda-rp-5"]),
    ("the premature turn and its burn are reshuffled with the rest of the deck, the deck is "
     "re-cut and the cards re-dealt once the betting is done", "reshuffle_with_burn",
     "BSE misdealt / exposed cards", ["bse-misdealt-exposed-cards"]),
    ("burn cards stay in the muck; the exposed card(s) are shuffled back into the deck; once "
     "betting completes the top card(s) are revealed", "reshuffle_then_top_card",
     "league accidental reveals", ["league-accidental-reveals"]),
    ("the flop is mixed back into the stub, the burn card stays; after the betting, shuffle, "
     "cut and deal a new flop without burning", "flop_mixed_back",
     "chairperson premature board cards", ["chairperson-premature-board-cards"]),
    ("the card is taken out of play for this round; the next card replaces it after a burn, "
     "and the exposed card is shuffled back for the river", "turn_out_for_the_round",
     "chairperson premature board cards", ["chairperson-premature-board-cards"]),
    ("the burn card stays; the river goes back into the deck, which is reshuffled and cut, and "
     "the river is dealt without another burn", "river_reshuffled",
     "chairperson premature board cards", ["chairperson-premature-board-cards"]),
]


@pytest.mark.parametrize(("text", "code", "rule", "rules"), _OLD_PROCEDURES,
                         ids=[c for _t, c, _r, _rs in _OLD_PROCEDURES])
def test_tda_rp_5_premature_board_v1_procedure_sentences_become_codes(
        text: str, code: str, rule: str, rules: list[str]) -> None:
    """Every procedure sentence version 1 wrote for a premature board card is its code."""
    event = decode_event("board_exposed_early", 1,
                         {"cards": ["Js"], "procedure": text, "rule": rule})
    assert (event.procedure, list(event.rules)) == (code, rules)


@pytest.mark.parametrize(("name", "rank"), [
    ("Royal flush", (8, 12)), ("Straight flush, nine high", (8, 7)),
    ("Four of a kind, sixes", (7, 4)), ("Full house, kings full of sevens", (6, 11, 5)),
    ("Flush, ace high", (5, 12)), ("Straight, five high", (4, 3)),
    ("Three of a kind, deuces", (3, 0)), ("Two pair, jacks and tens", (2, 9, 8)),
    ("Pair of queens", (1, 10)), ("High card, king", (0, 11)), ("", ()),
])
def test_pot_awarded_v1_hand_names_become_hand_ranks(name: str, rank: tuple[int, ...]) -> None:
    """A version 1 hand name is the hand rank it names, and today's words say it the same."""
    from handlog.engine.words import hand_name

    event = decode_event("pot_awarded", 1, {
        "pot": 0, "amount": 10, "eligible": [0, 1], "winners": [0], "shares": [10],
        "odd_chips": [], "hand_name": name, "ruling": ""})
    assert event.hand_rank == rank
    assert hand_name(event.hand_rank) == name


@pytest.mark.parametrize(("reason", "rule", "cause", "rules", "kept"), [
    ("clock expired facing a bet", "TDA 29", "clock_expired_facing_bet", ("tda-29",), ""),
    ("clock expired", "league timely bets", "clock_expired", ("league-timely-bets",), ""),
    ("exposed a card with action pending", "BSE mucked cards", "exposed_with_action_pending",
     ("bse-mucked-cards",), ""),
    ("away from the table when the deal was complete", "TDA 30", "absent_at_deal",
     ("tda-30",), ""),
    ("mucked cards touched", "TDA 65", "ruling", ("tda-65",), "mucked cards touched"),
    ("clock expired", "TDA 65", "ruling", ("tda-65",), "clock expired"),
])
def test_hand_killed_v1_engine_sentences_become_causes_and_a_director_keeps_his_words(
        reason: str, rule: str, cause: str, rules: tuple[str, ...], kept: str) -> None:
    """The engine's reasons become causes; a director's reason stays as he typed it (the rule
    that came with it tells them apart), and his citation becomes identifiers."""
    event = decode_event("hand_killed", 1, {"player": 1, "reason": reason, "rule": rule})
    assert (event.cause, event.rules, event.reason) == (cause, rules, kept)


@pytest.mark.parametrize(("event_type", "payload", "field", "value"), [
    ("player_seated", {"seat": 1, "player": "a", "stack": 10, "reason": "late entry"},
     "reason", "late_entry"),
    ("button_placed", {"seat": 1, "reason": "draw for the button"}, "reason", "button_draw"),
    ("stack_adjusted", {"seat": 1, "player": "a", "amount": -25,
                        "reason": "color-up (forfeit_to_next_pot)", "rule": "octobermuck"},
     "reason", "color_up"),
    ("pot_carried", {"amount": 100, "reason": "to the next pot of table 2: this table breaks",
                     "rule": "octobermuck", "other_table": "2"}, "rule", "octobermuck:color_up"),
    ("event_voided", {"versions": [3], "reason": "dealer undo", "rule": "correction"},
     "reason", "undo"),
    ("seats_drawn", {"seed": "1", "tables": ["1"], "assignments": [],
                     "reason": "final table redraw"}, "reason", "final_table_redraw"),
    ("table_closed", {"table": "2", "reason": "table broken"}, "reason", "table_broken"),
    ("player_withdrew", {"player": "a", "place": 3, "chips_removed": 100,
                         "rule": "BSE Missing Player: chips of a player who withdraws are "
                         "removed from play; League: chips are never split amongst the "
                         "players"}, "rule", "bse-missing-player"),
    ("prizes_awarded", {"pool": 100, "field_size": 24, "awards": [],
                        "rule": "payouts for 24-27 players: 30%, 20%; rounded down to 100 "
                        "cents, the remainder to first place"}, "rule", "payouts:24-27"),
    ("player_moved", {"player": "a", "from_table": "1", "from_seat": 2, "to_table": "2",
                      "to_seat": 3, "stack": 100, "reason": "balance",
                      "rule": "TDA: the player due the big blind next moves to the shortest "
                      "table"}, "rule", "tda-11-a"),
    ("ruling_recorded", {"rule": "TDA 45", "text": "verbal raise binding", "by": "td"},
     "rule", "tda-45"),
])
def test_table_and_tournament_v1_sentences_become_codes(
        event_type: str, payload: dict[str, Any], field: str, value: str) -> None:
    """Reasons and citations the engine and recorder wrote as sentences are codes now."""
    assert getattr(decode_event(event_type, 1, payload), field) == value


@pytest.mark.parametrize(("reason", "read"), [
    ("draw for the button", "button_draw"),
    ("button_draw", "button_draw"),
    ("ruling", "ruling"),
])
def test_button_placed_v2_seat_draw_words_read_as_the_code(reason: str, read: str) -> None:
    """The seat draw stored its button's reason at version 2 as the words 'draw for the
    button', the other draws as the code: both read as the code; any other reason stays."""
    assert decode_event("button_placed", 2, {"seat": 3, "reason": reason}).reason == read


def test_chips_colored_up_v1_citation_and_adjustment_reasons_become_identifiers() -> None:
    """A color-up's citation (the profile's sentence) is `profile:color_up`, known by the
    digest of its old text; each adjustment's reason is a code."""
    from handlog.engine.profiles import PROFILES

    payload = {"after_level": 3, "colours": ["green"], "old_unit": 25, "new_unit": 100,
               "method": "forfeit_to_next_pot", "removed": 0,
               "rule": PROFILES["octobermuck"].citations["color_up"], "next_pots": [],
               "adjustments": [{"player": "a", "table": "1", "stack_before": 1030,
                                "odd_chips": 30, "amount": -30,
                                "reason": "odd chips forfeited to the next pot", "cards": []}]}
    event = decode_event("chips_colored_up", 1, payload)
    assert event.rule == "octobermuck:color_up"
    assert event.adjustments[0].reason == "forfeited_to_next_pot"


def test_seats_drawn_v2_written_with_the_words_initial_draw_reads_as_its_code() -> None:
    """Events are facts: a random draw is the code `initial_draw`. For a while the engine wrote
    version 2 draws with the words "initial draw"; they read as the code, and the engine now
    writes the code."""
    from handlog.engine.tournament_events import SeatsDrawn

    stored = {"seed": "7", "tables": ["t1"], "reason": "initial draw",
              "assignments": [{"player": "ann", "table": "t1", "seat": 1}]}
    event = decode_event("seats_drawn", 2, stored)
    assert isinstance(event, SeatsDrawn) and event.reason == "initial_draw"
    assert decode_event("seats_drawn", 2, {**stored, "reason": "assigned"}).reason == "assigned"
