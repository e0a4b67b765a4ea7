"""The front door: `handlog --help`, `--version`, usage errors, and the README's commands."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from handlog.recorder import __version__
from handlog.recorder.cli import cli

ROOT = Path(__file__).resolve().parent.parent
GROUPS = ("db", "demo", "log", "phh", "replay", "rules", "serve", "table", "tournament")


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = re.search(r"```\n(.*?)```", text, re.S)
    assert block is not None
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_help_lists_every_command_group() -> None:
    """`handlog --help` lists the command groups."""
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for group in GROUPS:
        assert re.search(rf"^\s+{group}\s", result.output, re.M), group


def test_version_prints_the_version() -> None:
    """`handlog --version` prints the version."""
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0 and __version__ in result.output


def test_unknown_command_and_bad_option_exit_2_with_usage() -> None:
    """Unknown commands and bad options exit 2 with click's usage message."""
    runner = CliRunner()
    unknown = runner.invoke(cli, ["frobnicate"])
    assert unknown.exit_code == 2 and "Usage:" in unknown.output
    bad = runner.invoke(cli, ["replay", "--no-such-option"])
    assert bad.exit_code == 2 and "No such option" in bad.output


def test_console_script_runs_as_a_subprocess() -> None:
    """The installed entry point answers like the click runner does."""
    result = subprocess.run([sys.executable, "-m", "handlog.recorder.cli", "--version"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0 and __version__ in result.stdout


def test_readme_opens_with_exactly_two_commands_and_ci_runs_the_second() -> None:
    """The README's first block is the two commands; .ci/run runs the test command verbatim."""
    commands = readme_commands()
    assert len(commands) == 2
    assert commands[0].endswith("handlog serve")
    assert "pytest" in commands[1] and "mypy" in commands[1] and "ruff" in commands[1]
    assert commands[1] in (ROOT / ".ci" / "run").read_text().splitlines()


def test_lazy_help_is_each_command_s_own_short_help() -> None:
    """The help `handlog --help` lists without importing a group is that group's own."""
    from handlog.recorder.commands import LAZY_COMMANDS, all_groups

    for (name, (_target, text)), command in zip(LAZY_COMMANDS.items(), all_groups(),
                                                strict=True):
        assert command.name == name
        assert command.get_short_help_str(limit=1000) == text, name


def test_help_and_version_import_no_database_or_server_code() -> None:
    """`handlog --help` and `--version` load no subcommand: no SQLAlchemy, uvicorn, engine."""
    probe = ("import sys\nfrom handlog.recorder.cli import cli\n"
             "for args in (['--help'], ['--version']):\n"
             "    try:\n        cli(args, prog_name='handlog')\n"
             "    except SystemExit:\n        pass\n"
             "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
             "('sqlalchemy', 'sqlmodel', 'uvicorn', 'fastapi') or m.split('.')[:2] in "
             "(['handlog', 'engine'], ['handlog', 'schema'], ['handlog', 'replay']) "
             "and m != 'handlog.engine')\n"  # the bare package holds only the release number
             "print('HEAVY', heavy)\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=False, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert "HEAVY []" in result.stdout, result.stdout


def test_version_answers_at_once_as_a_process() -> None:
    """A smoke bound only (the figure is benchmarks/cli_startup.py's): well under a second."""
    import time

    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "handlog.recorder.cli", "--version"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0
    assert time.perf_counter() - started < 1.5
