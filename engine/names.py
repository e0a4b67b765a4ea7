"""Player names as hand-history text can carry them.

PokerStars-style text is read line by line by trackers with patterns such as `NAME: folds`,
`Seat 3: NAME (1500 in chips)`, `Dealt to NAME [Ah Kd]`: a colon, a bracket, a parenthesis,
a tab or a line break in a name makes such a line mean something else. `safe_name` maps those
characters to plain ones (the same name always gives the same result); a name that still reads
as one of the format's own lines (`Dealt to Al`, `Seat 4`, `*** ...`) cannot be made safe, and
`name_problem` says so, so that registration refuses it before it enters the log.
"""

from __future__ import annotations

import re

# Characters that end a name or start another field in a PokerStars line, and their stand-ins.
_REPLACED = str.maketrans({":": ".", "[": "<", "]": ">", "(": "<", ")": ">", "#": "No."})
_SPACES = re.compile(r"[\s\x00-\x1f\x7f-\x9f]+")
# Line openings of the format itself: a name beginning so is read as that line.
RESERVED_OPENINGS = ("dealt to", "uncalled bet", "seat ", "total pot", "board ", "***",
                     "pokerstars", "table ", "hand #")


def safe_name(name: str) -> str:
    """The name with every character that breaks the PokerStars grammar replaced, runs of
    white space and control characters made one space, and no leading or trailing space."""
    return _SPACES.sub(" ", name.translate(_REPLACED)).strip()


def name_problem(name: str) -> str | None:
    """Why `name` cannot be written in a hand history even once made safe, or None.

    >>> name_problem("Ann: the 2nd") is None
    True
    >>> name_problem("Dealt to Al") is not None
    True
    """
    cleaned = safe_name(name)
    if not cleaned:
        return "is empty once control characters and spaces are removed"
    lowered = cleaned.lower()
    for opening in RESERVED_OPENINGS:
        if lowered.startswith(opening):
            return (f"reads as a hand-history line ({cleaned[:len(opening)].strip()!r} ...); "
                    "names may not begin with: " + ", ".join(repr(o.strip())
                                                             for o in RESERVED_OPENINGS))
    return None
