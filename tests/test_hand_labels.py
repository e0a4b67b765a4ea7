"""Every hand has its own name (issue 26): a misdealt hand and its redeal share a number, not a
name. `handlog hands` lists the misdealt one as STREAM#N-misdealt, `handlog hand show` opens
either, and the API's hand list and hand read use the same labels."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from test_export_hands import build_log

from handlog.recorder.cli import cli
from handlog.replay.hands import table_hands
from handlog.schema.store import open_store


@pytest.fixture(scope="module")
def misdealt(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, int]:
    """(database url, table stream, number) of a hand misdealt and dealt again."""
    log = build_log(tmp_path_factory.mktemp("labels"))
    with open_store(log.url) as store:
        for head in store.streams():
            if head.kind != "table":
                continue
            hands = table_hands(head.stream_id, store.read(head.stream_id))
            for first, second in zip(hands, hands[1:], strict=False):
                if first.outcome == "misdealt" and second.number == first.number:
                    return log.url, head.stream_id, first.number
    raise AssertionError("the log has a misdeal and its redeal")


def test_handlog_hands_names_the_misdealt_hand_and_its_redeal_apart(
        misdealt: tuple[str, str, int]) -> None:
    url, stream, number = misdealt
    listed = CliRunner().invoke(cli, ["hands", "--db", url, "--table", stream, "--hand",
                                      str(number)])
    assert listed.exit_code == 0, listed.output
    rows = [line.split()[0] for line in listed.output.splitlines() if line.startswith(stream)]
    assert rows == [f"{stream}#{number}-misdealt", f"{stream}#{number}"]


def test_hand_show_opens_the_misdealt_hand_by_its_name(misdealt: tuple[str, str, int]) -> None:
    url, stream, number = misdealt
    runner = CliRunner()
    bad = runner.invoke(cli, ["hand", "show", f"{stream}#{number}-misdealt", "--db", url])
    assert bad.exit_code == 0, bad.output
    assert bad.output.splitlines()[0].endswith("misdealt)")
    assert f"hand #{number}-misdealt " in bad.output.splitlines()[0]
    redeal = runner.invoke(cli, ["hand", "show", f"{stream}#{number}", "--db", url])
    assert redeal.exit_code == 0, redeal.output
    assert f"hand #{number} " in redeal.output.splitlines()[0]
    assert "misdealt)" not in redeal.output.splitlines()[0]
    missing = runner.invoke(cli, ["hand", "show", f"{stream}#{number}-void", "--db", url])
    assert missing.exit_code == 1 and f"has no hand #{number}-void" in missing.output


def test_the_api_reads_each_hand_by_its_label(misdealt: tuple[str, str, int],
                                              tmp_path: Path) -> None:
    from web_support import Client, make_app

    from handlog.recorder.service import Recorder

    url, stream, number = misdealt
    with open_store(url) as store:
        app, auth = make_app(Recorder(store))
        with Client(app, auth) as director:
            assert director.login("director").status_code == 200
            listed = director.http.get(f"/api/tables/{stream}/hands").json()["hands"]
            labels = [h["label"] for h in listed if h["hand"] == number]
            assert labels == [f"{number}-misdealt", str(number)]
            one = director.http.get(f"/api/tables/{stream}/hands/{number}-misdealt")
            assert one.status_code == 200 and one.json()["outcome"] == "misdealt"
            other = director.http.get(f"/api/tables/{stream}/hands/{number}")
            assert other.status_code == 200 and other.json()["outcome"] != "misdealt"
            assert director.http.get(f"/api/tables/{stream}/hands/{number}-x").status_code in (
                400, 422)
