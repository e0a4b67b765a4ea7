"""A dealer's undo, a director's void and amend, and a tablet's retry at a long table: the
recorder of this tree against the recorder as it was before snapshots (main's
recorder/service.py, loaded from git), in the same run, on copies of the same table.

    .venv/bin/python benchmarks/corrections.py [--hands 16,452] [--rounds 7] [--base main]

For each table length: builds a table with that many hands (a plain SQLite file, six players,
hands played by a seeded mix of folds, calls, checks and minimum raises, boards, shows and the
pot push), copies the file, and opens the old recorder on one copy and the new one on the other
(each with its table already read, as a running server has it). Then, alternating the two, each
round starts a hand and times: a retry of an entry already recorded (same event id), an undo,
a void of the last entry and an amend of a raise's amount. Prints the medians (ms) and the
ratio old / new.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from handlog.engine import commands as hc  # noqa: E402
from handlog.engine import table_commands  # noqa: E402
from handlog.engine.hand import BETTING, BOARD, legal_actions, showdown_order  # noqa: E402
from handlog.engine.table import Level  # noqa: E402
from handlog.recorder import service  # noqa: E402
from handlog.schema.store import open_store  # noqa: E402

STREAM = "table-long"
LEVEL = Level(50, 100)
DEALER = service.Actor("dealer", "dealer", "tablet")
DIRECTOR = service.Actor("td", "director", "floor")


def old_service(base: str) -> Any:
    """recorder/service.py as it is in `base`, as a module of its own."""
    source = subprocess.run(["git", "show", f"{base}:recorder/service.py"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    path = Path(tempfile.mkdtemp()) / "old_service.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("old_service", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["old_service"] = module
    spec.loader.exec_module(module)
    return module


def next_command(hand: Any, rng: random.Random, raise_now: bool = False) -> Any:
    used = set(hand.board) | {c for s in hand.shown if s for c in s}
    deck = [c for c in range(52) if c not in used]
    rng.shuffle(deck)
    if hand.phase == BETTING:
        legal = legal_actions(hand)
        assert legal is not None
        roll = rng.random()
        if legal.raise_kind and (raise_now or roll < 0.15):
            return hc.BetRaise(legal.player, legal.min_to)
        if legal.call_amount and roll < 0.45:
            return hc.Fold(legal.player)
        return hc.CheckCall(legal.player)
    if hand.phase == BOARD:
        return hc.DealBoard(tuple(deck[:3 if not hand.board else 1]))
    unshown = [i for i in showdown_order(hand) if hand.shown[i] is None]
    if len(hand.contenders) > 1 and unshown:
        return hc.ShowCards(unshown[0], tuple(deck[:2]))
    return hc.AwardPots()


def send(recorder: Any, command: Any, actor: Any = DEALER,
         event_id: uuid.UUID | None = None) -> Any:
    return recorder.submit(STREAM, command, recorder.table(STREAM).version,
                           event_id or uuid.uuid4(), actor)


def build(path: Path, hands: int) -> None:
    with open_store(f"sqlite:///{path}", upgrade=True) as store:
        recorder = service.Recorder(store)
        send(recorder, table_commands.OpenTable("long", 9, "tda"))
        for seat in range(1, 7):
            send(recorder, table_commands.SeatPlayer(seat, f"P{seat}", 10_000_000))
        send(recorder, table_commands.PlaceButton(1))
        rng = random.Random(hands)
        for _ in range(hands):
            send(recorder, table_commands.StartHand(LEVEL))
            while recorder.table(STREAM).state.hand_in_progress:
                send(recorder, next_command(recorder.table(STREAM).state.hand, rng))


def timed(work: Any) -> float:
    started = time.perf_counter()
    work()
    return (time.perf_counter() - started) * 1000


def one_round(recorder: Any, module: Any, rng: random.Random,
              times: dict[str, list[float]]) -> None:
    """A hand: a raise (retried once), an undo, then a void and an amend by the director
    (`module`: the recorder's own service module, whose command classes it knows)."""
    send(recorder, module.StartHand(LEVEL))
    fold = recorder.table(STREAM)
    version = fold.version
    event_id = uuid.uuid4()
    raise_to = next_command(fold.state.hand, rng, raise_now=True)
    recorder.submit(STREAM, raise_to, version, event_id, DEALER)
    times["retry"].append(timed(lambda: recorder.submit(STREAM, raise_to, version, event_id,
                                                        DEALER)))
    raised = recorder.table(STREAM).version
    send(recorder, next_command(recorder.table(STREAM).state.hand, rng))
    times["undo"].append(timed(lambda: send(recorder, module.Undo())))
    send(recorder, next_command(recorder.table(STREAM).state.hand, rng))
    last = recorder.table(STREAM).version
    times["void"].append(timed(lambda: send(
        recorder, module.VoidEvents((last,), "keyed twice", "tda-1"), DIRECTOR)))
    times["amend"].append(timed(lambda: send(
        recorder, module.AmendAmount(raised, raise_to.to + 100, "miskeyed", "tda-1"),
        DIRECTOR)))
    while recorder.table(STREAM).state.hand_in_progress:
        send(recorder, next_command(recorder.table(STREAM).state.hand, rng))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", default="16,452")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--base", default="main", help="the git revision of the old recorder")
    args = parser.parse_args()
    old = old_service(args.base)
    folder = Path(tempfile.mkdtemp())
    print(f"{'hands':>5} {'what':>6} {'before ms':>10} {'now ms':>8} {'before/now':>10}")
    for hands in (int(n) for n in args.hands.split(",")):
        built = folder / f"long-{hands}.db"
        build(built, hands)
        copies = {}
        for name in ("old", "new"):
            copy = folder / f"{name}-{hands}.db"
            shutil.copy(built, copy)
            copies[name] = open_store(f"sqlite:///{copy}")
        modules = {"old": old, "new": service}
        recorders = {name: modules[name].Recorder(copies[name]) for name in modules}
        times: dict[str, dict[str, list[float]]] = {
            name: {k: [] for k in ("retry", "undo", "void", "amend")} for name in recorders}
        for recorder in recorders.values():
            recorder.table(STREAM)  # a running server holds the table already
        for round_number in range(args.rounds):
            for name, recorder in recorders.items():
                one_round(recorder, modules[name], random.Random(round_number), times[name])
        for what in ("retry", "undo", "void", "amend"):
            before = statistics.median(times["old"][what])
            now = statistics.median(times["new"][what])
            print(f"{hands:>5} {what:>6} {before:>10.1f} {now:>8.2f} {before / now:>9.0f}x")
        for store in copies.values():
            store.close()
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
