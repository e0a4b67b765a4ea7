"""The dealer tablet's rules while offline, run in the browser by Pyodide: the table as the
server last sent it (the view's `offline_table`, and the hand's own events, `offline_hand`)
rebuilt with the engine, and each entry the tablet makes offline decided by the same engine
functions as the server's (`engine.hand.decide` for the hand: betting, the board, the shows,
the award and its pot push; `engine.table_decide.decide_table` to start the next hand, as
the server does), then folded with `engine.table.apply_table`. The answer is
the table view of recorder/offline_view.py, the server's view code, so the screen offline shows
who is to act, the showdown's proposed awards and the next hand's button and blinds as the
server would. The server decides every entry again when it arrives; nothing here is recorded.

Pure Python over `engine`, `schema.codec` and recorder/offline_view.py (standard library
only): /vendor/engine.zip carries this module as `handlog_offline.py` beside them. Its answers
are JSON strings, to cross into JavaScript as plain data."""

from __future__ import annotations

import json
from typing import Any

from handlog.engine.cards import parse_cards
from handlog.engine.commands import (
    ActOutOfTurn,
    AwardPots,
    BetRaise,
    CheckCall,
    Command,
    DealBoard,
    Fold,
    MuckCards,
    PushChips,
    ShowCards,
)
from handlog.engine.errors import RuleViolation
from handlog.engine.evaluator import evaluate
from handlog.engine.events import all_event_types
from handlog.engine.hand import decide, legal_actions, replay_events
from handlog.engine.table import TableState, apply_table
from handlog.engine.table_commands import StartHand
from handlog.engine.table_decide import TableFacts, decide_table
from handlog.recorder.offline_view import level_of, table_body, table_of
from handlog.schema.codec import EventCodec

_CODEC = EventCodec(all_event_types())

DECIDED = ("fold", "check_call", "bet_raise", "push_chips", "act_out_of_turn", "deal_board",
           "show_cards", "muck_cards", "award_pots", "start_hand")
"""The entries decided here; any other is queued as tapped and decided by the server."""


def warm() -> None:
    """Build the hand evaluator's tables now, while the engine loads (a second or so in the
    browser), not on the first showdown's tap."""
    evaluate(tuple(parse_cards("AsKsQsJsTs2c3d")))


def _command(entry: dict[str, Any]) -> Command:
    kind = entry.get("type")
    if kind == "fold":
        return Fold(int(entry["player"]))
    if kind == "check_call":
        return CheckCall(int(entry["player"]))
    if kind == "bet_raise":
        return BetRaise(int(entry["player"]), int(entry["to"]))
    if kind == "push_chips":  # as recorder/command_json.py reads the chip tray's motions
        motions = [[int(chip) for chip in motion] for motion in entry.get("motions") or []]
        return PushChips(int(entry["player"]), tuple(c for m in motions for c in m),
                         tuple(len(m) for m in motions) if len(motions) > 1 else (),
                         str(entry.get("said") or "nothing"), int(entry.get("said_to") or 0),
                         bool(entry.get("bounty_chip")))
    if kind == "act_out_of_turn":
        return ActOutOfTurn(int(entry["player"]), str(entry["action"]), int(entry.get("to") or 0))
    if kind == "deal_board":
        return DealBoard(tuple(parse_cards(str(entry["cards"]))))
    if kind == "show_cards":
        return ShowCards(int(entry["player"]), tuple(parse_cards(str(entry["cards"]))))
    if kind == "muck_cards":
        return MuckCards(int(entry["player"]))
    if kind == "award_pots":
        winners = entry.get("winners")
        return AwardPots(tuple(tuple(int(p) for p in w) for w in winners)
                         if winners is not None else None, str(entry.get("ruling") or ""))
    raise RuleViolation("offline", f"{kind} is not decided on the tablet while offline: it is "
                                   "sent as tapped and decided by the server",
                        ("fold", "check or call", "bet or raise"))


def _refused(refused: RuleViolation) -> str:
    words = refused.as_dict()
    return json.dumps({"ok": False, "rule": refused.rule, "rule_words": words["rule_words"],
                       "message": refused.message, "legal_words": list(refused.legal)})


def _start(state: TableState, level: Any) -> list[Any]:
    """start_hand as the server decides it (engine/table_decide.py), without a director's
    penalties, which the server adds when the entry arrives."""
    if level is None:
        raise RuleViolation("level", "this tablet does not know the level: start the hand when "
                                     "the network returns", ())
    return decide_table(state, StartHand(level), TableFacts())


# The last answer's table and the entries it followed: the next tap is one entry more on the
# same table, so it is decided from there (an outage of two hands is some forty entries).
_last: dict[str, Any] = {"table": None, "entries": [], "commands": [], "state": None}


def _table(table_json: str) -> tuple[TableState, Any, dict[str, str]]:
    table = json.loads(table_json)
    events = [_CODEC.decode(t, v, p) for t, v, p in table.get("offline_hand") or []]
    hand = replay_events(events) if events else None
    names = {seat["id"]: seat["player"] for seat in table.get("seats", []) if seat.get("id")}
    return table_of(table["offline_table"], hand), level_of(table.get("level")), names


def decide_entries(table_json: str, entries_json: str) -> str:
    """Rebuild the table a dealer's table view sent (its `offline_table`, `offline_hand`,
    `level` and `seats`) and decide the queued `entries` (wire commands; a null player is the
    player to act, a "max" amount his all-in) one after the other: {ok: true, commands: [each
    entry with its player], view: the table's view after them} or, for the first entry the
    engine refuses, {ok: false, index, rule, message, legal_words}."""
    state, level, names = _table(table_json)
    entries = [json.dumps(e, sort_keys=True) for e in json.loads(entries_json)]
    commands: list[dict[str, Any]] = []
    done = 0
    if _last["table"] == table_json and entries[:len(_last["entries"])] == _last["entries"]:
        state, done, commands = _last["state"], len(_last["entries"]), list(_last["commands"])
    for index in range(done, len(entries)):
        entry = json.loads(entries[index])
        try:
            if entry.get("type") == "start_hand":
                decided = _start(state, level)
            else:
                if state.hand is None:
                    raise RuleViolation("hand", "no hand in progress: start a hand first",
                                        ("start a hand",))
                if "player" in entry and entry["player"] is None:
                    legal = legal_actions(state.hand)
                    if legal is None:
                        raise RuleViolation("turn", "nobody is to act", ())
                    entry = dict(entry, player=legal.player)
                    if entry.get("to") == "max":
                        entry["to"] = legal.max_to
                decided = list(decide(state.hand, _command(entry)))
            for event in decided:
                state = apply_table(state, event)
        except RuleViolation as refused:
            return json.dumps(json.loads(_refused(refused)) | {"index": index})
        commands.append(entry)
    _last.update(table=table_json, entries=entries, commands=commands, state=state)
    return json.dumps({"ok": True, "commands": commands,
                       "view": table_body(state, level, names, (), False)})
