"""`handlog witness`: run a witness of a room's log (C2SP tlog-witness), online or offline."""

from __future__ import annotations

from pathlib import Path

import click

from handlog.recorder.cli_db import user_errors
from handlog.recorder.witness import Witness, cosigned, make_server, parse_request
from handlog.schema.checkpoint import CheckpointError, VerifierKey, check_name, parse_verifier
from handlog.schema.cosignature import create_witness_key, load_witness_key

KEY_FILE = "handlog.witness-key"
STATE_FILE = "handlog.witness-state.json"

key_option = click.option(
    "--key", "key_file", default=KEY_FILE, show_default=True, metavar="FILE",
    type=click.Path(dir_okay=False, path_type=Path), help="The witness's own private key.")
state_option = click.option(
    "--state", "state_file", default=STATE_FILE, show_default=True, metavar="FILE",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Per log, the last checkpoint this witness cosigned (refusals are kept beside it in "
    "FILE.evidence/).")
log_option = click.option(
    "--log", "log_keys", multiple=True, required=True, metavar="ROOM_PUBLIC_KEY_FILE",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A room's public key (`handlog log key`): the log this witness follows (repeatable).")


@click.group("witness")
def witness() -> None:
    """Witness a room's log: cosign each checkpoint that extends the last one cosigned."""


def _logs(paths: tuple[Path, ...]) -> dict[str, VerifierKey]:
    logs = {}
    for path in paths:
        try:
            key = parse_verifier(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, CheckpointError) as exc:
            raise click.UsageError(f"--log {path}: {exc}") from None
        logs[key.name] = key
    return logs


def _witness(key_file: Path, state_file: Path, log_keys: tuple[Path, ...]) -> Witness:
    logs = _logs(log_keys)
    with user_errors():
        return Witness(load_witness_key(key_file), logs, state_file)


@witness.command("init")
@click.option("--name", required=True,
              help="The witness's name, e.g. league.example/treasurer (no spaces or '+').")
@key_option
def init(name: str, key_file: Path) -> None:
    """Make the witness's key pair and print its public key (hand it to the auditors)."""
    with user_errors():
        check_name(name)
        key = create_witness_key(key_file, name)
    click.echo(key.verifier.text())


@witness.command("key")
@key_option
def key(key_file: Path) -> None:
    """Print the witness's public key."""
    with user_errors():
        click.echo(load_witness_key(key_file).verifier.text())


@witness.command("serve")
@key_option
@state_option
@log_option
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8011, show_default=True, type=int)
def serve(key_file: Path, state_file: Path, log_keys: tuple[Path, ...], host: str,
          port: int) -> None:
    """Answer POST /add-checkpoint (C2SP tlog-witness) until Ctrl+C."""
    server = make_server(_witness(key_file, state_file, log_keys), host, port)
    click.echo(f"witness listening on http://{host}:{server.server_address[1]}/add-checkpoint")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


@witness.command("cosign")
@key_option
@state_option
@log_option
@click.argument("request", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The checkpoint with this witness's cosignature added.")
def cosign(key_file: Path, state_file: Path, log_keys: tuple[Path, ...], request: Path,
           out: Path) -> None:
    """Offline: check REQUEST (`old N`, the proof, a blank line, the checkpoint, as `handlog
    log witness-request` writes it) and write the cosigned checkpoint. Exit 1 on a refusal."""
    body = request.read_bytes()
    answer = _witness(key_file, state_file, log_keys).add_checkpoint(body)
    if answer.status != 200:
        reason = {409: "conflict (not the size this witness cosigned last, or another root at "
                       "that size)", 422: "not an extension", 403: "not signed by the room",
                  404: "unknown log", 400: "malformed"}.get(answer.status, "refused")
        click.echo(f"REFUSED ({answer.status} {reason}): {answer.body.strip()}")
        raise click.exceptions.Exit(1)
    _old, _proof, note = parse_request(body.decode())
    out.write_text(cosigned(note, answer.body), encoding="utf-8")
    click.echo(f"cosigned: {out}")
