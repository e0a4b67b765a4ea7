"""Taps per hand and tap-to-screen latency of the dealer's tablet, in a real browser.

    .venv/bin/python benchmarks/tablet_latency.py [--hands 40] [--seed 3] [--players 6]
        [--viewport 1280x800] [--offline-hands 8] [--taps-repeat 1] [--viewers N]

Each part serves the API on a temporary SQLite file (WAL, synchronous=FULL: every tap is
fsynced before the answer) with a table of its own, opens the dealer page in Debian's headless
chromium and signs in with the table PIN (one set-up: `served_table` and `dealer_page`); a
`Tablet` clicks as a dealer would and counts every click.

1. Taps per hand, three-handed: a first hand (not counted: the first hand of a table always
   waits for its Start tap), then a walk, a raise-and-call, an all-in showdown, a chop and a
   raise war to showdown, scripted (`HANDS`); `--taps-repeat` rounds, each on a fresh table,
   the median printed (they do not vary). The driver does what the page offers with the
   fewest clicks: a preset when one has the amount (one tap where the preset records, else
   the preset and Raise), else the keypad; All check where offered; the card picker; the
   winner's cards first at a showdown, the loser mucking where he may (not when a player is
   all-in: every hand is tabled, TDA 16); Start and Push only when the page still asks.
2. Online: `--hands` hands (a seeded mix of folds, calls, checks, bets and raises by the preset
   minimum, a quick size or the keypad; facing a bet 70% fold pre-flop, 50% after), the board
   from the card picker, shown hands at showdown, the pot push; hole cards not entered (the
   usual case). It prints the taps per hand and the time from a tap to the updated screen,
   measured in the page: from the click's input event to the task after the next animation
   frame once the new state was rendered (that frame has painted by then).
3. Offline: then `--offline-hands` hands (default 8) recorded whole with the network cut: the
   tablet's own engine (Pyodide) decides each tap (the betting, the board, the shows, the push)
   and the screen shows what it decided, until the next hand starts by itself; it prints the
   tap-to-screen p50/p95 offline beside the online p95 of the same run. (Before the showdown
   and the push were decided on the tablet the offline hands were their betting only: p95
   35-46 ms in two runs where this page's was 24-41 ms, p50 16-17 ms both. Whole hands
   offline: p50 18-20 ms, p95 40 ms at load 6, 137 ms at load 12, against an online p95 of 121
   and 387 ms in those runs.) Needs `npm ci --prefix web`.

With `--viewers N` the online hands (same seed) are played twice, on a fresh server each: first
with no viewer, then with N viewers following the floor's live stream (each signed in as a
viewer from its own loopback address, 127.0.0.2 and up, in a separate process that reads every
update); it prints both tap p50/p95 and their ratio (the peer is the run without viewers).

The same script runs against an older page (for the before figure: run it from a checkout of
that release) as long as the buttons keep their data-action names and the test hooks
(window.handlogTable, window.__latencies behind the test flag) are there.

Figures, 1280x800, --hands 30 --offline-hands 4, pure-Python install, chromium headless on the
2-core machine shared with other jobs (load average 9 to 15: the p95s are noisy); before and
after run alternately in one session, four runs each, medians of the runs:
  taps per hand      walk  raise-and-call  all-in showdown  chop
    main at c67dc0b     4              18               21    31
    main at b236025     2              13               13    23
    lit-html page       2              13               13    23   (rendering changes no tap)
  Issue 26 (one run each, this script on both, 1280x800; the raise war is 3 BB, 3x, 3x, a
  fold and a call, then half the pot, a pot raise and a call on the flop, checked down, both
  hands shown): main at e8621bc against one-tap presets and All check:
                     walk  raise-and-call  all-in showdown  chop  raise war
    main at e8621bc     1              13               13    23         27
    one-tap presets     1              12               13    17         20
  tap -> updated screen, online p50 / p95; offline (Pyodide) p95; render() p50
    main at b236025    49 / 99 ms;  30 ms;  1.15 ms
    lit-html page      48 / 131 ms; 32 ms;  0.6 ms  (render 0.5x; the taps within the noise)
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from handlog.engine.cards import FULL_DECK, card_text  # noqa: E402
from handlog.engine.table import Level  # noqa: E402
from handlog.engine.table_commands import OpenTable, PlaceButton, SeatPlayer  # noqa: E402
from handlog.recorder.api import create_app  # noqa: E402
from handlog.recorder.auth import Auth  # noqa: E402
from handlog.recorder.cli_serve import serve_in_thread  # noqa: E402
from handlog.recorder.service import SYSTEM, Recorder  # noqa: E402
from handlog.schema.store import open_store  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
NAMES = ("Ada", "Bea", "Cal", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy")
# The page keeps its test hooks (window.handlogTable, __latencies) only behind the test flag.
TEST_FLAG = "try { localStorage.setItem('handlog.test', '1'); } catch (e) {}"


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


# --- the one set-up: a served table and the dealer's page signed in ---------------------------

@contextmanager
def served_table(stream: str, players: Sequence[str]) -> Iterator[tuple[str, Auth]]:
    """A server on a temporary SQLite file with `stream` open, `players` seated from seat 1
    (1,000,000 chips each), the button on seat 1: (its address, its Auth)."""
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(f"sqlite:///{folder}/bench.db", upgrade=True)
        recorder = Recorder(store)
        version = 0

        def record(command: Any) -> None:
            nonlocal version
            version = recorder.submit(stream, command, version, uuid.uuid4(), SYSTEM).version

        record(OpenTable(stream.removeprefix("table-"), 9, "tda"))
        for seat, name in enumerate(players, start=1):
            record(SeatPlayer(seat, name, 1_000_000))
        record(PlaceButton(1))
        auth = Auth(director_pin="1")
        app = create_app(recorder, auth=auth, level_for=lambda _s, _f: Level(50, 100, number=1),
                         poll_seconds=5)
        try:
            with serve_in_thread(app) as base:
                yield base, auth
        finally:
            store.close()


def dealer_page(browser: Any, base: str, auth: Auth, stream: str, viewport: str) -> Any:
    """The dealer page of `stream`, signed in with the table PIN on its keypad."""
    width, height = (int(v) for v in viewport.split("x"))
    page = browser.new_page(viewport={"width": width, "height": height})
    page.add_init_script(TEST_FLAG)
    page.goto(f"{base}/dealer/{stream}")
    for digit in auth.table_pin(stream):
        page.click(f"[data-pin='{digit}']")
    page.click("[data-pin='join']")
    page.wait_for_selector("[data-action='start']")
    return page


class Tablet:
    """The dealer page, driven by clicks; counts them (`taps`) and the entries they record.
    `quiet`: after each entry also wait until the page has taken its own steps (a pot pushed
    by itself, the next hand started): what the tap counts need; the latency runs do not."""

    def __init__(self, page: Any, quiet: bool = False) -> None:
        self.page = page
        self.quiet = quiet
        self.taps = 0
        self.recording = 0

    def state(self) -> Any:
        return self.page.evaluate("() => window.handlogTable.state()")

    def has(self, selector: str) -> bool:
        return bool(self.page.locator(selector).count()) and self.page.is_enabled(selector)

    def click(self, selector: str) -> None:
        self.taps += 1
        self.page.click(selector)

    def recorded(self, version: str | None) -> None:
        """Until the screen shows a new version and nothing is left to send."""
        self.recording += 1
        self.page.wait_for_function(
            "v => document.body.dataset.version !== v && "
            "window.handlogTable.outbox().length === 0", arg=version)
        while self.quiet:
            # Quiet: no new version for 0.4 s (an automatic step the page takes after an
            # answer shows within that; a benchmark may wait, a test not).
            seen = self.page.get_attribute("body", "data-version")
            self.page.wait_for_timeout(400)
            if self.page.get_attribute("body", "data-version") == seen and \
                    self.page.evaluate("() => window.handlogTable.outbox().length") == 0:
                return
            self.page.wait_for_function("() => window.handlogTable.outbox().length === 0")

    def record(self, selector: str) -> None:
        version = self.page.get_attribute("body", "data-version")
        self.click(selector)
        self.recorded(version)

    def cards(self, cards: Sequence[str], confirm: str) -> None:
        """Pick the cards; confirm only if the page asks (it records on the last card)."""
        version = self.page.get_attribute("body", "data-version")
        for card in cards:
            self.click(f".pick[data-card='{card}']")
        button = f".sheet:not([hidden]) [data-action='{confirm}']:not([disabled])"
        if self.page.locator(button).count():
            self.click(button)
        self.recorded(version)

    def amount(self, total: int) -> None:
        """A bet or raise to `total`: its preset if one has it, else the keypad."""
        preset = f"[data-action='size'][data-to='{total}']"
        if self.has(preset):
            self.preset(preset)
            return
        for key in str(total):
            self.click(f"[data-action='key'][data-key='{key}']")
        self.record("[data-action='raise']")

    def preset(self, selector: str) -> None:
        """Tap a preset: on a page where it records by itself, that is the entry; on an older
        page it fills the amount and Raise records it."""
        version = self.page.get_attribute("body", "data-version")
        self.click(selector)
        if self.page.evaluate("v => document.body.dataset.version !== v || "
                              "window.handlogTable.outbox().length > 0", version):
            self.recorded(version)
        else:
            self.record("[data-action='raise']")

    def show(self, state: Any, player: int, cards: Sequence[str]) -> None:
        """`player` shows `cards`: his picker (open by itself for the first to show, else
        switched to by his name) and the two cards."""
        name = next(s["player"] for s in state["seats"] if s.get("position") == player
                    and s.get("in_hand"))
        title = self.page.locator(".sheet:not([hidden]) .sheet-title")
        if not (title.count() and name in title.inner_text()):
            switch = f".sheet [data-action='open-show'][data-player='{player}']"
            self.click(switch if self.has(switch)
                       else f"#actions [data-action='open-show'][data-player='{player}']")
        self.cards(cards, "show")


# --- 1. taps per hand: four scripted hands -----------------------------------------------------

TAPS_STREAM = "table-taps"
TAPS_PLAYERS = ("Ada", "Bea", "Cal")  # seats 1-3; three-handed, so the button rotates each hand
# Each hand: what happens, as the dealer sees it. Betting: ("fold",), ("call",), ("check",),
# ("raise", total), ("allin",). Board: the cards. Showdown: who shows what, the winner first
# (None: mucks). The players are named by their turn in the hand, from the state.
HANDS: dict[str, dict[str, Any]] = {
    # Everyone folds to the big blind: one tap on the tools row's shortcut when the page
    # offers it (each fold recorded as its own entry), else a Fold each.
    "walk": {"betting": [("folds-to-bb",)], "board": "", "show": []},
    "raise-and-call": {"betting": [("raise", 300), ("fold",), ("call",), ("check",),
                                   ("raise", 400), ("fold",)], "board": "AhKh2d", "show": []},
    "all-in showdown": {"betting": [("allin",), ("fold",), ("call",)],
                        "board": "AhKh2d7c3s", "show": ["AsAd", "QcQd"]},
    "chop": {"betting": [("call",), ("call",), ("check",)] + [("checks-around",)] * 3,
             "board": "AhKdQsJc9h", "show": ["Ts2c", "Tc3d", None]},
    # Raise, re-raise, re-raise before the flop, a raise on the flop, checked down, both hands
    # shown: the presets by their labels (3 BB, 3x the bet, half the pot, the pot).
    "raise war": {"betting": [("preset", "3 BB"), ("preset", "3×"), ("preset", "3×"), ("fold",),
                              ("call",), ("preset", "½ pot"), ("preset", "Pot"), ("call",),
                              ("checks-around",), ("checks-around",)],
                  "board": "2c7d9hJs3h", "show": ["AsAd", "QcQd"]},
}
ORDER = ("walk", "raise-and-call", "all-in showdown", "chop", "raise war")


def pairs(cards: str) -> list[str]:
    return [cards[i:i + 2] for i in range(0, len(cards), 2)]


def play_script(tablet: Tablet, script: dict[str, Any]) -> None:
    """One scripted hand from its Start (tapped if the page asks) to the pot pushed."""
    if not tablet.state()["hand_in_progress"]:
        tablet.record("[data-action='start']")
    number = tablet.state()["hand"]["number"]
    betting = list(script["betting"])
    board = script["board"]
    shows = list(script["show"])
    for _ in range(100):
        state = tablet.state()
        hand = state["hand"]
        if not state["hand_in_progress"] or hand["number"] != number:
            return  # over (the next hand may have started by itself)
        phase = hand["phase"]
        if phase == "betting":
            if not betting:
                raise RuntimeError(f"no betting step left for {hand['legal']} in {script}")
            step = betting.pop(0)
            if step[0] == "folds-to-bb":
                shortcut = "#tools [data-action='folds-to-bb']"
                if tablet.has(shortcut):
                    tablet.record(shortcut)
                    continue
                step = ("fold",)  # an older page: a Fold for each
                betting.insert(0, ("folds-to-bb",))
            if step[0] == "checks-around":
                # Nobody has acted on this street: one tap on the tools row's shortcut when the
                # page offers it (each check its own entry), else a Check each.
                shortcut = "#tools [data-action='checks-around']"
                if tablet.has(shortcut):
                    tablet.record(shortcut)
                    continue
                acting = [s for s in state["seats"] if s.get("in_hand") and not s.get("folded")
                          and not s.get("all_in") and s["stack"] > 0]
                betting[:0] = [("check",)] * (len(acting) - 1)
                step = ("check",)
            if step[0] == "preset":
                tablet.preset(f"[data-action='size']:has-text('{step[1]}')")
            elif step[0] == "raise":
                tablet.amount(step[1])
            else:
                tablet.record(f".actions-main [data-action='{step[0]}']")
        elif phase == "board":
            due = hand["board_due"]
            cards, board = board[:2 * due], board[2 * due:]
            if not tablet.page.locator(".sheet .picker").count():
                tablet.click("[data-action='open-board']")
            tablet.cards(pairs(cards), "deal")
        elif phase == "showdown" and hand["showdown"]["proposed"] is not None:
            tablet.record("[data-action='award']")
        elif phase == "showdown":
            done = {s["position"] for s in state["seats"] if s.get("shown") or s.get("folded")}
            player = next(p for p in hand["showdown"]["order"] if p not in done)
            cards = shows.pop(0)  # the script gives the first to show the winning cards
            if cards is None:
                in_sheet = f".sheet [data-action='muck'][data-player='{player}']"
                tablet.record(in_sheet if tablet.has(in_sheet)
                              else f"#actions [data-action='muck'][data-player='{player}']")
            else:
                tablet.show(state, player, pairs(cards))
        else:
            raise RuntimeError(f"unexpected phase {phase}")
    raise RuntimeError("the hand did not end")


def count_taps(browser: Any, viewport: str) -> dict[str, int]:
    """A fresh table, its first hand (not counted), then one hand of each kind: the taps."""
    counts: dict[str, int] = {}
    with served_table(TAPS_STREAM, TAPS_PLAYERS) as (base, auth):
        page = dealer_page(browser, base, auth, TAPS_STREAM, viewport)
        play_script(Tablet(page, quiet=True), HANDS["walk"])  # the table's first hand
        for name in ORDER:
            tablet = Tablet(page, quiet=True)
            play_script(tablet, HANDS[name])
            counts[name] = tablet.taps
        page.close()
    return counts


# --- 2. and 3. latency: seeded hands online, then betting offline ---------------------------

STREAM = "table-bench"


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
            raise_share = 0.10 if facing else 0.35
            fold_share = raise_share + (0.70 if preflop else 0.50)
            if legal["raise_kind"] and roll < raise_share:
                sizes = legal["sizes"]
                if rng.random() < 0.25:
                    amount = str(sizes[min(1, len(sizes) - 1)]["to"])
                    for key in amount:
                        tablet.click(f"[data-action='key'][data-key='{key}']")
                    tablet.record("[data-action='raise']")
                elif rng.random() < 0.5 and len(sizes) > 1:
                    tablet.preset(f"[data-action='size'][data-to='{sizes[1]['to']}']")
                else:
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
            tablet.show(state, player, deck[:2])
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
    parser.add_argument("--taps-repeat", type=int, default=1,
                        help="rounds of the four scripted hands (0: no tap count)")
    parser.add_argument("--viewers", type=int, default=0,
                        help="also play the same hands with N viewers following the floor")
    options = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        if options.taps_repeat:
            counts: dict[str, list[int]] = {name: [] for name in ORDER}
            for _ in range(options.taps_repeat):
                # A fresh table each round: the all-in showdown leaves a player without chips.
                for name, taps in count_taps(browser, options.viewport).items():
                    counts[name].append(taps)
            print(f"taps per hand: chromium headless {options.viewport}, three-handed, "
                  f"{options.taps_repeat} of each (median)")
            for name in ORDER:
                print(f"  {name:16s} {statistics.median(counts[name]):4.0f} taps")
        if options.hands:
            alone = run(browser, options, 0)
            if options.viewers:
                watched = run(browser, options, options.viewers)
                print(f"tap p95 with {options.viewers} viewers / with none: "
                      f"{percentile(watched, 0.95):.0f} / {percentile(alone, 0.95):.0f} ms = "
                      f"{percentile(watched, 0.95) / percentile(alone, 0.95):.2f}x (p50 "
                      f"{percentile(watched, 0.5):.0f} / {percentile(alone, 0.5):.0f} ms = "
                      f"{percentile(watched, 0.5) / percentile(alone, 0.5):.2f}x)")
        browser.close()


def run(browser: Any, options: argparse.Namespace, viewers: int) -> list[float]:
    """Play the hands online (then offline, without viewers); the online tap latencies (ms)."""
    rng = random.Random(options.seed)
    frames = (0, 0)
    offline: list[float] = []
    with served_table(STREAM, NAMES[:options.players]) as (base, auth):
        swarm = Viewers(base, viewers) if viewers else None
        page = dealer_page(browser, base, auth, STREAM, options.viewport)
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
        # The page's own render() times (the last 200: the whole screen drawn from a state).
        renders: list[float] = page.evaluate("() => window.__renderMs || []")
        if options.offline_hands and not viewers:
            page.wait_for_function("() => navigator.serviceWorker.controller", timeout=120_000)
            # The same page, offline hand by hand: tap to the screen the tablet's engine decided.
            for _ in range(options.offline_hands):
                offline += play_offline(Tablet(page), rng)
        page.close()
        if swarm is not None:
            frames = swarm.stop()
    print(f"tablet latency: {options.hands} hands, {options.players} players, chromium headless "
          f"{options.viewport}, SQLite file (WAL, synchronous=FULL), {viewers} viewers "
          "following the floor")
    if viewers:
        print(f"viewers: {frames[0]} floor updates received in all, at least {frames[1]} each")
    print(f"taps per hand: mean {statistics.mean(taps):.1f}, median "
          f"{statistics.median(taps):.0f}, min {min(taps)}, max {max(taps)} "
          f"(entries recorded per hand: mean {statistics.mean(recording):.1f})")
    print(f"online: tap -> updated screen p50 {percentile(latencies, 0.5):.0f} ms, "
          f"p95 {percentile(latencies, 0.95):.0f} ms, max {max(latencies):.0f} ms "
          f"over {len(latencies)} recording taps")
    if renders:
        print(f"render(): p50 {percentile(renders, 0.5):.1f} ms, p95 "
              f"{percentile(renders, 0.95):.1f} ms over the last {len(renders)} renders")
    print(f"wall clock: {elapsed:.1f} s for {sum(taps)} taps (includes the driver's own "
          "round trips)")
    if offline:
        print(f"offline (the tablet's engine, Pyodide, decides; {options.offline_hands} whole "
              "hands): "
              f"tap -> updated screen p50 {percentile(offline, 0.5):.0f} ms, "
              f"p95 {percentile(offline, 0.95):.0f} ms, max {max(offline):.0f} ms over "
              f"{len(offline)} taps (offline/online p95 "
              f"{percentile(offline, 0.95) / percentile(latencies, 0.95):.2f}x)")
    return latencies


if __name__ == "__main__":
    main()
