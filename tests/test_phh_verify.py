"""Strict replay of PHH hands through the engine, and the verdict on each hand."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

import handlog.engine.hand as hand_module
from handlog.engine.cards import parse_cards
from handlog.engine.commands import BetRaise, CheckCall, Fold, ShowCards
from handlog.engine.events import BoardDealt
from handlog.engine.hand import HandState
from handlog.replay.phh import PhhHand, find_phh_files, load_file, loads_file
from handlog.replay.phh_verify import (
    HandResult,
    hand_commands,
    replay_hand,
    setup_for,
    verify_file,
    verify_files,
    verify_hand,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "phh"
# The repository is cloned next to shared/ (here and in CI).
SHARED_PHH = Path(__file__).resolve().parents[2] / "shared" / "data" / "phh"


@pytest.fixture
def shared_phh() -> Path:
    if not SHARED_PHH.is_dir():
        pytest.skip(f"the shared PHH data is not at {SHARED_PHH} (clone next to shared/)")
    return SHARED_PHH


def fixture_hand(name: str) -> PhhHand:
    (entry,) = load_file(FIXTURES / name)
    assert isinstance(entry, PhhHand), entry
    return entry


def result_of(name: str) -> HandResult:
    (result,) = verify_file(FIXTURES / name)
    return result


def verify_text(text: str) -> HandResult:
    (entry,) = loads_file(text, "t.phh", many=False)
    assert isinstance(entry, PhhHand), entry
    return verify_hand(entry)


THREE_HANDED = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [3000, 3000, 3000]
"""


def test_tda_16_a_muck_at_an_all_in_showdown_is_illegal_unless_ruled_dead() -> None:
    """A record that has a player muck while another is all-in breaks TDA 16 (every hand is
    tabled); with the muck listed in `_dead_hands` (a director's ruling) it verifies."""
    all_in = THREE_HANDED + (
        "actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 QsQh', 'p3 cbr 3000', 'p1 cc',\n"
        "  'p2 cc', 'd db 2c7d9h', 'd db 3s', 'd db 4d', 'p1 sm AsAh', 'p2 sm', 'p3 sm QsQh']\n")
    refused = verify_text(all_in)
    assert refused.status == "illegal" and refused.violation is not None
    assert (refused.violation.action_index, refused.violation.rule) == (10, "tda-16")
    ruled = verify_text(all_in + "_dead_hands = [10]\nfinishing_stacks = [9000, 0, 0]\n")
    assert ruled.status == "match", ruled


# --- set-up and commands --------------------------------------------------------------------


def test_heads_up_blinds_are_reverse_assigned() -> None:
    """Heads-up, PHH's p1 posts blinds_or_straddles[1] (the big blind) and p2 the small."""
    hand = fixture_hand("good/heads_up.phh")
    setup = setup_for(hand, "tda")
    assert setup.blinds == (100, 50)
    assert setup.antes == (0, 0)
    assert result_of("good/heads_up.phh").status == "match"


def test_six_handed_blinds_are_as_written() -> None:
    """With more than two players each position posts what the file says."""
    (hand,) = load_file(FIXTURES / "good" / "house_rules.phh")
    assert isinstance(hand, PhhHand)
    setup = setup_for(hand, "bse")
    assert setup.blinds == (100, 200, 0, 0) and setup.antes == (0, 200, 0, 0)


def test_commands_follow_the_actions() -> None:
    """`cbr` is a raise *to* the street total, `????` deals unknown cards (a deal is played as
    (position, cards) with engine.hand.deal_hole), `sm` shows."""
    hand = fixture_hand("flawed/under_raise.phh")
    commands = hand_commands(hand)
    assert commands[:5] == [(0, None), (1, None), (2, None), BetRaise(2, 300), BetRaise(0, 400)]
    assert commands[5:] == [Fold(1), Fold(2)]
    showdown = hand_commands(fixture_hand("good/odd_chip_engine.phh"))
    assert showdown[3] == CheckCall(2)
    assert showdown[-2:] == [ShowCards(1, parse_cards("2c3d")), ShowCards(2, parse_cards("4h5h"))]


