"""Readings the director chooses (issue 24 item 5): a sentence a document leaves open is a
profile parameter with each reading; the profile gives the default and a room profile (a
structure file's `[profile.set]`) the other. Each test is named after the sentence and pins
both readings; every hand records the rules it was decided under (its profile and their digest),
so a hand played under the other reading says so.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from handlog.engine.cards import parse_cards
from handlog.engine.commands import (
    AwardPots,
    BetRaise,
    CheckCall,
    Command,
    DealBoard,
    Fold,
    ShowCards,
)
from handlog.engine.errors import RuleViolation
from handlog.engine.events import HandStarted
from handlog.engine.hand import (
    BETTING,
    BOARD,
    HandSetup,
    HandState,
    LegalActions,
    begin,
    decide,
    execute,
    legal_actions,
    propose_awards,
    start_hand,
)
from handlog.engine.profiles import get_profile, profile_digest, room_profile_ref
from handlog.engine.structure import payouts_for, place_amounts
from handlog.engine.table import Level, TableState, apply_table, open_table, plan_hand
from handlog.engine.table_events import ButtonPlaced, PlayerLeft, PlayerSeated, TableOpened
from handlog.recorder.structure import load_structure

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def room(base: str, **overrides: object) -> str:
    """The room profile a structure file choosing `overrides` over `base` makes."""
    return room_profile_ref("room", base, overrides)


def new_hand(profile: str, stacks: tuple[int, ...], blinds: tuple[int, ...] | None = None,
             chip_unit: int = 1) -> HandState:
    n = len(stacks)
    return start_hand(HandSetup(stacks, blinds or (50, 100) + (0,) * (n - 2), (0,) * n, 100,
                                chip_unit, profile))


def play(state: HandState, *commands: object) -> HandState:
    for command in commands:
        state = execute(state, command)  # type: ignore[arg-type]
    return state


def legal(state: HandState) -> LegalActions:
    la = legal_actions(state)
    assert la is not None
    return la


def to_flop(state: HandState) -> HandState:
    while state.phase == BETTING and state.street == 0:
        assert state.to_act is not None
        state = execute(state, CheckCall(state.to_act))
    return execute(state, DealBoard(parse_cards("2c7d9h")))


# --- BSE and league: "the first raise must double the first bet" ---------------------------


@pytest.mark.parametrize("base", ["bse", "league"])
def test_first_raise_must_double_the_first_bet_after_an_all_in_bet_below_the_big_blind(
        base: str) -> None:
    """BSE Post Flop Action: 'the first raise must at least double the first bet, unless player
    is all in'; league: 'the minimum initial raise after the flop is double the previous bet'.
    Flop, big blind 100, the first bet an all-in for 60: by default (TDA 43) a raise is a full
    bet more (to 160); the other reading doubles the bet (to 120), and that raise is full."""
    def flop_all_in(profile: str) -> HandState:
        return play(to_flop(new_hand(profile, (160, 5000, 5000))), BetRaise(0, 60))

    default = flop_all_in(base)
    assert get_profile(base).raise_over_a_short_first_bet == "a_full_bet_more"
    assert legal(default).min_to == 160
    with pytest.raises(RuleViolation, match="160"):
        decide(default, BetRaise(1, 120))
    doubled = flop_all_in(room(base, raise_over_a_short_first_bet="double_the_bet"))
    assert legal(doubled).min_to == 120
    with pytest.raises(RuleViolation, match="120") as refused:
        decide(doubled, BetRaise(1, 110))
    # The refusal names the reading that set the minimum.
    assert "the reading in force: raise_over_a_short_first_bet = double_the_bet" in \
        refused.value.message
    doubled = play(doubled, BetRaise(1, 120))
    assert legal(doubled).min_to == 180  # the raise of 60 was a full one: 120 + 60


# --- BSE: "A Re-RAISE must be equal to or greater than the previous raise (not bet)" ---------


def test_bse_reraise_equal_to_the_previous_raise_not_bet_after_a_short_all_in() -> None:
    """BSE: 'A Re-RAISE must be equal to or greater than the previous raise (not bet).' and
    All-In: 'If however, there are additional raises, then they must at least complete the
    RAISE.' Flop: 1,000 bet, an all-in to 1,200 (short of a raise). By default (TDA 47) a
    further raise is a full raise over the all-in (to 2,200); the other reading completes the
    raise the all-in did not (to 2,000)."""
    def short_all_in(profile: str) -> HandState:
        return play(to_flop(new_hand(profile, (5000, 1300, 5000))), BetRaise(0, 1000),
                    BetRaise(1, 1200))

    assert get_profile("bse").raise_after_a_short_all_in == "a_full_raise_over_it"
    assert legal(short_all_in("bse")).min_to == 2200
    completed = short_all_in(room("bse", raise_after_a_short_all_in="complete_the_raise"))
    assert legal(completed).min_to == 2000
    with pytest.raises(RuleViolation, match="2000"):
        decide(completed, BetRaise(2, 1900))
    completed = play(completed, BetRaise(2, 2000))
    assert legal(completed).min_to == 3000  # the raise completed is a full raise of 1,000


# --- league: "A split pot containing a single chip of the lowest denomination in play" --------


def split_with_an_odd_chip(profile: str) -> tuple[int, ...]:
    """Chips of 25: the button all-in for 75, both blinds call, the blinds check it down; the
    button and the small blind tie: 225 is nine chips, four each and one odd chip."""
    state = new_hand(profile, (1000, 1000, 75), (25, 50, 0), chip_unit=25)
    state = play(state, BetRaise(2, 75), CheckCall(0), CheckCall(1))
    while state.phase in (BETTING, BOARD):
        if state.phase == BOARD:
            have = len(state.board)
            state = execute(state, DealBoard(parse_cards("2h7c9dJdKs")[have:have + (
                3 if have == 0 else 1)]))
        else:
            assert state.to_act is not None
            state = execute(state, CheckCall(state.to_act))
    state = play(state, ShowCards(2, parse_cards("AcAd")), ShowCards(0, parse_cards("AhAs")),
                 ShowCards(1, parse_cards("3c4d")))
    award = propose_awards(state)[0]
    return tuple(award.shares)


def test_league_single_lowest_chip_split_pot_to_the_all_in_player_reading() -> None:
    """League: 'A split pot containing a single chip of the lowest denomination in play will be
    awarded to the all-in player regardless of seat position.' By default the sentence is read
    as a pot of one chip (the extra chip of a larger split goes by seat: 'closest to the
    puck/button'); the other reading gives the odd chip of any split to the all-in player."""
    assert get_profile("league").all_in_odd_chip_pots == "single_chip_pot"
    assert split_with_an_odd_chip("league") == (125, 100)  # the small blind, first from the button
    assert split_with_an_odd_chip(room("league", all_in_odd_chip_pots="any_split_pot")) == (
        100, 125)  # the all-in button


# --- chairperson: "The button does not move" ---------------------------------------------------


LEVEL = Level(50, 100)


def after_button_and_small_blind_bust(profile: str) -> HandSetup:
    state: TableState = open_table(TableOpened("T", 9, profile))
    for seat in range(1, 7):
        state = apply_table(state, PlayerSeated(seat, f"S{seat}", 1000))
    state = apply_table(state, ButtonPlaced(1))
    for event in begin(plan_hand(state, LEVEL, 1, final_table=True)):
        state = apply_table(state, event)
    while state.hand_in_progress:
        assert state.hand is not None
        la = legal_actions(state.hand)
        command: Command = AwardPots() if la is None else \
            Fold(la.player) if la.call_amount else CheckCall(la.player)
        for event in decide(state.hand, command):
            state = apply_table(state, event)
    for seat in (1, 2):  # the button and the small blind both out
        occupant = state.occupant(seat)
        assert occupant is not None
        state = apply_table(state, PlayerLeft(seat, occupant.player, occupant.stack,
                                              "eliminated"))
    return plan_hand(state, LEVEL, 2, final_table=True)


def test_chairperson_the_button_does_not_move_when_the_button_and_the_small_blind_bust() -> None:
    """Chairperson: 'If the Small Blind is eliminated, ... The button does not move and the
    player who was the button, will be the button once again.' Silent when that player is out
    too: by default the button goes to the player right of the small blind (a moving button is
    always on a player); the other reading leaves it on its seat (a dead button there)."""
    assert get_profile("chairperson").button_when_its_player_and_the_small_blind_bust == \
        "to_the_player_before_the_small_blind"
    setup = after_button_and_small_blind_bust("chairperson")
    assert (setup.button_seat, setup.small_blind_seat, setup.big_blind_seat) == (6, 3, 4)
    stays = after_button_and_small_blind_bust(room(
        "chairperson", button_when_its_player_and_the_small_blind_bust="stays_on_its_seat"))
    assert (stays.button_seat, stays.small_blind_seat, stays.big_blind_seat) == (1, 3, 4)
    assert stays.seats == setup.seats == (3, 4, 5, 6)  # who is dealt in, in the same order


def test_every_hand_records_the_readings_it_was_decided_under() -> None:
    """A hand played under the other reading records the room profile (every override) and the
    digest of its parameters, so replay and the report say which reading decided it."""
    ref = room("bse", raise_after_a_short_all_in="complete_the_raise")
    started = begin(new_hand(ref, (5000, 5000, 5000)).setup)[0]
    assert isinstance(started, HandStarted)
    assert started.profile == ref and "complete_the_raise" in started.profile
    assert started.rules_digest == profile_digest(get_profile(ref)) != profile_digest(
        get_profile("bse"))


# --- Octobermuck: payout percentages that add up to 101% ---------------------------------------


def test_octobermuck_payout_percentages_adding_up_to_101_percent() -> None:
    """Octobermuck Payout Structure: '28-32: 7 places - 28 %, 21%, 14%, 11%, 10%, 9%, 8%' adds
    up to 101%. By default the percentages are weights of the pool (each place 100/101 of its
    share); the other reading pays the first six as printed and the last place the rest (7%)."""
    structure = load_structure(EXAMPLES / "octobermuck.toml")
    pool, rounding = 135_000, structure.money.payout_rounding
    printed = (2800, 2100, 1400, 1100, 1000, 900, 800)
    assert get_profile("octobermuck").payout_percents_not_100 == "scale_to_pool"
    scaled = payouts_for(structure, 30, pool)
    assert scaled == place_amounts(printed, pool, rounding) and sum(scaled) == pool
    assert scaled[0] < pool * 28 // 100
    rest = payouts_for(replace(structure, profile=room(
        "octobermuck", payout_percents_not_100="last_place_takes_the_rest")), 30, pool)
    assert rest == place_amounts(printed[:-1] + (700,), pool, rounding) and sum(rest) == pool
    assert rest[1:6] == tuple(pool * bp // 10_000 // rounding * rounding for bp in printed[1:6])


def test_the_structure_file_chooses_the_other_reading_and_the_floor_shows_it(
        tmp_path: Path) -> None:
    """The Octobermuck structure with a `[profile]` table (name, base, `[profile.set]`)
    choosing last_place_takes_the_rest: the structure's profile reads it, the payouts follow
    it, and the readings the floor lists give it with its citation ("set by the structure
    file")."""
    from handlog.recorder.floor import _readings

    text = (EXAMPLES / "octobermuck.toml").read_text(encoding="utf-8").replace(
        'profile = "octobermuck"', "", 1)
    text += ('\n[profile]\nname = "octobermuck room"\nbase = "octobermuck"\n'
             '[profile.set]\npayout_percents_not_100 = "last_place_takes_the_rest"\n')
    path = tmp_path / "room.toml"
    path.write_text(text, encoding="utf-8")
    structure = load_structure(path)
    assert get_profile(structure.profile).payout_percents_not_100 == "last_place_takes_the_rest"
    assert payouts_for(structure, 30, 135_000)[-1] == 9_400  # 7% of $1,350, whole dollars
    shown = {r["name"]: r for r in _readings(structure.profile)}
    assert shown["payout_percents_not_100"]["value"] == "last_place_takes_the_rest"
    assert "set by the structure file" in shown["payout_percents_not_100"]["citation"]
    assert shown["raise_after_a_short_all_in"]["value"] == "a_full_raise_over_it"


@pytest.mark.parametrize("reading", ["scale_to_pool", "last_place_takes_the_rest"])
def test_the_prize_table_says_how_a_row_off_100_percent_was_paid(reading: str) -> None:
    """Octobermuck with 30 entrants (the row adding up to 101%) played to a winner: the
    report's prize table says, for each place, which reading paid it."""
    from test_tournament import Log, example, started

    from handlog.engine.tournament import Bust, award_prizes, eliminate
    from handlog.replay.report import prize_reasons

    structure = replace(example("octobermuck"), profile=room(
        "octobermuck", payout_percents_not_100=reading))
    log: Log = started(structure, 30, ("A", "B", "C", "D"))
    for number, entrant in enumerate(list(log.state.remaining)[:-1], start=1):
        log.add(*eliminate(log.state, [Bust(entrant.player, 100, entrant.table, number)]))
    prizes = award_prizes(log.state)
    why = prize_reasons(log.state, prizes.awards, prizes.pool, {}, {})
    seventh = next(a for a in prizes.awards if a.place == 7)
    if reading == "scale_to_pool":
        assert "add up to 101%: each place is its share of that total (the reading " \
               "scale_to_pool)" in why[seventh.player]
    else:
        assert "add up to 101%: the last place is paid the rest, 7% (the reading " \
               "last_place_takes_the_rest)" in why[seventh.player]
        assert seventh.amount == prizes.pool * 7 // 100 // 100 * 100
