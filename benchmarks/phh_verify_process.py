"""`handlog phh verify` as a process against PokerKit's parse and replay as a process, on a
bar-sized corpus (a few hundred hands): what a user waits for, start-up included.

    .venv/bin/python benchmarks/phh_verify_process.py [PATH] [--hands 300] [--rounds 11]

The first N files of PATH (default ../shared/data/phh/pluribus) in natural order are copied to
a temporary folder. After one untimed round (which writes the byte code caches, as an installed
package has them), each round runs both, alternating, as fresh processes, wall clock from spawn
to exit:
- handlog: `python -m handlog.recorder.cli phh verify FOLDER` (the code the interpreter finds:
  set PYTHONPATH to time a worktree; the first line says whether the engine is compiled);
- pokerkit: a Python process that loads every file with `HandHistory.load`, replays it to its
  end and compares the finishing stacks (what `phh verify` checks), the peer's whole job.
Also timed: bare `python -c pass` (the floor of any process). Medians of wall clock and of CPU
time (user + system, from wait4: less swayed by other processes on a shared machine) are
reported with the ratios of medians (target 5x, issue 28).

Figures, 2026-12-07, two shared cores (/proc/loadavg 15.8 before, 17.3 after: other sessions'
work, so wall clock is mostly noise; CPU time is the figure), 300 Pluribus hands, 11 rounds,
compiled, `--also /work/main` (main before this change, in the same rounds):
    bare python                      CPU median   48.6 ms
    handlog phh verify               CPU median  306.0 ms   4.33x PokerKit (wall 4.28x)
    handlog at main                  CPU median  347.0 ms   3.82x PokerKit (wall 4.29x)
    pokerkit load+replay             CPU median 1324.6 ms
Target 5x NOT met. Instructions (valgrind --tool=cachegrind, no load dependence) of
`phh verify` on these 300 hands: 843 M before (020f328), 737 M now, of which 494 M before the first
hand (bare python 90 M; imports 404 M): dataclass creation of the hand events (93 M for 21
classes) and commands (65 M for 18), click (62 M beyond dataclasses), dataclasses' own import
(inspect: 42 M), the profiles (31 M), phh.py (30 M), hand_state (25 M). Done here: tomllib and
zoneinfo imported only when a file needs them; the table and correction events moved to
engine/table_events.py (not built by a replay); replay/phh.py compiled (parsing is about half
of the per-hand work: 283 M -> 243 M for 300 hands). PokerKit's process on the same files:
5,007 M instructions, so by instructions handlog is 6.8x (5.9x before); CPU time gives 4.3x
because start-up runs slower per instruction (cold caches, page faults, system time) and is
two thirds of handlog's instructions. Reaching 5x in CPU time needs about 60 ms (roughly
150 M instructions of start-up) more off: the dataclasses built at import are the bulk.
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