# --- verdicts on the fixtures ---------------------------------------------------------------


@pytest.mark.parametrize(("name", "status"), [
    ("good/heads_up.phh", "match"),
    ("good/decimal_cash.phh", "match"),
    ("good/odd_chip_engine.phh", "match"),
    ("good/chip_unit.phh", "match"),
    ("good/house_rules.phh", "match"),
    ("good/dead_money.phh", "match"),
    ("good/no_result.phh", "unverified"),
    ("good/stud.phh", "unverified"),
    ("flawed/under_raise.phh", "illegal"),
    ("flawed/omitted_fold.phh", "illegal"),
    ("flawed/ends_early.phh", "illegal"),
    ("flawed/straddle.phh", "illegal"),
    ("flawed/odd_chip_half.phh", "mismatch"),
    ("malformed/bad_toml.phh", "error"),
    ("malformed/missing_min_bet.phh", "error"),
    ("malformed/antes_not_a_list.phh", "error"),
    ("malformed/bad_action.phh", "error"),
])
def test_fixture_status(name: str, status: str) -> None:
    """Each hand-made fixture gets the status it was written for."""
    assert result_of(name).status == status


def test_tda_43_under_raise_is_illegal_with_index_and_rule() -> None:
    """A raise short of the last full raise, not all-in, is refused at its action index."""
    result = result_of("flawed/under_raise.phh")
    assert result.status == "illegal"
    assert result.violation is not None
    assert result.violation.action_index == 4
    assert result.violation.action == "p1 cbr 400"
    assert result.violation.rule == "tda-43"
    assert "at least 500" in result.violation.message
    assert result.finishing_stacks is None
    assert result.recorded_finishing_stacks == (10200, 9900, 9700)


def test_tda_20_odd_chip_to_first_winner_left_of_button() -> None:
    """A split of 25 between p2 and p3 gives p2 (nearer the button's left) 13."""
    result = result_of("good/odd_chip_engine.phh")
    assert result.finishing_stacks == (995, 1003, 1002)


def test_chip_unit_sets_the_size_of_the_odd_chip() -> None:
    """With `_chip_unit = 5` the odd chip is a 5: 15 and 10, not 13 and 12."""
    assert result_of("good/chip_unit.phh").finishing_stacks == (995, 1005, 1000)


def test_half_chip_record_is_a_mismatch_with_a_computed_reason() -> None:
    """A record that gives each winner half of the odd chip is explained, not hidden."""
    result = result_of("flawed/odd_chip_half.phh")
    assert result.status == "mismatch"
    assert result.reason == (
        "record splits the odd chip into half chips (x.5): p2 1002.5, p3 1002.5; engine awards "
        "the odd chip to p2 (the big blind) per TDA 20 (odd chips go to the first seat left of "
        "the button)"
    )
    assert result.recorded_finishing_stacks == (995, 1002.5, 1002.5)


def test_half_chip_reason_follows_the_numbers_not_the_file_name(tmp_path: Path) -> None:
    """The same record under another name, with other names, gets the same kind of reason."""
    text = (FIXTURES / "flawed" / "odd_chip_half.phh").read_text()
    text += "players = ['Ann', 'Bob', 'Cid']\n"
    path = tmp_path / "anything.phh"
    path.write_text(text)
    (result,) = verify_file(path)
    assert result.reason is not None
    assert result.reason.startswith("record splits the odd chip into half chips (x.5)")
    assert "to p2 (Bob, the big blind)" in result.reason


