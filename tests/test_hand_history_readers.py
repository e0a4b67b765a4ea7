"""The four readers of handlog's PokerStars text over the issue's own two demo events (issue 27).

`handlog demo` (TDA: 27 players on 3 tables) and `handlog demo --players 24 --structure
examples/octobermuck.toml` (bounties), each built once here with `run_demo`'s defaults as the
CLI uses them. Every hand is given to each reader alone: pokerkit's PokerStars parser, the
PyPI `poker` package, pokerdf and the npm `hhp` parser. A hand a reader reads must have every
value it reads equal to the log's; a hand it refuses, or a value it computes otherwise, must be
explained by a named limit of that reader, shown on the hand itself (the same text read once the
limit is lifted, or the log showing the situation the reader has no rule for). Anything else
fails. Each test prints its count row (run with `-s`): read, refused and differing by cause.
"""

from __future__ import annotations

import collections
import io
import json
import re
import shutil
import subprocess
import warnings
from contextlib import redirect_stderr
from typing import Any

import pytest
from test_hand_history_interop import (
    HHP,
    OCTOBERMUCK,
    Event,
    blocks,
    check_poker_header,
    check_poker_history,
    check_pokerdf_rows,
)

from handlog.engine.events import ChipsPosted, PlayerFolded
from handlog.recorder.demo import run_demo
from handlog.recorder.service import Recorder
from handlog.recorder.structure import load_structure
from handlog.replay.export_hands import ExportOptions, RecordedHand, load_hands, odd_chip_split
from handlog.replay.export_pokerstars import grammar_names, tournament_info, write_pokerstars
from handlog.schema.store import open_store

# What `handlog demo` plays for the two events (benchmarks/round_trip.py: 105 and 54
# exported hands).
DEMOS: dict[str, dict[str, Any]] = {
    "tda": {},
    "octobermuck": {"players": 24, "structure": OCTOBERMUCK},
}
DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


@pytest.fixture(scope="module", params=list(DEMOS))
def demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Event:
    name = request.param
    folder = tmp_path_factory.mktemp(f"demo-{name}")
    url = f"sqlite:///{folder / (name + '.db')}"
    options = dict(DEMOS[name])
    if "structure" in options:
        options["structure"] = load_structure(options["structure"])
    with open_store(url, upgrade=True) as store:
        run_demo(Recorder(store), **options)
        hands = load_hands(store)
    return Event(name, url, folder, hands, hands.tables[0].profile)


def _number(block: str) -> int:
    return int(re.match(r"PokerStars Hand #(\d+):", block).group(1))  # type: ignore[union-attr]


def _report(reader: str, demo: Event, tally: collections.Counter[str]) -> None:
    print(f"\n{reader} x {demo.name}: {dict(sorted(tally.items()))}")


def _posted(hand: RecordedHand, kind: str) -> list[int]:
    return sorted(s.event.amount for s in hand.steps
                  if isinstance(s.event, ChipsPosted) and s.event.kind == kind)


def _collected(block: str) -> dict[str, int]:
    """What the text says each player collected (`NAME collected N from ...pot...`)."""
    out: collections.Counter[str] = collections.Counter()
    for name, chips in re.findall(r"^(.+) collected (\d+) from ", block, re.M):
        out[name] += int(chips)
    return dict(out)


def _with_dealt_to(block: str, hand: RecordedHand) -> tuple[str, str, str]:
    """The block with a `Dealt to` line added for its first player (two cards nobody holds or
    sees in the hand): the hero line PokerStars writes in every file, which handlog cannot
    write for a hand whose hole cards nobody recorded. Only a test's copy, never the export."""
    names = grammar_names(hand.names, hand.players)
    seen = set(hand.board) | {c for cards in hand.hole_cards() for c in cards}
    cards = [c for c in DECK if c not in seen][:2]
    line = f"Dealt to {names[0]} [{' '.join(cards)}]"
    assert "\nDealt to " not in block
    return block.replace("*** HOLE CARDS ***\n", f"*** HOLE CARDS ***\n{line}\n"), \
        hand.players[0], "".join(cards)


def _hero(hand: RecordedHand) -> str | None:
    """The first player whose hole cards were recorded: the hand is read from his file."""
    return next((p for p, cards in zip(hand.players, hand.hole_cards(), strict=True) if cards),
                None)


