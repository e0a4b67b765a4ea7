"""The `handlog` command line: the one front door for set-up, serving, replay and formats.

The commands are click's (recorder/cli_root.py, whose groups load lazily). One form skips
click, which costs more than the engine's start-up: `handlog phh verify PATH... [--json]`,
whose paths exist, runs straight through recorder/phh_run.py, printing what the command prints
(issue 28: start-up is most of a bar-sized run). Anything else, `--help` and every error
included, goes to click. `cli` is the click group (imported from here on first use).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import click


def main() -> None:
    args = sys.argv[1:]
    if len(args) > 2 and args[0] == "phh" and args[1] == "verify":
        from handlog.recorder.phh_run import plain_verify

        try:
            status = plain_verify(args)
        except KeyboardInterrupt:  # as click answers one
            print("\nAborted!", file=sys.stderr)
            sys.exit(1)
        if status is not None:
            sys.exit(status)
    from handlog.recorder.cli_root import cli

    cli(prog_name="handlog")


def __getattr__(name: str) -> click.Group:
    if name == "cli":
        from handlog.recorder.cli_root import cli

        return cli
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    main()