def test_other_differences_are_listed_player_by_player() -> None:
    """A plain wrong result names each player's recorded and computed stack."""
    result = verify_text(THREE_HANDED + "actions = ['p3 f', 'p1 f']\n"
                         "finishing_stacks = [2950, 3000, 3050]\n")
    assert result.status == "mismatch"
    assert result.reason == ("finishing stacks differ: p2 recorded 3000, engine 3050, "
                             "p3 recorded 3050, engine 3000")


def test_chips_not_conserved_in_the_record_are_called_out() -> None:
    """A record whose stacks do not add up says by how much (rake or an error)."""
    result = verify_text(THREE_HANDED + "actions = ['p3 f', 'p1 f']\n"
                         "finishing_stacks = [2950, 3040, 3000]\n")
    assert result.status == "mismatch"
    assert result.reason is not None
    assert "add up to 8990 but the hand started with 9000 in play (less by 10" in result.reason


def test_omitted_fold_is_illegal_and_explained() -> None:
    """A record that skips the button's action is illegal at the next action; the reason
    says whose action is missing, what putting it back gives, and the ante contradiction."""
    result = result_of("flawed/omitted_fold.phh")
    assert result.status == "illegal"
    assert result.violation is not None
    assert (result.violation.action_index, result.violation.action) == (5, "p1 f")
    assert result.violation.rule == "tda-53"
    assert "p4's turn" in result.violation.message
    assert result.reason is not None
    assert "the record omits p4's action" in result.reason
    assert "with p4 folding before action 5 the hand replays legally and matches" in result.reason
    assert "ante_trimming_status = true with non-uniform antes [0, 100, 0, 0]" in result.reason


def test_record_ending_with_betting_open_is_illegal() -> None:
    """Strict: nobody folds for the player who is to act when the record stops."""
    result = result_of("flawed/ends_early.phh")
    assert result.status == "illegal"
    assert result.violation is not None
    assert result.violation.action_index == 5
    assert result.violation.action is None
    assert "p2 (the big blind) is to act" in result.violation.message


def test_a_straddle_is_refused_at_the_set_up_under_every_profile() -> None:
    """BSE 76 ('Straddle blinds are not allowed'): a third blind is refused before any action,
    with no action index, the rule, and what is allowed."""
    result = result_of("flawed/straddle.phh")
    assert result.violation is not None
    assert (result.violation.action_index, result.violation.action) == (None, None)
    assert result.violation.rule == "tda-23"  # the TDA's posted blinds; BSE: "bse-blinds"
    assert "straddle" in result.violation.message and "p3 200" in result.violation.message
    assert "allowed: a small blind and a big blind" in result.violation.message


def test_partial_record_matches_stacks_as_they_stand() -> None:
    """A partial record may give its stacks after its last action (optional.rst)."""
    result = verify_text(THREE_HANDED + "actions = ['p3 cbr 300']\n"
                         "finishing_stacks = [2950, 2900, 2700]\n")
    assert result.status == "match"
    assert result.reason is not None and result.reason.startswith("partial record")
    result = verify_text(THREE_HANDED + "actions = ['p3 cbr 300']\n"
                         "finishing_stacks = [2950, 2900, 3000]\n")
    assert result.status == "mismatch"
    assert result.reason is not None and "p1 (the small blind) is to act" in result.reason


def test_decimal_cash_hand_is_reported_in_its_own_units() -> None:
    """Cents are replayed as integers and reported back as dollars, with a note."""
    result = result_of("good/decimal_cash.phh")
    assert result.finishing_stacks == (9.95, 12.04, 5.9)
    assert result.reason is not None and "scaled by 100" in result.reason


def test_unknown_profile_in_rules_field_is_an_error() -> None:
    """`_rules` must name a known house-rule profile."""
    result = verify_text(THREE_HANDED + "actions = ['p3 f', 'p1 f']\n_rules = 'casino'\n")
    assert result.status == "error"
    assert result.reason is not None
    assert "t.phh: field '_rules': unknown house-rule profile 'casino'" in result.reason


