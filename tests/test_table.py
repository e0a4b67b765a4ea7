"""One table across hands: button and blinds after eliminations, heads-up, waiting players."""

from __future__ import annotations

import pytest

from handlog.engine.commands import CheckCall, DeclareMisdeal, Fold
from handlog.engine.errors import RuleViolation
from handlog.engine.hand import HandSetup, begin, decide, legal_actions
from handlog.engine.table import Level, TableState, apply_table, open_table, plan_hand
from handlog.engine.table_events import ButtonPlaced, PlayerLeft, PlayerSeated, TableOpened

LEVEL = Level(50, 100)


def table(profile: str, seats: dict[int, int], button: int, seat_count: int = 9) -> TableState:
    state = open_table(TableOpened("T", seat_count, profile))
    for seat, stack in seats.items():
        state = apply_table(state, PlayerSeated(seat, f"S{seat}", stack))
    return apply_table(state, ButtonPlaced(button))


def plan(state: TableState, number: int) -> HandSetup:
    """The next hand, as at a final table (no minimum number of players)."""
    return plan_hand(state, LEVEL, number, final_table=True)


def fold_around(state: TableState, number: int = 1) -> tuple[TableState, HandSetup]:
    """Play one hand in which everyone folds to the big blind."""
    setup = plan(state, number)
    for event in begin(setup):
        state = apply_table(state, event)
    for _ in range(100):
        if not state.hand_in_progress:
            break
        assert state.hand is not None
        legal = legal_actions(state.hand)
        if legal is not None:
            command = Fold(legal.player) if legal.call_amount else CheckCall(legal.player)
        else:
            from handlog.engine.commands import AwardPots

            command = AwardPots()  # type: ignore[assignment]
        for event in decide(state.hand, command):
            state = apply_table(state, event)
    assert not state.hand_in_progress, "the hand did not finish"
    return state, setup


def bust(state: TableState, seat: int) -> TableState:
    occupant = state.occupant(seat)
    assert occupant is not None
    return apply_table(state, PlayerLeft(seat, occupant.player, occupant.stack, "eliminated"))


def positions(setup: HandSetup) -> tuple[int, int, int]:
    return setup.button_seat, setup.small_blind_seat, setup.big_blind_seat


@pytest.mark.parametrize("profile", ["tda", "bse", "octobermuck"])
def test_tda_32_big_blind_busts_next_small_blind_is_dead(profile: str) -> None:
    """TDA 32 / BSE dead positions: the big blind out, the next hand has no small blind (it
    is dead on the empty seat), and the hand after it a dead button on that empty seat."""
    state, first = fold_around(table(profile, dict.fromkeys(range(1, 7), 1000), 1))
    assert positions(first) == (1, 2, 3)
    state = bust(state, 3)
    setup = plan(state, 2)
    assert positions(setup) == (2, 3, 4)  # the small blind is dead on empty seat 3
    assert dict(zip(setup.seats, setup.blinds, strict=True)) == {4: 100, 5: 0, 6: 0, 1: 0, 2: 0}
    state, _ = fold_around(state, 2)
    setup = plan(state, 3)
    assert positions(setup) == (3, 4, 5)  # the dead button on the empty seat, not seat 2 again
    assert 3 not in setup.seats and setup.seats[-1] == 2


@pytest.mark.parametrize("profile", ["tda", "bse", "octobermuck"])
def test_dead_button_is_recorded_on_the_empty_seat_not_twice_on_a_player(profile: str) -> None:
    """TDA 32 (BSE, Octobermuck: dead button): after a big blind is eliminated no player has the
    button two hands running; the dead button is recorded on the eliminated player's seat."""
    state, _ = fold_around(table(profile, dict.fromkeys(range(1, 7), 1000), 1))
    state = bust(state, 3)
    buttons = []
    for number in (2, 3, 4):
        state, setup = fold_around(state, number)
        buttons.append(setup.button_seat)
    assert buttons == [2, 3, 4]


@pytest.mark.parametrize("profile", ["tda", "bse", "octobermuck"])
def test_tda_32_small_blind_busts_next_button_is_dead(profile: str) -> None:
    """TDA 32 / BSE: the small blind out, the button goes to his empty seat (a dead button)."""
    state, _ = fold_around(table(profile, dict.fromkeys(range(1, 7), 1000), 1))
    state = bust(state, 2)
    setup = plan(state, 2)
    assert positions(setup) == (2, 3, 4)
    assert 2 not in setup.seats
    assert setup.seats[-1] == 1  # the last to act after the flop is right of the dead button


