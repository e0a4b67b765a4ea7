"""What witnessing and the bounded-delay checkpoints add to a tap.

    PYTHONPATH=. .venv/bin/python benchmarks/witness_overhead.py [--hands 120] [--rounds 3]

The same seeded simulated tournament (recorder/demo.py, every command through the recorder's
one write, `Recorder._write`) is recorded on a fresh SQLite file (WAL, synchronous=FULL) in
three ways, alternating, `--rounds` times each, in an interpreter set as `handlog serve` sets
it (recorder/cli_serve.py server_runtime: its switch interval):

* bare: no checkpoints at all;
* before: checkpoints as before issue #23, signed in the tap at levels, breaks, table closes
  and the finish only, no witness;
* after: `handlog serve`'s signing now (recorder/signing.py Checkpointer): on the signer's own
  thread, at once after every level, break, table close, finish, ruling, correction, award,
  deal and payout, within 60 s of any other append, each checkpoint posted to two witnesses
  (`handlog witness serve`, each in a process of its own at the lowest priority, HTTP on
  loopback) and their cosignatures stored in the database beside it (one write a
  checkpoint).

Each `_write` call is timed (the tap as the server sees it, from the command's events to the
answer), in wall time and in the tapping thread's CPU time. Rounds alternate the order
(ABC CBA); printed: each way's p50 and p99 over all its taps, and after/before and after/bare:
the pooled ratio and the median of the rounds' own ratios (each round's runs are close in
time, so a machine whose load moves weighs less on it). The goal is under 5% at p50 and p99.

Measured 2026-12-02 (witnesses as threads of this process, before the cosignatures were
stored in the database), 60 hands a run: p50 ratio 1.093, 1.045, 1.016; p99 0.78, 1.70, 1.14.

Measured 2026-12-06 on the shared 2-core machine under a load average of 10 to 14 (other
test suites running), witnesses as their own processes, cosignatures stored in the database,
`--hands 30 --rounds 12` (531 taps a run; 84 checkpoints signed before, 144 after, 249
cosignatures stored): pooled p50 5.61 -> 6.35 ms (1.132), p99 69.7 -> 71.5 ms (1.026);
median of the rounds' ratios p50 1.242, p99 1.160, the rounds' p50 ratios spread from 0.64 to
1.60. With witnesses as threads of this process (`--hands 20 --rounds 12`, then 30): median
p50 ratio 0.931 then 1.171. At this load the spread between rounds is ten times the 5% goal:
these runs neither show the goal met nor show it missed.

Then with the tapping thread's CPU time beside the wall time (load 8.8 to 11.8, `--hands 30
--rounds 12`, 6,372 taps a way, 84 / 144 checkpoints, 258 cosignatures): wall p50 5.213 ->
5.330 ms (pooled 1.022, median of the rounds 1.034, rounds 0.65 to 1.53), p99 32.1 -> 37.7 ms
(pooled 1.172, rounds' median 1.310); the tap's own CPU p50 1.103 -> 1.041 ms (0.944). The
p50 is within the goal in this run and costs the tap no CPU; the p99 is higher (a tap that
signs a checkpoint at once commits once more, and the cosignatures' rows share SQLite's one
writer with the taps). To be measured again on a quiet machine.

Measured 2026-12-06 on a quiet machine (load about 1), after group commit made the tap itself
about 0.6 ms, `--hands 120 --rounds 6`, twice: p50 0.608 -> 0.653 ms (pooled 1.073, rounds'
median 1.066) and 0.637 -> 0.684 ms (1.074, 1.072); p99 1.93 -> 3.76 ms (1.94) and 1.91 ->
3.81 ms (1.99); the tapping thread's CPU p50 1.060 and 1.067. `--hands 30 --rounds 6`: p50
1.047, p99 1.63. The goal (under 5% at p50) is not met: the p99 is the taps that sign at
once (a ruling, correction, award or deal: about 2.5% of the taps here) and commit the
checkpoint before answering; the p50 shares the process and SQLite's one writer with the
witness clients and their cosignatures.

Then (2026-12-07) the tap no longer signs: it notes "sign now" for the Checkpointer's thread,
which signs within milliseconds (several requests piled up make one checkpoint); a
checkpoint's or a cosignature's write takes the process's SQLite writer slot, queueing behind
the taps' batch in flight instead of sleeping in SQLite's busy handler (an ad-hoc probe
showed such writes lasting a median 59 ms, up to 1.7 s, with 35% of taps overlapping one;
after, 8%); the witnesses' cosignatures of one checkpoint are written together. Measured on
the shared 2-core machine under a load average of 8 to 17 (other helpers' test suites),
`--hands 60 --rounds 8`, 5,640 taps a way (96 checkpoints before, 144 after, 284
cosignatures): p50 bare 15.81, before 15.66, after 15.78 ms; after/before pooled p50 1.007,
rounds' median 0.979 (rounds 0.93 to 1.19); after/bare pooled 0.998, rounds' median 0.996;
the tapping thread's CPU p50 after/before 1.034 (rounds' median 1.035), after/bare 1.003;
p99 66.1 / 88.2 / 114.1 ms, after/before pooled 1.29 (rounds' median 1.19, rounds 0.79 to
2.56), after/bare 1.73 (1.31, rounds 0.80 to 3.28). An earlier run of the same code under a
load of 7 to 15 (before the bare way was added): after/before p50 0.958 pooled (rounds'
median 0.82), p99 0.48 (0.83), CPU p50 0.915. A third run, load 14 falling to 6,
`--rounds 6` (4,230 taps a way): p50 bare 12.32, before 11.95, after 10.25 ms, p99 52.5 /
51.2 / 49.7 ms; after/before pooled p50 0.858, p99 0.970 (rounds' medians 0.849, 1.014;
p99 rounds 0.53 to 1.81), after/bare p50 0.832, p99 0.947 (0.897, 0.931); CPU p50
after/before 0.919, after/bare 0.890. Within the 5% goal at p50 in all three runs, by wall
and by CPU (after at or below its peers); the p99 ratio swings from 0.48 to 1.29 between
runs of the same code at this load (after/bare 0.95 to 1.73), so this machine can neither
show nor refute the goal at p99 (a tap is 20 to 25 times slower here than on a quiet
machine). To be measured again on a quiet machine.

Then (2026-12-07, later) two changes, measured on a quiet machine (the other jobs on it
stopped with SIGSTOP for each run; load 1.3 to 3, falling), `--hands 120 --rounds 40` or 60,
705 taps a run, the witnesses on the machine's last core (`taskset`):
* at most one checkpoint a second (`--checkpoint-interval`, recorder/signing.py): what is asked
  for at once within a second of the last checkpoint is signed when that second ends, and
  what piles up meanwhile shares it (this way signed 2 checkpoints a run, "before" 12);
* a checkpoint's and its cosignatures' write rides the taps' next batch on SQLite
  (EventStore.write_beside_appends: in the batch's transaction, a savepoint of its own, no
  flush of its own for a tap to wait behind).
With the interval alone (before the riding), on a quiet machine, `--rounds 50`: after/bare
p50 1.087 pooled (rounds' median 1.082), p99 1.036 (1.155), the tapping thread's CPU p50
1.114 (1.104).
With both, four runs (A: riding whenever the writer had anything to do; B and C: riding only
while a batch was in flight or queued; D, the code now: the signer's thread and the
witnesses' writer wait up to 50 ms for the next batch, a request's caller never waits):

|   | after/bare p50 pooled (rounds' median) | p99 | after/before p50 | p99 | tap CPU after/bare |
|---|---|---|---|---|---|
| A, 40 rounds | 1.021 (1.016) | 1.012 (0.969) | 1.046 (1.061) | (1) | 1.021 |
| B, 40 rounds | 1.042 (1.025) | 1.074 (1.024) | 1.049 (1.050) | 1.063 (1.043) | 1.051 |
| C, 60 rounds | 1.059 (1.053) | 1.127 (1.114) | 1.035 (1.061) | 1.045 (1.063) | 1.062 |
| D, 60 rounds | 1.051 (1.054) | 1.046 (1.061) | 1.037 (1.033) | 0.997 (1.019) | 1.056 |
| E, 60 rounds | 1.049 (1.038) | 1.062 (1.075) | 1.056 (1.057) | 1.022 (1.065) | 1.073 |
| F, 60 rounds | 0.989 (1.008) | 0.966 (0.976) | 0.977 (1.007) | 0.938 (0.967) | 0.983 |
| F, 40 rounds | 0.962 (0.981) | 0.977 (0.954) | 0.964 (0.983) | 0.957 (0.968) | 0.977 |

(1) In A, "before" signed in the tap and waited 50 ms for a batch that could not come (its p99
52.6 ms): the reason for B. D is the code of recorder/signing.py now; E is D after the same
day's cheaper taps (the SQLite append without SQLAlchemy on known heads, each event encoded
once): p50 bare 0.370, before 0.368, after 0.388 ms; p99 2.255, 2.342, 2.394 ms; 120
checkpoints and 240 cosignatures in 60 runs (D: p50 0.573, 0.581, 0.602 ms). In D and E the
overhead was 4-7%, at the edge of what the rounds can tell apart, and as the tap
gets cheaper the same fixed cost weighs more. Most of it is the tapping thread's own CPU (+5.6%
in D, +7.3% in E, about 20 us a tap), which the checkpoints' and witnesses' instructions do not
explain: by cachegrind a whole 40-hand run with the signer executes 1.0% more instructions than
without, and a run whose only checkpoint is signed at its start (the threads idle after) showed
the same +5.9% CPU as one signing every second. F is E with SQLite's connection pool handing
out the connection returned last (LIFO, schema/database.py): the checkpoints' and witnesses'
threads read on connections of their own, and the pool's default (the oldest first) gave the
taps a connection whose page cache another connection's write had emptied. In F (p50 bare 0.454
and 0.451 ms, after 0.449 and 0.434 ms; p99 3.12 / 3.02 and 2.96 / 2.89 ms) nothing measurable
is left: the goal (under 5%) holds at p50 and p99 against both peers, pooled and by the rounds'
median. The bare way with LIFO against the same with the pool's default, 16 alternated rounds:
the tapping thread's CPU 0.972x (LIFO costs nothing alone).
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from handlog.recorder.cli_serve import server_runtime
from handlog.recorder.demo import run_demo
from handlog.recorder.service import Recorder
from handlog.recorder.signing import Checkpointer
from handlog.recorder.witness_client import CosignatureWriter, WitnessClient, to_witnesses
from handlog.schema.checkpoint import (
    SigningKey,
    StoredCheckpoint,
    record_checkpoint,
    stored_checkpoints,
)
from handlog.schema.cosignature import WitnessSigningKey
from handlog.schema.store import EventStore, open_store, upgrade_database

WAYS = ("bare", "before", "after")
ROOM = SigningKey("casino.example/poker-room", bytes(range(32)))
WITNESSES = (WitnessSigningKey("league.example/w1", bytes(range(1, 33))),
             WitnessSigningKey("players.example/w2", bytes(range(2, 34))))


class Before:
    """The checkpoints before issue #23: signed in the tap, at levels, breaks, table closes
    and the finish only."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    def soon(self, reason: str) -> None:
        if reason in ("tournament_finished", "table_closed", "break_started", "level_started",
                      "prizes_awarded"):
            self.sign(reason)

    def unsigned(self) -> None:
        pass

    def sign(self, reason: str) -> StoredCheckpoint:
        return record_checkpoint(self.store, ROOM, reason)


