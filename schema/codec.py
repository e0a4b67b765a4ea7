"""Canonical JSON, and the codec between domain events (engine/events.py) and stored payloads.

Canonical JSON is the one text form a payload is stored, hashed and exported in:
`json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)` over a value made
only of dicts with str keys, lists (tuples become lists), str, int, bool and None. Floats are
refused (chips are integers and a float's text is not portable); datetimes must be UTC and are
written `YYYY-MM-DDTHH:MM:SS.ffffffZ`.

Domain events are frozen dataclasses with `TYPE` (stable snake_case name) and `VERSION`. The
codec turns one into `(type, version, payload)` and back, rebuilding tuples and nested
dataclasses from the class's type hints; a payload stored at an older version is brought up to
date by upcasters, one registered step (`v -> v + 1`) at a time.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from json.encoder import c_make_encoder  # type: ignore[attr-defined]
from json.encoder import encode_basestring as _encode_text  # (ensure_ascii=False's)
from typing import TYPE_CHECKING, Any

from handlog.schema.errors import CanonicalJsonError, EventCodecError

if TYPE_CHECKING:
    from handlog.schema.upcasters import Upcaster

_UTC_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
_FOUR_DIGITS = 1000  # (strftime writes earlier years with fewer digits: left to it)


# --- canonical JSON ---------------------------------------------------------------------------


def canonical_json(value: object) -> str:
    """The canonical JSON text of `value` (see the module docstring); raises CanonicalJsonError."""
    if _plain(value):
        # Already only dicts with text keys, lists, tuples, text, whole numbers, booleans and
        # None (every append's payloads): the encoder's own text, no normalised copy first.
        text = _encode_plain(value)
        if text.isascii():
            return text
        try:
            text.encode("utf-8")
            return text
        except UnicodeEncodeError:
            pass  # (not valid Unicode: the walk names the place)
    return _CANONICAL.encode(_canonical(value, "$"))


_SCALARS = (str, int, bool, type(None))


def _plain(value: object) -> bool:
    """Whether `value` is made of exactly dict (text keys), list, tuple, str, int, bool and None
    (no subclasses, no floats), whose canonical JSON is the encoder's own."""
    kind = type(value)
    # (loops, not all() over generators: every appended event's payload is walked here)
    if kind is dict:
        assert isinstance(value, dict)
        for key, item in value.items():
            if type(key) is not str or (type(item) not in _SCALARS and not _plain(item)):
                return False
        return True
    if kind is list or kind is tuple:
        assert isinstance(value, list | tuple)
        for item in value:
            if type(item) not in _SCALARS and not _plain(item):
                return False
        return True
    return kind in _SCALARS


# One encoder for every call (json.dumps with options builds a new one each time; an append
# encodes every event it writes).
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                              allow_nan=False)


def _encode_plain(value: object) -> str:
    """_CANONICAL's text of a plain value (see _plain), through the C encoder made once:
    `JSONEncoder.encode` makes one per call, and a dict to catch cycles (a plain value has
    none: _plain's walk would not have returned), a third of a small payload's encoding."""
    if _C_ENCODER is None:
        return _CANONICAL.encode(value)
    if type(value) is str:
        return _encode_text(value)
    return "".join(_C_ENCODER(value, 0))


_C_ENCODER = None if c_make_encoder is None else c_make_encoder(
    None, _CANONICAL.default, _encode_text, None, _CANONICAL.key_separator,
    _CANONICAL.item_separator, True, False, False)


def format_utc(moment: datetime) -> str:
    """A UTC datetime in the one text form the log uses; naive or non-UTC times are refused."""
    if moment.tzinfo is UTC and type(moment) is datetime and moment.year >= _FOUR_DIGITS:
        # The same text, faster than strftime (every append and export writes it).
        return moment.isoformat(timespec="microseconds")[:-6] + "Z"
    offset = moment.utcoffset()
    if offset is None:
        raise CanonicalJsonError(f"datetime {moment.isoformat()} has no time zone; use UTC")
    if offset != timedelta(0):
        raise CanonicalJsonError(f"datetime {moment.isoformat()} is not in UTC")
    return moment.strftime(_UTC_FORMAT)


def _canonical(value: object, path: str) -> object:
    # bool before int: bool is an int subclass; enum/str/int subclasses are normalised to the
    # plain type so json.dumps cannot write a repr.
    if value is None or type(value) is bool:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        raise CanonicalJsonError(f"{path} is a float ({value!r}); chips and counts are integers")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise CanonicalJsonError(f"{path} is not valid Unicode text: {exc}") from None
        return str(value)
    if isinstance(value, datetime):
        return format_utc(value)
    if isinstance(value, Mapping):
        result: dict[str, object] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise CanonicalJsonError(f"{path} has a non-text key {key!r}")
            try:
                key.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise CanonicalJsonError(f"{path} has a key {key!r} that is not valid Unicode "
                                         f"text: {exc}") from None
            result[str(key)] = _canonical(item, f"{path}.{key}")
        return result
    if isinstance(value, list | tuple):
        return [_canonical(item, f"{path}[{index}]") for index, item in enumerate(value)]
    raise CanonicalJsonError(f"{path} has no canonical JSON form: {type(value).__name__}")


