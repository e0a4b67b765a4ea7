"""Faster construction for the frozen, slotted dataclasses events and commands are made of.

A frozen dataclass's generated `__init__` sets each field through `object.__setattr__` (to get
past the frozen `__setattr__`). The slot's own descriptor does the same job at well under half
the cost, and a replay builds events and commands by the hundred thousand. `fast_init` gives a
class an `__init__` with the same signature and defaults that sets the slots through their
descriptors (then calls `__post_init__`, if any); the class stays a frozen dataclass in every
other way (fields, eq, hash, repr, assignment refused).
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")


def fast_init(cls: type[T]) -> type[T]:
    """Replace the `__init__` of a frozen, slotted dataclass (others are returned unchanged)."""
    params = getattr(cls, "__dataclass_params__", None)
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]  # checked: a dataclass
    if params is None or not params.frozen or any(
            not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING
            or not hasattr(cls.__dict__.get(f.name), "__set__") for f in fields):
        return cls  # only frozen classes whose fields are slots (or compiled attributes)
    namespace: dict[str, Any] = {}
    arguments = []
    for f in fields:
        namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is dataclasses.MISSING:
            arguments.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            arguments.append(f"{f.name}=_default_{f.name}")
    body = "".join(f"    _set_{f.name}(self, {f.name})\n" for f in fields) or "    pass\n"
    if hasattr(cls, "__post_init__"):
        body += "    self.__post_init__()\n"
    # The same technique dataclasses uses to write __init__: source built from the fields.
    exec(f"def __init__(self, {', '.join(arguments)}):\n{body}", namespace)  # noqa: S102
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
