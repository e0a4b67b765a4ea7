"""`handlog tournament register|draw|level|break|...`: the CLI does what the floor does (issue
24), through the floor's own write path (`Tournaments.execute`). An Octobermuck event is
scripted from the command line alone while the hands are recorded as the tablets record them:
registration with the high-hand fee (one paid later), the draw, levels, breaks, color-ups, a
table break, balancing, a ruling, the deal with every amount shown first, the jackpot awarded
to players named; `handlog replay` exits 0 and nothing is unaccounted."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from handlog.recorder.cli import cli
from handlog.recorder.demo import DemoSummary, _Demo, _play_hand, _settle_bounties
from handlog.recorder.service import Recorder
from handlog.recorder.tournament_service import Tournaments
from handlog.schema.store import open_store

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
T = "oct"


def handlog(url: str, *args: str, ok: bool = True) -> Result:
    result = CliRunner().invoke(cli, [*args, "--db", url])
    if ok:
        assert result.exit_code == 0, (args, result.output)
    return result


def tournament(url: str, *args: str, ok: bool = True) -> Result:
    return handlog(url, "tournament", *args, ok=ok)


def state(url: str) -> object:
    with open_store(url) as store:
        return Tournaments(Recorder(store)).state(T)


def test_an_octobermuck_event_scripted_from_the_cli_alone(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'log.db'}"
    tournament(url, "create", str(EXAMPLES / "octobermuck.toml"), "--id", T)
    for k in range(23):
        args = ["register", T, f"Player {k + 1:02d}"]
        out = tournament(url, *args, *(["--high-hand"] if k % 2 == 0 else [])).output
        assert f"registered Player {k + 1:02d}" in out
        assert ("high-hand fee paid" in out) == (k % 2 == 0)
    # A fee paid after the entry: the pool follows; the same again is refused by name.
    out = tournament(url, "high-hand-fee", T, "Player 02").output
    assert "13 paid" in out and "pool USD 65.00" in out
    again = tournament(url, "high-hand-fee", T, "Player 02", ok=False)
    assert again.exit_code == 1 and "already recorded as paid" in again.output
    assert "seats drawn: 23 players at table(s) 1, 2, 3" in tournament(url, "draw", T,
                                                                        "--seed", "3").output
    assert "level 1: 5/10" in tournament(url, "level", T).output
    refused = tournament(url, "deal", T, "--preview", ok=False)
    assert refused.exit_code == 1 and "final table" in refused.output
    late = tournament(url, "register", T, "Late Lou", "--high-hand").output
    assert "(late)" in late and "table" in late
    tournament(url, "ruling", T, "TDA 45", "a verbal raise is binding", "--table", "1")
    bad_table = tournament(url, "ruling", T, "TDA 45", "x", "--table", "9", ok=False)
    assert "--table '9'" in bad_table.output
    assert "the break is on" in tournament(url, "break", T, "--minutes", "10").output
    assert "the break is over" in tournament(url, "break", T, "--end").output
    tournament(url, "clock", T, "pause")
    tournament(url, "clock", T, "resume")

    with open_store(url) as store:
        demo = _Demo(Recorder(store), T, 5)
        summary = DemoSummary(T, 24, 3)
        t = demo.tournaments
        hands = 0
        steps: list[str] = []
        while not t.state(T).finished and hands < 3000:
            # The CLI records through its own store: read the log afresh each round.
            demo.recorder = Recorder(store)
            demo.tournaments = t = Tournaments(demo.recorder)
            s = t.state(T)
            if len(s.remaining) <= 3 and s.deal is None and len(s.tables) == 1:
                preview = tournament(url, "deal", T, "--preview", "--kept", "50").output
                assert "kept USD 50.00" in preview
                for method in ("icm", "chip_chop", "chip_chop_last_guaranteed"):
                    line = next(x for x in preview.splitlines() if x.startswith(f"{method}:"))
                    assert all(e.name in line for e in s.remaining), line
                consents = [a for e in s.remaining for a in ("--consent", e.name)]
                short = tournament(url, "deal", T, "--method", "chip-chop", *consents[:-2],
                                   ok=False)
                assert "no consent from" in short.output
                out = tournament(url, "deal", T, "--method", "chip-chop", "--kept", "50",
                                 *consents).output
                assert "deal (chip_chop) recorded" in out
                steps.append("deal")
            for table in [x for x in s.tables if len(s.seated_at(x)) >= 2]:
                if t.state(T).finished:
                    break
                _play_hand(demo, table, summary)
                _settle_bounties(demo)
                hands += 1
            s = t.state(T)
            if s.finished:
                break
            if t.break_plan(T) is not None:
                assert "broken" in tournament(url, "break-table", T, "--seed", "1").output
                steps.append("break-table")
                continue
            balanced = tournament(url, "balance", T, ok=False)
            if balanced.exit_code == 0:
                steps.append("balance")
            else:
                assert "no move is due" in balanced.output
            if hands % 6 == 0:
                for _ in range(4):  # whatever the schedule wants before the next level
                    s = t.state(T)
                    if s.on_break:
                        tournament(url, "break", T, "--end")
                        continue
                    level = tournament(url, "level", T, ok=False)
                    if level.exit_code == 0:
                        steps.append("level")
                        break
                    if "color-up" in level.output:
                        assert "colored up" in tournament(url, "color-up", T).output
                        steps.append("color-up")
                    elif "break" in level.output:
                        tournament(url, "break", T)
                        steps.append("break")
                    elif "antes" in level.output:
                        tournament(url, "antes", T)
                    elif "goes on" in level.output:  # the last level plays on
                        break
                    else:
                        raise AssertionError(level.output)
        assert t.state(T).finished, hands
    final = state(url)
    paid = [e.name for e in final.entrants if e.high_hand]  # type: ignore[attr-defined]
    assert len(paid) == 14
    # The jackpot to the players the director names (or the proposal): pool 14 x $5.
    if final.high_hands:  # type: ignore[attr-defined]
        award = tournament(url, "award-high-hand", T).output
    else:
        award = tournament(url, "award-high-hand", T, "--player", paid[0]).output
    assert "jackpot USD 70.00" in award
    assert {"break-table", "level", "color-up", "deal"} <= set(steps), steps
    status = tournament(url, "status", T).output
    assert "unaccounted USD 0.00" in status and "winner:" in status
    replayed = handlog(url, "replay", "--json")
    assert json.loads(replayed.output)["findings"] == []


def test_a_cli_refusal_names_the_field_or_the_rule(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'log.db'}"
    tournament(url, "create", str(EXAMPLES / "octobermuck.toml"), "--id", T)
    tournament(url, "register", T, "Ada")
    nobody = tournament(url, "move", T, "Nobody", "2", ok=False)
    assert nobody.exit_code == 1 and "no single entrant 'Nobody'" in nobody.output
    kept = tournament(url, "deal", T, "--kept", "1.234", ok=False)
    assert kept.exit_code == 1 and "--kept '1.234'" in kept.output
    early = tournament(url, "award-high-hand", T, ok=False)
    assert early.exit_code == 1 and "no flush or better" in early.output
    assert "Traceback" not in nobody.output + kept.output + early.output


def test_demo_deal_chip_chop_under_a_room_profile_allowing_deals_records_the_deal(
        tmp_path: Path) -> None:
    """A room profile on the TDA with `deals_allowed = true`: `handlog demo --deal chip-chop`
    records the deal and the log replays clean; under the TDA itself the deal is refused,
    naming the rule."""
    room = tmp_path / "room.toml"
    text = (EXAMPLES / "tda-demo.toml").read_text(encoding="utf-8")
    assert '\nprofile = "tda"\n' in text
    room.write_text(text.replace('\nprofile = "tda"\n', '\nprofile = { name = "Club Room", '
                                 'base = "tda", set = { deals_allowed = true } }\n'),
                    encoding="utf-8")
    url = f"sqlite:///{tmp_path / 'log.db'}"
    out = handlog(url, "demo", "--structure", str(room), "--deal", "chip-chop",
                  "--players", "12", "--tables", "2").output
    assert "deal chip_chop" in out and "winner:" in out
    with open_store(url) as store:
        (name,) = Tournaments(Recorder(store)).tournaments()
        deal = Tournaments(Recorder(store)).state(name).deal
    assert deal is not None and deal.method == "chip_chop"
    assert json.loads(handlog(url, "replay", "--json").output)["findings"] == []
    refused = handlog(url, "demo", "--deal", "chip-chop", "--players", "6", "--tables", "1",
                      ok=False)
    assert refused.exit_code == 1
    assert "deals_allowed is false" in refused.output and "TDA 2024" in refused.output
