"""A simulated tournament: random legal play through the same service commands a tablet uses.

Everything is seeded: the same seed records the same tournament, event ids included.
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from handlog.engine import commands as hc
from handlog.engine.errors import RuleViolation
from handlog.engine.hand import BETTING, BOARD, SHOWDOWN, legal_actions, showdown_order
from handlog.engine.structure import Structure
from handlog.engine.table_commands import Undo
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.structure import load_structure
from handlog.recorder.tournament_service import Tournaments, table_stream

DEMO_STRUCTURE = Path(__file__).resolve().parent.parent / "examples" / "tda-demo.toml"
RE_ENTRY_STRUCTURE = DEMO_STRUCTURE.with_name("tda-re-entry.toml")
REBUY_STRUCTURE = DEMO_STRUCTURE.with_name("tda-rebuy.toml")
SATELLITE_STRUCTURE = DEMO_STRUCTURE.with_name("tda-satellite.toml")

NAMES = (
    "Ada", "Bea", "Cal", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou", "Max",
    "Ned", "Ola", "Pia", "Quin", "Rex", "Sam", "Tia", "Uma", "Vic", "Wes", "Xia", "Yul", "Zoe",
)

DIRECTOR = Actor("director", "director", "demo-floor")


@dataclass
class DemoSummary:
    tournament: str
    players: int
    tables: int
    hands: int = 0
    commands: int = 0
    corrections: int = 0
    misdeals: int = 0
    rulings: int = 0
    high_hand: bool = False
    penalties: int = 0
    deal: str = ""
    chip_counts: int = 0
    no_deal: str = ""
    """Why a deal asked for was not recorded (empty: recorded, or none asked for)."""
    hand_for_hand: bool = False
    re_entries: int = 0
    rebuys: int = 0
    add_ons: int = 0
    winner: str = ""
    places: list[tuple[int, str]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def finished(self) -> bool:
        return bool(self.winner)


class _Demo:
    def __init__(self, recorder: Recorder, tournament: str, seed: int) -> None:
        self.recorder = recorder
        self.tournaments = Tournaments(recorder)
        self.tournament = tournament
        self.rng = random.Random(seed)
        # Event ids are made the way a tablet makes them, but reproducibly: the same seed
        # records the same log, and two demos in one database never share an id.
        self.namespace = uuid.uuid5(uuid.NAMESPACE_URL, f"handlog-demo/{tournament}")
        self.count = 0
        self.closed: set[str] = set()
        """Persons whose re-entry was refused (closed or used up): no more tries."""

    def event_id(self) -> uuid.UUID:
        self.count += 1
        return uuid.uuid5(self.namespace, str(self.count))

    def submit(self, table: str, command: object, actor: Actor) -> None:
        stream = table_stream(self.tournament, table)
        fold = self.recorder.table(stream)
        self.recorder.submit(stream, command, fold.version, self.event_id(),  # type: ignore[arg-type]
                             actor)


def player_name(index: int) -> str:
    base = NAMES[index % len(NAMES)]
    return base if index < len(NAMES) else f"{base} {index // len(NAMES) + 1}"


def run_demo(
    recorder: Recorder,
    players: int = 27,
    tables: int = 3,
    seed: int = 7,
    hands: int = 0,
    structure: Structure | None = None,
    hands_per_level: int = 0,
    on_progress: Callable[[DemoSummary, int], None] | None = None,
    deal: str = "",
    penalty: bool = True,
    chip_count: bool = False,
    hand_for_hand: bool = False,
    re_entries: int = 0,
    rebuys: bool = False,
) -> DemoSummary:
    """Register `players`, draw seats over `tables`, play until a winner (or `hands` hands).

    Along the way: a two-hand penalty (`penalty`), every table break the engine calls for,
    bounties and the high-hand jackpot where the structure has them, and with `deal` (icm,
    chip_chop, chip_chop_last_guaranteed) a deal when three players are left at the final
    table (where the profile allows deals). With `chip_count` the floor counts a table at the
    first break (one stack a chip over the log's, corrected by the director); with
    `hand_for_hand` the last two tables play hand-for-hand. With `re_entries` each player out
    re-enters up to that many times while the structure takes re-entries; with `rebuys` a
    player short of his starting stack sometimes rebuys during the rebuy levels, and most
    take the add-on at its break."""
    started = time.perf_counter()
    structure = structure or load_structure(
        RE_ENTRY_STRUCTURE if re_entries else REBUY_STRUCTURE if rebuys else DEMO_STRUCTURE)
    if players < 2:
        raise RuleViolation("demo", "a tournament needs at least 2 players")
    if tables * structure.seats_per_table < players:
        raise RuleViolation("demo", f"{players} players do not fit {tables} tables of "
                            f"{structure.seats_per_table}")
    existing = set(Tournaments(recorder).tournaments())
    name = f"demo-{seed}"
    suffix = 2
    while name in existing:
        name = f"demo-{seed}-{suffix}"
        suffix += 1
    demo = _Demo(recorder, name, seed)
    t = demo.tournaments
    summary = DemoSummary(name, players, tables)
    t.create(name, structure, DIRECTOR)
    jackpot = bool(structure.money.high_hand_fee)
    for index in range(players):
        # Octobermuck: the high-hand jackpot is optional; most players pay its fee.
        # The room's player ids: the same person across the demos of one database.
        t.register(name, player_name(index), DIRECTOR,
                   high_hand=jackpot and demo.rng.random() < 0.75, person=f"R{index + 1:03d}")
    t.draw_seats(name, tables, seed, DIRECTOR)
    t.start_level(name, DIRECTOR)
    hands_per_level = hands_per_level or max(6, 4 * tables)
    hands_at_level = 0
    while not t.state(name).finished and (not hands or summary.hands < hands):
        state = t.state(name)
        for table in [tb for tb in state.tables if len(state.seated_at(tb)) >= 2]:
            if hands and summary.hands >= hands:
                break
            if t.state(name).finished:
                break
            if penalty and summary.hands == 3 and not summary.penalties:
                victim = t.state(name).seated_at(table)[0].player
                t.penalty(name, victim, "hands", "tda-71", "demo", DIRECTOR, 2)
                summary.penalties += 1
            state_now = t.state(name)
            # The deal at three (or, when one hand took the field from four to two, at two).
            if deal and state_now.deal is None and not summary.no_deal \
                    and len(state_now.remaining) <= 3 and len(state_now.tables) == 1:
                t.deal(name, deal, {e.player: e.name for e in state_now.remaining}, DIRECTOR)
                summary.deal = deal
            _play_hand(demo, table, summary)
            summary.hands += 1
            hands_at_level += 1  # the hand's end was settled with it (Recorder.submit)
            _settle_bounties(demo)
            if rebuys:
                _rebuys(demo, table, summary)
            if re_entries:
                _re_entries(demo, summary, re_entries)
            if on_progress is not None:
                on_progress(summary, len(t.state(name).remaining))
        if t.state(name).finished:
            break
        if hand_for_hand:
            _hand_for_hand(demo, summary)
        t.balance(name, DIRECTOR)
        if hands_at_level >= hands_per_level:
            hands_at_level = 0
            _next_level(demo, summary, chip_count, rebuys)
        if demo.rng.random() < 0.05:
            table = demo.rng.choice(t.state(name).tables)
            t.ruling(name, "TDA 45", "a verbal raise declaration is binding; the amount "
                     "stands as announced", DIRECTOR, table_stream(name, table),
                     t.table(name, table).version)
            summary.rulings += 1
    final = t.state(name)
    if final.finished and jackpot and final.high_hand is None:
        players_named: tuple[str, ...] = ()
        if not final.high_hands:
            # No flush was ever shown: the director names the best-placed entrant.
            players_named = (min((e for e in final.entrants if e.high_hand),
                                 key=lambda e: e.place).player,)
        t.award_high_hand(name, DIRECTOR, players_named)
        summary.high_hand = True
    final = t.state(name)
    summary.winner = final.entrant(final.winner).name if final.winner else ""  # type: ignore[union-attr]
    summary.places = sorted((e.place, e.name) for e in final.entrants if e.place)
    summary.seconds = time.perf_counter() - started
    return summary


def _hand_for_hand(demo: _Demo, summary: DemoSummary) -> None:
    """The director plays the last two tables hand-for-hand, and ends it at the final
    table (the round's busts placed together)."""
    t = demo.tournaments
    state = t.state(demo.tournament)
    playing = [tb for tb in state.tables if len(state.seated_at(tb)) >= 2]
    if state.hand_for_hand is None and len(playing) == 2 and not summary.hand_for_hand:
        t.hand_for_hand(demo.tournament, True, DIRECTOR)
        summary.hand_for_hand = True
    elif state.hand_for_hand is not None and len(playing) < 2:
        t.hand_for_hand(demo.tournament, False, DIRECTOR)


def _count_chips(demo: _Demo, summary: DemoSummary) -> None:
    """At the first break the floor counts the first table, one stack a chip over the log's;
    the director rules the counted stack stands."""
    t = demo.tournaments
    state = t.state(demo.tournament)
    table = next((tb for tb in state.tables if state.seated_at(tb)), "")
    tstate = t.table(demo.tournament, table).state if table else None
    if tstate is None or not tstate.seats:
        return
    chip = max(d.value for d in state.structure.denominations if d.colour in state.in_play)
    off = tstate.seats[0].player
    counted = {s.player: s.stack + (chip if s.player == off else 0) for s in tstate.seats}
    t.count_stacks(demo.tournament, table, "break", counted, DIRECTOR)
    t.correct_stack(demo.tournament, off, "demo: a chip under his cards", DIRECTOR)
    summary.chip_counts += 1


def _settle_bounties(demo: _Demo) -> None:
    """The director takes the engine's proposal for each bounty the rules left open."""
    t = demo.tournaments
    for referred in t.state(demo.tournament).bounties_referred:
        state = t.state(demo.tournament)
        to = (referred.proposal[0] if referred.proposal else
              next(e.player for e in state.remaining))
        t.assign_bounty(demo.tournament, referred.player, to, DIRECTOR)


def _re_entries(demo: _Demo, summary: DemoSummary, most: int) -> None:
    """Each person whose last entry is out re-enters, up to `most` times, while the structure
    takes re-entries (a refusal ends his tries: late entry or re-entry closed)."""
    t = demo.tournaments
    state = t.state(demo.tournament)
    last = {e.who: e for e in state.entrants}
    for entry in last.values():
        if entry.alive or entry.withdrew or entry.entry > most or state.finished:
            continue
        if entry.who in demo.closed:
            continue
        try:
            t.re_enter(demo.tournament, entry.player, DIRECTOR, event_id=demo.event_id())
            summary.re_entries += 1
        except RuleViolation:
            demo.closed.add(entry.who)
        state = t.state(demo.tournament)


def _rebuys(demo: _Demo, table: str, summary: DemoSummary) -> None:
    """After a hand, a player at `table` short of the starting stack rebuys now and then,
    while the structure sells rebuys (outside its levels the engine refuses: no rebuy)."""
    t = demo.tournaments
    state = t.state(demo.tournament)
    tstate = t.table(demo.tournament, table).state
    offered = state.structure.rebuy
    if tstate is None or state.finished or not offered.last_level \
            or not offered.first_level <= state.level <= offered.last_level:
        return
    for seat in tstate.seats:
        if 0 < seat.stack < state.structure.starting_stack and demo.rng.random() < 0.5:
            try:
                t.rebuy(demo.tournament, seat.player, DIRECTOR, event_id=demo.event_id())
                summary.rebuys += 1
            except RuleViolation:
                pass  # his count used up, or over the stack: the engine said no


def _add_ons(demo: _Demo, summary: DemoSummary) -> None:
    """At the add-on's break most players still in take it."""
    t = demo.tournaments
    state = t.state(demo.tournament)
    if not (state.on_break and state.level == state.structure.add_on.after_level):
        return
    for entry in state.remaining:
        if entry.seated and not entry.add_on and demo.rng.random() < 0.8:
            t.add_on(demo.tournament, entry.player, DIRECTOR, event_id=demo.event_id())
            summary.add_ons += 1


def _next_level(demo: _Demo, summary: DemoSummary, chip_count: bool = False,
                add_ons: bool = False) -> None:
    """The next level, after whatever the schedule wants first (break, color-up, antes)."""
    t = demo.tournaments
    name = demo.tournament
    for _ in range(6):
        state = t.state(name)
        if state.level >= len(state.structure.levels):
            return
        try:
            t.start_level(name, DIRECTOR)
            return
        except RuleViolation as violation:
            legal = " ".join(violation.legal)
            if state.on_break:
                if add_ons and state.structure.add_on.after_level:
                    _add_ons(demo, summary)
                if chip_count and not summary.chip_counts:
                    _count_chips(demo, summary)
                t.end_break(name, DIRECTOR)
            elif "decide antes" in legal:
                t.decide_antes(name, DIRECTOR)
            elif "break" in legal:
                t.start_break(name, DIRECTOR)
            elif "color-up" in legal:
                t.color_up(name, DIRECTOR)
            else:
                raise


def _play_hand(demo: _Demo, table: str, summary: DemoSummary) -> None:
    rng = demo.rng
    dealer = Actor(f"dealer-{table}", "dealer", f"tablet-{table}")
    t = demo.tournaments
    t.start_hand(demo.tournament, table, dealer)
    summary.commands += 1
    if rng.random() < 0.03:
        demo.submit(table, hc.DeclareMisdeal("first card dealt to the wrong seat"), dealer)
        summary.misdeals += 1
        t.start_hand(demo.tournament, table, dealer)
        summary.commands += 2
    deck = list(range(52))
    rng.shuffle(deck)
    while True:
        hand = t.table(demo.tournament, table).state.hand  # type: ignore[union-attr]
        assert hand is not None
        if hand.is_complete:
            return
        seen = set(hand.board) | {c for s in hand.shown if s for c in s}
        deck = [c for c in deck if c not in seen]
        command: object
        if hand.phase == BETTING:
            la = legal_actions(hand)
            assert la is not None
            roll = rng.random()
            if la.raise_kind and roll < 0.18:
                pick = rng.random()
                if pick < 0.7:
                    to = la.min_to
                elif pick < 0.9:
                    to = rng.randint(la.min_to, la.max_to)
                    if to != la.max_to:
                        # Only amounts the chips in play can make (all-in aside).
                        to -= (to - hand.bets[la.player]) % hand.setup.chip_unit
                else:
                    to = la.max_to
                command = hc.BetRaise(la.player, to)
            elif la.call_amount and roll < 0.55:
                command = hc.Fold(la.player)
            else:
                command = hc.CheckCall(la.player)
        elif hand.phase == BOARD:
            count = 3 if not hand.board else 1
            command = hc.DealBoard(tuple(deck[:count]))
        elif hand.phase == SHOWDOWN:
            unshown = [i for i in showdown_order(hand) if hand.shown[i] is None]
            if len(hand.contenders) > 1 and unshown:
                command = hc.ShowCards(unshown[0], tuple(deck[:2]))
            else:
                command = hc.AwardPots()
        else:
            return
        demo.submit(table, command, dealer)
        summary.commands += 1
        if hand.phase == BETTING and rng.random() < 0.02:
            # A mis-tap, undone in one tap (recorded as a correction).
            demo.submit(table, Undo("dealer mis-tap"), dealer)
            summary.corrections += 1
            summary.commands += 1
