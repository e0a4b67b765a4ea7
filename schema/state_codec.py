"""Values kept as a cache, to and from JSON: frozen dataclasses and named tuples of ints, strs,
bools, enums, literals, optionals, tuples, frozensets and str-keyed dicts (an engine state),
nothing else.

Decoding follows the type hints of the class asked for and builds only those types, so a
damaged or hostile text is refused with an error, never run (this is why states are not
pickled). Events have their own codec (schema/codec.py), with versions and upcasters; a cached
state has neither: the code that wrote it is part of its key (replay/repository.py).
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import hashlib
import json
import sys
import types
import typing
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from handlog.schema.errors import EventCodecError

_hints_cache: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    hints = _hints_cache.get(cls)
    if hints is None:
        hints = _hints_cache[cls] = _source_hints(cls) or typing.get_type_hints(cls)
    return hints


def _source_hints(cls: type) -> dict[str, Any] | None:
    """The field hints of a class that mypyc compiled, read from its module's .py source: the
    compiled class keeps only erased annotations (`tuple` for `tuple[int, ...]`). None for a
    class run from its source (its own annotations are whole)."""
    module = sys.modules.get(cls.__module__)
    built = getattr(module, "__file__", None) or ""
    if module is None or built.endswith(".py"):
        return None
    source = Path(built).with_name(Path(built).name.split(".")[0] + ".py")
    if not source.is_file():
        raise EventCodecError(f"{cls.__qualname__}: no source to read its fields' types from")
    # Only the class's own lines are parsed (a server's first read is timed in milliseconds).
    lines = source.read_text().splitlines()
    starts = [k for k, line in enumerate(lines)
              if line.startswith((f"class {cls.__name__}(", f"class {cls.__name__}:"))]
    if not starts:
        return None
    end = next((k for k in range(starts[0] + 1, len(lines))
                if lines[k][:1] not in ("", " ", "#", ")")), len(lines))
    for node in ast.parse("\n".join(lines[starts[0]:end])).body:
        if isinstance(node, ast.ClassDef):
            namespace = vars(module)
            return {item.target.id: eval(ast.unparse(item.annotation), namespace)  # noqa: S307
                    for item in node.body if isinstance(item, ast.AnnAssign)
                    and isinstance(item.target, ast.Name)
                    and not ast.unparse(item.annotation).startswith("ClassVar")}
    return None


def _is_named_tuple(cls: object) -> bool:
    return isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields")


SHARED = "$shared"
"""The one key of a large record written by reference: `{"$shared": its digest}`."""
_LARGE = 40  # fields (house rules have 44; a hand 34, made anew each hand)


def to_json(value: object, shared: dict[str, Any] | None = None) -> object:
    """The JSON value of `value` (objects for dataclasses and named tuples, lists for tuples).

    With `shared`, each large record (a room's house rules, the same in every hand of every
    table) is written as a reference to its JSON value, which is put in `shared` under its
    digest (`shared_digest`): to be stored once and given back to `share` before a read."""
    if value is None or isinstance(value, bool | int | str) and not isinstance(value, enum.Enum):
        return value
    if isinstance(value, enum.Enum):
        return to_json(value.value)
    record: dict[str, object] | None = None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        record = {f.name: to_json(getattr(value, f.name), shared)
                  for f in dataclasses.fields(value) if f.init}
    elif isinstance(value, tuple) and _is_named_tuple(type(value)):
        names: tuple[str, ...] = type(value)._fields  # type: ignore[attr-defined]
        record = {name: to_json(item, shared) for name, item in zip(names, value, strict=True)}
    if record is not None:
        if shared is None or len(record) < _LARGE:
            return record
        digest = shared_digest(record)
        shared[digest] = record
        return {SHARED: digest}
    if isinstance(value, tuple | list):
        return [to_json(item, shared) for item in value]
    if isinstance(value, frozenset):  # (one text per set)
        return sorted((to_json(item, shared) for item in value), key=json.dumps)
    if isinstance(value, dict) and all(type(key) is str for key in value):
        return {key: to_json(item, shared) for key, item in value.items()}
    raise EventCodecError(f"a {type(value).__name__} is not kept in a cached state ({value!r})")


def shared_digest(value: object) -> str:
    """The name of a shared record: a digest of its canonical JSON text."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


