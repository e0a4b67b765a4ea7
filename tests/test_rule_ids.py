"""Stored rule fields hold rule identifiers in one form (`tda-47`, `bse-blinds`,
`octobermuck:color_up`): every event of the golden logs and every golden event fixture, read
through the upcasters, cites rules only as identifiers, never as the words of a citation."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from log_fixtures import GOLDEN_LOGS

from handlog.schema.codec import decode_event

FIXTURES = Path(__file__).resolve().parent / "fixtures"
RULE_ID = re.compile(r"[a-z0-9]+(?:[-:_][a-z0-9]+)*")  # engine/words.py rule_ids spells these


def cited(value: object) -> Iterator[str]:
    """Every rule identifier an event (or a value inside it) cites in a `rule` or `rules` field;
    a `rule` field holds one identifier or several joined by ", "."""
    if not dataclasses.is_dataclass(value):
        if isinstance(value, tuple | list):
            for item in value:
                yield from cited(item)
        return
    for field in dataclasses.fields(value):
        inner = getattr(value, field.name)
        if field.name == "rule" and isinstance(inner, str) and inner:
            yield from inner.split(", ")
        elif field.name == "rules" and isinstance(inner, tuple | list):
            yield from (str(rule) for rule in inner)
        else:
            yield from cited(inner)


def stored_events() -> Iterator[tuple[str, object]]:
    for path in GOLDEN_LOGS:
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record["record"] == "event":
                yield (f"{path.stem} {record['stream_id']} v{record['version']}",
                       decode_event(record["type"], record["schema_version"],
                                    json.loads(record["payload"])))
    for path in sorted((FIXTURES / "events").glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        yield path.name, decode_event(record["type"], record["schema_version"],
                                      record["payload"])


def test_every_stored_rule_is_an_identifier() -> None:
    """No stored event, old or new, cites a rule in another form than an identifier."""
    found = [(where, rule) for where, event in stored_events() for rule in cited(event)]
    assert len(found) > 20  # the logs cite rules (so this checks something)
    assert [(where, rule) for where, rule in found if not RULE_ID.fullmatch(rule)] == []


@pytest.mark.parametrize("value", ["TDA 47", "tda 47", "seating rule", "TDA 35, 36"])
def test_a_citation_in_words_is_not_taken_for_an_identifier(value: str) -> None:
    """The form the check above holds the log to refuses citations written as words."""
    assert not RULE_ID.fullmatch(value)
