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
Rounds alternate between the two so background load hits both alike; the process is pinned to
one CPU; the median round is reported (the best in brackets), and the ratio is of medians.
"""

from __future__ import annotations

import argparse
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

REPLAY_TARGET = 20.0
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


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path,
                        default=ROOT.parent / "shared" / "data" / "phh" / "pluribus")
    parser.add_argument("--hands", type=int, default=2_000, help="files (hands) to use")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds per contestant")
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

    prepared = [(history, pokerkit_actions(history)) for history in histories]

    def pokerkit_final(history: HandHistory) -> list[int]:
        # The states are one object advanced in place: the last one yielded is the end.
        *_, last = history
        return list(last.stacks)

    # Agreement first: a benchmark of two replayers that disagree would time nothing useful.
    disagreements = []
    for hand, history in zip(hands, histories, strict=True):
        replayed = replay_hand(hand)
        if replayed.state is None or list(replayed.state.stacks) != pokerkit_final(history):
            disagreements.append(hand.source)

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
        for path in files:
            verify_file(path)

    def end_to_end_pokerkit() -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for path in files:
                with path.open("rb") as file:
                    history = HandHistory.load(file)
                final = pokerkit_final(history)
                _ = final == history.finishing_stacks

    rounds: dict[str, list[float]] = {name: [] for name in
                                      ("replay_ours", "replay_pk", "e2e_ours", "e2e_pk")}
    for _ in range(args.rounds):
        rounds["replay_ours"].append(timed(replay_ours))
        rounds["replay_pk"].append(timed(replay_pokerkit))
        rounds["e2e_ours"].append(timed(end_to_end_ours))
        rounds["e2e_pk"].append(timed(end_to_end_pokerkit))

    print(f"{count:,} Pluribus hands from {args.path}, {args.rounds} rounds, one CPU, "
          f"Python {sys.version.split()[0]}, handlog engine {engine_build()}")
    print(f"final stacks agree with PokerKit on {count - len(disagreements):,} of {count:,} "
          "hands" + (f" (differ: {', '.join(disagreements[:10])}"
                     f"{' ...' if len(disagreements) > 10 else ''})" if disagreements else ""))
    for label, mine, theirs, target in (
        ("replay", "replay_ours", "replay_pk", REPLAY_TARGET),
        ("end to end", "e2e_ours", "e2e_pk", END_TO_END_TARGET),
    ):
        ours_best, ours_median = best_and_median(rounds[mine], count)
        pk_best, pk_median = best_and_median(rounds[theirs], count)
        ratio = ours_median / pk_median
        verdict = "met" if ratio >= target else "NOT met"
        print(f"{label}: handlog {ours_median:,.0f} hands/s [best {ours_best:,.0f}], pokerkit "
              f"{pk_median:,.0f} hands/s [best {pk_best:,.0f}], ratio of medians {ratio:.1f}x "
              f"(target {target:.0f}x: {verdict})")


if __name__ == "__main__":
    main()
