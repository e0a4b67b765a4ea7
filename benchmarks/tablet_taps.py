"""Taps per hand on the dealer's tablet, in a real browser: a walk, a raise-and-call, an all-in
showdown and a chop, each played by clicking as a dealer would, every click counted.

    .venv/bin/python benchmarks/tablet_taps.py [--viewport 1280x800] [--repeat 1]

Serves the API on a temporary SQLite file, opens the dealer page in Debian's headless chromium,
signs in with the table PIN, plays a first hand (not counted: the first hand of a table always
waits for its Start tap), then the four hands; `--repeat` rounds, each on a fresh table. The
driver does what the page offers with the fewest clicks: a preset when one has the amount,
else the keypad; the card picker; the winner's cards first at a showdown, the loser mucking
where he may (not when a player is all-in: every hand is tabled, TDA 16); Start and Push only
when the page still asks for them. The same script runs against an older page (for the before
figure: run it from a checkout of that release) as long as the buttons keep their data-action
names. Before (main at c67dc0b, 1280x800): walk 4, raise-and-call 18, all-in showdown 21,
chop 31; after (#16): 2, 13, 13, 23.

Prints the clicks per hand of each kind (the median over the repeats; they do not vary).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.table import Level  # noqa: E402
from recorder.api import create_app  # noqa: E402
from recorder.auth import Auth  # noqa: E402
from recorder.cli_serve import serve_in_thread  # noqa: E402
from recorder.service import SYSTEM, OpenTable, PlaceButton, Recorder, SeatPlayer  # noqa: E402
from schema.store import open_store  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
STREAM = "table-taps"
PLAYERS = ("Ada", "Bea", "Cal")  # seats 1-3; three-handed, so the button rotates each hand

# Each hand: what happens, as the dealer sees it. Betting: ("fold",), ("call",), ("check",),
# ("raise", total), ("allin",). Board: the cards. Showdown: who shows what, the winner first
# (None: mucks). The players are named by their turn in the hand, from the state.
HANDS: dict[str, dict[str, Any]] = {
    "walk": {"betting": [("fold",), ("fold",)], "board": "", "show": []},
    "raise-and-call": {"betting": [("raise", 300), ("fold",), ("call",), ("check",),
                                   ("raise", 400), ("fold",)], "board": "AhKh2d", "show": []},
    "all-in showdown": {"betting": [("allin",), ("fold",), ("call",)],
                        "board": "AhKh2d7c3s", "show": ["AsAd", "QcQd"]},
    "chop": {"betting": [("call",), ("call",)] + [("check",)] * 10, "board": "AhKdQsJc9h",
             "show": ["Ts2c", "Tc3d", None]},
}
ORDER = ("walk", "raise-and-call", "all-in showdown", "chop")


class Dealer:
    """The dealer page, driven by clicks; counts them."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0

    def state(self) -> Any:
        return self.page.evaluate("() => window.handlogTable.state()")

    def has(self, selector: str) -> bool:
        return bool(self.page.locator(selector).count()) and self.page.is_enabled(selector)

    def click(self, selector: str) -> None:
        self.taps += 1
        self.page.click(selector)

    def settle(self) -> None:
        """Until the page has sent everything (its own steps after a tap included)."""
        # Quiet: nothing waiting to be sent and no new version for 0.4 s (an automatic step
        # the page takes after an answer shows within that; a benchmark may wait, a test not).
        while True:
            self.page.wait_for_function("() => window.handlogTable.outbox().length === 0")
            version = self.page.get_attribute("body", "data-version")
            self.page.wait_for_timeout(400)
            if self.page.get_attribute("body", "data-version") == version and \
                    self.page.evaluate("() => window.handlogTable.outbox().length") == 0:
                return

    def record(self, selector: str) -> None:
        version = self.page.get_attribute("body", "data-version")
        self.click(selector)
        self.page.wait_for_function(
            "v => document.body.dataset.version !== v", arg=version)
        self.settle()

    def amount(self, total: int) -> None:
        preset = f"[data-action='size'][data-to='{total}']"
        if self.has(preset):
            self.click(preset)
        else:
            for key in str(total):
                self.click(f"[data-action='key'][data-key='{key}']")
        self.record("[data-action='raise']")

    def cards(self, cards: str, confirm: str) -> None:
        """Pick the cards (opening the picker when it is not open) and confirm if asked."""
        version = self.page.get_attribute("body", "data-version")
        for i in range(0, len(cards), 2):
            self.click(f".pick[data-card='{cards[i:i + 2]}']")
        if self.has(f".sheet [data-action='{confirm}']"):
            self.click(f".sheet [data-action='{confirm}']")
        self.page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
        self.settle()