def test_chairperson_small_blind_eliminated_button_stays() -> None:
    """Chairperson: 'If the Small Blind is eliminated, the player who was the big blind now
    posts the small blind ... The button does not move'."""
    state, _ = fold_around(table("chairperson", dict.fromkeys(range(1, 7), 1000), 1))
    state = bust(state, 2)
    assert positions(plan(state, 2)) == (1, 3, 4)


def test_chairperson_big_blind_eliminated_no_small_blind_then_button_stays() -> None:
    """Chairperson: the big blind out: no small blind and the button moves to the old small
    blind; on the following hand the button does not move and both blinds are posted."""
    state, _ = fold_around(table("chairperson", dict.fromkeys(range(1, 7), 1000), 1))
    state = bust(state, 3)
    state, second = fold_around(state, 2)
    assert positions(second) == (2, 3, 4)  # no small blind: dead on empty seat 3
    assert positions(plan(state, 3)) == (2, 4, 5)


def test_chairperson_both_blinds_eliminated_button_stays() -> None:
    """Chairperson: both blinds out: no small blind and the button stays where it was."""
    state, _ = fold_around(table("chairperson", dict.fromkeys(range(1, 7), 1000), 1))
    state = bust(bust(state, 2), 3)
    assert positions(plan(state, 2)) == (1, 3, 4)  # no small blind: dead on empty seat 3


@pytest.mark.parametrize("profile", ["tda", "bse", "chairperson"])
def test_tda_34_three_to_two_player_due_the_big_blind_gets_it(profile: str) -> None:
    """TDA 34 / BSE / chairperson: going heads-up, the player due the big blind has it and
    the other is the button and small blind; nobody has the big blind twice in a row."""
    state, first = fold_around(table(profile, {1: 1000, 2: 1000, 3: 1000}, 1))
    assert positions(first) == (1, 2, 3)
    state = bust(state, 1)
    setup = plan(state, 2)
    assert positions(setup) == (3, 3, 2)
    assert setup.seats == (2, 3)  # heads-up: the big blind is position 0, the button 1
    assert setup.blinds == (100, 50)


def test_octobermuck_heads_up_the_button_moves_on() -> None:
    """Octobermuck: 'When play becomes heads up, the button moves. Button posts the small
    blind ... regardless of previous blinds.'"""
    state, _ = fold_around(table("octobermuck", {1: 1000, 2: 1000, 3: 1000}, 1))
    state = bust(state, 1)
    assert positions(plan(state, 2)) == (2, 2, 3)


def test_heads_up_blinds_alternate() -> None:
    """Heads-up the button posts the small blind and the blinds alternate every hand."""
    state = table("tda", {2: 1000, 7: 1000}, 2)
    state, first = fold_around(state)
    state, second = fold_around(state, 2)
    assert positions(first) == (2, 2, 7)
    assert positions(second) == (7, 7, 2)


def test_bse_four_players_cannot_play_hands() -> None:
    """BSE: 'each table can play down to five players. Four players or less cannot play
    hands' (except at the final table)."""
    state = table("bse", dict.fromkeys(range(1, 5), 1000), 1)
    with pytest.raises(RuleViolation) as refused:
        plan_hand(state, LEVEL, 1)
    assert refused.value.rule == "bse-seating"
    assert plan(state, 1).seats == (2, 3, 4, 1)


def test_tda_10a_new_player_between_small_blind_and_button_waits() -> None:
    """TDA 10-A: a new player is dealt in anywhere except between the small blind and the
    button; after the big blind he plays at once."""
    state, _ = fold_around(table("tda", {1: 1000, 2: 1000, 4: 1000, 5: 1000}, 1))
    state = apply_table(state, PlayerSeated(3, "Late", 1000, waits=True))
    state = apply_table(state, PlayerSeated(7, "Early", 1000, waits=True))
    setup = plan(state, 2)
    assert positions(setup) == (2, 4, 5)
    assert 3 not in setup.seats and 7 in setup.seats


