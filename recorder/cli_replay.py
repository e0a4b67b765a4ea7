"""`handlog replay`: fold the whole log through the engine and report every finding."""

from __future__ import annotations

import click

from handlog.engine.words import render_rule
from handlog.recorder.cli_db import db_option, echo_json, user_errors
from handlog.replay.fold import OTHER_RULES
from handlog.replay.verify import replay_log
from handlog.schema.logcheck import check_store
from handlog.schema.store import open_store


@click.command("replay")
@db_option
@click.option("--tournament", "tournament", metavar="ID", default=None,
              help="Only the streams of this tournament.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def replay(db_url: str | None, tournament: str | None, as_json: bool) -> None:
    """Replay every stream through the engine and check every event.

    Checks that each event was legal in its state; that pots, awards and odd chips are what the
    engine computes; that stacks carry over between hands and tables; that the tournament's
    chips stay constant except for recorded removals; that eliminations and places agree.
    Exits 0 when clean, else 1 with a list of findings. A hand cut off mid-way (a crash) is
    reported as in progress, not as an error. Breaks of the log itself (`handlog log verify`:
    a chain or Merkle leaf that does not hold, a stored checkpoint the log does not extend)
    are listed too and count as findings.
    """

    with user_errors():
        with open_store(db_url) as store:
            report = replay_log(store, tournament, keep_events=False)
            breaks = check_store(store).breaks
    clean = report.clean and not breaks
    if as_json:
        echo_json(report.as_dict() | {
            "clean": clean, "log_breaks": [b.as_dict() for b in breaks]})
    else:
        rate = f" ({report.hands / report.seconds:,.0f} hands/s)" if report.seconds else ""
        click.echo(f"replayed {report.events} events in {report.streams} streams, "
                   f"{report.hands} hands in {report.seconds:.2f} s{rate}")
        for stream, hand in report.in_progress:
            click.echo(f"in progress: {stream} hand {hand} (cut off; not an error)")
        for finding in report.findings:
            label = "RECORDED UNDER OTHER RULES" if finding.kind == OTHER_RULES else "FINDING"
            line = (f"{label} {finding.stream} v{finding.version} {finding.event_type}: "
                    f"{finding.message} [{render_rule(finding.rule)}]")
            if finding.expected or finding.recorded:
                line += f" expected {finding.expected} recorded {finding.recorded}"
            click.echo(line)
        for item in breaks:
            click.echo(str(item))
        other = sum(1 for f in report.findings if f.kind == OTHER_RULES)
        if clean:
            click.echo(f"clean ({other} hand(s) recorded under other rules)" if other else
                       "clean")
        else:
            click.echo(f"{len(report.findings) - other + len(breaks)} finding(s)")
    if not clean:
        raise click.exceptions.Exit(1)
