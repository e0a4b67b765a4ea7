"""The player registry, read from the tournaments' logs: a person (the room's player id, with
the name he registered under) and his entries across events, each with its kind, what it paid,
its place, its prize and the penalties it drew. It reads tournament streams only, so it never
holds a hole card.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from handlog.engine.money import entries_by_person
from handlog.engine.tournament_state import TournamentState


def registry(states: Iterable[TournamentState]) -> dict[str, dict[str, Any]]:
    """Every person, by id: his names and his entries in each tournament (in log order)."""
    people: dict[str, dict[str, Any]] = {}
    for state in states:
        penalties: dict[str, list[dict[str, Any]]] = {}
        for p in state.penalties:
            penalties.setdefault(p.player, []).append(
                {"penalty": p.penalty, "rule": p.rule, "hands": p.hands})
        for row in entries_by_person(state):
            person = str(row["person"])
            found = people.setdefault(person, {"person": person, "names": [], "entries": []})
            if row["name"] not in found["names"]:
                found["names"].append(row["name"])
            entries = row["entries"]
            assert isinstance(entries, list)
            for entry in entries:
                found["entries"].append(
                    {"tournament": state.tournament, "event": state.structure.name}
                    | entry | {"penalties": penalties.get(str(entry["entry"]), [])})
    return people


def find_person(people: dict[str, dict[str, Any]], who: str) -> list[dict[str, Any]]:
    """The persons `who` names: his id, or a name he registered under (case aside)."""
    if who in people:
        return [people[who]]
    folded = who.strip().casefold()
    return [p for p in people.values() if any(n.casefold() == folded for n in p["names"])]
