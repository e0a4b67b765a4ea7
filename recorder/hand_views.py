"""A hand as a person reads it: the JSON the replayer page, `handlog hand show` and
`handlog hands` print, rendered from the facts of replay/hands.py.

`public` hides every hole card that was not shown at the table (a viewer's view); a director
(or an auditor with `--all-cards`) sees the cards the dealer recorded.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from handlog.engine import words
from handlog.engine.events import CardExposed, CardsShown, HoleCardsDealt
from handlog.engine.tournament_events import PlayerRegistered
from handlog.recorder.views import _Names, event_text
from handlog.replay.hands import HandRecord, Step
from handlog.schema.store import StoredEvent


class _HandNames(_Names):
    """The names of one hand's positions (the hand's own set-up), for event_text."""

    def __init__(self, hand: HandRecord, names: dict[str, str]) -> None:  # noqa: D107
        self.names = names
        self.seats = dict(zip(hand.start.seats, hand.start.players, strict=True))
        self.versions = [hand.first_version]
        self.players = [hand.start.players]


def registered_names(stored: Iterable[StoredEvent]) -> dict[str, str]:
    """Player id -> name, from tournament streams' registrations."""
    names: dict[str, str] = {}
    for item in stored:
        if item.type == PlayerRegistered.TYPE:
            event = item.decode()
            names[event.player] = event.name
    return names


def _step_cards(hand: HandRecord, upto: int, public: bool) -> list[list[str] | None]:
    """Each position's cards as known after step `upto`: shown ones, or (not public) dealt."""
    cards: list[list[str] | None] = [None] * len(hand.players)
    for step in hand.steps[: upto + 1]:
        event = step.event
        if isinstance(event, CardsShown):
            cards[event.player] = list(event.cards)
        elif isinstance(event, HoleCardsDealt) and not public and event.cards:
            cards[event.player] = list(event.cards)
        elif isinstance(event, CardExposed):
            known = cards[event.player] or []
            if event.card not in known:
                cards[event.player] = [*known, event.card]
    return cards


def _pots_view(step: Step, players: Sequence[str],
               display: dict[str, str]) -> list[dict[str, Any]]:
    """The pots after a step, main pot first. A layer that only its bettor can win while
    others still play is no pot: it is his bet nobody has called (yet), which goes back to
    him if nobody does; it is shown as such ("uncalled": true), after the pots."""
    live = step.folded.count(False)
    out: list[dict[str, Any]] = []
    uncalled: list[dict[str, Any]] = []
    for amount, eligible in step.pots:
        names = [display.get(players[p], players[p]) for p in eligible]
        if len(eligible) == 1 and live > 1:
            uncalled.append({"amount": amount, "eligible": names, "uncalled": True,
                             "name": f"Not called yet ({names[0]}'s: goes back unless "
                                     "called)"})
            continue
        out.append({"amount": amount, "eligible": names, "uncalled": False,
                    "name": "Main pot" if not out else f"Side pot {len(out)}"})
    return out + uncalled


def step_view(hand: HandRecord, step: Step, names: _Names, public: bool,
              display: dict[str, str]) -> dict[str, Any]:
    """One step: the action's text and the table right after it."""
    players = hand.players
    return {
        "index": step.index,
        "version": step.version,
        "type": getattr(step.event, "TYPE", ""),
        "text": event_text(step.event, step.version, names, public),
        "actor": step.actor,
        "device": step.device,
        "at": step.recorded_at.isoformat(),
        "street": step.street,
        "phase": step.phase,
        "board": list(step.board),
        "to_act": step.to_act,
        "pot_total": step.pot_total,
        "pots": _pots_view(step, players, display),
        "seats": [{"position": p, "seat": hand.start.seats[p],
                   "name": display.get(players[p], players[p]), "stack": step.stacks[p],
                   "in_front": step.bets[p], "in_pot": step.committed[p],
                   "folded": step.folded[p], "all_in": step.stacks[p] == 0
                   and not step.folded[p] and step.index > 0,
                   "returned": step.returned[p] if step.returned else 0}
                  for p in range(len(players))],
        "cards": _step_cards(hand, step.index, public),
        "rulings": [ruling_view(r, players, display) for r in step.rulings],
    }


