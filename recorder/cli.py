"""The `handlog` command line: the one front door for set-up, serving, replay and formats."""

from __future__ import annotations

import click

from recorder import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="handlog")
def cli() -> None:
    """handlog: record and replay live No-Limit Hold'em tournament hands."""


def _register() -> None:
    # Each command group lives in its own module; they are attached here so that
    # `handlog --help` lists them all.
    from recorder.commands import all_groups

    for command in all_groups():
        cli.add_command(command)


_register()


def main() -> None:
    cli(prog_name="handlog")


if __name__ == "__main__":
    main()
