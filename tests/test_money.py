"""Money to the cent (engine/money.py): bounties assigned from each elimination, the high hand
shown, and where every cent of a tournament went; a finished tournament whose money is not
settled is a replay finding."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from test_rules_seeds import cards, new_hand, play, run_out
from test_tournament import EXAMPLES, Log, example, started

from handlog.engine.commands import AwardPots, BetRaise, CheckCall, Fold, ShowCards
from handlog.engine.errors import RuleViolation
from handlog.engine.hand import HandState
from handlog.engine.money import (
    COVERING_WINNER,
    NO_POT,
    SPLIT_POT,
    ShownHand,
    assign_bounty,
    best_high_hands,
    bounty_for,
    high_hands_shown,
    money_block,
    money_findings,
)
from handlog.engine.tournament import award_high_hand, register
from handlog.engine.tournament_events import BountyReferred, HighHandPosted
from handlog.recorder.demo import run_demo
from handlog.recorder.service import Recorder
from handlog.recorder.structure import load_structure
from handlog.replay.verify import replay_log
from handlog.schema.store import EventStore


def showdown(state: HandState, shows: dict[int, str], board: str) -> HandState:
    state = run_out(state, board)
    for position, hole in shows.items():
        state = play(state, ShowCards(position, cards(hole)))
    return play(state, AwardPots())


def three_handed(preflop: list[object]) -> HandState:
    """Positions 0 (small blind, 500 chips), 1 (big blind) and 2 (button), 2,000 each."""
    return play(replace_names(new_hand("octobermuck", (500, 2000, 2000))), *preflop)


def replace_names(state: HandState) -> HandState:
    return state._replace(setup=replace(state.setup, players=("Ann", "Bob", "Cy")))


def test_octobermuck_bounty_goes_to_the_covering_winner_of_the_pot_that_eliminates() -> None:
    """'If the all-in player loses the hand (and is covered by the victor) the victor gets to
    add the departed player's Bounty chip.'"""
    hand = three_handed([Fold(2), BetRaise(0, 500), CheckCall(1)])
    hand = showdown(hand, {0: "Kc Qh", 1: "As Ah"}, "2c 5d 9h Js 3s")
    assert hand.stacks[0] == 0
    call = bounty_for(hand, "Ann")
    assert (call.to, call.proposal, call.code) == ("Bob", ("Bob",), COVERING_WINNER)


def test_a_split_pot_that_eliminates_goes_to_the_director_with_a_proposal() -> None:
    """The rules do not say who takes the bounty when two players split the pot that takes
    the last chips: the director decides; the engine proposes both (most chips first)."""
    hand = three_handed([CheckCall(2), BetRaise(0, 500), CheckCall(1), CheckCall(2)])
    hand = showdown(hand, {0: "7c 2d", 1: "As Kd", 2: "Ac Kh"}, "Ah Kc 9s 5d 3h")
    assert hand.stacks[0] == 0
    call = bounty_for(hand, "Ann")
    assert call.code == SPLIT_POT and call.to == ""
    assert set(call.proposal) == {"Bob", "Cy"}


def test_an_elimination_outside_a_hand_has_no_pot_to_take_the_bounty() -> None:
    assert bounty_for(None, "Ann").code == NO_POT


def test_director_settles_a_referred_bounty_only_among_the_proposal() -> None:
    log = started(example("octobermuck"), 4, tables=("A",))
    log.add(BountyReferred("p01", "A", 3, ("p02", "p03"), SPLIT_POT))
    with pytest.raises(RuleViolation) as refused:
        assign_bounty(log.state, "p01", "p04", "TD")
    assert refused.value.legal == ("p02", "p03")
    log.add(assign_bounty(log.state, "p01", "p03", "TD"))
    assert log.state.bounties_referred == ()
    assert log.state.entrant("p01").bounty_to == "p03"  # type: ignore[union-attr]


def test_octobermuck_high_hand_counts_from_the_first_flush_shown_by_an_entrant() -> None:
    """'We will start keeping track of high hands when the first flush is made. ... it must
    be shown': a straight is not posted, a flush is; a non-entrant's hand is not."""
    hand = three_handed([CheckCall(2), CheckCall(0), CheckCall(1)])
    hand = showdown(hand, {0: "Ah 2h", 1: "Qs Jd", 2: "Th 3h"},
                    "Kh 9h 4h Tc 8c")
    shown = high_hands_shown(hand, "A", {"Ann", "Bob"})
    assert [(h.player, h.cards) for h in shown] == [("Ann", ("Ah", "Kh", "9h", "4h", "2h"))]
    assert high_hands_shown(hand, "A", {"Bob"}) == []


def test_octobermuck_equal_high_hands_split_suits_never_break_the_tie() -> None:
    """'In the event that 2 players have the exact same high hand, the HHJP money will be
    split – suits will not be used to break a tie.'"""
    spades = ShownHand("p01", "A", 3, ("As", "Ks", "9s", "5s", "2s"))
    hearts = ShownHand("p02", "B", 7, ("Ah", "Kh", "9h", "5h", "2h"))
    higher = ShownHand("p03", "B", 8, ("Ad", "Kd", "9d", "5d", "3d"))
    assert best_high_hands([spades], [hearts]) == [hearts]
    assert best_high_hands([spades], [ShownHand("p03", "B", 8,
                                                ("Ad", "Qd", "9d", "5d", "2d"))]) == []
    assert best_high_hands([spades], [higher]) == [higher]
    assert best_high_hands([higher], [spades]) == []