# --- typed events -----------------------------------------------------------------------------


class EventCodec:
    """A registry of event classes and upcasters, and the encode/decode between them."""

    def __init__(self, event_types: Iterable[type] = ()) -> None:
        self._classes: dict[str, type] = {}
        self._upcasters: dict[tuple[str, int], Upcaster] = {}
        for cls in event_types:
            self.register_type(cls)

    def register_type(self, cls: type) -> None:
        """Make `cls` decodable under its `TYPE`; two classes may not share a TYPE."""
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__name__} is not a dataclass")
        event_type = getattr(cls, "TYPE", None)
        version = getattr(cls, "VERSION", None)
        if not isinstance(event_type, str) or not event_type:
            raise TypeError(f"{cls.__name__} has no TYPE")
        if not isinstance(version, int) or version < 1:
            raise TypeError(f"{cls.__name__} has no VERSION >= 1")
        known = self._classes.get(event_type)
        if known is not None and known is not cls:
            raise TypeError(f"{cls.__name__} and {known.__name__} both claim TYPE {event_type!r}")
        self._classes[event_type] = cls

    def register_upcaster(self, event_type: str, from_version: int, upcaster: Upcaster) -> None:
        """Register the step that turns a `from_version` payload into a `from_version + 1` one."""
        key = (event_type, from_version)
        if key in self._upcasters:
            raise ValueError(f"{event_type!r} already has an upcaster from v{from_version}")
        self._upcasters[key] = upcaster

    def event_class(self, event_type: str) -> type:
        try:
            return self._classes[event_type]
        except KeyError:
            raise EventCodecError(
                f"unknown event type {event_type!r}: it was written by a newer handlog "
                "or its class is not registered"
            ) from None

    @property
    def types(self) -> Mapping[str, type]:
        return types.MappingProxyType(self._classes)

    def encode(self, event: object) -> tuple[str, int, dict[str, Any]]:
        """`(type, version, payload)` of a domain event; the payload holds only JSON values."""
        cls = type(event)
        event_type = getattr(cls, "TYPE", None)
        version = getattr(cls, "VERSION", None)
        if not dataclasses.is_dataclass(event) or not isinstance(event_type, str):
            raise EventCodecError(f"{cls.__name__} is not an event class (no TYPE)")
        if not isinstance(version, int):
            raise EventCodecError(f"{cls.__name__} has no VERSION")
        try:
            payload = _to_json_fast(event)
        except _NotFast:
            payload = _to_json(event, "$")  # (the walk that names the place of a bad value)
        assert isinstance(payload, dict)
        return event_type, version, payload

    def upcast(
        self, event_type: str, schema_version: int, payload: dict[str, Any]
    ) -> dict[str, Any]:
        """The payload brought from `schema_version` up to the class's current VERSION."""
        cls = self.event_class(event_type)
        current: int = cls.VERSION  # type: ignore[attr-defined]
        if schema_version > current:
            raise EventCodecError(
                f"event type {event_type!r} version {schema_version} is newer than this handlog "
                f"understands (version {current}): upgrade handlog"
            )
        if schema_version < 1:
            raise EventCodecError(f"event type {event_type!r} has invalid version {schema_version}")
        for version in range(schema_version, current):
            step = self._upcasters.get((event_type, version))
            if step is None:
                raise EventCodecError(
                    f"no upcaster for {event_type!r} from version {version} to {version + 1}"
                )
            payload = step(dict(payload))
            if not isinstance(payload, dict):
                raise EventCodecError(f"upcaster for {event_type!r} v{version} returned no dict")
        return payload

    def decode(self, event_type: str, schema_version: int, payload: Mapping[str, Any]) -> Any:
        """The domain event stored as `(event_type, schema_version, payload)`."""
        cls = self.event_class(event_type)
        upcasted = self.upcast(event_type, schema_version, dict(payload))
        try:
            return _from_json(cls, upcasted, "$")
        except EventCodecError as exc:
            raise EventCodecError(
                f"cannot decode {event_type!r} v{schema_version}: {exc}"
            ) from None


class _NotFast(Exception):
    """A value `_to_json_fast` leaves to `_to_json`."""


_INIT_FIELDS: dict[type, tuple[str, ...]] = {}
"""Each dataclass's init fields, in order, as `_to_json` takes them (worked out once a class,
not at every event: every tap encodes its events)."""