def timed(write: Callable[..., Any], samples: list[float],
          cpu: list[float]) -> Callable[..., Any]:
    """Each call's wall time into `samples`, and the CPU time of the tapping thread into
    `cpu` (what the tap itself spends, whatever else the machine runs)."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started, used = time.perf_counter(), time.thread_time()
        try:
            return write(*args, **kwargs)
        finally:
            samples.append(time.perf_counter() - started)
            cpu.append(time.thread_time() - used)
    return wrapper


def record(folder: Path, hands: int, way: str, urls: list[str]
           ) -> tuple[list[float], list[float], int, int]:
    url = f"sqlite:///{folder / f'{way}.db'}"
    upgrade_database(url)
    samples: list[float] = []
    cpu: list[float] = []
    with open_store(url) as store:
        recorder = Recorder(store)
        recorder._write = timed(recorder._write, samples, cpu)  # type: ignore[method-assign]
        clients: list[WitnessClient] = []
        signer: Checkpointer | None = None
        if way == "after":
            writer = CosignatureWriter(store, len(urls))  # as witness_clients() makes them
            clients = [WitnessClient(u, k.verifier, store, folder / "cosigned", writer)
                       for u, k in zip(urls, WITNESSES, strict=True)]
            signer = Checkpointer(store, ROOM, 60.0, after=to_witnesses(clients))
            recorder.signer = signer
        elif way == "before":
            recorder.signer = Before(store)
        run_demo(recorder, players=9, tables=1, seed=5, hands=hands)
        if signer is not None:
            signer.close()
        for client in clients:
            client.idle(60)
            client.close()
        signed = len(stored_checkpoints(store))
        cosigned = sum(len(c.cosignatures) for c in stored_checkpoints(store))
    for path in folder.glob("*.db*"):
        path.unlink()
    return samples, cpu, signed, cosigned


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    server_runtime()  # the interpreter as `handlog serve` sets it (its switch interval)
    # The witnesses on the last core (as on the league's own machines, they are not the
    # room's): without this, the scheduler puts a witness's signature check on the core the
    # taps run on as often as not, and the rounds' spread hides a 5% difference.
    elsewhere: list[str] = []
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) > 1 and shutil.which("taskset"):
        elsewhere = ["taskset", "-c", str(cores[-1])]
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        servers, urls = [], []
        room = folder / "room.pub"
        room.write_text(ROOM.verifier.text() + "\n")
        for key in WITNESSES:
            # Each witness is `handlog witness serve` in a process of its own, as on the
            # league's machine: its signature checks do not share this interpreter's lock;
            # and at the lowest priority, since its CPU is the league's, not the room's (on
            # this machine it would otherwise take the room's cores when a checkpoint comes).
            key_file = folder / f"{key.name.split('/')[0]}.key"
            key_file.write_text(key.text() + "\n")
            server = subprocess.Popen(
                [*elsewhere, "nice", "-n", "19", sys.executable, "-m", "handlog.recorder.cli",
                 "witness", "serve", "--key",
                 str(key_file), "--state", str(folder / f"{key.name.split('/')[0]}.json"),
                 "--log", str(room), "--port", "0"], stdout=subprocess.PIPE, text=True)
            assert server.stdout is not None
            line = server.stdout.readline()
            if not line.startswith("witness listening on "):
                raise SystemExit(f"the witness did not start: {line!r}")
            servers.append(server)
            urls.append(line.split()[-1].removesuffix("/add-checkpoint"))
        ways: dict[str, list[float]] = {way: [] for way in WAYS}
        cpus: dict[str, list[float]] = {way: [] for way in WAYS}
        counts = {way: [0, 0] for way in WAYS}
        # per round and peer: after/peer of the wall time's p50 and p99 and the CPU's p50
        ratios: dict[str, list[tuple[float, float, float]]] = {"before": [], "bare": []}
        for number in range(options.rounds):
            figures: dict[str, tuple[float, float, float]] = {}
            # ABC CBA: the order alternates, so a machine that gets busier or quieter over
            # the run weighs on every way alike.
            for way in WAYS if number % 2 == 0 else WAYS[::-1]:
                # The witnesses' state is per origin: start each "after" run from nothing.
                for path in folder.glob("*.json"):
                    path.unlink()
                samples, cpu, signed, cosigned = record(folder, options.hands, way, urls)
                ways[way] += samples
                cpus[way] += cpu
                figures[way] = (quantile(samples, 0.5), quantile(samples, 0.99),
                                quantile(cpu, 0.5))
                counts[way][0] += signed
                counts[way][1] += cosigned
                for path in (folder / "cosigned").rglob("*.checkpoint"):
                    path.unlink()
            a = figures["after"]
            for peer, kept in ratios.items():
                b = figures[peer]
                kept.append((a[0] / b[0], a[1] / b[1], a[2] / b[2]))
        for server in servers:
            server.terminate()
            server.wait(timeout=30)
    for way, samples in ways.items():
        print(f"{way:>6}: {len(samples)} taps  p50 {quantile(samples, 0.5) * 1000:.3f} ms  "
              f"p99 {quantile(samples, 0.99) * 1000:.3f} ms  tapping thread's CPU p50 "
              f"{quantile(cpus[way], 0.5) * 1000:.3f} ms p99 "
              f"{quantile(cpus[way], 0.99) * 1000:.3f} ms  ({counts[way][0]} checkpoints "
              f"signed, {counts[way][1]} cosignatures stored)")
    after = ways["after"]
    for peer, kept in ratios.items():
        print(f"after/{peer}, all taps pooled: p50 "
              f"{quantile(after, 0.5) / quantile(ways[peer], 0.5):.3f}  "
              f"p99 {quantile(after, 0.99) / quantile(ways[peer], 0.99):.3f};  the tapping "
              f"thread's CPU: p50 {quantile(cpus['after'], 0.5) / quantile(cpus[peer], 0.5):.3f}"
              f"  p99 {quantile(cpus['after'], 0.99) / quantile(cpus[peer], 0.99):.3f}")
        for name, k in (("p50", 0), ("p99", 1), ("CPU p50", 2)):
            print(f"after/{peer}, median of the {len(kept)} rounds' ratios, {name}: "
                  f"{statistics.median(r[k] for r in kept):.3f}  (each round: "
                  + ", ".join(f"{r[k]:.2f}" for r in kept) + ")")


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return statistics.median(ordered) if q == 0.5 else ordered[int(len(ordered) * q)]


if __name__ == "__main__":
    main()
