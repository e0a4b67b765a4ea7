"""Faster construction for the frozen, slotted dataclasses events and commands are made of.

A frozen dataclass's generated `__init__` sets each field through `object.__setattr__` (to get
past the frozen `__setattr__`). The slot's own descriptor does the same job at well under half
the cost, and a replay builds events and commands by the hundred thousand. `fast_init` gives a
class an `__init__` with the same signature and defaults that sets the slots through their
descriptors (then calls `__post_init__`, if any); the class stays a frozen dataclass in every
other way (fields, eq, hash, repr, assignment refused).
"""

from __future__ import annotations

import builtins
import dataclasses
from collections.abc import Callable
from operator import attrgetter
from types import CodeType, FunctionType
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T")


def fast_init(cls: type[T]) -> type[T]:
    """Replace the `__init__` of a frozen, slotted dataclass (others are returned unchanged)."""
    params = getattr(cls, "__dataclass_params__", None)
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]  # checked: a dataclass
    if params is None or not params.frozen or any(
            not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING
            or not hasattr(cls.__dict__.get(f.name), "__set__") for f in fields):
        return cls  # only frozen classes whose fields are slots (or compiled attributes)
    defaults = tuple(f.default for f in fields if f.default is not dataclasses.MISSING)
    if any(f.default is dataclasses.MISSING for f in fields[len(fields) - len(defaults):]):
        raise TypeError(f"{cls.__name__}: a field without a default follows one with a default")
    # The function dataclasses would write (source built from the fields), but compiled once
    # per number of fields: each class's copy renames the arguments to its fields and reads
    # its own slots' setters (`_s0`, `_s1`, ... in its globals).
    code = _init_code(len(fields), hasattr(cls, "__post_init__")).replace(
        co_varnames=("self", *(f.name for f in fields)),
        co_qualname=f"{cls.__qualname__}.__init__")
    setters: dict[str, Any] = {f"_s{number}": cls.__dict__[f.name].__set__
                               for number, f in enumerate(fields)}
    init = FunctionType(code, {"__builtins__": builtins, **setters}, "__init__",
                        defaults or None)
    init.__module__ = cls.__module__
    init.__annotations__ = {f.name: f.type for f in fields} | {"return": None}
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


_INIT_CODES: dict[tuple[int, bool], CodeType] = {}


def _init_code(count: int, post_init: bool) -> CodeType:
    code = _INIT_CODES.get((count, post_init))
    if code is None:
        body = "".join(f"    _s{number}(self, _a{number})\n" for number in range(count))
        if post_init:
            body += "    self.__post_init__()\n"
        arguments = "".join(f", _a{number}" for number in range(count))
        namespace: dict[str, Any] = {}
        exec(f"def __init__(self{arguments}):\n{body or '    pass'}\n", namespace)  # noqa: S102
        code = _INIT_CODES[(count, post_init)] = namespace["__init__"].__code__
    return code


