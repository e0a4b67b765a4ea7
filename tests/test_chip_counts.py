"""Chip counts (engine/chip_counts.py): at a break or at the end of a day the floor records the
counted stacks (service, API, floor command, CLI); each is set beside the stack the log
computes; a difference is a replay finding with both numbers until the director settles it with
a stack correction and a reason (the table's stack changes; the report shows it)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_penalties import play_out
from test_tournament import example, started
from web_support import Client, make_app

from handlog.engine.chip_counts import correct_stack, count_findings, count_stacks
from handlog.engine.errors import RuleViolation
from handlog.engine.tournament import start_break
from handlog.recorder.cli import cli
from handlog.recorder.floor import setup_demo
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.tournament_service import Tournaments
from handlog.replay.report import build_report
from handlog.replay.verify import replay_log
from handlog.schema.store import EventStore

DIRECTOR = Actor("director", "director", "test")


def test_a_count_sets_each_stack_beside_the_logs_and_keeps_differences_open() -> None:
    log = started(example("tda-demo"), 6, tables=("A",))
    computed = {f"p0{i}": 5000 for i in range(1, 7)}
    with pytest.raises(RuleViolation, match="no break is on") as refused:
        count_stacks(log.state, "A", "break", {"p01": 5000}, computed)
    assert refused.value.legal == ("end_of_day",)
    log.add(start_break(log.state, 10))
    with pytest.raises(RuleViolation, match="not seated at table A"):
        count_stacks(log.state, "A", "break", {"p99": 5000}, computed)
    with pytest.raises(RuleViolation, match="0 or more"):
        count_stacks(log.state, "A", "break", {"p01": -1}, computed)
    with pytest.raises(RuleViolation) as occasion:
        count_stacks(log.state, "A", "lunch", {"p01": 1}, computed)
    assert occasion.value.legal == ("break", "end_of_day")
    counted = count_stacks(log.state, "A", "break", {"p01": 5000, "p02": 5500}, computed)
    assert [(c.player, c.counted, c.computed) for c in counted.counts] == [
        ("p01", 5000, 5000), ("p02", 5500, 5000)]
    assert counted.rule == "tda-25"
    state = log.add(counted)
    assert [(rule, table, c.player, c.counted, c.computed)
            for rule, table, c in count_findings(state)] == [("tda-25", "A", "p02", 5500, 5000)]
    with pytest.raises(RuleViolation, match="no count of p01"):
        correct_stack(state, "p01", "miscount", "TD", 5000)
    with pytest.raises(RuleViolation, match="reason must not be empty"):
        correct_stack(state, "p02", " ", "TD", 5000)
    fixed = correct_stack(state, "p02", "a 500 chip under his stack", "TD", 5000)
    assert (fixed.amount, fixed.counted, fixed.computed) == (500, 5500, 5000)
    assert correct_stack(state, "p02", "the log stands", "TD", 5000, stack=5000).amount == 0
    with pytest.raises(RuleViolation, match="an elimination"):
        correct_stack(state, "p02", "nothing there", "TD", 5000, stack=0)
    after = log.add(fixed)
    assert count_findings(after) == [] and after.ledger.corrected == 500
    # A later count that agrees settles an earlier difference too.
    again = log.add(count_stacks(after, "A", "break", {"p03": 4000}, computed))
    assert [c.player for _r, _t, c in count_findings(again)] == ["p03"]
    settled = log.add(count_stacks(again, "A", "break", {"p03": 5000}, computed))
    assert count_findings(settled) == []


def test_a_miscount_is_a_replay_finding_until_the_director_corrects_the_stack(
        store: EventStore) -> None:
    """On SQLite and PostgreSQL: a hand played, a break, the table counted with one stack
    500 over the log's: replay names both numbers; the correction adds the 500 at the table,
    the chip total follows it, replay is clean and the report shows the count and the
    correction with its reason."""
    recorder = Recorder(store)
    tournament = setup_demo(recorder, players=6, tables=1, seed=3)
    t = Tournaments(recorder)
    play_out(recorder, t, tournament, "1")
    t.start_break(tournament, DIRECTOR, 10)
    seats = t.table(tournament, "1").state.seats  # type: ignore[union-attr]
    computed = {s.player: s.stack for s in seats}
    off = seats[2].player
    counts = dict(computed) | {off: computed[off] + 500}
    t.count_stacks(tournament, "1", "break", counts, DIRECTOR)
    findings = replay_log(store).findings
    assert [(f.rule, f.expected, f.recorded) for f in findings] == [
        ("tda-25", str(computed[off]), str(computed[off] + 500))]
    with pytest.raises(RuleViolation, match="no count of"):
        t.correct_stack(tournament, seats[0].player, "miscount", DIRECTOR)
    event_id = uuid.uuid4()
    t.correct_stack(tournament, off, "a 500 chip hidden under his cards", DIRECTOR,
                    event_id=event_id)
    retry = t.correct_stack(tournament, off, "a 500 chip hidden under his cards", DIRECTOR,
                            event_id=event_id)
    assert retry.retried
    seat = t.table(tournament, "1").state.seat_of(off)  # type: ignore[union-attr]
    assert seat is not None and seat.stack == computed[off] + 500
    adjusted = [e for e in store.read("table-demo-1") if e.type == "stack_adjusted"]
    assert [(e.payload["amount"], e.payload["reason"]) for e in adjusted] == [
        (500, "count_correction")]
    assert replay_log(store).findings == []
    report = build_report(store)
    (tour,) = report.data["tournaments"]
    counts_block = tour["chip_counts"]
    assert counts_block["open"] == []
    assert [(c["counted"], c["computed"], c["amount"], c["reason"])
            for c in counts_block["corrections"]] == [
        (computed[off] + 500, computed[off], 500, "a 500 chip hidden under his cards")]
    assert len(counts_block["counts"][0]["stacks"]) == 6
    assert any(r["kind"] == "stack correction" for r in report.data["rulings"])
    assert "Chip counts" in report.to_html() and "a 500 chip hidden" in report.to_html()


def test_the_floor_counts_and_corrects_and_the_view_shows_it(tmp_path: Path) -> None:
    from web_support import make_recorder

    recorder = make_recorder(tmp_path)
    tournament = setup_demo(recorder, players=6, tables=1, seed=2)
    app, auth = make_app(recorder, level_for=lambda _s, _f: None)
    url = f"/api/tournaments/{tournament}/commands"
    with Client(app, auth) as client:
        assert client.login("director").status_code == 200
        headers = {"X-CSRF-Token": client.csrf}
        view = client.http.get("/api/floor").json()["tournaments"][0]
        stacks = {p["player"]: 5000 for p in view["players"]}
        first = view["players"][0]["player"]
        refused = client.http.post(url, headers=headers, json={"command": {
            "type": "count_stacks", "table": "1", "stacks": stacks}})
        assert refused.status_code == 422, refused.text
        assert "no break is on" in refused.json()["message"]
        answer = client.http.post(url, headers=headers, json={"command": {
            "type": "count_stacks", "table": "1", "occasion": "end_of_day",
            "stacks": stacks | {first: 4900}}})
        assert answer.status_code == 200, answer.text
        shown = answer.json()["tournament"]
        assert shown["chip_counts"]["open"] == [{
            "table": "1", "player": first, "name": view["players"][0]["name"],
            "counted": 4900, "computed": 5000}]
        bad = client.http.post(url, headers=headers, json={"command": {
            "type": "correct_stack", "player": first, "reason": ""}})
        assert bad.status_code == 422
        fixed = client.http.post(url, headers=headers, json={"command": {
            "type": "correct_stack", "player": first, "reason": "recount: 4,900"}})
        assert fixed.status_code == 200, fixed.text
        shown = fixed.json()["tournament"]
        assert shown["chip_counts"]["open"] == []
        assert [(c["amount"], c["reason"]) for c in shown["chip_counts"]["corrections"]] == [
            (-100, "recount: 4,900")]
    recorder.store.close()


def test_the_cli_records_a_count_and_a_correction(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'log.db'}"
    from handlog.schema.store import open_store

    with open_store(url, upgrade=True) as store:
        recorder = Recorder(store)
        tournament = setup_demo(recorder, players=4, tables=1, seed=5)
        state = Tournaments(recorder).state(tournament)
        names = [e.name for e in state.entrants]
    runner = CliRunner()
    args = ["tournament", "count", tournament, "1", "--end-of-day", "--db", url]
    for name in names:
        args += ["--stack", f"{name}={5200 if name == names[1] else 5000}"]
    counted = runner.invoke(cli, args)
    assert counted.exit_code == 0, counted.output
    assert f"{names[1]}: counted 5200, the log says 5000" in counted.output
    wrong = runner.invoke(cli, ["tournament", "count", tournament, "1", "--stack", "Nobody=1",
                                "--db", url])
    assert wrong.exit_code != 0 and "no single entrant" in wrong.output
    fixed = runner.invoke(cli, ["tournament", "correct-stack", tournament, names[1],
                                "--reason", "counted twice", "--db", url])
    assert fixed.exit_code == 0, fixed.output
    assert "+200" in fixed.output
    replayed = runner.invoke(cli, ["replay", "--db", url, "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.output)["findings"] == []