def _to_json_fast(value: object) -> object:
    """`_to_json(value, path)` for the values events are made of (exact str, int, bool, None,
    tuple and list, and dataclasses); `_NotFast` for anything else (an enum, a subclass, a
    value that cannot be stored), which `_to_json` takes whole."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is tuple or kind is list:
        return [_to_json_fast(item) for item in value]  # type: ignore[attr-defined]
    names = _INIT_FIELDS.get(kind)
    if names is None:
        if not dataclasses.is_dataclass(value) or isinstance(value, type):
            raise _NotFast
        names = _INIT_FIELDS[kind] = tuple(
            field.name for field in dataclasses.fields(value) if field.init)
    return {name: _to_json_fast(getattr(value, name)) for name in names}


def _to_json(value: object, path: str) -> object:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            field.name: _to_json(getattr(value, field.name), f"{path}.{field.name}")
            for field in dataclasses.fields(value)
            if field.init
        }
    if isinstance(value, enum.Enum):
        return _to_json(value.value, path)
    if isinstance(value, tuple | list):
        return [_to_json(item, f"{path}[{index}]") for index, item in enumerate(value)]
    if value is None or isinstance(value, bool | int | str):
        return value
    raise EventCodecError(f"{path} cannot be stored: {type(value).__name__} ({value!r})")


_hints_cache: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    hints = _hints_cache.get(cls)
    if hints is None:
        hints = typing.get_type_hints(cls)
        _hints_cache[cls] = hints
    return hints


def _kind(value: object) -> str:
    return "null" if value is None else type(value).__name__


def _from_json(hint: Any, value: object, path: str) -> Any:
    if hint is Any:
        return value
    if hint is type(None):
        if value is not None:
            raise EventCodecError(f"{path} should be null, got {_kind(value)}")
        return None
    if hint is bool:
        if type(value) is not bool:
            raise EventCodecError(f"{path} should be a boolean, got {_kind(value)}")
        return value
    if hint is int:
        if type(value) is not int:
            raise EventCodecError(f"{path} should be an integer, got {_kind(value)}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise EventCodecError(f"{path} should be text, got {_kind(value)}")
        return value
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except ValueError:
            raise EventCodecError(f"{path}: {value!r} is not a {hint.__name__}") from None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass_from_json(hint, value, path)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        if value is None and type(None) in args:
            return None
        errors = []
        for arm in args:
            if arm is type(None):
                continue
            try:
                return _from_json(arm, value, path)
            except EventCodecError as exc:
                errors.append(str(exc))
        raise EventCodecError("; ".join(errors))
    if origin is typing.Literal:
        if value not in args:
            raise EventCodecError(f"{path} should be one of {args!r}, got {value!r}")
        return value
    if origin is tuple or origin is list:
        if not isinstance(value, list):
            raise EventCodecError(f"{path} should be a list, got {_kind(value)}")
        if origin is list or (len(args) == 2 and args[1] is Ellipsis):
            item_hint = args[0] if args else Any
            items = [_from_json(item_hint, item, f"{path}[{i}]") for i, item in enumerate(value)]
            return tuple(items) if origin is tuple else items
        if len(args) != len(value):
            raise EventCodecError(f"{path} should have {len(args)} items, got {len(value)}")
        return tuple(
            _from_json(arm, item, f"{path}[{index}]")
            for index, (arm, item) in enumerate(zip(args, value, strict=True))
        )
    raise EventCodecError(f"{path} has a field type the codec does not support: {hint!r}")


def _dataclass_from_json(cls: type, value: object, path: str) -> Any:
    if not isinstance(value, dict):
        raise EventCodecError(f"{path} should be an object, got {_kind(value)}")
    hints = _hints(cls)
    fields = [field for field in dataclasses.fields(cls) if field.init]
    unknown = sorted(set(value) - {field.name for field in fields})
    if unknown:
        raise EventCodecError(f"{path} has unknown field(s) {', '.join(unknown)}")
    arguments: dict[str, Any] = {}
    for field in fields:
        if field.name in value:
            arguments[field.name] = _from_json(
                hints[field.name], value[field.name], f"{path}.{field.name}"
            )
        elif (
            field.default is dataclasses.MISSING
            and field.default_factory is dataclasses.MISSING
        ):
            raise EventCodecError(f"{path} is missing field {field.name!r}")
    try:
        return cls(**arguments)
    except (TypeError, ValueError) as exc:
        raise EventCodecError(f"{path} is not a valid {cls.__name__}: {exc}") from None


# --- the project's codec ----------------------------------------------------------------------

_default_codec: EventCodec | None = None


def default_codec() -> EventCodec:
    """The codec of every class in `engine.events.all_event_types()` and every registered
    upcaster."""
    global _default_codec
    if _default_codec is None:
        # Imported here: the tablet's offline engine carries the codec without the upcasters.
        from handlog.engine.events import all_event_types
        from handlog.schema.upcasters import UPCASTERS

        codec = EventCodec(all_event_types())
        for (event_type, from_version), upcaster in UPCASTERS.items():
            codec.register_upcaster(event_type, from_version, upcaster)
        _default_codec = codec
    return _default_codec


def encode_event(event: object) -> tuple[str, int, dict[str, Any]]:
    """`(type, version, payload)` of a domain event (tuples become lists)."""
    return default_codec().encode(event)


def decode_event(event_type: str, schema_version: int, payload: Mapping[str, Any]) -> Any:
    """The domain event of a stored `(type, schema_version, payload)`, upcast to today's class."""
    return default_codec().decode(event_type, schema_version, payload)


def register_upcaster(event_type: str, from_version: int, upcaster: Upcaster) -> None:
    """Register, on the project's codec, the step from `from_version` to `from_version + 1`."""
    default_codec().register_upcaster(event_type, from_version, upcaster)
