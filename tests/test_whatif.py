"""What-if: another ruling at a moment, re-decided through the engine with the entries the
dealer made, beside what was recorded; it stops, naming the rule, where a recorded entry no
longer fits; nothing is written to the log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_hands import PLAYERS, STREAM, play_short_all_in_hand
from web_support import Client, make_app, make_recorder, open_table

from handlog.recorder.cli import cli
from handlog.recorder.hand_views import registered_names
from handlog.replay.hands import table_hands
from handlog.replay.whatif import Change, what_if
from handlog.schema.store import open_store


@pytest.fixture
def hand_log(tmp_path: Path) -> Any:
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM, PLAYERS)
    app, auth = make_app(recorder)
    with Client(app, auth) as director:
        assert director.login("director").status_code == 200
        play_short_all_in_hand(director)
    yield recorder
    recorder.store.close()


def _version(recorder: Any, kind: str, **payload: Any) -> int:
    return next(e.version for e in recorder.store.read(STREAM) if e.type == kind
                and all(e.payload.get(k) == v for k, v in payload.items()))


def test_another_amount_is_followed_to_the_end_of_the_hand(hand_log: Any) -> None:
    """Bob's flop bet was 800, not 500: Cy's call follows it, the side pot is 1,600 and Bob's
    kings win it; every later entry still fits, Ann's aces still win the main pot."""
    bet = _version(hand_log, "bet_made", to=500)
    result = what_if(STREAM, hand_log.store.read(STREAM), Change("amount", bet, amount=800))
    assert result.complete, result.stop_message
    assert result.recorded_stacks == {"Ann": 3100, "Bob": 2500, "Cy": 1500, "Dee": 2900}
    assert result.whatif_stacks == {"Ann": 3100, "Bob": 2800, "Cy": 1200, "Dee": 2900}
    head = hand_log.store.head(STREAM)
    assert head is not None and head.version == hand_log.store.read(STREAM)[-1].version


def test_a_call_that_becomes_an_all_in_is_named_not_said_to_fit(hand_log: Any) -> None:
    """Bob's flop bet was 2,000, not 500: Cy's recorded call of 500 is now a call of all his
    2,000 (all-in). The what-if names that entry (recorded and what-if, in words) and does
    not say every later entry still fits; it stops at the turn's check (nobody is left to
    act)."""
    from handlog.recorder.whatif_views import whatif_lines, whatif_view

    bet = _version(hand_log, "bet_made", to=500)
    call = _version(hand_log, "player_called", amount=500)
    result = what_if(STREAM, hand_log.store.read(STREAM), Change("amount", bet, amount=2000))
    assert not result.all_fit
    assert [(u.version, u.recorded.amount, u.whatif.amount, u.whatif.all_in)
            for u in result.unfit] == [(call, 500, 2000, True)]
    view = whatif_view(hand_log.store, STREAM, Change("amount", bet, amount=2000), {})
    assert view["unfit"] == [{"version": call, "hand": 1, "recorded": "Cy calls 500",
                              "whatif": "Cy calls 2000 (all-in)"}]
    text = "\n".join(whatif_lines(view))
    assert "still fits" not in text and "1 later entry decided otherwise" in text
    assert f"#{call} (hand 1): recorded Cy calls 500; in the what-if Cy calls 2000 (all-in)" \
        in text


def test_another_amount_that_every_entry_follows_says_so(hand_log: Any) -> None:
    """Bob's flop bet 800 instead of 500: Cy's call follows it (a call, not all-in), so every
    later entry still fits and nothing is listed."""
    from handlog.recorder.whatif_views import whatif_view

    bet = _version(hand_log, "bet_made", to=500)
    view = whatif_view(hand_log.store, STREAM, Change("amount", bet, amount=800), {})
    assert view["all_fit"] and view["unfit"] == []
    assert view["verdict"].startswith("every later entry still fits")


def test_a_dropped_fold_stops_where_the_next_entry_no_longer_fits(hand_log: Any) -> None:
    """Without Dee's fold it is still Dee's turn: Ann's all-in is out of turn (TDA 53)."""
    folded = _version(hand_log, "player_folded", player=2)
    result = what_if(STREAM, hand_log.store.read(STREAM), Change("drop", folded))
    assert not result.complete
    assert result.stopped_at == folded + 1 and result.stop_rule == "tda-53"


