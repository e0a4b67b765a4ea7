"""`handlog log`: verify the raw log (hash chains, the Merkle log, signed checkpoints), export it
as JSON lines, sign checkpoints, print the room's public key, prove one event's inclusion."""

from __future__ import annotations

import json
import sys
import uuid
from pathlib import Path

import click

from handlog.recorder.cli_db import db_option, user_errors
from handlog.recorder.signing import signing_key, signing_key_option, signing_key_path
from handlog.schema.checkpoint import (
    CheckpointError,
    VerifierKey,
    latest_checkpoint,
    load_signing_key,
    parse_verifier,
    record_checkpoint,
)
from handlog.schema.cosignature import WitnessKey, parse_witness_key
from handlog.schema.export import export_source, export_store
from handlog.schema.logcheck import (
    GivenCheckpoint,
    LogCheck,
    check_log,
    check_store,
    hold_to_sign_off,
)
from handlog.schema.proof import (
    ProvenExtension,
    check_proof,
    consistency_path,
    make_consistency_proof,
    make_proof,
)
from handlog.schema.sign_off import parse_sign_off, result_rows, results_of
from handlog.schema.store import open_store


@click.group("log")
def log() -> None:
    """Verify and export the raw event log (append-only, hash-chained, one Merkle log over
    every stream) and its signed checkpoints."""


