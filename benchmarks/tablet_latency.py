"""Taps per typical hand and tap-to-screen latency of the dealer's tablet, in a real browser.

    .venv/bin/python benchmarks/tablet_latency.py [--hands 40] [--seed 3] [--players 6]
                                                  [--viewport 1280x800] [--viewers N]

Serves the API on a temporary SQLite file (WAL, synchronous=FULL: every tap is fsynced before
the answer), opens the dealer page in Debian's headless chromium, signs in with the table PIN
and plays `--hands` hands by clicking, as a dealer would: start, the actions (a seeded mix of
folds, calls, checks, bets and raises by the preset minimum, a quick size or the keypad; facing a
bet 70% fold pre-flop, 50% after), the board from the card picker,
shown hands at showdown, the pot push. Hole cards are not entered (the usual case).

Prints the taps per hand (every click, and the clicks that record an entry) and the time from
a tap to the updated screen, measured in the page: from the click's input event to the second
animation frame after the new state was rendered (the first frame has painted by then).

Then `--offline-hands` hands (default 8) recorded whole with the network cut: the tablet's own
engine (Pyodide) decides each tap (the betting, the board, the shows, the push) and the screen
shows what it decided, until the next hand starts by itself; it prints the tap-to-screen
p50/p95 offline beside the online p95 of the same run. (Before the showdown and the push were
decided on the tablet the offline hands were their betting only: p95 35-46 ms in two runs
where this page's was 24-41 ms, p50 16-17 ms both. Whole hands offline: p50 18-20 ms, p95
40 ms at load 6, 137 ms at load 12, against an online p95 of 121 and 387 ms in those runs.)
Needs `npm ci --prefix web`.

With `--viewers N` the same hands (same seed) are played twice in one run, on a fresh server
each: first with no viewer, then with N viewers following the floor's live stream (each signed
in as a viewer from its own loopback address, 127.0.0.2 and up, in a separate process that reads
every update); it prints both tap p50/p95 and their ratio (the peer is the run without viewers).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.cards import FULL_DECK, card_text  # noqa: E402
from engine.table import Level  # noqa: E402
from recorder.api import create_app  # noqa: E402
from recorder.auth import Auth  # noqa: E402
from recorder.cli_serve import serve_in_thread  # noqa: E402
from recorder.service import (  # noqa: E402
    SYSTEM,
    OpenTable,
    PlaceButton,
    Recorder,
    SeatPlayer,
)
from schema.store import open_store  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
STREAM = "table-bench"
NAMES = ("Ada", "Bea", "Cal", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy")


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


class Tablet:
    """The dealer page, driven by clicks; counts them."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0
        self.recording = 0

    def state(self) -> Any:
        return self.page.evaluate("() => window.handlogTable.state()")

    def click(self, selector: str) -> None:
        self.taps += 1
        self.page.click(selector)

    def cards(self, cards: list[str], confirm: str) -> None:
        """Pick the cards; confirm only if the page asks (it records on the last card)."""
        version = self.page.get_attribute("body", "data-version")
        for card in cards:
            self.click(f".pick[data-card='{card}']")
        button = f".sheet:not([hidden]) [data-action='{confirm}']:not([disabled])"
        if self.page.locator(button).count():
            self.click(button)
        self.recording += 1
        self.page.wait_for_function(
            "v => document.body.dataset.version !== v && "
            "window.handlogTable.outbox().length === 0", arg=version)

    def record(self, selector: str) -> None:
        version = self.page.get_attribute("body", "data-version")
        self.click(selector)
        self.recording += 1
        self.page.wait_for_function(
            "v => document.body.dataset.version !== v && "
            "window.handlogTable.outbox().length === 0", arg=version)


def betting_choice(legal: dict[str, Any], preflop: bool, rng: random.Random) -> str:
    """fold, call or check, as in a live game (the offline streets: no sizing taps)."""
    facing = legal["call"] > 0
    if facing and rng.random() < (0.70 if preflop else 0.50):
        return "fold"
    return "call" if facing else "check"


