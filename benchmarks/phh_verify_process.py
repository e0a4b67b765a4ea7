"""`handlog phh verify` as a process against PokerKit's parse and replay as a process, on a
bar-sized corpus (a few hundred hands): what a user waits for, start-up included.

    .venv/bin/python benchmarks/phh_verify_process.py [PATH] [--hands 300] [--rounds 11]

The first N files of PATH (default ../shared/data/phh/pluribus) in natural order are copied to
a temporary folder. After one untimed round (which writes the byte code caches, as an installed
package has them), each round runs both, alternating, as fresh processes, wall clock from spawn
to exit:
- handlog: `python -m handlog.recorder.cli phh verify FOLDER` (the code the interpreter finds:
  set PYTHONPATH to time a worktree; the first line says whether the engine is compiled): the
  plain form, which recorder/cli.py runs without click, as the installed `handlog` does;
- pokerkit: a Python process that loads every file with `HandHistory.load`, replays it to its
  end and compares the finishing stacks (what `phh verify` checks), the peer's whole job.
Also timed: bare `python -c pass` (the floor of any process). Medians of wall clock and of CPU
time (user + system, from wait4: less swayed by other processes on a shared machine) are
reported with the ratios of medians (target 5x, issue 28).

Figures, 2026-12-07 (later), two shared cores (/proc/loadavg 8.1, 5.2 and 2.9 at the start of
three runs: other sessions' work, so wall clock is mostly noise; CPU time is the figure), 300
Pluribus hands, 11 rounds each, compiled, `--also /work/main` (main before this change, in the
same rounds):
    bare python            CPU median   26.0 /  26.7 /  24.3 ms
    handlog phh verify     CPU median  123.3 / 126.0 / 113.7 ms   5.08x / 5.29x / 5.18x PokerKit
                                                        (wall 5.04x / 6.03x / 7.13x)
    handlog at main        CPU median  166.0 / 183.6 / 151.8 ms   3.77x / 3.63x / 3.88x
    pokerkit load+replay   CPU median  626.0 / 666.3 / 589.2 ms
Target 5x met, narrowly (this machine ran about twice as fast per process as in the run
before, which gave main 3.82x: 347.0 ms against PokerKit's 1,324.6). Instructions
(valgrind --tool=cachegrind, byte code cached; no load dependence) of `phh verify` on these
300 hands: 745 M at main, 553 M now; the imports before the first hand 504 M -> 316 M (bare
python 90 M). What went: the events, commands and Profile are built by engine.values.record
(dataclass collects the fields and makes the slots; `__repr__`, `__eq__`, `__hash__` and the
frozen `__setattr__` are shared functions, `__init__` is compiled once per number of fields
and renamed per class) instead of dataclass compiling six methods per class: 137 M; and the
plain form `phh verify PATH... [--json]` runs without click (recorder/phh_run.py): 55 M (click
costs 102 M alone, but inspect, typing and re, which it loads, dataclasses needs anyway). What
is left before the first hand: dataclasses' import (inspect: 42 M), the compiled modules'
own dataclasses (ten classes mypyc builds with dataclass at import), typing (14 M), hashlib
(OpenSSL: 12 M, for the rules digest), the profiles (25 M), the events and commands (27 M).
PokerKit's process on the same files: 5,007 M instructions, so by instructions handlog is
9.1x.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 5.0

POKERKIT = """
import sys, warnings
from pathlib import Path
from pokerkit import HandHistory
warnings.simplefilter("ignore")
agree = 0
for path in sorted(Path(sys.argv[1]).glob("*.phh")):
    with path.open("rb") as file:
        history = HandHistory.load(file)
    *_, last = history
    agree += list(last.stacks) == list(history.finishing_stacks or [])
print(agree)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path,
                        default=ROOT.parent / "shared" / "data" / "phh" / "pluribus")
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--also", action="append", default=[], type=Path, metavar="CHECKOUT",
                        help="time `phh verify` of another checkout too (as PYTHONPATH), e.g. "
                             "the commit before a change, in the same alternated rounds")
    args = parser.parse_args()
    from handlog.replay.phh import find_phh_files

    files = find_phh_files([args.path])[: args.hands]
    if not files:
        sys.exit(f"no .phh files under {args.path}")
    engine = subprocess.run(
        [sys.executable, "-c", "import handlog.engine.hand_apply as m; print(m.__file__)"],
        capture_output=True, text=True, check=True, cwd=tempfile.gettempdir()).stdout.strip()
    with tempfile.TemporaryDirectory() as folder:
        for number, path in enumerate(files):
            shutil.copyfile(path, Path(folder) / f"{number:05d}.phh")
        # Byte code cached as an installed package has it (the warm-up round writes it).
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        verify = [sys.executable, "-m", "handlog.recorder.cli", "phh", "verify", folder]
        contestants = {
            "bare python": ([sys.executable, "-c", "pass"], env),
            "handlog phh verify": (verify, env),
            "pokerkit load+replay": ([sys.executable, "-c", POKERKIT, folder], env),
        }
        for checkout in args.also:
            contestants[f"handlog at {checkout}"] = (verify, env | {"PYTHONPATH": str(checkout)})
        times: dict[str, list[float]] = {name: [] for name in contestants}
        cpu: dict[str, list[float]] = {name: [] for name in contestants}
        for round_number in range(args.rounds + 1):
            for name, (command, its_env) in contestants.items():
                started = time.perf_counter()
                # (run from the folder, so that `-m` does not put this checkout on the path)
                process = subprocess.Popen(command, cwd=folder, stdout=subprocess.DEVNULL,
                                           stderr=subprocess.DEVNULL, env=its_env)
                _pid, status, usage = os.wait4(process.pid, 0)
                process.returncode = os.waitstatus_to_exitcode(status)
                if round_number:
                    times[name].append(time.perf_counter() - started)
                    cpu[name].append(usage.ru_utime + usage.ru_stime)
                if process.returncode not in (0, 1):
                    sys.exit(f"{name} failed ({process.returncode}): {' '.join(command[:4])}")
    print(f"{len(files)} hands from {args.path}, {args.rounds} alternated rounds; engine: "
          f"{'compiled' if engine.endswith('.so') else 'pure Python'} ({engine})")
    medians = {name: statistics.median(samples) for name, samples in times.items()}
    cpu_medians = {name: statistics.median(samples) for name, samples in cpu.items()}
    for name, median in medians.items():
        print(f"  {name:28} wall median {median * 1000:7.1f} ms (min "
              f"{min(times[name]) * 1000:6.1f}), CPU median {cpu_medians[name] * 1000:7.1f} ms")
    for name in medians:
        if name.startswith("handlog"):
            ratio = medians["pokerkit load+replay"] / medians[name]
            by_cpu = cpu_medians["pokerkit load+replay"] / cpu_medians[name]
            print(f"{name} is {ratio:.2f}x PokerKit as a process, {by_cpu:.2f}x by CPU time "
                  f"(target {TARGET:.0f}x: {'met' if ratio >= TARGET else 'NOT met'})")


if __name__ == "__main__":
    main()