def ruling_view(ruling: dict[str, Any], players: Sequence[str],
                display: dict[str, str]) -> dict[str, Any]:
    """The engine's ruling on a step, with its sentence."""
    view = dict(ruling)
    fact = ruling.get("fact")
    rule = words.rule_title(ruling["rule"]) if ruling.get("rule") else ""
    view["rule_words"] = rule

    def who(positions: list[int]) -> str:
        return ", ".join(display.get(players[p], players[p]) for p in positions)

    if fact == "short_all_in":
        closed = ruling.get("not_reopened_for", [])
        text = (f"all-in for {ruling['to']:,} is not a full raise (a full raise is to "
                f"{ruling['full_raise_needed']:,})")
        if closed:
            text += f": the action is not reopened for {who(closed)}"
        if ruling.get("reopened_for"):
            text += f"; reopened for {who(ruling['reopened_for'])}"
        view["text"] = f"{text} ({rule})"
    elif fact == "full_raise":
        view["text"] = (f"to {ruling['to']:,}: a full " + ("raise" if ruling["increase"] else
                        "bet") + f", the action is reopened ({rule})")
    elif fact == "all_in_call":
        view["text"] = f"all-in call for {ruling['amount']:,}"
    return view


def hand_view(hand: HandRecord, display: dict[str, str], public: bool,
              with_steps: bool = True, label: str = "") -> dict[str, Any]:
    """The whole hand: set-up, every step, corrections and rulings, the result; `label` is
    its own name at the table (replay/hands.py hand_labels; its number when not given)."""
    names = _HandNames(hand, display)
    players = hand.players
    start = hand.start
    last = hand.steps[-1]
    view: dict[str, Any] = {
        "stream": hand.stream, "table": hand.table, "tournament": hand.tournament,
        "hand": hand.number, "label": label or str(hand.number),
        "level": hand.level, "profile": hand.profile,
        "first_version": hand.first_version, "last_version": hand.last_version,
        "started_at": hand.started_at.isoformat(), "outcome": hand.outcome,
        "button_seat": start.button_seat, "small_blind_seat": start.small_blind_seat,
        "big_blind_seat": start.big_blind_seat,
        "blinds": list(start.blinds), "antes": list(start.antes),
        "players": [{"position": p, "seat": start.seats[p], "id": players[p],
                     "name": display.get(players[p], players[p]), "start": start.stacks[p],
                     "end": last.stacks[p]} for p in range(len(players))],
        "all_in": [display.get(players[p], players[p]) for p in hand.all_in_players],
        "showdown": hand.showdown,
        "board": list(last.board),
        "corrections": [{
            "version": c.version, "kind": c.kind, "versions": list(c.versions),
            "rules": list(c.rules), "rule": words.render_rules(c.rules),
            "reason": words.reason(c.reason), "actor": c.actor, "device": c.device,
            "at": c.recorded_at.isoformat(), "detail": c.detail,
        } for c in hand.corrections],
    }
    if with_steps:
        view["steps"] = [step_view(hand, step, names, public, display) for step in hand.steps]
    return view


def hand_lines(view: dict[str, Any]) -> list[str]:
    """`handlog hand show` as text."""
    lines = [f"{view['table']} hand #{view['label']} (level {view['level']}, {view['profile']} "
             f"rules, versions {view['first_version']}-{view['last_version']}, "
             f"{view['outcome']})",
             f"button seat {view['button_seat']}, small blind seat "
             f"{view['small_blind_seat'] or '-'}, big blind seat {view['big_blind_seat']}"]
    for player in view["players"]:
        lines.append(f"  seat {player['seat']}: {player['name']} {player['start']:,} -> "
                     f"{player['end']:,}")
    street = ""
    for step in view.get("steps", []):
        if step["street"] != street and step["index"] > 0:
            street = step["street"]
            lines.append(f"*** {street} ***" + (f" [{' '.join(step['board'])}]"
                                                if step["board"] else ""))
        lines.append(f"  #{step['version']} {step['text']}   pot {step['pot_total']:,}")
        for ruling in step["rulings"]:
            if ruling.get("fact") == "short_all_in":
                lines.append(f"      ruling: {ruling['text']}")
    last_pots = view["steps"][-1]["pots"] if view.get("steps") else []
    for pot in last_pots:
        lines.append(f"  {pot['name']} {pot['amount']:,}: {', '.join(pot['eligible'])}")
    for c in view["corrections"]:
        touched = ", ".join(f"#{v}" for v in c["versions"])
        lines.append(f"  {c['kind'].replace('_', ' ')} #{c['version']} ({touched}) by "
                     f"{c['actor']} on {c['device']} at {c['at']}: {c['reason'] or '-'}"
                     + (f" [{c['rule']}]" if c["rule"] else ""))
    return lines


def summary_row(view: dict[str, Any]) -> str:
    """One line per hand for `handlog hands`."""
    flags = [flag for flag, on in (("all-in", bool(view["all_in"])),
                                   ("showdown", view["showdown"]),
                                   ("rulings/corrections", bool(view["corrections"]))) if on]
    names = ", ".join(p["name"] for p in view["players"])
    return (f"{view['stream']}#{view['label']}  level {view['level']}  {view['started_at'][:19]}"
            f"  {view['outcome']}  {names}" + (f"  [{'; '.join(flags)}]" if flags else ""))

