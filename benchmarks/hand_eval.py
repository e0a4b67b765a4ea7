"""Seven-card evaluations per second: handlog.engine.evaluator.evaluate7 against phevaluator
and eval7.

Run from the repository root: .venv/bin/python benchmarks/hand_eval.py [--hands N] [--rounds R]

Every evaluator gets the same pre-generated random hands (fixed seed), in the form it takes
(our card numbers are also phevaluator's, eval7 gets its own Card objects built beforehand).
The process is pinned to one CPU. Rounds are interleaved so background load hits every
evaluator alike; the best and the median round are reported.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SEED = 20240601


def timed_import() -> float:
    """Seconds spent importing the evaluator, which builds its tables at import."""
    if "handlog.engine.evaluator" in sys.modules:
        raise RuntimeError("handlog.engine.evaluator already imported; the build time would "
                           "be wrong")
    start = time.perf_counter()
    import handlog.engine.evaluator  # noqa: F401

    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300_000, help="hands per round")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds per evaluator")
    args = parser.parse_args()

    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})

    build_seconds = timed_import()

    import eval7
    from phevaluator import evaluate_cards

    from handlog.engine.cards import FULL_DECK, card_text
    from handlog.engine.evaluator import evaluate7

    rng = random.Random(SEED)
    hands = [tuple(rng.sample(FULL_DECK, 7)) for _ in range(args.hands)]
    e7_deck = [eval7.Card(card_text(card)) for card in FULL_DECK]
    e7_hands = [[e7_deck[card] for card in hand] for hand in hands]
    e7_evaluate = eval7.evaluate

    check_agreement(hands, evaluate7, evaluate_cards, e7_hands, e7_evaluate)

    def run_ours() -> None:
        for c1, c2, c3, c4, c5, c6, c7 in hands:
            evaluate7(c1, c2, c3, c4, c5, c6, c7)

    def run_phevaluator() -> None:
        for c1, c2, c3, c4, c5, c6, c7 in hands:
            evaluate_cards(c1, c2, c3, c4, c5, c6, c7)

    def run_eval7() -> None:
        for hand in e7_hands:
            e7_evaluate(hand)

    runners: dict[str, Callable[[], None]] = {
        "ours (evaluate7)": run_ours,
        "phevaluator (evaluate_cards)": run_phevaluator,
        "eval7 (evaluate)": run_eval7,
    }
    seconds: dict[str, list[float]] = {name: [] for name in runners}
    for _ in range(args.rounds):
        for name, run in runners.items():
            start = time.perf_counter()
            run()
            seconds[name].append(time.perf_counter() - start)

    print(f"Python {sys.version.split()[0]}, pinned to CPU {cpu}, seed {SEED}")
    print(f"{args.hands:,} random 7-card hands x {args.rounds} rounds per evaluator")
    print(f"table build (import handlog.engine.evaluator): {build_seconds * 1000:.0f} ms")
    print()
    best = {name: args.hands / min(times) for name, times in seconds.items()}
    median = {name: args.hands / statistics.median(times) for name, times in seconds.items()}
    print(f"{'evaluator':<30}{'best evals/s':>15}{'median evals/s':>17}")
    for name in runners:
        print(f"{name:<30}{best[name]:>15,.0f}{median[name]:>17,.0f}")
    print()
    ours = "ours (evaluate7)"
    for name in runners:
        if name != ours:
            print(
                f"ours / {name}: {best[ours] / best[name]:.2f} (best), "
                f"{median[ours] / median[name]:.2f} (median)"
            )
    print(f"target 1,000,000 evals/s: {'met' if best[ours] >= 1_000_000 else 'NOT met'} (best)")


def check_agreement(
    hands: list[tuple[int, ...]],
    ours: Callable[..., int],
    phe: Callable[..., int],
    e7_hands: list[list[object]],
    e7: Callable[[list[object]], int],
) -> None:
    """Refuse to report speeds unless all three rank the hands alike (a like-for-like run)."""
    sample = range(0, len(hands) - 1, max(1, len(hands) // 5000))
    for i in sample:
        a, b = hands[i], hands[i + 1]
        mine = (ours(*a) > ours(*b)) - (ours(*a) < ours(*b))
        # phevaluator ranks 1 as the best hand, so its order is reversed.
        theirs = (phe(*a) < phe(*b)) - (phe(*a) > phe(*b))
        sevens = (e7(e7_hands[i]) > e7(e7_hands[i + 1])) - (e7(e7_hands[i]) < e7(e7_hands[i + 1]))
        if not mine == theirs == sevens:
            raise SystemExit(f"evaluators disagree on hands {a} and {b}")


if __name__ == "__main__":
    main()