def test_equal_high_hands_split_the_jackpot_to_the_cent() -> None:
    """Three entrants paid $5: two equal flushes share $15, $7.50 each."""
    book = Log(example("octobermuck"))
    for k in range(3):
        book.add(register(book.state, f"p{k}", f"P{k}", high_hand=True))
    book.add(HighHandPosted("p0", "A", 3, ("As", "Ks", "9s", "5s", "2s")))
    book.add(HighHandPosted("p1", "A", 4, ("Ah", "Kh", "9h", "5h", "2h")))
    book.add(HighHandPosted("p2", "A", 5, ("Ad", "Qd", "9d", "5d", "2d")))  # lower: not kept
    assert [h.player for h in book.state.high_hands] == ["p0", "p1"]
    awarded = award_high_hand(book.state, ["p0", "p1"], "As Ks 9s 5s 2s")
    assert awarded.pool == 1500 and [s.amount for s in awarded.shares] == [750, 750]
    book.add(awarded)
    assert money_block(book.state).high_hand_paid == money_block(book.state).high_hand_pool


def test_octobermuck_demo_pays_every_cent_bounties_and_high_hand(store: EventStore) -> None:
    """24 players under Octobermuck: every bounty assigned by the engine (or settled by the
    director on its proposal), the jackpot confirmed; the report's money block has unaccounted
    0 and the replay is clean. On SQLite and PostgreSQL."""
    from handlog.replay.report import build_report

    recorder = Recorder(store)
    summary = run_demo(recorder, players=24, tables=3, seed=3,
                       structure=load_structure(example_path("octobermuck")))
    assert summary.finished and summary.high_hand
    assert replay_log(store).findings == []
    (tournament,) = build_report(store).data["tournaments"]
    money = tournament["money"]
    assert money["unaccounted"] == 0
    assert money["bounties_paid"] == money["bounty_pool"] == 24 * 500
    assert money["prizes_paid"] == 24 * 4500
    assert money["high_hand_paid"] == money["high_hand_pool"] > 0
    assert tournament["prizes"]["unclaimed_bounties"] == 0


def example_path(name: str) -> Path:
    return EXAMPLES / f"{name}.toml"


def test_finished_tournament_without_prizes_is_a_replay_finding(store: EventStore) -> None:
    """Issue 12: a field the payout table has no line for recorded no prizes and the report
    said clean. Now the replay says the prizes are missing."""
    structure = load_structure(example_path("tda-demo"))
    structure = replace(structure, payouts=tuple(b for b in structure.payouts
                                                 if b.min_players > 10))
    recorder = Recorder(store)
    run_demo(recorder, players=6, tables=1, seed=2, structure=structure)
    findings = replay_log(store).findings
    assert [(f.rule, f.expected, f.recorded) for f in findings] == [
        ("prizes", str(6 * structure.money.prize_pool_per_entry), "0"),
        ("money", "0", str(6 * structure.money.buy_in))]


def test_finished_tournament_with_the_jackpot_unpaid_is_a_replay_finding() -> None:
    log = started(example("octobermuck"), 2, tables=("A",))
    state = log.state
    state = replace(state, entrants=tuple(replace(e, high_hand=True) for e in state.entrants),
                    winner="p01")
    rules = [rule for rule, *_ in money_findings(state)]
    assert "money" in rules and "prizes" in rules