@pytest.mark.parametrize("profile", ["tda", "bse", "octobermuck", "chairperson", "league"])
@pytest.mark.parametrize("seat", range(2, 10))
def test_tda_10a_wait_never_leaves_a_heads_up_table_unable_to_deal(profile: str,
                                                                   seat: int) -> None:
    """Issue 12: the last player moved into a table left with one player, wherever he sits,
    is dealt in: the wait for the button is for fairness among several, never a stuck table."""
    state, _ = fold_around(table(profile, {1: 1000, 2: 1000, 3: 1000}, 1))
    state = bust(bust(state, 2), 3)
    state = apply_table(state, PlayerSeated(seat, "Moved", 1000, waits=True))
    setup = plan(state, 2)
    assert sorted(setup.seats) == [1, seat]
    assert {setup.small_blind_seat, setup.big_blind_seat} == {1, seat}


def test_tda_10a_a_waiting_player_still_waits_when_two_others_can_play() -> None:
    """The fix deals in a waiting player only when the table could not deal without him."""
    state, _ = fold_around(table("tda", {1: 1000, 2: 1000, 4: 1000}, 1))
    state = apply_table(state, PlayerSeated(3, "Late", 1000, waits=True))
    setup = plan(state, 2)
    assert 3 not in setup.seats and len(setup.seats) == 3


def test_chairperson_moved_player_in_the_big_blind_waits() -> None:
    """Chairperson: a moved player whose seat would take a blind is not dealt in until the
    button passes him; the big blind goes to the next player."""
    state, _ = fold_around(table("chairperson", {1: 1000, 2: 1000, 3: 1000, 5: 1000}, 1))
    state = apply_table(state, PlayerSeated(4, "Moved", 1000, waits=True))
    setup = plan(state, 2)
    assert 4 not in setup.seats
    assert setup.big_blind_seat == 5


def test_bse_new_player_may_take_the_big_blind() -> None:
    """BSE waits only in the small blind or on the button: a new player due the big blind
    posts it and plays."""
    state, _ = fold_around(table("bse", {1: 1000, 2: 1000, 3: 1000, 5: 1000, 6: 1000}, 1))
    state = apply_table(state, PlayerSeated(4, "New", 1000, waits=True))
    setup = plan(state, 2)
    assert setup.big_blind_seat == 4 and 4 in setup.seats


def test_stacks_carry_over_exactly() -> None:
    """Each seat starts the next hand with exactly the chips it ended the last one with."""
    state, first = fold_around(table("tda", {1: 1000, 2: 777, 3: 1234}, 1))
    after = {s.seat: s.stack for s in state.seats}
    assert after == {1: 1000, 2: 727, 3: 1284}
    assert sum(after.values()) == sum(first.stacks)
    second = plan(state, 2)
    assert dict(zip(second.seats, second.stacks, strict=True)) == after


def test_tda_35_misdeal_redeals_with_the_same_button_and_stacks() -> None:
    """A misdeal returns every post; the re-deal has the same button, blinds and stacks."""
    state = table("tda", {1: 1000, 2: 1000, 3: 1000, 4: 1000}, 1)
    setup = plan(state, 1)
    for event in begin(setup):
        state = apply_table(state, event)
    assert state.hand is not None
    for event in decide(state.hand, DeclareMisdeal("first card to the wrong seat")):
        state = apply_table(state, event)
    assert not state.hand_in_progress
    again = plan(state, 1)
    assert again == setup


def test_every_player_is_dealt_in_even_when_short() -> None:
    """League 'Insufficient Chips': a player who cannot cover the blind is still dealt in."""
    state = table("league", {1: 1000, 2: 30, 3: 1000}, 1)
    setup = plan(state, 1)
    assert setup.seats == (2, 3, 1)
    assert setup.blinds == (50, 100, 0) and setup.stacks == (30, 1000, 1000)


def test_button_advances_one_player_each_hand() -> None:
    """The button moves clockwise one player after every hand (the deal passes left)."""
    state = table("league", {1: 1000, 3: 1000, 5: 1000, 8: 1000}, 1)
    buttons = []
    for number in range(1, 6):
        state, setup = fold_around(state, number)
        buttons.append(setup.button_seat)
    assert buttons == [1, 3, 5, 8, 1]
