"""Every tournament parameter governs something the recorder does where the moment arises: the
seat draw (`seats_drawn_at_random`), the deal command (`deals_allowed`), the button draws when
tables break (`button_redraw_at`) and the end of a level (`absent_eliminated_after_full_level`).
Each test records through the recorder's tournament service under two profiles and shows the
recorded facts differ."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from handlog.engine import commands as hc
from handlog.engine.breaking import table_to_break
from handlog.engine.errors import RuleViolation
from handlog.engine.events import HandStarted
from handlog.engine.table_commands import SetAbsence, StartHand
from handlog.engine.tournament import played_no_hand, stakes
from handlog.engine.tournament_events import LevelStarted, PlayerWithdrew, SeatsDrawn
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.structure import load_structure
from handlog.recorder.tournament_service import Tournaments, table_stream
from handlog.schema.store import open_store

ROOT = Path(__file__).resolve().parent.parent
DIRECTOR = Actor("Tina", "director", "floor-tablet")


@pytest.fixture
def desk(tmp_path: Path) -> Iterator[Tournaments]:
    with open_store(f"sqlite:///{tmp_path / 'moments.db'}", upgrade=True) as store:
        yield Tournaments(Recorder(store))


def _tournament(desk: Tournaments, profile: str, players: int, name: str = "t",
                example: str = "tda-demo") -> None:
    structure = dataclasses.replace(load_structure(ROOT / "examples" / f"{example}.toml"),
                                    profile=profile)
    desk.create(name, structure, DIRECTOR)
    for k in range(players):
        desk.register(name, f"Player {k + 1}", DIRECTOR)


def _events(desk: Tournaments, stream: str) -> list[Any]:
    return [e.decode() for e in desk.recorder.store.read(stream)]


def test_seats_drawn_at_random_shuffles_with_a_recorded_seed_else_the_director_assigns(
        desk: Tournaments) -> None:
    """TDA: a random draw, its seed recorded. BSE 'EDs will assign seats': no draw; the
    players take the seats in the order the director registered them, and no seed."""
    for profile in ("tda", "bse"):
        _tournament(desk, profile, 9, name=profile)
        desk.draw_seats(profile, 1, 7, DIRECTOR)
    drawn = {p: next(e for e in _events(desk, f"tournament-{p}") if isinstance(e, SeatsDrawn))
             for p in ("tda", "bse")}
    assigned = drawn["bse"]
    assert (assigned.reason, assigned.seed) == ("assigned", "")
    assert [a.player for a in assigned.assignments] == [f"p{k}" for k in range(1, 10)]
    assert [a.seat for a in assigned.assignments] == list(range(1, 10))
    random_draw = drawn["tda"]
    assert (random_draw.reason, random_draw.seed) == ("initial_draw", "7")
    assert [a.player for a in random_draw.assignments] != [f"p{k}" for k in range(1, 10)]


def test_the_deal_command_is_refused_where_the_house_allows_no_deals(desk: Tournaments) -> None:
    """TDA (no rule on deals: the posted payouts) refuses the recorder's deal, citing the
    profile's rule; Octobermuck 'Players at the final table may make deals' records it."""
    for profile in ("tda", "octobermuck"):
        _tournament(desk, profile, 3, name=profile)
        desk.draw_seats(profile, 1, 1, DIRECTOR)
        desk.start_level(profile, DIRECTOR)
    consents = {"p1": "Player 1", "p2": "Player 2", "p3": "Player 3"}
    with pytest.raises(RuleViolation, match="deals_allowed is false") as refused:
        desk.deal("tda", "chip_chop", consents, DIRECTOR)
    assert refused.value.rule == "tda-deals"
    desk.deal("octobermuck", "chip_chop", consents, DIRECTOR)
    assert any(e.TYPE == "deal_recorded" for e in _events(desk, "tournament-octobermuck"))


@pytest.mark.parametrize(("profile", "buttons"), [("tda", ()), ("octobermuck", ("1",))])
def test_button_redraw_at_the_final_table_decides_the_break_plan(
        desk: Tournaments, profile: str, buttons: tuple[str, ...]) -> None:
    """The plan the recorder breaks tables by (table_to_break) asks button_redraw_due: TDA
    keeps the button moving at the final table (a random seat redraw aside); a profile whose
    button_redraw_at names the final table draws it there. Seats assigned (no redraw) make the
    difference show: both profiles are given seats_drawn_at_random false here."""
    from handlog.engine.profiles import room_profile_ref
    from handlog.engine.tournament_state import fold_tournament

    room = room_profile_ref(f"{profile}-assigned", profile, {"seats_drawn_at_random": False})
    _tournament(desk, room, 6)
    desk.draw_seats("t", 2, 3, DIRECTOR)
    plan = table_to_break(fold_tournament(_events(desk, "tournament-t")))
    assert plan is not None and plan.final_table and not plan.redraw
    assert (plan.seating, plan.button_tables) == ("assigned", buttons)