def _hero_files(demo: Event) -> dict[str, dict[int, str]]:
    """Each hero's file (`--hero`), hand by hand."""
    heroes = {h for h in map(_hero, demo.complete()) if h is not None}
    return {hero: {_number(b): b for b in blocks(write_pokerstars(
        demo.hands, ExportOptions(hero=hero))[0])} for hero in heroes}


# ---------------------------------------------------------------------------------------------
# pokerkit


def _pokerkit(block: str, antes: bool) -> Any | None:
    """The hand as pokerkit's PokerStars parser reads it, or None if it refuses it. With
    `antes`, its ANTE_POSTING (unmatchable in pokerkit 0.7) matches PokerStars' ante line."""
    pokerkit = pytest.importorskip("pokerkit")
    parser = pokerkit.PokerStarsParser()
    if antes:
        parser.ANTE_POSTING = re.compile(r"(?P<player>.+): posts the ante (?P<ante>[0-9]+)")
    with warnings.catch_warnings(), redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")  # pokerkit warns of its own unexpected fields
        try:
            return next(iter(parser(block, error_status=True)))
        except ValueError:
            return None


def _pokerkit_differs(history: Any, hand: RecordedHand, block: str) -> str | None:
    """None if every value pokerkit read and computed is the log's; else the rule of pokerkit's
    engine that computes the end stacks otherwise, shown on the hand."""
    order = [hand.names.index(name) for name in history.players]
    # What it reads of the text is the log's: stacks, antes, blinds.
    assert list(history.starting_stacks) == [hand.stacks_start[i] for i in order]
    assert sorted(a for a in history.antes if a) == _posted(hand, "ante")
    assert sorted(b for b in history.blinds_or_straddles if b) == sorted(
        _posted(hand, "small_blind") + _posted(hand, "big_blind"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "There is no reason for this player to fold."
        state = list(history)[-1]
    end = [hand.stacks_end[i] for i in order]
    if list(state.stacks) == end:
        return None
    # pokerkit replays the actions by its own rules (it ignores the `collected` lines); the
    # text says the log's winnings, so the difference is pokerkit's engine, never the text.
    won = dict(zip(grammar_names(hand.names, hand.players), hand.won(), strict=True))
    assert _collected(block) == {n: c for n, c in won.items() if c}, hand.label()
    differ = {i for i, (a, b) in enumerate(zip(state.stacks, end, strict=True)) if a != b}
    if hand.started.dead_money:
        # Chips carried into the pot (Octobermuck): pokerkit has no such thing.
        assert sum(state.stacks) + hand.started.dead_money == sum(end)
        return "dead money carried in (pokerkit has none)"
    assert sum(state.stacks) == sum(end), hand.label()
    if odd_chip_split(hand):
        # A split pot's odd chips, by pokerkit's rule (and its 1-chip unit, where Octobermuck
        # splits in 5s): only the split's winners differ.
        winners = {order.index(w) for a in hand.awards if len(a.winners) > 1 for w in a.winners}
        assert differ <= winners, hand.label()
        return "odd chip of a split pot"
    # A blind or ante posted all-in short: pokerkit calls the short blind (or puts every ante in
    # the main pot) where the TDA has the full big blind called (the ante counted by who
    # matched it); its pots then differ from the text's.
    assert hand.short_forced_bet(), hand.label()
    return "forced bet posted all-in short (pokerkit's rule for it)"


def _short_big_blind_fold(hand: RecordedHand) -> bool:
    """The log shows heads-up, the big blind posted all-in for less than the small blind, and
    the small blind then folds (the TDA has the full big blind called; PokerStars and pokerkit
    give the small blind no action)."""
    posts = {s.event.kind: s.event for s in hand.steps if isinstance(s.event, ChipsPosted)}
    big, small = posts.get("big_blind"), posts.get("small_blind")
    actions = [s for s in hand.steps_in_turn() if s.player is not None and not isinstance(
        s.event, ChipsPosted)]
    return (hand.size == 2 and big is not None and small is not None and big.all_in
            and big.amount < small.amount and len(actions) == 1
            and isinstance(actions[0].event, PlayerFolded)
            and actions[0].player == small.player)


def _pokerkit_gives_no_action(block: str, hand: RecordedHand) -> bool:
    """pokerkit reads the hand with the small blind's fold taken out, and once the hole cards
    are dealt its engine has nobody to act: the fold is a move it has no rule for."""
    folder = next(s.player for s in hand.steps_in_turn() if isinstance(s.event, PlayerFolded))
    name = grammar_names(hand.names, hand.players)[folder]
    history = _pokerkit(block.replace(f"\n{name}: folds\n", "\n", 1), True)
    assert history is not None, hand.label()
    dealt = next(state for state in history
                 if all(len(cards) == 2 for cards in state.hole_cards))
    return dealt.actor_index is None and not dealt.can_fold()  # type: ignore[no-any-return]


def test_pokerkit_reads_each_hand_or_refuses_it_for_a_named_limit(demo: Event) -> None:
    """pokerkit (each hand alone) reads no ante, so every hand with antes is read with antes of
    0, and a short all-in raise is then below its minimum (it refuses the hand): the same text
    read with its ante pattern filled in gives the log's values. It refuses a heads-up hand
    whose big blind posted all-in short and whose small blind then folded (no such action in
    its engine). Its end stacks differ from the log's only where its rules do (a forced bet
    posted short, odd chips, carried chips); the text holds the log's."""
    by_number = demo.by_number()
    tally: collections.Counter[str] = collections.Counter()
    for block in blocks(demo.export("pokerstars")):
        hand = by_number[_number(block)]
        plain, with_antes = _pokerkit(block, False), _pokerkit(block, True)
        if plain is not None:
            tally["read"] += 1
            assert with_antes is not None, hand.label()
            assert plain.antes == [0] * len(plain.antes)
            if _posted(hand, "ante"):
                tally["antes read as 0"] += 1
                # Its misreading (its end stacks are then off by the antes): the rest of what
                # it reads is what it reads with the ante pattern, checked below.
                assert (plain.players, plain.starting_stacks, plain.blinds_or_straddles) == \
                    (with_antes.players, with_antes.starting_stacks,
                     with_antes.blinds_or_straddles)
        elif with_antes is not None:
            assert _posted(hand, "ante"), hand.label()
            tally["refused: antes unread (ANTE_POSTING)"] += 1
        else:
            assert _short_big_blind_fold(hand), hand.label()
            assert _pokerkit_gives_no_action(block, hand), hand.label()
            tally["refused: small blind folds to a short all-in big blind"] += 1
            continue
        assert with_antes is not None
        cause = _pokerkit_differs(with_antes, hand, block)
        tally[f"end stacks differ: {cause}" if cause else "values equal"] += 1
    _report("pokerkit", demo, tally)
    assert tally["read"] + sum(v for k, v in tally.items() if k.startswith("refused")) == \
        len(by_number)
    assert tally["values equal"] >= 0.85 * len(by_number)


# ---------------------------------------------------------------------------------------------
# The PyPI `poker` package


def test_poker_package_reads_each_hand_or_refuses_it_for_a_named_limit(demo: Event) -> None:
    """`poker` reads every hand of its hero (the hero's own file, `--hero`) with the log's
    values. It refuses a bounty event's every hand at the header (PokerStars' knockout buy-in
    `$45.00+$5.00+$0.00` has three parts; its pattern takes two): the same hand with the buy-in
    in two parts reads, with the log's values. It refuses a hand with no `Dealt to` line (no
    hole cards recorded: nobody's file has one): the same hand with that line reads."""
    pytest.importorskip("poker")
    from poker.room.pokerstars import PokerStarsHandHistory

    by_number = demo.by_number()
    record = demo.hands.tournaments[demo.complete()[0].tournament]
    money = record.state.structure.money
    tournament = str(tournament_info(record.state, str(record.stored[0].event_id)).number)
    files = _hero_files(demo)
    observer = {_number(b): b for b in blocks(demo.export("pokerstars"))}
    three_part = "$45.00+$5.00+$0.00 USD"
    tally: collections.Counter[str] = collections.Counter()
    for number, hand in by_number.items():
        hero = _hero(hand)
        block = files[hero][number] if hero else observer[number]
        refused = []
        if money.bounty:
            assert three_part in block.split("\n")[0]
            with pytest.raises(ValueError, match="TOURNAMENT #"):
                PokerStarsHandHistory(block).parse_header()
            refused.append("three-part bounty buy-in")
            block = block.replace(three_part, "$50.00+$0.00 USD", 1)
        cards = ""
        if hero is None:
            history = PokerStarsHandHistory(block)
            with pytest.raises(AttributeError):
                history.parse()
            refused.append("no Dealt to line")
            block, hero, cards = _with_dealt_to(block, hand)
        history = PokerStarsHandHistory(block)
        history.parse()
        if money.bounty:  # read as a $50 entry with no fee: the rest is the log's
            assert (history.buyin, history.rake) == (50, 0)
            history.buyin, history.rake = 45, 5  # the header check's prize-pool and rest
        check_poker_header(history, hand, money)
        missed = check_poker_history(history, hand, hero, tournament, cards)
        tally[f"refused: {' + '.join(refused)} (read once lifted)" if refused else "read"] += 1
        if missed:
            tally[f"{'once lifted' if refused else 'read'}, {missed}"] += 1
    _report("poker", demo, tally)
    assert sum(v for k, v in tally.items() if k == "read" or k.startswith("refused")) == \
        len(by_number)
    assert (tally["read"] == 0) == bool(money.bounty)


# ---------------------------------------------------------------------------------------------
# pokerdf


def _pokerdf(block: str) -> Any | None:
    pytest.importorskip("pokerdf")
    from pokerdf.core.read_and_convert import apply_regex

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            frame = apply_regex(block + "\n")
        except IndexError:
            return None
    frame.columns = [str(getattr(c, "value", c)) for c in frame.columns]
    return frame


def test_pokerdf_reads_each_hand_or_refuses_it_for_a_named_limit(demo: Event) -> None:
    """pokerdf reads every hand of its hero's file with the log's values, but for a player in
    seat 10 (its seat pattern is one digit: the player is left out, the rest is read). It
    refuses a hand with no `Dealt to` line (IndexError): the same hand with that line reads."""
    by_number = demo.by_number()
    files = _hero_files(demo)
    observer = {_number(b): b for b in blocks(demo.export("pokerstars"))}
    tally: collections.Counter[str] = collections.Counter()
    for number, hand in by_number.items():
        hero = _hero(hand)
        if hero is not None:
            block = files[hero][number]
            frame = _pokerdf(block)
            assert frame is not None, hand.label()
            tally["read"] += 1
        else:
            block = observer[number]
            assert _pokerdf(block) is None, hand.label()
            block, hero, _cards = _with_dealt_to(block, hand)
            frame = _pokerdf(block)
            assert frame is not None, hand.label()
            tally["refused: no Dealt to line (read once given)"] += 1
        if check_pokerdf_rows(frame, hand, hero):
            tally["seat 10 left out"] += 1
    _report("pokerdf", demo, tally)
    assert tally["read"] + tally["refused: no Dealt to line (read once given)"] == len(by_number)


# ---------------------------------------------------------------------------------------------
# npm hhp


def test_hhp_reads_every_hand_with_the_logs_values(demo: Event) -> None:
    """hhp (where Node.js is present) reads every hand: the table line, each stack, what each
    player collected. Its collect pattern ends at `from (main |side )?pot`, so it skips
    PokerStars' `collected N from side pot-1` (three pots or more): those lines, added to what
    it read, are what the log gives."""
    node = shutil.which("node")
    if node is None or not (HHP / "node_modules" / "hhp").exists():
        pytest.skip("Node.js or hhp is not installed (npm install --prefix tests/js hhp)")
    by_number = demo.by_number()
    parts = {_number(b): b for b in blocks(demo.export("pokerstars"))}
    path = demo.folder / "for-hhp.txt"
    path.write_text("\n\n\n".join(parts.values()) + "\n", encoding="utf-8")
    done = subprocess.run([node, str(HHP / "hhp_read.js"), str(path)], capture_output=True,
                          text=True, timeout=120, cwd=HHP, check=False)
    assert done.returncode == 0, done.stderr
    tally: collections.Counter[str] = collections.Counter()
    read = json.loads(done.stdout)
    for item in read:
        hand = by_number[int(item["handid"])]
        assert item["table"]["maxseats"] == hand.seat_count
        assert item["table"]["button"] == hand.started.button_seat
        assert item["table"]["tableno"] == int(hand.table.rsplit("-", 1)[-1])
        assert {s["player"]: s["chips"] for s in item["seats"]} == dict(
            zip(hand.names, hand.stacks_start, strict=True))
        won = {n: c for n, c in zip(hand.names, hand.won(), strict=True) if c}
        skipped = re.findall(r"^(.+) collected (\d+) from side pot-\d+$",
                             parts[int(item["handid"])], re.M)
        got = collections.Counter(item["collected"])
        for name, chips in skipped:
            got[name] += int(chips)
        assert dict(got) == won, hand.label()
        if len(hand.awards) == 1:
            assert item["total"] == hand.pot_total()
        tally["read"] += 1
        if skipped:
            tally["collected short: side pot-N lines skipped"] += 1
    _report("hhp", demo, tally)
    assert len(read) == tally["read"] == len(by_number)
