"""The `handlog` command line's root group (recorder/cli.py is the entry point).

The command groups are loaded lazily (click's "lazy loading" pattern, docs/complex.md): a
group's module, and with it SQLAlchemy, uvicorn or the engine, is imported only when that group
runs, so `handlog --help` and `--version` answer at once. Their one-line help is listed in
recorder/commands.py (tests/test_cli_root.py checks it against each command's own).
"""

from __future__ import annotations

import importlib

import click

from handlog.recorder import __version__
from handlog.recorder.commands import LAZY_COMMANDS


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use; `--help` lists them from their
    short help in LAZY_COMMANDS without importing any."""

    def __init__(self, *args: object, lazy_commands: dict[str, tuple[str, str]],
                 **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy_commands = lazy_commands

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_commands and cmd_name not in self.commands:
            target, _help = self.lazy_commands[cmd_name]
            module_name, attribute = target.split(":")
            command = getattr(importlib.import_module(module_name), attribute)
            if not isinstance(command, click.Command):
                raise TypeError(f"{target} is not a click command")
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, self.lazy_commands[name][1]) for name in self.list_commands(ctx)
                if name in self.lazy_commands]
        if rows:
            limit = formatter.width - 6 - max(len(name) for name, _ in rows)
            with formatter.section("Commands"):
                formatter.write_dl([(name, _shortened(text, limit)) for name, text in rows])


def _shortened(text: str, limit: int) -> str:
    # Like click's own short help: cut at a word, with an ellipsis.
    if len(text) <= limit:
        return text
    cut = text[: limit - 3].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "..."


@click.group(cls=LazyGroup, lazy_commands=LAZY_COMMANDS,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="handlog")
def cli() -> None:
    """handlog: record and replay live No-Limit Hold'em tournament hands."""