_shared: dict[str, object] = {}  # digest -> JSON value (digests name contents: one per process)
_shared_decoded: dict[tuple[type, str], Any] = {}


def share(digest: str, value: object) -> None:
    """Make a shared record known to `from_json` (EventCodecError if `value` is not what
    `digest` names: a damaged copy is never taken)."""
    if digest not in _shared:
        if shared_digest(value) != digest:
            raise EventCodecError(f"the shared record {digest} does not have its digest")
        _shared[digest] = value


def is_shared(digest: str) -> bool:
    """Whether `share` was given the record named `digest` in this process."""
    return digest in _shared


def from_json(hint: Any, value: object, path: str = "$") -> Any:
    """The value of type `hint` that `to_json` made `value` from; EventCodecError otherwise."""
    return _decoder(hint)(value, path)


Decoder = Callable[[object, "str | None"], Any]
"""Decodes a JSON value into one type. A path of None: the caller is decoding the parts of a
value and, on an error, decodes them again with their paths (the error says where); paths
are made only then, not for every part of every state read."""

_decoders: dict[Any, Decoder] = {}


def _decoder(hint: Any) -> Decoder:
    """The decoder of `hint`, made once per type (its hints read once, not at every value)."""
    found = _decoders.get(hint)
    if found is None:
        found = _decoders[hint] = _make(hint)
    return found


def _is_a(expected: type) -> Decoder:
    def decode(value: object, path: str | None) -> Any:
        if type(value) is not expected:
            raise EventCodecError(
                f"{path} should be {expected.__name__}, got {type(value).__name__}")
        return value
    return decode


def _parts(decode: Callable[[object, str | None], Any], items: Sequence[Any],
           path: str | None, where: Callable[[int], str]) -> list[Any]:
    """The items decoded (again with each one's path, to say which one, if one is wrong)."""
    try:
        return [decode(item, None) for item in items]
    except EventCodecError:
        if path is None:
            raise
        return [decode(item, where(i)) for i, item in enumerate(items)]


def _make(hint: Any) -> Decoder:  # noqa: C901 - one arm per kind of type, as to_json
    if hint is Any:
        def untyped(value: object, path: str | None) -> Any:
            raise EventCodecError(f"{path}: a cached state has no untyped field")
        return untyped
    if hint is type(None):
        def null(value: object, path: str | None) -> Any:
            if value is not None:
                raise EventCodecError(f"{path} should be null")
            return None
        return null
    if hint is bool or hint is int or hint is str:
        return _is_a(hint)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        members: type[enum.Enum] = hint

        def member(value: object, path: str | None) -> Any:
            try:
                return members(value)
            except ValueError:
                raise EventCodecError(f"{path}: {value!r} is not a {members.__name__}") from None
        return member
    if isinstance(hint, type) and (dataclasses.is_dataclass(hint) or _is_named_tuple(hint)):
        cls: type = hint  # (its fields' decoders made at its first value: a type may hold
        return lambda value, path: _record(cls, value, path)  # itself)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        optional = type(None) in args
        arms = [_decoder(arm) for arm in args if arm is not type(None)]

        if len(arms) == 1:
            only = arms[0]

            def optional_one(value: object, path: str | None) -> Any:
                if value is None and optional:
                    return None
                return only(value, path)
            return optional_one

        def union(value: object, path: str | None) -> Any:
            if value is None and optional:
                return None
            for arm in arms:
                try:
                    return arm(value, path)
                except EventCodecError:
                    continue
            raise EventCodecError(f"{path} is none of {hint!r}")
        return union
    if origin is typing.Literal:
        kinds = {type(a) for a in args}

        def literal(value: object, path: str | None) -> Any:
            if value not in args or type(value) not in kinds:
                raise EventCodecError(f"{path} should be one of {args!r}")
            return value
        return literal
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _decoder(args[0])

        scalar = args[0] if args[0] in (int, str, bool) else None

        def items(value: object, path: str | None) -> Any:
            if not isinstance(value, list):
                raise EventCodecError(f"{path} should be a list")
            if scalar is not None and all(type(part) is scalar for part in value):
                return tuple(value)
            return tuple(_parts(item, value, path, lambda i: f"{path}[{i}]"))
        return items
    if origin is tuple:
        fixed = [_decoder(arm) for arm in args]

        def fixed_items(value: object, path: str | None) -> Any:
            if not isinstance(value, list):
                raise EventCodecError(f"{path} should be a list")
            if len(fixed) != len(value):
                raise EventCodecError(f"{path} should have {len(fixed)} items")
            try:
                return tuple(arm(part, None) for arm, part in zip(fixed, value, strict=True))
            except EventCodecError:
                if path is None:
                    raise
                return tuple(arm(part, f"{path}[{i}]")
                             for i, (arm, part) in enumerate(zip(fixed, value, strict=True)))
        return fixed_items
    if origin is frozenset:
        element = _decoder(args[0])

        def elements(value: object, path: str | None) -> Any:
            if not isinstance(value, list):
                raise EventCodecError(f"{path} should be a list")
            return frozenset(_parts(element, value, path, lambda i: f"{path}[{i}]"))
        return elements
    if origin is dict and args and args[0] is str:
        entry = _decoder(args[1])

        def entries(value: object, path: str | None) -> Any:
            if not isinstance(value, dict):
                raise EventCodecError(f"{path} should be an object")
            keys = list(value)
            decoded = _parts(entry, [value[k] for k in keys], path,
                             lambda i: f"{path}.{keys[i]}")
            return dict(zip(keys, decoded, strict=True))
        return entries

    def unknown(value: object, path: str | None) -> Any:
        raise EventCodecError(f"{path} has a type a cached state does not hold: {hint!r}")
    return unknown