def play_offline(tablet: Tablet, rng: random.Random) -> list[float]:
    """Start a hand, cut the network and record the whole hand with the tablet's own engine
    (Pyodide): the betting, the board from the card pad, the shows and the push, until the
    next hand starts by itself; then the network back and the queue sent. Returns the offline
    taps' latencies (ms): each tap that records, to the screen the engine decided."""
    page = tablet.page
    if not tablet.state()["hand_in_progress"]:
        tablet.record("[data-action='start']")
    page.context.set_offline(True)
    page.wait_for_function("() => window.handlogTable.engine() === 'ready'", timeout=180_000)
    start = page.evaluate("() => window.__latencies.length")
    number = tablet.state()["hand"]["number"]
    deck = [card_text(c) for c in FULL_DECK]
    rng.shuffle(deck)

    def recorded(selector: str) -> None:
        count = page.evaluate("() => window.__latencies.length")
        tablet.click(selector)
        page.wait_for_function("n => window.__latencies.length > n", arg=count)

    while True:
        state = tablet.state()
        hand = state["hand"]
        if not state["hand_in_progress"] or hand["number"] != number:
            break  # the pot was pushed and (unless a hold is due) the next hand started
        deck = [c for c in deck if c not in set(hand["known_cards"])]
        if hand["phase"] == "betting":
            choice = betting_choice(hand["legal"], hand["street"] == "preflop", rng)
            recorded(f"[data-action='{choice}']")
        elif hand["phase"] == "board":
            page.wait_for_selector(".sheet .picker")  # opened by itself
            for card in deck[:hand["board_due"] - 1]:
                tablet.click(f".pick[data-card='{card}']")
            recorded(f".pick[data-card='{deck[hand['board_due'] - 1]}']")  # on the last card
        elif hand["showdown"] and hand["showdown"]["proposed"] is not None:
            recorded("[data-action='award']")
        else:  # the card pad is open on the next hand to show
            page.wait_for_selector(".sheet .picker")
            tablet.click(f".pick[data-card='{deck[0]}']")
            recorded(f".pick[data-card='{deck[1]}']")
    latencies: list[float] = page.evaluate("s => window.__latencies.slice(s)", start)
    page.context.set_offline(False)
    page.wait_for_function("() => window.handlogTable.outbox().length === 0 && "
                           "!window.handlogTable.state().predicted", timeout=120_000)
    finish_hand(tablet, rng)
    return latencies


def play_hand(tablet: Tablet, rng: random.Random) -> None:
    # The page starts the next hand by itself after the push when nothing is due, pushes a pot
    # nobody contests, and records the board and a shown hand on their last card: the driver
    # taps Start, Push and the confirm only when the page still asks for them.
    if not tablet.state()["hand_in_progress"]:
        tablet.record("[data-action='start']")
    finish_hand(tablet, rng)


def finish_hand(tablet: Tablet, rng: random.Random) -> None:
    number = tablet.state()["hand"]["number"]
    deck = [card_text(c) for c in FULL_DECK]
    rng.shuffle(deck)
    while True:
        state = tablet.state()
        hand = state["hand"]
        if not state["hand_in_progress"] or hand["number"] != number:
            return
        known = set(hand["known_cards"])
        deck = [c for c in deck if c not in known]
        if hand["phase"] == "betting":
            legal = hand["legal"]
            roll = rng.random()
            facing = legal["call"] > 0
            preflop = hand["street"] == "preflop"
            # A live game's mix: most hands end before the river.
            raise_share = (0.10 if preflop else 0.10) if facing else 0.35
            fold_share = raise_share + (0.70 if preflop else 0.50)
            if legal["raise_kind"] and roll < raise_share:
                sizes = legal["sizes"]
                if rng.random() < 0.25:
                    amount = str(sizes[min(1, len(sizes) - 1)]["to"])
                    for key in amount:
                        tablet.click(f"[data-action='key'][data-key='{key}']")
                elif rng.random() < 0.5 and len(sizes) > 1:
                    tablet.click(f"[data-action='size'][data-to='{sizes[1]['to']}']")
                tablet.record("[data-action='raise']")
            elif facing and roll < fold_share:
                tablet.record("[data-action='fold']")
            elif facing:
                tablet.record("[data-action='call']")
            else:
                tablet.record("[data-action='check']")
        elif hand["phase"] == "board":
            tablet.cards(deck[:hand["board_due"]], "deal")
            deck = deck[hand["board_due"]:]
        elif hand["phase"] == "showdown":
            showdown = hand["showdown"]
            if showdown["proposed"] is not None:
                tablet.record("[data-action='award']")
                continue
            shown = {s["position"] for s in state["seats"] if s.get("shown")}
            player = next(p for p in showdown["order"] if p not in shown)
            name = next(s["player"] for s in state["seats"] if s.get("position") == player
                        and s.get("in_hand"))
            title = tablet.page.locator(".sheet:not([hidden]) .sheet-title")
            if not (title.count() and name in title.inner_text()):
                switch = f".sheet [data-action='open-show'][data-player='{player}']"
                tablet.click(switch if tablet.page.locator(switch).count()
                             else f"#actions [data-action='open-show'][data-player='{player}']")
            tablet.cards(deck[:2], "show")
            deck = deck[2:]
        else:
            raise RuntimeError(f"unexpected phase {hand['phase']}")


