"""The dealer tablet's rules while offline, run in the browser by Pyodide: the hand in progress
replayed from the engine's own events (the table view's `offline_hand`), and each entry the
tablet makes offline decided by the same engine as the server's, then applied, so the screen
shows who is to act next and what he may do. The server decides every entry again when it
arrives; nothing here is recorded.

Pure Python over `engine` and `schema.codec` (standard library only): /vendor/engine.zip
carries this module as `handlog_offline.py` beside the two packages. Its answers are JSON
strings, to cross into JavaScript as plain data."""

from __future__ import annotations

import json
from typing import Any

from engine.cards import parse_cards
from engine.commands import BetRaise, CheckCall, Command, DealBoard, Fold
from engine.errors import RuleViolation
from engine.events import EVENT_TYPES
from engine.hand import HandState, execute, replay_events
from engine.hand_decide import legal_actions
from schema.codec import EventCodec

_CODEC = EventCodec(EVENT_TYPES)


def _command(entry: dict[str, Any]) -> Command:
    kind = entry.get("type")
    if kind == "fold":
        return Fold(int(entry["player"]))
    if kind == "check_call":
        return CheckCall(int(entry["player"]))
    if kind == "bet_raise":
        return BetRaise(int(entry["player"]), int(entry["to"]))
    if kind == "deal_board":
        return DealBoard(tuple(parse_cards(str(entry["cards"]))))
    raise RuleViolation("offline", f"{kind} is not decided on the tablet while offline: it is "
                                   "sent as tapped and decided by the server",
                        ("fold", "check or call", "bet or raise"))


def _legal(state: HandState) -> dict[str, Any] | None:
    legal = legal_actions(state)
    if legal is None:
        return None
    return {"player": legal.player, "fold": legal.can_fold, "check": legal.can_check,
            "call": legal.call_amount, "call_all_in": legal.call_all_in,
            "raise_kind": legal.raise_kind, "min_to": legal.min_to, "max_to": legal.max_to,
            "all_in_to": legal.max_to if legal.raise_kind else 0}


def _refused(refused: RuleViolation) -> str:
    words = refused.as_dict()
    return json.dumps({"ok": False, "rule": refused.rule, "rule_words": words["rule_words"],
                       "message": refused.message, "legal_words": list(refused.legal)})


def decide(hand_json: str, entries_json: str) -> str:
    """Replay the hand (a list of [type, version, payload]) and apply the queued `entries`
    (wire commands: fold, check_call, bet_raise; a null player is the player to act), then
    say for the last one whether the engine allows it: {ok, player, legal, stacks, bets, ...}
    or {ok: false, rule, message, legal_words}."""
    events = [_CODEC.decode(t, v, p) for t, v, p in json.loads(hand_json)]
    state = replay_events(events)
    entries = json.loads(entries_json)
    players: list[int] = []
    last: dict[str, Any] | None = None
    for entry in entries:
        if entry.get("type") == "deal_board":
            try:
                state = execute(state, _command(entry))
            except RuleViolation as refused:
                return _refused(refused)
            last = entry
            continue
        if entry.get("player") is None:
            legal = legal_actions(state)
            if legal is None:
                return json.dumps({"ok": False, "rule": "turn", "message": "nobody is to act",
                                   "legal_words": []})
            entry = dict(entry, player=legal.player)
            if entry.get("to") == "max":
                entry["to"] = legal.max_to
        try:
            state = execute(state, _command(entry))
        except RuleViolation as refused:
            return _refused(refused)
        players.append(int(entry["player"]))
        last = entry
    return json.dumps({
        "ok": True, "players": players, "last": last, "legal": _legal(state),
        "to_act": state.to_act,
        "stacks": list(state.stacks), "bets": list(state.bets), "folded": list(state.folded),
        "betting_closed": state.betting_closed, "phase": state.phase,
        "board": len(state.board),
    })