@overload
def record(cls: type[T], /, *, slots: bool = True) -> type[T]: ...
@overload
def record(*, slots: bool = True) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True)
def record(cls: type[T] | None = None, /, *,
           slots: bool = True) -> type[T] | Callable[[type[T]], type[T]]:
    """`@dataclass(frozen=True, slots=True)` with `fast_init`'s `__init__`, built cheaply
    (`@record(slots=False)`: `@dataclass(frozen=True)`, for a class built once or twice).

    The dataclass decorator writes the source of every method it adds (`__init__`, `__repr__`,
    `__eq__`, `__hash__`, `__setattr__`, `__delattr__`) and compiles each: about 90% of the
    cost of a class, paid at every start for every event and command class (issue 28). Here the
    decorator only collects the fields and makes the slots; `__init__` is compiled once per
    number of fields (it is the hot one: see `fast_init`), and the other methods are shared
    functions reading a per-class tuple of field names. The class is a frozen dataclass to
    every reader (`dataclasses.fields`, `replace`, `asdict`, `__dataclass_params__.frozen`,
    `__match_args__`, pickling), and its instances compare, hash and print as the dataclass's.
    Without slots, dataclass still writes `__init__` (with its default factories) and the
    frozen `__setattr__` and `__delattr__`; the rest is shared.
    """
    if cls is None:
        return lambda cls: record(cls, slots=slots)
    for name in ("__hash__", "__setattr__", "__delattr__"):
        if name in cls.__dict__ and not (name == "__hash__" and cls.__dict__[name] is None):
            raise TypeError(f"{cls.__name__} defines {name}: a record makes its own")
    has_doc = cls.__dict__.get("__doc__") is not None
    if not has_doc:
        cls.__doc__ = "-"  # (else dataclass computes the class's signature: inspect is slow)
    if slots:
        cls = dataclasses.dataclass(cls, init=False, repr=False, eq=False, slots=True)
    else:
        cls = dataclasses.dataclass(cls, repr=False, eq=False, frozen=True)
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    params.init = params.repr = params.eq = params.frozen = True
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    cls._record_fields = (  # type: ignore[attr-defined]
        tuple(f.name for f in fields),
        tuple(f.name for f in fields if f.repr),
        _tuple_getter([f.name for f in fields if f.compare]),
        _tuple_getter([f.name for f in fields if (f.compare if f.hash is None else f.hash)]))
    shared = [("__repr__", _repr), ("__eq__", _eq), ("__hash__", _hash)]
    if slots:
        shared += [("__setattr__", _setattr), ("__delattr__", _delattr),
                   ("__getstate__", _getstate), ("__setstate__", _setstate)]
    for name, method in shared:
        if name in cls.__dict__ and name in ("__repr__", "__eq__", "__getstate__",
                                             "__setstate__"):
            continue  # the class's own, as dataclass keeps it
        setattr(cls, name, method)
    if slots:
        fast_init(cls)
        if cls.__init__ is object.__init__:
            raise TypeError(f"{cls.__name__}: a record's fields are plain (no default factory, "
                            "keyword-only or init=False field)")
    if not has_doc:  # dataclass's own docstring for a class without one: its signature
        cls.__doc__ = cls.__name__ + "(" + ", ".join(_annotated(f) for f in fields) + ")"
    return cls


# The shared methods of `record` classes: what dataclasses generates, reading `_record_fields`
# (names, shown in repr, compared, hashed) instead of names compiled into each method.


def _repr(self: Any) -> str:
    shown = self._record_fields[1]
    return (f"{type(self).__qualname__}("
            + ", ".join(f"{name}={getattr(self, name)!r}" for name in shown) + ")")


def _eq(self: Any, other: object) -> bool:
    compared: Callable[[object], tuple[object, ...]] = self._record_fields[2]
    if other.__class__ is self.__class__:
        same: bool = compared(self) == compared(other)
        return same
    return NotImplemented  # type: ignore[no-any-return]


def _hash(self: Any) -> int:
    return hash(self._record_fields[3](self))


def _tuple_getter(names: list[str]) -> Callable[[object], tuple[object, ...]]:
    # The fields' values as a tuple (what dataclass compares and hashes), read in C.
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda value: (one(value),)
    return lambda value: ()


def _setattr(self: Any, name: str, value: object) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _getstate(self: Any) -> list[object]:
    return [getattr(self, name) for name in self._record_fields[0]]


def _setstate(self: Any, state: list[object]) -> None:
    for name, value in zip(self._record_fields[0], state, strict=False):
        object.__setattr__(self, name, value)


def _annotated(f: dataclasses.Field[Any]) -> str:
    text = f"{f.name}: {f.type!r}"
    if f.default is not dataclasses.MISSING:
        return f"{text} = {f.default!r}"
    if f.default_factory is not dataclasses.MISSING:
        return f"{text} = <factory>"
    return text
