"""The director's message to the room (issue 25 item 5): a fact on the tournament's stream
that every clock screen of the tournament shows, posted from the CLI or the floor page."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from test_tournament import example, started

from handlog.engine.clock import MESSAGE_LIMIT, post_message
from handlog.engine.errors import RuleViolation
from handlog.engine.tournament_events import MessagePosted
from handlog.recorder.cli import cli
from handlog.recorder.floor import setup_demo
from handlog.recorder.service import Recorder
from handlog.recorder.tournament_service import Tournaments
from handlog.schema.store import open_store


def test_a_message_is_posted_replaced_and_taken_down() -> None:
    """The message as typed (spaces folded), then another, then none; the same message twice
    and one longer than a TV shows are refused."""
    log = started(example("tda-demo"), 4, tables=("A",))
    posted = post_message(log.state, "  Seats for the  Main Event\nat the cage ", "td")
    assert posted == MessagePosted("Seats for the Main Event at the cage", "td")
    log.add(posted)
    assert log.state.message == "Seats for the Main Event at the cage"
    with pytest.raises(RuleViolation, match="shows this message already"):
        post_message(log.state, "Seats for the Main Event at the cage", "td")
    with pytest.raises(RuleViolation, match=f"at most {MESSAGE_LIMIT}"):
        post_message(log.state, "x" * (MESSAGE_LIMIT + 1), "td")
    with pytest.raises(RuleViolation, match="no control characters"):
        post_message(log.state, "bell\x07", "td")
    log.add(post_message(log.state, "", "td"))
    assert log.state.message == ""
    with pytest.raises(RuleViolation, match="no message is posted"):
        post_message(log.state, "", "td")


def test_the_cli_posts_the_message_and_replay_is_clean(
        db_url: str) -> None:
    """`handlog tournament message T TEXT` records it; the tournament state (what /clock reads)
    has it; the log replays clean; on SQLite and PostgreSQL."""
    runner = CliRunner()
    assert runner.invoke(cli, ["db", "upgrade", "--db", db_url]).exit_code == 0
    with open_store(db_url) as store:
        tournament = setup_demo(Recorder(store), players=6, tables=1, seed=5)
    posted = runner.invoke(cli, ["tournament", "message", tournament,
                                 "Last hand before the break", "--db", db_url])
    assert posted.exit_code == 0, posted.output
    assert "clock screen message: Last hand before the break" in posted.output
    again = runner.invoke(cli, ["tournament", "message", tournament,
                                "Last hand before the break", "--db", db_url])
    assert again.exit_code != 0 and "shows this message already" in again.output
    assert "Traceback" not in again.output
    with open_store(db_url) as store:
        assert Tournaments(Recorder(store)).state(tournament).message == \
            "Last hand before the break"
    replayed = runner.invoke(cli, ["replay", "--db", db_url])
    assert replayed.exit_code == 0, replayed.output
