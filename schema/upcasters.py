"""The steps that bring stored payloads of older event versions up to today's classes.

One function per (event type, from version): it takes the payload as stored at that version and
returns it as the next version writes it. The golden fixtures in tests/fixtures/events pin every
version that logs may hold; tests/test_codec.py decodes each of them through these steps.
"""

from __future__ import annotations

from typing import Any

from schema.codec import Upcaster


def _event_amended_v1(payload: dict[str, Any]) -> dict[str, Any]:
    # Version 1 did not say which schema version the replacement payload was written at: it
    # was always 1 (every event class was at version 1 while event_amended was).
    payload["replacement_version"] = 1
    return payload


def _hand_started_v1(payload: dict[str, Any]) -> dict[str, Any]:
    # Version 1 had no dead money: every hand started with an empty pot.
    payload["dead_money"] = 0
    return payload


UPCASTERS: dict[tuple[str, int], Upcaster] = {
    ("event_amended", 1): _event_amended_v1,
    ("hand_started", 1): _hand_started_v1,
}