def play(dealer: Dealer, script: dict[str, Any]) -> None:
    """One hand from its Start (tapped if the page asks) to the pot pushed."""
    if not dealer.state()["hand_in_progress"]:
        dealer.record("[data-action='start']")
    number = dealer.state()["hand"]["number"]
    betting = list(script["betting"])
    board = script["board"]
    shows = list(script["show"])
    for _ in range(100):
        state = dealer.state()
        hand = state["hand"]
        if not state["hand_in_progress"] or hand["number"] != number:
            return  # over (the next hand may have started by itself)
        phase = hand["phase"]
        if phase == "betting":
            if not betting:
                raise RuntimeError(f"no betting step left for {hand['legal']} in {script}")
            step = betting.pop(0)
            if step[0] == "raise":
                dealer.amount(step[1])
            else:
                dealer.record(f".actions-main [data-action='{step[0]}']")
        elif phase == "board":
            due = hand["board_due"]
            cards, board = board[:2 * due], board[2 * due:]
            if not dealer.page.locator(".sheet .picker").count():
                dealer.click("[data-action='open-board']")
            dealer.cards(cards, "deal")
        elif phase == "showdown" and hand["showdown"]["proposed"] is not None:
            dealer.record("[data-action='award']")
        elif phase == "showdown":
            order = hand["showdown"]["order"]
            shown = {s["position"] for s in state["seats"] if s.get("shown") or s.get("folded")}
            waiting = [p for p in order if p not in shown]
            cards = shows.pop(0)
            player = waiting[0]  # the script gives the first to show the winning cards
            if cards is None:
                in_sheet = f".sheet [data-action='muck'][data-player='{player}']"
                dealer.record(in_sheet if dealer.has(in_sheet)
                              else f"#actions [data-action='muck'][data-player='{player}']")
                continue
            title = dealer.page.locator(".sheet:not([hidden]) .sheet-title")
            if not (title.count() and name_of(state, player) in title.inner_text()):
                switch = f".sheet [data-action='open-show'][data-player='{player}']"
                dealer.click(switch if dealer.has(switch)
                             else f"#actions [data-action='open-show'][data-player='{player}']")
            dealer.cards(cards, "show")
        else:
            raise RuntimeError(f"unexpected phase {phase}")
    raise RuntimeError("the hand did not end")


def name_of(state: dict[str, Any], position: int) -> str:
    return next(s["player"] for s in state["seats"] if s.get("position") == position
                and s.get("in_hand"))


def round_of_hands(width: int, height: int) -> dict[str, int]:
    """A table, its first hand (not counted), then one hand of each kind: the taps of each."""
    from playwright.sync_api import sync_playwright

    counts: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(f"sqlite:///{folder}/taps.db", upgrade=True)
        recorder = Recorder(store)
        version = 0

        def record(command: Any) -> None:
            nonlocal version
            version = recorder.submit(STREAM, command, version, uuid.uuid4(), SYSTEM).version

        record(OpenTable("taps", 9, "tda"))
        for seat, name in enumerate(PLAYERS, start=1):
            record(SeatPlayer(seat, name, 1_000_000))
        record(PlaceButton(1))
        auth = Auth(director_pin="1")
        app = create_app(recorder, auth=auth, level_for=lambda _s, _f: Level(50, 100, number=1),
                         poll_seconds=5)
        with serve_in_thread(app) as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                 args=ARGS)
            page = browser.new_page(viewport={"width": width, "height": height})
            page.add_init_script("try { localStorage.setItem('handlog.test', '1'); } catch (e) {}")
            page.goto(f"{base}/dealer/{STREAM}?test=1")
            for digit in auth.table_pin(STREAM):
                page.click(f"[data-pin='{digit}']")
            page.click("[data-pin='join']")
            page.wait_for_selector("[data-action='start']")
            play(Dealer(page), HANDS["walk"])  # the table's first hand: not counted
            for name in ORDER:
                dealer = Dealer(page)
                play(dealer, HANDS[name])
                counts[name] = dealer.taps
            browser.close()
        store.close()
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewport", default="1280x800")
    parser.add_argument("--repeat", type=int, default=1)
    options = parser.parse_args()
    width, height = (int(v) for v in options.viewport.split("x"))
    counts: dict[str, list[int]] = {name: [] for name in ORDER}
    for _ in range(options.repeat):
        # A fresh table each round: the all-in showdown leaves a player without chips.
        for name, taps in round_of_hands(width, height).items():
            counts[name].append(taps)
    print(f"tablet taps per hand: chromium headless {width}x{height}, three-handed, "
          f"{options.repeat} of each (median)")
    for name in ORDER:
        print(f"  {name:16s} {statistics.median(counts[name]):4.0f} taps")


if __name__ == "__main__":
    main()