def test_rules_field_beats_the_default_profile() -> None:
    """A hand's own `_rules` is used whatever the run's default is."""
    (hand,) = load_file(FIXTURES / "good" / "house_rules.phh")
    assert isinstance(hand, PhhHand)
    assert verify_hand(hand, rules="no-such-profile").status == "match"


def test_hidden_showdown_cards_leave_the_hand_unverified() -> None:
    """`sm -` for cards that were dealt face down cannot decide a showdown."""
    result = verify_text(THREE_HANDED + "actions = ['d dh p1 ????', 'd dh p2 ????', "
                         "'d dh p3 ????', 'p3 f', 'p1 cc', 'p2 cc', 'd db 2c3c4c', 'p1 cc', "
                         "'p2 cc', 'd db 5d', 'p1 cc', 'p2 cc', 'd db 9s', 'p1 cc', 'p2 cc', "
                         "'p1 sm -']\nfinishing_stacks = [3100, 2900, 3000]\n")
    assert result.status == "unverified"
    assert result.reason is not None and "p1 shows cards the record does not give" in result.reason


def test_duplicate_card_is_illegal() -> None:
    """The same card dealt twice is a rule matter (a duplicate card), not a format error."""
    result = verify_text(THREE_HANDED + "actions = ['d dh p1 AsKs', 'd dh p2 AsQd']\n")
    assert result.status == "illegal"
    assert result.violation is not None and result.violation.action_index == 1


def test_engine_failure_is_an_error_and_the_run_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """An unexpected engine exception marks that hand as an error, not the whole run."""
    # The engine's table of appliers is the one seam a compiled engine (setup.py) still looks
    # up at run time: the first board card dealt fails once.
    real = hand_module._APPLIERS[BoardDealt]
    calls = {"n": 0}

    def flaky(state: HandState, event: BoardDealt) -> HandState:
        calls["n"] += 1
        if calls["n"] == 1:
            raise ZeroDivisionError("boom")
        return real(state, event)

    monkeypatch.setitem(hand_module._APPLIERS, BoardDealt, flaky)
    report = verify_files([FIXTURES / "good" / "heads_up.phh", FIXTURES / "good" / "chip_unit.phh"])
    assert [r.status for r in report.results] == ["error", "match"]
    assert report.results[0].reason == "engine failure at action 4: ZeroDivisionError: boom"


# --- strictness -----------------------------------------------------------------------------


def _good_hands_with_results() -> list[PhhHand]:
    hands = []
    for path in find_phh_files([FIXTURES / "good"]):
        for entry in load_file(path):
            if isinstance(entry, PhhHand) and entry.finishing_stacks is not None:
                hands.append(entry)
    return hands


@pytest.mark.parametrize("hand", _good_hands_with_results(),
                         ids=lambda h: f"{Path(h.source).name}{h.hand or ''}")
def test_dropping_any_player_action_never_matches(hand: PhhHand) -> None:
    """Nothing is inserted: a record missing any one player action is never a match."""
    assert verify_hand(hand).status == "match"
    for index, action in enumerate(hand.actions):
        if action.code not in ("f", "cc", "cbr"):
            continue
        actions = hand.actions[:index] + hand.actions[index + 1:]
        shortened = replace(hand, actions=actions)
        assert verify_hand(shortened).status != "match", action.text


def test_replay_without_extra_commands_is_pure() -> None:
    """Replaying twice gives equal states (the engine state is a value)."""
    hand = fixture_hand("good/odd_chip_engine.phh")
    assert replay_hand(hand) == replay_hand(hand)


# --- the report -----------------------------------------------------------------------------


def test_report_counts_and_exit_status() -> None:
    """The report counts each status; it is ok only without mismatch, illegal or error."""
    report = verify_files(find_phh_files([FIXTURES]))
    data = report.as_dict()
    assert {key: data[key] for key in ("hands", "matched", "mismatched", "illegal",
                                       "unverified", "errors")} == {
        "hands": 22, "matched": 9, "mismatched": 1, "illegal": 4, "unverified": 2, "errors": 6,
    }
    assert not report.ok
    assert verify_files(find_phh_files([FIXTURES / "good"])).ok


