"""The list of command groups the CLI root attaches."""

from __future__ import annotations

import click


def all_groups() -> list[click.Command]:
    from recorder.cli_db import db
    from recorder.cli_export import export, report
    from recorder.cli_hands import hand, hands, whatif
    from recorder.cli_import import import_
    from recorder.cli_log import log
    from recorder.cli_phh import phh
    from recorder.cli_replay import replay
    from recorder.cli_rules import rules
    from recorder.cli_serve import serve
    from recorder.cli_table import floor, table
    from recorder.cli_tournament import demo, tournament

    return [rules, db, log, phh, tournament, demo, replay, serve, table, report, export, import_,
            hands, hand, floor, whatif]
