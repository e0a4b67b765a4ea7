"""The floor's steps that move money (issue 24): the high-hand fee recorded after an entry,
the jackpot named by the director, a count of 0 for a stack, the deal's amounts shown before
anyone consents; through the engine and the floor's HTTP door."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_deals import _final_three
from test_tournament import example, started
from web_support import Client, make_app, make_recorder

from handlog.engine.chip_counts import count_stacks
from handlog.engine.deals import deal_amounts, deal_preview, unpaid_prizes
from handlog.engine.errors import RuleViolation
from handlog.engine.money import money_block, record_high_hand_fee
from handlog.engine.tournament import award_high_hand, register
from handlog.engine.tournament import start_break as start_break_event
from handlog.recorder.service import Actor
from handlog.recorder.tournament_service import Tournaments
from handlog.replay.verify import replay_log


def test_octobermuck_high_hand_fee_paid_after_the_entry_joins_the_pool() -> None:
    """'HHJP $5 (optional)': a fee recorded after the entry counts in the pool like one paid
    at the entry; recording it again is refused; after the award the pool is closed."""
    log = started(example("octobermuck"), 4, tables=("A",))
    a, b = log.state.entrants[0].player, log.state.entrants[1].player
    assert money_block(log.state).high_hand_pool == 0
    log.add(record_high_hand_fee(log.state, a, True, "TD"))
    log.add(record_high_hand_fee(log.state, b, True, "TD"))
    assert money_block(log.state).high_hand_pool == 2 * 500
    with pytest.raises(RuleViolation, match="already recorded as paid"):
        record_high_hand_fee(log.state, a, True, "TD")
    log.add(record_high_hand_fee(log.state, b, False, "TD"))  # a tick given in error
    assert money_block(log.state).high_hand_pool == 500
    with pytest.raises(RuleViolation, match="no entrant"):
        record_high_hand_fee(log.state, "nobody", True, "TD")
    log.add(award_high_hand(log.state, (a,), "named by the director"))
    with pytest.raises(RuleViolation, match="already awarded"):
        record_high_hand_fee(log.state, b, True, "TD")


def test_a_fee_is_refused_where_the_structure_has_no_jackpot() -> None:
    log = started(example("tda-demo"), 3, tables=("A",))
    with pytest.raises(RuleViolation, match="no high-hand jackpot"):
        record_high_hand_fee(log.state, log.state.entrants[0].player, True, "TD")
    with pytest.raises(RuleViolation, match="no high-hand jackpot"):
        register(log.state, "p9", "Late", high_hand=True)


def test_tda_25_a_count_of_0_for_a_player_with_chips_is_refused_with_both_numbers() -> None:
    """A seated player has chips until a hand takes them: a count of 0 beside the log's
    19,825 is refused, naming both, never set silently beside the log's stack."""
    log = started(example("octobermuck"), 3, tables=("A",))
    log.add(start_break_event(log.state, 10))
    players = [e.player for e in log.state.seated_at("A")]
    computed = dict.fromkeys(players, 19_825)
    with pytest.raises(RuleViolation) as refused:
        count_stacks(log.state, "A", "break", dict(computed) | {players[0]: 0}, computed)
    assert "counted 0 chips but the log gives him 19825" in refused.value.message
    ok = count_stacks(log.state, "A", "break", computed, computed)
    assert [c.counted for c in ok.counts] == [19_825] * 3


def test_octobermuck_deal_preview_gives_every_method_for_every_player_before_consent() -> None:
    """'Players at the final table may make deals': before consent the floor reads each
    method's amount for each player left, the same amounts the deal then records."""
    log = _final_three()
    left = [e.player for e in log.state.remaining]
    stacks = dict(zip(left, (60_000, 40_000, 20_000), strict=True))
    shown = deal_preview(log.state, stacks, kept=1_000)
    assert shown.players == tuple(left) and shown.stacks == (60_000, 40_000, 20_000)
    offers = {o.method: o.amounts for o in shown.offers}
    assert set(offers) == {"icm", "chip_chop", "chip_chop_last_guaranteed"}
    prizes = unpaid_prizes(log.state)
    for method, amounts in offers.items():
        assert amounts == deal_amounts(method, shown.stacks, prizes, 1_000)
        assert sum(amounts) == sum(prizes) - 1_000


def test_a_deal_preview_under_tda_names_the_rule() -> None:
    log = started(example("tda-demo"), 3, tables=("A",))
    with pytest.raises(RuleViolation) as refused:
        deal_preview(log.state, {e.player: 5000 for e in log.state.remaining})
    assert refused.value.rule == "tda-deals"


