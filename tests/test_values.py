"""engine.values.record: a frozen slotted dataclass built without compiling its methods per
class (issue 28), which behaves as `@dataclass(frozen=True, slots=True)` in every way a reader
or a test can see."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from typing import ClassVar

import pytest

from handlog.engine.events import all_event_types
from handlog.engine.values import record


@record
class Recorded:
    TYPE: ClassVar[str] = "recorded"
    player: int
    cards: tuple[str, ...]
    said: str = "nothing"
    hidden: int = dataclasses.field(default=0, repr=False, compare=False)


@dataclasses.dataclass(frozen=True, slots=True)
class Recorded_:  # the dataclass it stands for (the name differs in the reprs only)
    TYPE: ClassVar[str] = "recorded"
    player: int
    cards: tuple[str, ...]
    said: str = "nothing"
    hidden: int = dataclasses.field(default=0, repr=False, compare=False)


@record
class Bare:
    player: int


@dataclasses.dataclass(frozen=True, slots=True)
class Bare_:
    player: int


@record(slots=False)
class Unslotted:
    name: str
    extra: dict[str, str] = dataclasses.field(default_factory=dict, compare=False)


def test_a_record_is_the_frozen_slotted_dataclass_it_stands_for() -> None:
    """Fields, parameters, match args, slots, signature and docstring as dataclass makes them;
    instances compare, hash, print, copy, pickle, replace and refuse assignment alike."""
    for ours, theirs in ((Recorded, Recorded_), (Bare, Bare_)):
        assert [(f.name, f.type, f.default, f.repr, f.compare) for f in dataclasses.fields(ours)] \
            == [(f.name, f.type, f.default, f.repr, f.compare) for f in dataclasses.fields(theirs)]
        assert repr(ours.__dataclass_params__) == repr(theirs.__dataclass_params__)  # type: ignore[attr-defined]
        assert ours.__match_args__ == theirs.__match_args__  # type: ignore[attr-defined]
        assert ours.__slots__ == theirs.__slots__  # type: ignore[attr-defined]
        assert str(inspect.signature(ours)) == str(inspect.signature(theirs))
        assert (ours.__doc__ or "").replace(ours.__name__, "") == (theirs.__doc__ or "").replace(
            theirs.__name__, "")
    a, b = Recorded(1, ("As",), hidden=5), Recorded_(1, ("As",), hidden=5)
    assert repr(a) == repr(b).replace("Recorded_", "Recorded")
    assert hash(a) == hash(b) and a == Recorded(1, ("As",), hidden=9) and a != Recorded(2, ())
    assert (a == b) is False and a.__eq__(b) is NotImplemented
    assert hash(Bare(3)) == hash(Bare_(3)) and repr(Bare(3)) == "Bare(player=3)"
    for value in (a, Bare(3)):
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.deepcopy(value) == value and copy.copy(value) == value
    assert dataclasses.replace(a, said="call") == Recorded(1, ("As",), "call")
    assert dataclasses.asdict(a) == dataclasses.asdict(b)
    for target in (a, b):
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'said'"):
            target.said = "raise"  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'said'"):
            del target.said  # type: ignore[misc]
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'cards'"):
        Recorded(1)  # type: ignore[call-arg]


def test_an_unslotted_record_keeps_dataclass_s_init_and_factories() -> None:
    first, second = Unslotted("tda"), Unslotted("tda", {"a": "b"})
    assert first.extra == {} and first.extra is not Unslotted("tda").extra
    assert first == second and hash(first) == hash(second)
    assert repr(second) == "Unslotted(name='tda', extra={'a': 'b'})"
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.name = "bse"  # type: ignore[misc]


def test_a_record_refuses_what_it_cannot_build() -> None:
    with pytest.raises(TypeError, match="default factory"):
        @record
        class Listed:
            items: list[int] = dataclasses.field(default_factory=list)
    with pytest.raises(TypeError, match="defines __hash__"):
        @record
        class Hashed:
            player: int

            def __hash__(self) -> int:
                return 0


def test_every_event_class_is_a_record() -> None:
    """The log's events are records: built at start-up without a compile per method."""
    for cls in all_event_types():
        assert getattr(cls, "_record_fields", None) is not None, cls.__name__