def _read_text(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise click.UsageError(f"cannot read the {what} {path}: {exc}") from None


def _given(path: Path) -> list[GivenCheckpoint]:
    """A checkpoint file, or a witness's evidence of a refusal (the checkpoint it held and
    the one it refused, both signed by the room: given both, they are checked as any two)."""
    text = _read_text(path, "checkpoint")
    if not text.lstrip().startswith("{"):
        return [GivenCheckpoint(str(path), text)]
    from handlog.recorder.witness import parse_request

    try:
        evidence = json.loads(text)
        held, refused = evidence["cosigned"], evidence["refused_request"]
        _old, _proof, note = parse_request(refused)
        if not isinstance(held, str):
            raise ValueError("cosigned is not a checkpoint")
    except (ValueError, KeyError, TypeError, RecursionError) as exc:
        raise click.UsageError(f"{path} is neither a checkpoint nor a witness's evidence "
                               f"file: {exc}") from None
    return [GivenCheckpoint(f"{path}: cosigned by the witness", held),
            GivenCheckpoint(f"{path}: refused by the witness", note)]


def _witness_key(path: Path) -> WitnessKey:
    try:
        return parse_witness_key(_read_text(path, "witness key"))
    except CheckpointError as exc:
        raise click.UsageError(f"{path}: {exc}") from None


def _verifier(path: Path | None) -> VerifierKey | None:
    if path is None:
        return None
    try:
        return parse_verifier(_read_text(path, "public key"))
    except CheckpointError as exc:
        raise click.UsageError(f"{path}: {exc}") from None


@log.command("verify")
@db_option
@click.argument("file", required=False,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--checkpoint", "checkpoint_files", multiple=True, metavar="FILE",
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A signed checkpoint the log must extend (repeatable).")
@click.option("--key", "key_file", metavar="PUBLIC_KEY_FILE",
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The room's public key (`handlog log key`): every checkpoint's signature "
              "must verify with it.")
@click.option("--witness-key", "witness_files", multiple=True, metavar="WITNESS_KEY_FILE",
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A witness's public key (`handlog witness key`); its cosignatures on the "
              "checkpoints are checked and shown (repeatable).")
@click.option("--min-witnesses", default=0, type=click.IntRange(min=0), metavar="N",
              help="Accept the log only as far as a checkpoint cosigned by N of the witnesses "
              "given.")
@click.option("--sign-off", "sign_off_file", metavar="FILE",
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The director's sign-off of a tournament's results (`handlog tournament "
              "sign-off`): the results must be unchanged since.")
@click.option("--director-key", "director_file", metavar="PUBLIC_KEY_FILE",
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The director's public key: the sign-off's signature must verify with it.")
def verify(db_url: str | None, file: Path | None, checkpoint_files: tuple[Path, ...],
           key_file: Path | None, witness_files: tuple[Path, ...], min_witnesses: int,
           sign_off_file: Path | None, director_file: Path | None) -> None:
    """Recompute every hash chain and every leaf of the Merkle log from the events, in the
    database or in an export FILE.jsonl (offline), and prove the log extends each --checkpoint.

    Lists every break found (its kind, stream, version, event and hand) and prints the tree
    size and root. Exit status: 0 clean (no break, and every event is covered by a checkpoint
    whose signature verifies with --key); 1 a break or a damaged file; 2 a usage error; 3 no
    break but nothing authenticated (no --key given, or no checkpoint signed by it); 4 no break
    and authenticated, but events after the last signed checkpoint (an unsigned tail).
    """
    if file is not None and db_url is not None:
        raise click.UsageError("give either --db URL or an export FILE, not both")
    key = _verifier(key_file)
    witnesses = [_witness_key(path) for path in witness_files]
    if min_witnesses > len({w.text() for w in witnesses}):
        raise click.UsageError(f"--min-witnesses {min_witnesses} needs at least that many "
                               "--witness-key files")
    given = [checkpoint for path in checkpoint_files for checkpoint in _given(path)]
    sign_off = None
    if sign_off_file is not None:
        try:
            sign_off = parse_sign_off(_read_text(sign_off_file, "sign-off"),
                                      _verifier(director_file))
        except CheckpointError as exc:
            raise click.UsageError(f"{sign_off_file}: {exc}") from None
    with user_errors():
        if file is not None:
            report = check_log(export_source(file), given, key, witnesses, min_witnesses)
            rows: list[tuple[str, int, str, str]] = [
                (e[1], e[2], e[4], e[11]) for e in export_source(file, reread=False).events
            ] if sign_off is not None else []
        else:
            with open_store(db_url) as store:
                report = check_store(store, given, key, witnesses, min_witnesses)
                rows = result_rows(store, sign_off.tournament) if sign_off is not None else []
    if sign_off is not None:
        hold_to_sign_off(report, sign_off, results_of(rows, sign_off.tournament))
    _print(report)
    if report.status:
        raise click.exceptions.Exit(report.status)


def _print(report: LogCheck) -> None:
    for line in report.lines():
        click.echo(line)


@log.command("export")
@click.option(
    "--out",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The JSON-lines file to write (replaced if it exists).",
)
@db_option
def export(out: Path, db_url: str | None) -> None:
    """Write the whole log, hashes and signed checkpoints included, as JSON lines that
    `handlog log verify FILE --checkpoint ...` checks offline."""
    with user_errors():
        with open_store(db_url) as store:
            try:
                events, streams = export_store(store, out)
            except OSError as exc:
                raise click.ClickException(f"cannot write {out}: {exc.strerror}") from None
    click.echo(f"exported {events} events in {streams} streams to {out}")


@log.command("key")
@signing_key_option
def key(signing_key_file: Path | None) -> None:
    """Print the room's public key (the verifier key auditors check checkpoints with)."""
    path = signing_key_path(signing_key_file)
    with user_errors():
        click.echo(signing_key(path).verifier.text())


@log.command("checkpoint")
@db_option
@signing_key_option
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the checkpoint to this file (default: standard output).")
def checkpoint(db_url: str | None, signing_key_file: Path | None, out: Path | None) -> None:
    """Sign the log's current size and root now and print the checkpoint (C2SP format)."""
    path = signing_key_path(signing_key_file)
    with user_errors():
        signer = signing_key(path)
        with open_store(db_url) as store:
            taken = record_checkpoint(store, signer, "on_demand")
    text = taken.checkpoint.text
    if out is None:
        click.echo(text, nl=False)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"cannot write {out}: {exc.strerror}") from None
    click.echo(f"checkpoint {taken.number}: {taken.checkpoint.size} events, root "
               f"{taken.checkpoint.root_hex}, written to {out}")


@log.command("prove")
@db_option
@signing_key_option
@click.option("--event", "event_id", default=None, metavar="EVENT_ID",
              help="Prove this event's inclusion (its id, a UUID, as `handlog log export` "
              "writes it).")
@click.option("--checkpoint", "first", default=None, metavar="FILE",
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Prove instead that the log, signed now, extends this earlier checkpoint.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the proof to this file (default: standard output).")
def prove(db_url: str | None, signing_key_file: Path | None, event_id: str | None,
          first: Path | None, out: Path | None) -> None:
    """Write an inclusion proof of one event against the latest signed checkpoint (one is
    signed first when none covers it yet), or with --checkpoint a consistency proof from that
    checkpoint to one signed now. `handlog log verify-proof` checks either offline."""
    if (event_id is None) == (first is None):
        raise click.UsageError("give --event EVENT_ID or --checkpoint FILE (one of them)")
    path = signing_key_path(signing_key_file)
    with user_errors():
        if event_id is not None:
            try:
                wanted = uuid.UUID(event_id)
            except ValueError:
                raise click.UsageError(f"--event {event_id!r} is not an event id (a UUID)") \
                    from None
            signer = load_signing_key(path) if path.exists() else None
            with open_store(db_url) as store:
                text = make_proof(store, wanted, signer)
            what = f"inclusion proof of event {wanted}"
        else:
            assert first is not None
            signer = load_signing_key(path)
            with open_store(db_url) as store:
                text = make_consistency_proof(store, _read_text(first, "checkpoint"), signer)
            what = f"consistency proof from {first}"
    if out is None:
        sys.stdout.write(text)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"cannot write {out}: {exc.strerror}") from None
    click.echo(f"{what} written to {out}")


@log.command("verify-proof")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--key", "key_file", required=True, metavar="PUBLIC_KEY_FILE",
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The room's public key (`handlog log key`).")
def verify_proof(file: Path, key_file: Path) -> None:
    """Check a proof offline. An inclusion proof: the event's hash, its leaf, the audit path to
    the checkpoint's root and the checkpoint's signature. A consistency proof: both
    checkpoints' signatures and the RFC 9162 proof between them. Exits 0 when it holds, 1 when
    not."""
    verifier = _verifier(key_file)
    assert verifier is not None
    with user_errors():
        proven = check_proof(_read_text(file, "proof"), verifier)
    if isinstance(proven, ProvenExtension):
        click.echo(f"ok: the log of {proven.second_size} events signed by {proven.origin} "
                   f"extends the one of {proven.first_size} events")
        return
    click.echo(f"ok: event {proven.event_id} (stream {proven.stream_id!r} version "
               f"{proven.version}) is leaf {proven.leaf_index} of the log of {proven.tree_size} "
               f"events signed by {proven.origin}")


@log.command("witness-request")
@db_option
@click.option("--old", "old_size", default=0, type=click.IntRange(min=0), metavar="SIZE",
              help="The size of the last checkpoint the witness cosigned (0: none yet).")
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The request file to hand to `handlog witness cosign`.")
def witness_request(db_url: str | None, old_size: int, out: Path) -> None:
    """Write an add-checkpoint request for an offline witness: the latest signed checkpoint
    with the consistency proof from size --old (C2SP tlog-witness)."""
    from handlog.recorder.witness import make_request

    with user_errors():
        with open_store(db_url) as store:
            latest = latest_checkpoint(store)
            if latest is None:
                raise click.ClickException("no checkpoint was signed yet: `handlog log "
                                           "checkpoint` signs one")
            if old_size > latest.checkpoint.size:
                raise click.UsageError(f"--old {old_size} is larger than the latest "
                                       f"checkpoint ({latest.checkpoint.size} events)")
            proof = consistency_path(store, old_size, latest.checkpoint.size)
    try:
        out.write_bytes(make_request(old_size, proof, latest.checkpoint.text))
    except OSError as exc:
        raise click.ClickException(f"cannot write {out}: {exc.strerror}") from None
    click.echo(f"request for checkpoint {latest.number} ({latest.checkpoint.size} events, "
               f"proof from size {old_size}: {len(proof)} hashes) written to {out}")
