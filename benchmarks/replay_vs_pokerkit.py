"""PHH hands per second: handlog's strict replay against PokerKit's, on the same Pluribus hands.

Run from the repository root:
    .venv/bin/python benchmarks/replay_vs_pokerkit.py [PATH] [--hands N] [--rounds R]

PATH defaults to ../shared/data/phh/pluribus (the repository sits next to shared/). The first N
files in natural order are used (default 2,000).

- replay: every file is parsed once beforehand, actions included (ours into PhhHand records,
  PokerKit's into HandHistory objects whose action strings are turned beforehand into the
  State method calls they stand for, cards and amounts parsed: like ours, whose PhhHand holds
  parsed actions); the timed part plays every hand to its end: ours through the engine
  (`replay.phh_verify.replay_hand`), PokerKit's by making its State and applying those calls
  with the automatic steps HandHistory's own iteration takes between them.
- end to end: from the file on disk to the verdict: ours is `verify_file`, the code path of
  `handlog phh verify`; PokerKit's is `HandHistory.load` + replay + comparing finishing stacks.

Our process-wide caches (parsed actions, cards, commands, the engine's event memos) are cleared
before every round, so a round costs what a first run over those files costs. handlog runs as
installed: with the engine's hot modules compiled by mypyc when setup.py could (the first line
printed says which); --pure runs their Python sources instead, for comparison
(benchmarks/pure_python.py).

The measurement (issue 28 asked for a sound one: the machine is shared):
- same hands: only hands both replayers play to the same finishing stacks, ours without a
  refusal (a refused hand stops early and would be less work), are timed, on both sides;
- same work counted: hands/s over those hands; ours builds its commands from the parsed
  actions inside the timed part, PokerKit's calls are built beforehand (in its favour);
- alternated: every round times both, the order swapped each round, after a full garbage
  collection (so neither pays for the other's garbage); the process is pinned to one CPU;
- CPU time of the process (time.process_time: not charged for other processes' turns on the
  CPU) is the measure; wall clock is printed beside it;
- the figure is the median over rounds of each round's ratio (PokerKit's time / ours); the
  medians of each side and their ratio are printed too.

Figures, 2026-12-07, compiled, 2,000 hands (all agree), 11 rounds, /proc/loadavg 10.7-14.8 on
two shared cores (other sessions' work):
    replay      handlog 10,653 hands/s of CPU, PokerKit 609: 18.8x (rounds 15.9-25.8x; ratio
                of medians 17.5x; wall clock 19.9x). Target 30x NOT met.
    end to end  handlog 2,970 hands/s of CPU, PokerKit 397: 7.6x (rounds 5.3-9.3x).
Again later that day (events and commands built by engine.values.record, their `__init__` the
same code; loadavg 6.0-7.4, the machine about twice as fast per process): replay 23,227 hands/s
against 1,214: 18.7x (rounds 14.0-23.1x; ratio of medians 19.1x); end to end 6,720 against
824: 8.0x. Then on a quieter machine (loadavg 2.9-3.4), main's and this checkout's scripts one
after the other: main 33,036 against 1,513: 21.8x (rounds 16.3-24.6x), end to end 8.5x; now
32,251 against 1,458: 22.0x (rounds 19.3-25.3x), end to end 8.2x: the same. Where a
replay's instructions go (callgrind, 600 hands, inside replay_hand): hand.execute 59%,
hand_commands 12%, start_hand 11%, setup_for 6%; about a fifth is the interpreter's own work
called from the compiled code: the events' Python `__init__` (events.py is not compiled),
tuples and lists built from sequences, calls through Python wrappers (the award decision).
30x needs the event classes compiled or built without a Python frame, and those conversions
gone: not done.
Then (issue 28, item 5; loadavg 3.4-5.5), main's checkout and this one alternated, six pairs of
runs: main 21.2x (runs' medians 20.1-22.3x; 30,500 hands/s), this one 25.5x (24.4-26.0x; 35,600
hands/s); end to end 7.9x and 9.1x. Five more pairs on the final code (loadavg 1.6-7.3, runs
paused at times by another session): main 20.7x (19.8-21.7x; 30,200 hands/s), this one 26.8x
(25.6-27.7x; 40,200 hands/s); end to end 7.8x and 8.9x. By callgrind (600 hands, inside
replay_hand) 148.0 M instructions on main, 109.8 M now: execute's classes and the replayer's
tables read as Final constants, not module-dict lookups; a state's values copied by a native
comprehension and built by one compiled function; HandSetup and Pot with a native __init__ (was
Python); max, min, sum, sorted and count(False) on the hot path as native loops (were calls
through Python); the award decided and applied without the tables. Target 30x still NOT met.
What is left: a state built through tuple.__new__ (about 2,000 instructions, 15% of the
replay), the records' Python __init__ (a PotAwarded costs about 7,400), a hand's set-up and its
commands (a quarter).
The earlier 22-27x were wall-clock ratios of medians, the order fixed and one side's garbage
free to be collected in the other's time, on a quieter machine; they are not repeated here.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

REPLAY_TARGET = 30.0
END_TO_END_TARGET = 5.0


def clear_caches() -> None:
    """Forget everything our parser, replayer and engine memoise across hands."""
    from handlog.engine.hand_memo import forget_memos
    from handlog.replay import phh, phh_verify

    phh.parse_action.cache_clear()
    phh_verify._CARD_TUPLES.clear()
    phh_verify._COMMANDS.clear()
    forget_memos()


def best_and_median(rounds: list[float], count: int) -> tuple[float, float]:
    """Hands per second of the fastest and of the median round."""
    return count / min(rounds), count / statistics.median(rounds)


def pokerkit_actions(history: Any) -> list[Callable[[Any], object]]:
    """The history's action strings as the State calls they stand for, parsed now (cards,
    amounts, the player who must be the one to act), as pokerkit.notation.parse_action would
    parse them at every replay."""
    from pokerkit import Card

    def player_index(label: str) -> int:
        return int(label[1:]) - 1

    def acting(index: int, act: Callable[[Any], object]) -> Callable[[Any], object]:
        def call(state: Any) -> object:
            if state.actor_index != index:
                raise ValueError(f"p{index + 1} is not to act")
            return act(state)
        return call

    calls: list[Callable[[Any], object]] = []
    for action in history.actions:
        words = action.split("#")[0].split()
        match words:
            case "d", "db", cards:
                board = tuple(Card.parse(cards))
                calls.append(lambda state, board=board: state.deal_board(board))
            case "d", "dh", player, cards:
                hole, index = tuple(Card.parse(cards)), player_index(player)
                calls.append(lambda state, hole=hole, index=index: state.deal_hole(hole, index))
            case player, "f":
                calls.append(acting(player_index(player), lambda state: state.fold()))
            case player, "cc":
                calls.append(acting(player_index(player), lambda state: state.check_or_call()))
            case player, "cbr", amount:
                to = history.parse_value(amount)
                calls.append(acting(player_index(player), lambda state, to=to:
                                    state.complete_bet_or_raise_to(to)))
            case player, "sm", "-":
                index = player_index(player)
                calls.append(lambda state, index=index:
                             state.show_or_muck_hole_cards(True, index))
            case player, "sm", cards:
                shown, index = tuple(Card.parse(cards)), player_index(player)
                calls.append(lambda state, shown=shown, index=index:
                             state.show_or_muck_hole_cards(shown, index))
            case player, "sm":
                index = player_index(player)
                calls.append(lambda state, index=index:
                             state.show_or_muck_hole_cards(False, index))
            case _:
                raise ValueError(f"action {action!r} is not one of the benchmark's")
    return calls


def pokerkit_replay(history: Any, calls: list[Callable[[Any], object]]) -> Any:
    """HandHistory.state_actions' loop (pokerkit/notation.py), applying pre-parsed calls."""
    from collections import deque

    from pokerkit import Automation

    state = history.create_state()
    actions = deque(calls)
    while state.status or actions:
        call = None
        if actions:
            call = actions.popleft()
            try:
                call(state)
            except ValueError:
                actions.appendleft(call)
                call = None
        if call is None:
            if state.can_post_ante():
                state.post_ante()
            elif state.can_collect_bets():
                state.collect_bets()
            elif state.can_post_blind_or_straddle():
                state.post_blind_or_straddle()
            elif state.can_burn_card():
                state.burn_card("??")
                if Automation.CARD_BURNING in history.automations:
                    continue
            elif state.can_deal_hole():
                state.deal_hole("??")
            elif actions and not state.checking_or_calling_amount and state.can_check_or_call():
                state.check_or_call()
            elif actions and state.can_fold():
                state.fold()
            elif state.status and state.can_show_or_muck_hole_cards(()):
                state.show_or_muck_hole_cards(())
            elif state.can_select_runout_count():
                state.select_runout_count()
            elif state.can_kill_hand():
                state.kill_hand()
            elif state.can_push_chips():
                state.push_chips()
            elif state.can_pull_chips():
                state.pull_chips()
            else:
                break
    if actions:
        raise ValueError("unable to replay the hand history")
    return state