def _record(cls: type, value: object, path: str | None) -> Any:
    if not isinstance(value, dict):
        raise EventCodecError(f"{path} should be an object")
    if len(value) != 1 or SHARED not in value:
        return _build(cls, value, path)
    # A shared record is decoded once per process: values are frozen, one object serves all.
    digest = value[SHARED]
    found = _shared_decoded.get((cls, digest))
    if found is None:
        stored = _shared.get(digest) if type(digest) is str else None
        if not isinstance(stored, dict):
            raise EventCodecError(f"{path}: the shared record {digest!r} is not known")
        found = _shared_decoded[cls, digest] = _build(cls, stored, path)
    return found


def _build(cls: type, value: dict[str, Any], path: str | None) -> Any:
    names, fields = _fields(cls)
    if value.keys() != names:
        raise EventCodecError(f"{path} does not have the fields of {cls.__name__}")
    arguments = {}
    try:
        for name, scalar, decode in fields:
            item = value[name]
            if scalar is None:
                arguments[name] = decode(item, None)
            elif type(item) is scalar:
                arguments[name] = item
            else:
                raise EventCodecError(f"{path}.{name} should be {scalar.__name__}")
    except EventCodecError:
        if path is None:
            raise
        arguments = {name: decode(value[name], f"{path}.{name}") for name, _s, decode in fields}
    try:
        return cls(**arguments)
    except (TypeError, ValueError) as error:
        raise EventCodecError(f"{path} is not a valid {cls.__name__}: {error}") from None


Fields = tuple[frozenset[str], list[tuple[str, "type | None", Decoder]]]
_fields_cache: dict[type, Fields] = {}


def _fields(cls: type) -> Fields:
    """The names of the fields a record is made with, and each with its type's decoder (and
    the type itself for an int, a str or a bool: checked in place, the most of a state)."""
    found = _fields_cache.get(cls)
    if found is None:
        hints = _hints(cls)
        if dataclasses.is_dataclass(cls):
            names = [f.name for f in dataclasses.fields(cls) if f.init]
        else:
            names = list(cls._fields)  # type: ignore[attr-defined]
        found = _fields_cache[cls] = (frozenset(names), [
            (name, hints[name] if hints[name] in (int, str, bool) else None,
             _decoder(hints[name])) for name in names])
    return found
