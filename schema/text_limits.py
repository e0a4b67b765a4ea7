"""Limits a text is held to before any parser reads it: its size, and how deeply its arrays and
tables (TOML) or arrays and objects (JSON) nest.

Python's parsers recurse once per level: a structure file of 100,000 `[` ended in a
RecursionError (a traceback, or the server's 500) before anything could say what was wrong.
Here the brackets are counted outside strings and comments, in one pass, and a text past a
limit is refused with the limit named. So is a number of thousands of digits, which Python's
parsers refuse with a bare ValueError (past 4,300 digits) or read into values nothing can show.

>>> check_text('a = [[1, "]]]]"], {b = 2}]  # ]]', "toml", "x.toml")
>>> check_text("[" * 65 + "]" * 65, "json", "x.json")
Traceback (most recent call last):
  ...
handlog.schema.text_limits.TextRefused: x.json: arrays or tables nested more than 64 levels ...
"""

from __future__ import annotations

import re
from typing import Literal

MAX_DEPTH = 64  # levels of arrays and tables: a structure file uses 3, a hand history 4
MAX_BYTES = 16 * 1024 * 1024  # characters of one text (a month of one table's hands is 2 MB)


MAX_DIGITS = 300  # digits in a row: 10**15 chips has 16, a hash 64; Python reads no int past 4,300


class TextRefused(ValueError):
    """A text past a limit, named with what it is and the limit."""


_TOML = re.compile(r"""\"\"\"|'''|["'#\[\]{}]""")
_JSON = re.compile(r'["\[\]{}]')
_TOML_ENDS = {'"""': re.compile(r'(?<!\\)(?:\\\\)*"""'), "'''": re.compile("'''"),
              '"': re.compile(r'(?<!\\)(?:\\\\)*"|\n'), "'": re.compile(r"'|\n"),
              "#": re.compile(r"\n")}
_JSON_END = re.compile(r'(?<!\\)(?:\\\\)*"')
_DIGITS = re.compile(f"[0-9_]{{{MAX_DIGITS + 1},}}")


def check_text(text: str, kind: Literal["toml", "json"], what: str,
               max_depth: int = MAX_DEPTH, max_bytes: int = MAX_BYTES) -> None:
    """Raise TextRefused if `text` is longer than `max_bytes` characters or nests its arrays
    and tables (objects) deeper than `max_depth`; `what` names it in the message."""
    if len(text) > max_bytes:
        raise TextRefused(f"{what}: {len(text):,} characters long (at most {max_bytes:,} "
                          "are read)")
    if (digits := _DIGITS.search(text)) is not None:
        line = text.count("\n", 0, digits.start()) + 1
        raise TextRefused(f"{what}: line {line}: a number {len(digits.group()):,} digits long "
                          f"(at most {MAX_DIGITS} are read)")
    depth = 0
    opens, ends = (_TOML, _TOML_ENDS) if kind == "toml" else (_JSON, {'"': _JSON_END})
    position = 0
    while (found := opens.search(text, position)) is not None:
        token = found.group()
        position = found.end()
        if token in "[{":
            depth += 1
            if depth > max_depth:
                raise TextRefused(f"{what}: arrays or tables nested more than {max_depth} "
                                  f"levels deep (at most {max_depth} are read)")
        elif token in "]}":
            depth = max(0, depth - 1)
        else:  # a string or a comment: skipped to its end
            end = ends[token].search(text, position)
            position = end.end() if end is not None else len(text)

