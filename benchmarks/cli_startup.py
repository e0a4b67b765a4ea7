"""How long `handlog --version` and `handlog --help` take as processes, against bare Python and
against loading every command group as the CLI did before it loaded them lazily.

    .venv/bin/python benchmarks/cli_startup.py [--rounds 15]

Each contestant is run as a fresh process `--rounds` times, alternating; the medians are
printed (wall clock, from spawn to exit).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HANDLOG = Path(sys.executable).parent / "handlog"

CONTESTANTS = {
    "bare python": [sys.executable, "-c", "pass"],
    "handlog --version": [str(HANDLOG), "--version"],
    "handlog --help": [str(HANDLOG), "--help"],
    "every group loaded (before)": [
        sys.executable, "-c",
        "from handlog.recorder.commands import all_groups; "
        "from handlog.engine.evaluator import evaluate; "
        "all_groups(); evaluate([0, 4, 8, 12, 16])"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    times: dict[str, list[float]] = {name: [] for name in CONTESTANTS}
    for _ in range(args.rounds):
        for name, command in CONTESTANTS.items():
            started = time.perf_counter()
            subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
            times[name].append(time.perf_counter() - started)
    bare = statistics.median(times["bare python"])
    for name, samples in times.items():
        median = statistics.median(samples)
        print(f"{name:30} median {median * 1000:7.1f} ms   ({median / bare:4.1f}x bare python)")


if __name__ == "__main__":
    main()