def test_the_floor_records_a_fee_later_and_reads_the_deal_amounts(tmp_path: Path) -> None:
    """Through the floor's HTTP door: a registration without the fee, the fee recorded later
    (the view's fee list and pool follow); the deal preview refused before the final table
    with its reason; a command with an unknown field refused naming it."""
    recorder = make_recorder(tmp_path)
    director = Actor("director", "director", "test")
    Tournaments(recorder).create("oct", example("octobermuck"), director)
    app, auth = make_app(recorder, level_for=lambda _s, _f: None)
    url = "/api/tournaments/oct/commands"
    with Client(app, auth) as client:
        assert client.login("director").status_code == 200
        headers = {"X-CSRF-Token": client.csrf}
        for name, fee in (("Ada", True), ("Bea", False)):
            answer = client.http.post(url, headers=headers, json={"command": {
                "type": "register", "name": name, "high_hand": fee}})
            assert answer.status_code == 200, answer.text
        view = client.http.get("/api/floor").json()["tournaments"][0]
        readings = {r["name"]: r for r in view["readings"]}
        assert readings["deals_allowed"]["value"] is True
        assert "Octobermuck" in readings["deals_allowed"]["citation"]
        assert readings["bubble_busts_share"]["value"] is True
        fees = {f["name"]: f["paid"] for f in view["high_hand"]["fees"]}
        assert fees == {"Ada": True, "Bea": False}
        bea = next(f["player"] for f in view["high_hand"]["fees"] if f["name"] == "Bea")
        answer = client.http.post(url, headers=headers, json={"command": {
            "type": "high_hand_fee", "player": bea, "paid": True}})
        assert answer.status_code == 200, answer.text
        view = client.http.get("/api/floor").json()["tournaments"][0]
        assert view["money"]["high_hand_pool"] == 1000
        assert all(f["paid"] for f in view["high_hand"]["fees"])
        bad = client.http.post(url, headers=headers, json={"command": {
            "type": "high_hand_fee", "player": bea, "paid": True, "when": "now"}})
        assert bad.status_code == 422 and "when" in bad.text
        early = client.http.get("/api/tournaments/oct/deal?kept=0")
        assert early.status_code == 409 and "final table" in early.json()["message"]
        negative = client.http.get("/api/tournaments/oct/deal?kept=-1")
        assert negative.status_code in (400, 422) and "kept" in negative.text
    assert replay_log(recorder.store).findings == []
    recorder.store.close()


def test_the_prize_table_says_why_a_place_is_shared_and_what_the_deal_replaced() -> None:
    """The report's prize table explains in words: a place shared at the money under TDA
    RP-8-A (hand-for-hand), the split of the places it spans; the deal's amounts and the
    amount kept, added to the winner's."""
    from test_hand_for_hand import _at_the_bubble

    from handlog.engine.tournament import Bust, award_prizes, eliminate
    from handlog.engine.tournament_events import PlayerEliminated
    from handlog.engine.tournament_state import apply_tournament
    from handlog.engine.words import rule_words
    from handlog.replay.report import prize_reasons

    state = _at_the_bubble("tda-demo")  # 11 entrants, 3 paid, hand-for-hand on, 4 left
    a, b = (next(e.player for e in state.remaining if e.table == t) for t in ("A", "B"))
    rules: dict[int, str] = {}
    for event in eliminate(state, [Bust(a, 3000, "A", 9), Bust(b, 1000, "B", 8)]):
        state = apply_tournament(state, event)
        if isinstance(event, PlayerEliminated):
            rules[event.place] = rule_words(event.rule)
    left = [e.player for e in state.remaining]
    for event in eliminate(state, [Bust(left[0], 100, "A", 10)]):
        state = apply_tournament(state, event)
    prizes = award_prizes(state)
    why = prize_reasons(state, prizes.awards, prizes.pool, rules, {})
    assert f"place 3 shared with {b}" in why[a] and "places 3-4 pay" in why[a]
    assert rules[3] in why[a] and "split 2 ways" in why[a]

    log = _final_three()
    remaining = log.state.remaining
    stacks = {e.player: s for e, s in zip(remaining, (60_000, 40_000, 20_000), strict=True)}
    from handlog.engine.deals import make_deal

    log.add(make_deal(log.state, "chip_chop", stacks, {e.player: e.name for e in remaining},
                      "TD", kept=1_000))
    third, second, winner = (e.player for e in reversed(remaining))
    log.add(*eliminate(log.state, [Bust(third, 20_000, "C", 9)]))
    log.add(*eliminate(log.state, [Bust(second, 40_000, "C", 10)]))
    prizes = award_prizes(log.state)
    why = prize_reasons(log.state, prizes.awards, prizes.pool, {}, {})
    assert why[third].startswith("deal (chip chop) at the final table, agreed USD")
    assert "plus USD 10.00 kept to play for" in why[winner]