def _table(desk: Tournaments) -> str:
    return table_stream("t", "1")


def _submit(desk: Tournaments, command: Any) -> None:
    stream = _table(desk)
    desk.recorder.submit(stream, command, desk.table("t", "1").version, uuid.uuid4(), DIRECTOR)


def _play_a_hand_with_seat_away(desk: Tournaments, seat: int) -> None:
    fold = desk.table("t", "1")
    assert fold.state is not None
    if not next(s for s in fold.state.seats if s.seat == seat).absent:
        _submit(desk, SetAbsence(seat, True))
    _submit(desk, StartHand(stakes(desk.state("t"))))
    for _ in range(20):
        hand = desk.table("t", "1").state.hand  # type: ignore[union-attr]
        if hand is None or hand.is_complete:
            break
        _submit(desk, hc.Fold(hand.to_act) if hand.to_act is not None else hc.AwardPots())


@pytest.mark.parametrize("profile", ["league", "tda"])
def test_a_player_who_plays_no_hand_for_a_whole_level_is_removed_at_its_end_under_league(
        desk: Tournaments, profile: str) -> None:
    """League Leaving the Table: 'If a player does not play a hand for an entire blind level,
    their chips will be turned in to the TD, eliminating them from the tournament.' The
    recorder asks the engine when the next level starts; TDA blinds him off instead."""
    _tournament(desk, profile, 4)
    desk.draw_seats("t", 1, 5, DIRECTOR)
    desk.start_level("t", DIRECTOR)
    fold = desk.table("t", "1")
    assert fold.state is not None
    away = fold.state.seats[0]
    _play_a_hand_with_seat_away(desk, away.seat)
    _play_a_hand_with_seat_away(desk, away.seat)
    hands = [e for e in _events(desk, _table(desk)) if isinstance(e, HandStarted)]
    assert played_no_hand(hands, 1) == (away.player,)
    # The level's chips in play travelled from the structure to every hand.
    assert {h.denominations for h in hands} == {(25, 100, 500, 1000)}
    desk.start_level("t", DIRECTOR)
    events = _events(desk, "tournament-t")
    withdrew = [e for e in events if isinstance(e, PlayerWithdrew)]
    seated = {s.player for s in desk.table("t", "1").state.seats}  # type: ignore[union-attr]
    assert isinstance(events[-1 - len(withdrew)], LevelStarted)
    if profile == "league":
        assert [(e.player, e.rule) for e in withdrew] == [
            (away.player, "league-leaving-the-table")]
        assert away.player not in seated
    else:
        assert withdrew == [] and away.player in seated


def test_played_no_hand_counts_only_the_level_and_hands_he_was_dealt() -> None:
    def hand(level: int, players: tuple[str, ...], absent: tuple[int, ...]) -> HandStarted:
        n = len(players)
        return HandStarted(1, players, tuple(range(1, n + 1)), (100,) * n, (0,) * n, (0,) * n,
                           2, 1, "league", 1, level=level, absent=absent)

    hands = [hand(1, ("a", "b", "c"), (0,)), hand(1, ("a", "b", "c"), (0, 2)),
             hand(2, ("a", "b", "c"), ())]
    assert played_no_hand(hands, 1) == ("a",)
    assert played_no_hand(hands, 2) == ()
    assert played_no_hand(hands, 3) == ()


def test_a_level_started_during_a_hand_applies_from_the_next_hand(desk: Tournaments) -> None:
    """Chairperson: 'The hand begins with the first riffle' (TDA alike): a level that starts
    while a hand is being played does not change that hand; the next hand is dealt at it."""
    _tournament(desk, "chairperson", 3)
    desk.draw_seats("t", 1, 5, DIRECTOR)
    desk.start_level("t", DIRECTOR)
    _submit(desk, StartHand(stakes(desk.state("t"))))
    first = desk.table("t", "1").state.hand  # type: ignore[union-attr]
    assert first is not None
    desk.start_level("t", DIRECTOR)
    level2 = stakes(desk.state("t"))
    assert level2.big_blind > max(first.setup.blinds)
    assert desk.table("t", "1").state.hand.setup == first.setup  # type: ignore[union-attr]
    for _ in range(10):
        hand = desk.table("t", "1").state.hand  # type: ignore[union-attr]
        if hand is None or hand.is_complete:
            break
        _submit(desk, hc.Fold(hand.to_act) if hand.to_act is not None else hc.AwardPots())
    _submit(desk, StartHand(level2))
    second = desk.table("t", "1").state.hand  # type: ignore[union-attr]
    assert second is not None and max(second.setup.blinds) == level2.big_blind
    assert second.setup.level == level2.number