VIEWERS_CODE = r"""
# Plain asyncio sockets, not an HTTP client: the viewers' own parsing must not eat the CPU the
# server under test shares with them.
import asyncio, sys

async def request(host, port, address, text):
    reader, writer = await asyncio.open_connection(host, port, local_addr=(address, 0))
    writer.write(text.encode())
    await writer.drain()
    return reader, writer

async def follow(host, port, address, counts, index, ready):
    body = '{"role": "viewer"}'
    reader, writer = await request(host, port, address,
        f"POST /api/session HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n{body}")
    head = (await reader.read()).decode()
    writer.close()
    cookies = "; ".join(line.split(":", 1)[1].split(";")[0].strip()
                        for line in head.split("\r\n") if line.lower().startswith("set-cookie:"))
    reader, writer = await request(host, port, address,
        f"GET /api/floor/events HTTP/1.1\r\nHost: {host}\r\nCookie: {cookies}\r\n\r\n")
    while True:
        chunk = await reader.read(65536)
        if not chunk:
            return
        seen = chunk.count(b"event: state")
        if seen and counts[index] == 0:
            ready.release()
        counts[index] += seen

async def main(base, count):
    host, port = base.removeprefix("http://").split(":")
    counts = [0] * count
    ready = asyncio.Semaphore(0)
    tasks = [asyncio.create_task(follow(host, int(port), f"127.0.{(i + 2) // 256}.{(i + 2) % 256}",
                                        counts, i, ready)) for i in range(count)]
    for _ in range(count):
        await ready.acquire()
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    print("frames", sum(counts), min(counts), flush=True)
    for task in tasks:
        task.cancel()

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


class Viewers:
    """N viewers following the floor's event stream, in a process of their own."""

    def __init__(self, base: str, count: int) -> None:
        import subprocess

        self.process = subprocess.Popen([sys.executable, "-c", VIEWERS_CODE, base, str(count)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if line.strip() != "ready":
            self.process.kill()
            raise RuntimeError(f"the viewers did not start: {line!r}")

    def stop(self) -> tuple[int, int]:
        """(frames received by all viewers, by the one that got fewest)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("\n")
        self.process.stdin.flush()
        words = self.process.stdout.readline().split()
        self.process.wait(timeout=30)
        return int(words[1]), int(words[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--viewport", default="1280x800")
    parser.add_argument("--offline-hands", type=int, default=8,
                        help="then hands whose betting is recorded offline (0: none)")
    parser.add_argument("--viewers", type=int, default=0,
                        help="also play the same hands with N viewers following the floor")
    options = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} is not installed (apt-get install chromium)")
    if not options.viewers:
        run(options, 0)
        return
    alone = run(options, 0)
    watched = run(options, options.viewers)
    print(f"tap p95 with {options.viewers} viewers / with none: "
          f"{percentile(watched, 0.95):.0f} / {percentile(alone, 0.95):.0f} ms = "
          f"{percentile(watched, 0.95) / percentile(alone, 0.95):.2f}x (p50 "
          f"{percentile(watched, 0.5):.0f} / {percentile(alone, 0.5):.0f} ms = "
          f"{percentile(watched, 0.5) / percentile(alone, 0.5):.2f}x)")


def run(options: argparse.Namespace, viewers: int) -> list[float]:
    """Play the hands; the tap latencies (ms)."""
    from playwright.sync_api import sync_playwright

    width, height = (int(v) for v in options.viewport.split("x"))
    rng = random.Random(options.seed)
    frames = (0, 0)
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(f"sqlite:///{folder}/bench.db", upgrade=True)
        recorder = Recorder(store)
        version = 0

        def record(command: Any) -> None:
            nonlocal version
            version = recorder.submit(STREAM, command, version, uuid.uuid4(), SYSTEM).version

        record(OpenTable("bench", 9, "tda"))
        for seat in range(1, options.players + 1):
            record(SeatPlayer(seat, NAMES[seat - 1], 1_000_000))
        record(PlaceButton(1))
        auth = Auth(director_pin="1")
        app = create_app(recorder, auth=auth, level_for=lambda _s, _f: Level(50, 100),
                         poll_seconds=5)
        with serve_in_thread(app) as base, sync_playwright() as playwright:
            swarm = Viewers(base, viewers) if viewers else None
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                 args=ARGS)
            page = browser.new_page(viewport={"width": width, "height": height})
            # The page keeps its tap latencies (window.__latencies) only behind the test flag.
            page.add_init_script("try { localStorage.setItem('handlog.test', '1'); } catch (e) {}")
            page.goto(f"{base}/dealer/{STREAM}")
            for digit in auth.table_pin(STREAM):
                page.click(f"[data-pin='{digit}']")
            page.click("[data-pin='join']")
            page.wait_for_selector("[data-action='start']")
            page.evaluate("() => { window.__latencies.length = 0; }")
            taps: list[int] = []
            recording: list[int] = []
            started = time.perf_counter()
            for _ in range(options.hands):
                tablet = Tablet(page)
                play_hand(tablet, rng)
                taps.append(tablet.taps)
                recording.append(tablet.recording)
            elapsed = time.perf_counter() - started
            page.wait_for_timeout(100)
            latencies: list[float] = page.evaluate("() => window.__latencies")
            offline: list[float] = []
            offline_taps = 0
            if options.offline_hands:
                page.wait_for_function("() => navigator.serviceWorker.controller",
                                       timeout=120_000)
                # The same page, offline hand by hand: tap to the screen the tablet's engine
                # decided, each hand whole (the board, the shows, the push) before the next.
                for _ in range(options.offline_hands):
                    offline += play_offline(Tablet(page), rng)
                offline_taps = len(offline)
            browser.close()
            if swarm is not None:
                frames = swarm.stop()
        store.close()
    print(f"tablet latency: {options.hands} hands, {options.players} players, chromium headless "
          f"{width}x{height}, SQLite file (WAL, synchronous=FULL), {viewers} viewers "
          "following the floor")
    if viewers:
        print(f"viewers: {frames[0]} floor updates received in all, at least {frames[1]} each")
    print(f"taps per hand: mean {statistics.mean(taps):.1f}, median "
          f"{statistics.median(taps):.0f}, min {min(taps)}, max {max(taps)} "
          f"(entries recorded per hand: mean {statistics.mean(recording):.1f})")
    print(f"tap -> updated screen: p50 {percentile(latencies, 0.5):.0f} ms, "
          f"p95 {percentile(latencies, 0.95):.0f} ms, max {max(latencies):.0f} ms "
          f"over {len(latencies)} recording taps")
    print(f"wall clock: {elapsed:.1f} s for {sum(taps)} taps (includes the driver's own "
          "round trips)")
    if offline:
        print(f"offline (the tablet's engine, Pyodide, decides; {options.offline_hands} whole "
              f"hands, {offline_taps} recording taps): tap -> updated screen p50 "
              f"{percentile(offline, 0.5):.0f} ms, p95 {percentile(offline, 0.95):.0f} ms, "
              f"max {max(offline):.0f} ms over {len(offline)} taps (online p95 "
              f"{percentile(latencies, 0.95):.0f} ms: offline/online "
              f"{percentile(offline, 0.95) / percentile(latencies, 0.95):.2f}x)")
    return latencies


if __name__ == "__main__":
    main()