def test_another_award_moves_the_chips(hand_log: Any) -> None:
    """The main pot (3,100) to Bob instead of Ann: Ann is out in hand 1; Bob, who put in 1,500,
    has 3,000 - 1,500 + 3,100 + 1,000 = 5,600."""
    award = _version(hand_log, "pot_awarded", pot=0)
    result = what_if(STREAM, hand_log.store.read(STREAM), Change("award", award,
                                                                  winners=((0,), (0,))))
    assert result.complete
    assert result.whatif_stacks["Bob"] == 5600 and result.whatif_stacks["Ann"] == 0
    assert result.whatif_out == {"Ann": 1} and result.recorded_out == {}
    from handlog.recorder.whatif_views import whatif_lines, whatif_view

    view = whatif_view(hand_log.store, STREAM, Change("award", award, winners=((0,), (0,))), {})
    ann = next(p for p in view["players"] if p["player"] == "Ann")
    assert (ann["whatif_stack"], ann["whatif_out_in_hand"], ann["recorded_out_in_hand"]) == (
        0, 1, None)  # the player who would bust is marked out, in the hand he would bust in
    assert any(line.startswith("Ann") and line.endswith("hand - / 1")
               for line in whatif_lines(view))


def test_a_version_that_does_not_count_is_refused(hand_log: Any) -> None:
    from handlog.engine.errors import RuleViolation

    with pytest.raises(RuleViolation, match="no entry that counts at version 999"):
        what_if(STREAM, hand_log.store.read(STREAM), Change("drop", 999))


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: Any) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('whatif') / 'demo.db'}"
    result = CliRunner().invoke(cli, ["demo", "--players", "12", "--tables", "2", "--seed", "7",
                                      "--db", url])
    assert result.exit_code == 0, result.output
    return url


def test_whatif_cli_moves_a_place_and_a_prize(demo_db: str) -> None:
    """The pot that put the third-placed player out goes to him instead: he is no longer
    third (nor paid third's prize) and still has chips; what follows is named where the
    recorded entries stop fitting; the log is unchanged."""
    with open_store(demo_db) as store:
        heads = {h.stream_id: h.version for h in store.streams()}
        stream, hand, victim = "", None, ""
        found: list[tuple[str, int, str]] = []
        for head in heads:
            if not head.startswith("table-"):
                continue
            for record in table_hands(head, store.read(head)):
                for step in record.steps:
                    event = step.event
                    if event.TYPE == "pot_awarded" and len(event.eligible) == 2:
                        loser = [p for p in event.eligible if p not in event.winners]
                        if loser and step.stacks[loser[0]] == 0:
                            stream, hand, victim = head, step, record.players[loser[0]]
                            found.append((head, step.version, victim))
        names = registered_names(store.read(next(h for h in heads if h.startswith("tourn"))))
    assert hand is not None
    victim = names[victim]
    runner = CliRunner()
    result = runner.invoke(cli, ["whatif", stream, "--at", str(hand.version), "--award",
                                 victim, "--json", "--db", demo_db])
    assert result.exit_code == 0, result.output
    view = json.loads(result.output)
    assert view["written"] is False
    mine = next(p for p in view["places"] if p["player"] == victim)
    assert mine["recorded_place"] > 0 and mine["whatif_place"] != mine["recorded_place"]
    assert mine["whatif_prize"] != mine["recorded_prize"] or mine["recorded_prize"] == 0
    assert any(p["whatif_out_in_hand"] is None and p["recorded_out_in_hand"]
               for p in view["players"] if p["player"] == victim)
    text = runner.invoke(cli, ["whatif", stream, "--at", str(hand.version), "--award", victim,
                               "--db", demo_db])
    assert "nothing is written to the log" in text.output
    # Players at the other table are not "open with 0 chips": their play is as recorded.
    elsewhere = []
    for table, version, player in found:
        answer = runner.invoke(cli, ["whatif", table, "--at", str(version), "--award",
                                     names[player], "--json", "--db", demo_db])
        assert answer.exit_code == 0, answer.output
        elsewhere += [p for p in json.loads(answer.output)["places"]
                      if not p["at_this_table"] and not p["whatif_place"]]
    assert elsewhere and all(p["whatif_text"] == "playing at another table (as recorded)"
                             and p["whatif_stack"] is None for p in elsewhere)
    with open_store(demo_db) as store:
        assert {h.stream_id: h.version for h in store.streams()} == heads
    bad = runner.invoke(cli, ["whatif", stream, "--at", str(hand.version), "--award", "Nobody",
                              "--db", demo_db])
    assert bad.exit_code == 1 and "'Nobody' did not play this hand" in bad.output
    none = runner.invoke(cli, ["whatif", stream, "--at", str(hand.version), "--db", demo_db])
    assert none.exit_code == 1 and "say one other ruling" in none.output