@pytest.mark.slow
def test_shared_phh_data(shared_phh: Path) -> None:
    """The whole shared PHH data: no errors, and every hand with a recorded result either
    matches or carries a reason computed from its numbers."""
    report = verify_files(find_phh_files([shared_phh]))
    counts = report.as_dict()
    assert counts["errors"] == 0
    assert counts["hands"] == 10_023
    by_status: dict[str, list[HandResult]] = {}
    for result in report.results:
        by_status.setdefault(result.status, []).append(result)
        if result.status != "match":
            assert result.reason, result
    # The eight Pluribus splits that give each winner half a chip.
    mismatches = by_status["mismatch"]
    assert len(mismatches) == 8
    for result in mismatches:
        assert result.reason is not None
        assert result.reason.startswith("record splits the odd chip into half chips (x.5)")
        assert "per TDA 20" in result.reason
    # The WSOP 2019 record: contradictory ante flag, and the button's fold left out.
    (illegal,) = by_status["illegal"]
    assert illegal.file.endswith("wsop/2019/42/3/00-01-07.phh")
    assert illegal.violation is not None and illegal.violation.action_index == 13
    assert illegal.reason is not None
    assert "omits p8's action" in illegal.reason and "matches the recorded" in illegal.reason
    assert "ante_trimming_status = true with non-uniform antes" in illegal.reason
    # handhq (cash, cents, winnings only) and the televised hand have nothing to compare.
    assert len(by_status["unverified"]) == 11
    assert counts["matched"] == 10_003


# --- PokerKit as an oracle ------------------------------------------------------------------


def _pokerkit_hand(seed: int) -> str:
    """A random legal hand played by PokerKit with equal deep stacks, written as PHH.

    Equal stacks keep out the cases where live rules and PokerKit part on purpose (short
    blinds, short antes, re-raising after a short all-in, the big blind's empty check).
    """
    import random
    import warnings

    from pokerkit import Automation, HandHistory, NoLimitTexasHoldem

    rng = random.Random(seed)
    count = rng.randint(2, 6)
    antes = (rng.choice([0, 5]),) * count
    blinds = (50, 100) + (0,) * (count - 2)
    stacks = (rng.choice([2_000, 10_000]),) * count
    automations = (
        Automation.ANTE_POSTING, Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING, Automation.CARD_BURNING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
    )
    game = NoLimitTexasHoldem(automations, False, antes, blinds, 100)
    state = game(stacks, count)
    while state.status:
        if state.can_deal_hole():
            state.deal_hole()
        elif state.can_deal_board():
            state.deal_board()
        elif state.actor_index is not None:
            choices = ["fold", "call", "call"]
            if state.can_complete_bet_or_raise_to():
                choices.append("raise")
            choice = rng.choice(choices)
            if choice == "fold" and state.checking_or_calling_amount:
                state.fold()
            elif choice == "raise":
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                assert low is not None and high is not None
                state.complete_bet_or_raise_to(rng.choice([low, high, rng.randint(low, high)]))
            else:
                state.check_or_call()
        else:
            break
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        history = HandHistory.from_game_state(game, state)
    history.finishing_stacks = list(state.stacks)
    return history.dumps()


@pytest.mark.parametrize("seed", range(150))
def test_pokerkit_hands_replay_to_the_same_stacks(seed: int) -> None:
    """Hands PokerKit plays (equal deep stacks) replay strictly to PokerKit's stacks, but for
    the placement of odd chips, which is then explained."""
    result = verify_text(_pokerkit_hand(seed))
    if result.status != "match":
        assert result.status == "mismatch", result
        assert result.reason is not None and "odd chip" in result.reason, result
