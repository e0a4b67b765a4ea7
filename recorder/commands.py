"""The list of command groups the CLI root attaches."""

from __future__ import annotations

import click


def all_groups() -> list[click.Command]:
    from recorder.cli_rules import rules

    return [rules]
