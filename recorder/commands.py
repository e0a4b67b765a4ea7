"""The command groups the CLI root loads lazily: name -> ("module:attribute", short help).

The short help is what `handlog --help` lists without importing the group's module; it is
the first sentence of the command's own docstring (tests/test_cli_root.py keeps them equal).
"""

from __future__ import annotations

import importlib

import click

LAZY_COMMANDS: dict[str, tuple[str, str]] = {
    "archive": ("handlog.recorder.cli_archive:archive",
                "Write one zip of the event for the record (the log with its hashes, "
                "checkpoints, cosignatures, keys, sign-off, report and how to verify it), or "
                "check one offline."),
    "db": ("handlog.recorder.cli_db:db",
           "Create, migrate and inspect the database that holds the log."),
    "demo": ("handlog.recorder.cli_tournament:demo",
             "Play a simulated tournament from registration to a winner through the recorder: "
             "table breaks down to the final table, a penalty, bounties and the high hand where "
             "the structure has them, and optionally a deal."),
    "import": ("handlog.recorder.cli_import:import_",
               "Read NLHE hand histories and replay each hand strictly through the engine."),
    "export": ("handlog.recorder.cli_export:export",
               "Export the recorded hands as standard hand histories."),
    "log": ("handlog.recorder.cli_log:log",
            "Verify and export the raw event log (append-only, hash-chained, one Merkle log "
            "over every stream) and its signed checkpoints."),
    "phh": ("handlog.recorder.cli_phh:phh", "Read and check PHH (Poker Hand History) files."),
    "recovery-code": ("handlog.recorder.cli_serve:recovery_code",
                      "A one-time code the director signs in with in place of the PIN, past "
                      "every limit on wrong PINs."),
    "print": ("handlog.recorder.cli_print:print_",
              "Print the room's paper to a PDF: seat cards, payout receipts, chip-count "
              "vouchers or the day's bag sheet."),
    "replay": ("handlog.recorder.cli_replay:replay",
               "Replay every stream through the engine and check every event."),
    "report": ("handlog.recorder.cli_export:report",
               "The auditor's report, built by replaying the log through the engine."),
    "rules": ("handlog.recorder.cli_rules:rules",
              "List the house-rule profiles and show what each one sets, and why."),
    "serve": ("handlog.recorder.cli_serve:serve",
              "Serve the tablet, floor and viewer pages and the JSON API (Ctrl+C stops)."),
    "table": ("handlog.recorder.cli_table:table",
              "Look at a table, now or at any earlier moment (for disputes)."),
    "tournament": ("handlog.recorder.cli_tournament:tournament", "Create and run tournaments."),
    "hands": ("handlog.recorder.cli_hands:hands",
              "Find hands by player, table, level, number, time, all-ins, showdowns, rulings and"
              " corrections."),
    "hand": ("handlog.recorder.cli_hands:hand", "One hand, whole."),
    "floor": ("handlog.recorder.cli_table:floor",
              "The whole room: every tournament and table, now or as it stood at a time."),
    "witness": ("handlog.recorder.cli_witness:witness",
                "Witness a room's log: cosign each checkpoint that extends the last one "
                "cosigned."),
    "whatif": ("handlog.recorder.cli_hands:whatif",
               "What would have followed another ruling at STREAM: stacks, eliminations, places"
               " and prizes beside what was recorded."),
}


def all_groups() -> list[click.Command]:
    """Every command group, imported (for tools that want them all)."""
    commands = []
    for target, _help in LAZY_COMMANDS.values():
        module_name, attribute = target.split(":")
        command = getattr(importlib.import_module(module_name), attribute)
        assert isinstance(command, click.Command), target
        commands.append(command)
    return commands
