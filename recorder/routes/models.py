"""What the routes take and answer, as the OpenAPI document states it. An answer built by the
read models (a table's view, the floor) is encoded straight from them (FastJSON): these models
describe it for the document and for clients (`extra="allow"`: a view may carry more), they
are not what encodes it."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from handlog.engine.limits import TOURNAMENT_ID_PATTERN
from handlog.engine.tournament_commands import TournamentCommand
from handlog.recorder.auth import Role
from handlog.recorder.command_json import CommandIn
from handlog.recorder.structure import STRUCTURE_BYTES

# The floor's tournament commands: defined once in engine/tournament_commands.py (their limits
# ride on their fields), told apart by `type`.
TournamentCommandIn = Annotated[TournamentCommand, Field(discriminator="type")]



class CommandRequest(BaseModel):
    """A command from a tablet: its own event id (for safe retries) and the version it saw."""

    event_id: uuid.UUID = Field(description="made by the client; a retry reuses it")
    expected_version: int = Field(ge=0, description="the table's version the client last saw")
    command: CommandIn


class TournamentCommandRequest(BaseModel):
    """A director's tournament command (registration, seat draw, levels, moves...), with its
    own event id (for safe retries) and the tournament's version the floor saw."""

    event_id: uuid.UUID | None = Field(
        None, description="made by the client; a retry reuses it (none: a retry records again)")
    expected_version: int | None = Field(
        None, ge=0, description="the tournament stream's version the client last saw "
        "(`version` of the tournament in the floor view); none: record on the version now")
    command: TournamentCommandIn


class NewTournamentRequest(BaseModel):
    """A tournament from a structure file (the text of the TOML a director picked)."""

    id: str = Field(pattern=TOURNAMENT_ID_PATTERN, description="the tournament's id (letters, "
                    "digits, '.', '_', '-'): its streams are tournament-ID and table-ID-N")
    structure: str = Field(max_length=STRUCTURE_BYTES,
                           description="the structure file's TOML text")
    file: str = Field("structure.toml", max_length=200, description="its name, for errors")
    event_id: uuid.UUID | None = Field(None, description="a retry reuses it: created once")


class LoginRequest(BaseModel):
    role: Role
    pin: str = Field("", max_length=32)
    code: str = Field("", max_length=32, description="a one-time pairing code (dealers)")
    table: str | None = Field(None, max_length=200)
    name: str = Field("", max_length=80)
    device: str = Field("", max_length=80, description="the tablet's id (kept in localStorage)")


# --- answers --------------------------------------------------------------------------------


class _View(BaseModel):
    model_config = ConfigDict(extra="allow")


class SessionView(BaseModel):
    """A signed-in session as its holder sees it (`role` null: not signed in)."""

    role: Role | None
    table: str | None = None
    name: str = ""
    device: str = ""
    csrf: str = Field("", description="send it back in the CSRF header with every change")


class SignedOut(BaseModel):
    role: None


class SessionRow(BaseModel):
    id: str
    role: Role
    table: str | None
    name: str
    device: str
    client: str
    signed_in_at: str
    last_seen: str
    idle_seconds: int
    current: bool = Field(description="the caller's own session")


class SessionList(BaseModel):
    idle_minutes: int
    sessions: list[SessionRow]


class Revoked(BaseModel):
    revoked: str


class EventRow(BaseModel):
    """One entry of a table's log as the screens show it (recorder/views.py event_rows)."""

    version: int
    type: str
    text: str = Field(description="the entry in words, for the caller's role")
    rule: str
    actor: str
    device: str
    at: str
    voided: bool
    correction: bool


class CorrectionRow(EventRow):
    """A ruling or correction on the floor: the entry and the table it was made at."""

    stream: str
    table: str


class Problem(BaseModel):
    """A tournament the floor cannot show, and why."""

    tournament: str
    rule: str
    message: str


class TableCard(_View):
    """One table at a glance (the floor's card): players, stacks, the hand in progress; a
    table that cannot be read has `open: false` and its `problem`."""

    stream: str
    version: int
    open: bool


class TableView(_View):
    """The table for the caller's role: seats, stacks, pots, board, who is to act and the
    legal actions with amounts, showdown order and proposed awards, the last events."""

    stream: str
    version: int
    role: Role | None = None
    open: bool
    events: list[EventRow] = Field(default_factory=list)


class Recorded(BaseModel):
    """A command recorded (or found already recorded: `retried`)."""

    recorded: bool
    retried: bool
    version: int
    events: list[EventRow]
    eliminated: list[str] = Field(description="players out after the hand's settlement")
    warning: dict[str, Any] | None = Field(description="the settlement's refusal, if any")
    table: TableView


class PairingCode(BaseModel):
    code: str
    table: str


class Checkpoint(BaseModel):
    number: int
    reason: str
    created_at: str
    origin: str
    size: int
    root: str
    text: str


class WitnessState(BaseModel):
    witness: str = Field(description="the witness's name")
    cosigned_size: int = Field(description="the size of the last checkpoint it cosigned")
    pending_size: int | None = Field(description="a checkpoint not cosigned yet (null: none)")
    error: str = Field(description="why the last attempt failed ('' when it did not)")


class SignOffView(BaseModel):
    tournament: str
    director: str = Field(description="who signed, as the room knows them")
    signed_at: str = Field(description="the time inside the signed text (UTC)")
    checkpoint: int = Field(description="the number of the checkpoint the results rest on")
    size: int = Field(description="that checkpoint's size")
    results: int = Field(description="how many result events were signed off")
    text: str = Field(description="the signed note (handlog-sign-off/v1)")


class FloorView(_View):
    """Every table, rulings and corrections; for the director the dealer PINs and codes."""

    role: Role
    version: int
    tournaments: list[dict[str, Any]]
    tables: list[TableCard]
    corrections: list[CorrectionRow]
    problems: list[Problem]
    checkpoint: Checkpoint | None
    witnesses: list[WitnessState] = Field(
        default=[], description="each witness the checkpoints are posted to, and its state")
    sign_offs: list[SignOffView] = Field(
        default=[], description="the director's sign-offs of results, oldest first")
    dealer_pins: dict[str, str] | None = None
    pairing_codes: list[PairingCode] | None = None


class TournamentChanges(BaseModel):
    """What a tournament command changed: the tournament view's fields that differ from the
    view at `tournament.base`, the cards of the tables it recorded at (or only their names,
    `tables_changed`, past a few dozen), and `retried`."""

    tournament: dict[str, Any]
    tables: list[TableCard]
    tables_changed: list[str] | None = None
    dealer_pins: dict[str, str] | None = None
    retried: bool


class DealOfferView(BaseModel):
    """One method's amounts (cents, in the order of `players`), or why it cannot be made."""

    method: str
    amounts: list[int]
    refused: str = ""
    rule: str = ""


class DealPreviewView(BaseModel):
    """What each deal method would give each player left at the final table now, with `kept`
    (cents) left to play for: read out before each player consents."""

    players: list[dict[str, Any]]
    prizes: list[int]
    kept: int
    currency: str
    offers: list[DealOfferView]


class LogKey(BaseModel):
    key: str | None = Field(description="the C2SP verifier key (null: no checkpoints signed)")
    origin: str | None


class WitnessesAnswer(BaseModel):
    witnesses: list[WitnessState]


class SignOffAnswer(BaseModel):
    sign_off: SignOffView
    director_key: str = Field(description="the director's public key that checks it")


class SignOffsAnswer(BaseModel):
    sign_offs: list[SignOffView]


class CheckpointAnswer(BaseModel):
    checkpoint: Checkpoint | None