def timed(work: Callable[[], object]) -> tuple[float, float]:
    """CPU seconds and wall seconds of one run of `work`, after a full collection."""
    gc.collect()
    cpu, wall = time.process_time(), time.perf_counter()
    work()
    return time.process_time() - cpu, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path,
                        default=ROOT.parent / "shared" / "data" / "phh" / "pluribus")
    parser.add_argument("--hands", type=int, default=2_000, help="files (hands) to use")
    parser.add_argument("--rounds", type=int, default=11, help="timed rounds per contestant")
    parser.add_argument("--pure", action="store_true",
                        help="run handlog's compiled modules from their Python sources")
    args = parser.parse_args()

    from pure_python import engine_build, prefer_sources

    if args.pure:
        prefer_sources()

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})

    from pokerkit import HandHistory

    from handlog.replay.phh import PhhHand, find_phh_files, load_file
    from handlog.replay.phh_verify import replay_hand, verify_file

    files = find_phh_files([args.path])[: args.hands]
    if not files:
        sys.exit(f"no .phh files under {args.path}")
    count = len(files)

    ours = [entry for path in files for entry in load_file(path)]
    if not all(isinstance(entry, PhhHand) for entry in ours) or len(ours) != count:
        sys.exit("the benchmark wants one valid no-limit hold'em hand per file")
    hands = [entry for entry in ours if isinstance(entry, PhhHand)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        histories = []
        for path in files:
            with path.open("rb") as file:
                histories.append(HandHistory.load(file))


    def pokerkit_final(history: HandHistory) -> list[int]:
        # The states are one object advanced in place: the last one yielded is the end.
        *_, last = history
        return list(last.stacks)

    # Agreement first: a benchmark of two replayers that disagree would time nothing useful.
    # Only the hands both play to the end, to the same stacks, are timed, on both sides.
    disagreements = []
    agreed = []
    for hand, history in zip(hands, histories, strict=True):
        replayed = replay_hand(hand)
        if (replayed.state is None or replayed.violation or replayed.unreplayable
                or replayed.error
                or list(replayed.state.stacks) != pokerkit_final(history)):
            disagreements.append(hand.source)
        else:
            agreed.append((hand, history))
    hands = [hand for hand, _history in agreed]
    histories = [history for _hand, history in agreed]
    timed_files = [Path(hand.source) for hand in hands]

    prepared = [(history, pokerkit_actions(history)) for history in histories]

    def replay_ours() -> None:
        clear_caches()
        for hand in hands:
            replay_hand(hand)

    def replay_pokerkit() -> None:
        for history, actions in prepared:
            pokerkit_replay(history, actions)

    for history, actions in prepared:
        if list(pokerkit_replay(history, actions).stacks) != pokerkit_final(history):
            sys.exit(f"the pre-parsed PokerKit replay differs from HandHistory's on {history}")

    def end_to_end_ours() -> None:
        clear_caches()
        for path in timed_files:
            verify_file(path)

    def end_to_end_pokerkit() -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for path in timed_files:
                with path.open("rb") as file:
                    history = HandHistory.load(file)
                final = pokerkit_final(history)
                _ = final == history.finishing_stacks

    pairs = (("replay", replay_ours, replay_pokerkit, REPLAY_TARGET),
             ("end to end", end_to_end_ours, end_to_end_pokerkit, END_TO_END_TARGET))
    # [label] -> (ours, PokerKit's) per round, each (cpu, wall)
    rounds: dict[str, list[tuple[tuple[float, float], tuple[float, float]]]] = {
        label: [] for label, *_ in pairs}
    for round_number in range(args.rounds):
        for label, mine, theirs, _target in pairs:
            if round_number % 2:
                theirs_time = timed(theirs)
                mine_time = timed(mine)
            else:
                mine_time = timed(mine)
                theirs_time = timed(theirs)
            rounds[label].append((mine_time, theirs_time))

    count = len(hands)
    print(f"{len(files):,} Pluribus hands from {args.path}, {args.rounds} alternated rounds, one "
          f"CPU, Python {sys.version.split()[0]}, handlog engine {engine_build()}, load "
          f"{' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    print(f"timed: the {count:,} hands both replay to the same finishing stacks"
          + (f" (left out: {len(disagreements)}: {', '.join(disagreements[:10])}"
             f"{' ...' if len(disagreements) > 10 else ''})" if disagreements else ""))
    for label, _mine, _theirs, target in pairs:
        ours_cpu = [mine[0] for mine, _ in rounds[label]]
        theirs_cpu = [theirs[0] for _, theirs in rounds[label]]
        ratios = [theirs[0] / mine[0] for mine, theirs in rounds[label]]
        wall_ratios = [theirs[1] / mine[1] for mine, theirs in rounds[label]]
        ours_best, ours_median = best_and_median(ours_cpu, count)
        pk_best, pk_median = best_and_median(theirs_cpu, count)
        ratio, by_wall = statistics.median(ratios), statistics.median(wall_ratios)
        verdict = "met" if ratio >= target else "NOT met"
        print(f"{label}: handlog {ours_median:,.0f} hands/s of CPU [best {ours_best:,.0f}], "
              f"pokerkit {pk_median:,.0f} [best {pk_best:,.0f}]; median of the rounds' ratios "
              f"{ratio:.1f}x (range {min(ratios):.1f}-{max(ratios):.1f}; ratio of medians "
              f"{ours_median / pk_median:.1f}x; by wall clock {by_wall:.1f}x)"
              f" (target {target:.0f}x: {verdict})")

if __name__ == "__main__":
    main()
