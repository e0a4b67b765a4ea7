"""Replay PHH hands strictly through the engine and compare them with their recorded result.

Strict means the recorded actions are the only input: nothing is inserted (PokerKit's replayer
fills in folds and checks that do not fit; we report them). Each hand ends in one status:

- match: legal, and the engine's finishing stacks equal the recorded ones to the chip;
- mismatch: legal, but the stacks differ; `reason` says why, computed from the numbers;
- illegal: an action the rules do not allow (`violation` names the action and the rule);
- unverified: legal, but there is nothing to compare with (or another variant);
- error: the file or hand is not valid PHH (`reason` names the file and the field).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Final, Literal, NamedTuple

from handlog.engine.cards import RANKS, SUITS, Card, parse_card
from handlog.engine.commands import (
    AwardPots,
    BetRaise,
    CheckCall,
    Command,
    DealBoard,
    DealHole,
    Fold,
    KillHand,
    MuckCards,
    ShowCards,
)
from handlog.engine.errors import RuleViolation
from handlog.engine.hand import (
    BETTING,
    BOARD,
    HandSetup,
    HandState,
    deal_hole,
    deal_holes,
    execute,
    start_hand,
)
from handlog.engine.profiles import PROFILES, Profile, get_profile
from handlog.replay.phh import PhhAction, PhhEntry, PhhHand, PhhProblem, load_file

Status = Literal["match", "mismatch", "illegal", "unverified", "error"]
STATUSES: tuple[Status, ...] = ("match", "mismatch", "illegal", "unverified", "error")
DEFAULT_RULES = "tda"
FileNumber = int | float


@dataclass(frozen=True, slots=True)
class Violation:
    """The first action the rules refuse; `action_index` counts from 0 in the file's actions.

    `action_index` equals the number of actions (and `action` is None) when the record ends
    while the hand still needs an action.
    """

    action_index: int | None
    action: str | None
    rule: str
    message: str

    def as_dict(self) -> dict[str, object]:
        return {"action_index": self.action_index, "action": self.action, "rule": self.rule,
                "message": self.message}


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand's verdict; stacks are in the file's own units (dollars stay dollars).

    `hand` is the hand's table in a `.phhs` (`[3]` gives 3) and None for a `.phh`.
    `finishing_stacks` are the engine's (None when the hand could not be played to its end).
    """

    file: str
    hand: int | str | None
    status: Status
    finishing_stacks: tuple[FileNumber, ...] | None = None
    recorded_finishing_stacks: tuple[FileNumber, ...] | None = None
    reason: str | None = None
    violation: Violation | None = None

    def as_dict(self) -> dict[str, object]:
        return {
            "file": self.file,
            "hand": self.hand,
            "status": self.status,
            "finishing_stacks": _listed(self.finishing_stacks),
            "recorded_finishing_stacks": _listed(self.recorded_finishing_stacks),
            "reason": self.reason,
            "violation": None if self.violation is None else self.violation.as_dict(),
        }


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """Every hand's result and how long the whole run took."""

    results: tuple[HandResult, ...]
    seconds: float
    counts: dict[Status, int] = field(init=False)

    def __post_init__(self) -> None:
        counts: dict[Status, int] = dict.fromkeys(STATUSES, 0)
        for result in self.results:
            counts[result.status] += 1
        object.__setattr__(self, "counts", counts)

    @property
    def ok(self) -> bool:
        """Nothing mismatched, illegal or in error (the exit status of `phh verify`)."""
        return not (self.counts["mismatch"] or self.counts["illegal"] or self.counts["error"])

    def as_dict(self) -> dict[str, object]:
        return {
            "hands": len(self.results),
            "matched": self.counts["match"],
            "mismatched": self.counts["mismatch"],
            "illegal": self.counts["illegal"],
            "unverified": self.counts["unverified"],
            "errors": self.counts["error"],
            "seconds": round(self.seconds, 3),
            "results": [result.as_dict() for result in self.results],
        }


def _listed(values: tuple[FileNumber, ...] | None) -> list[FileNumber] | None:
    return None if values is None else list(values)


# ---------------------------------------------------------------------------------------------
# Running over files


def verify_files(files: Iterable[str | os.PathLike[str]],
                 rules: str = DEFAULT_RULES) -> VerifyReport:
    """Verify every hand of the given files, in order (pass a progress-bar iterator freely)."""
    started = time.perf_counter()
    results: list[HandResult] = []
    for path in files:
        results.extend(verify_file(path, rules))
    return VerifyReport(tuple(results), time.perf_counter() - started)


def verify_file(path: str | os.PathLike[str], rules: str = DEFAULT_RULES) -> list[HandResult]:
    """The result of every hand of one `.phh` or `.phhs` file."""
    return [verify_entry(entry, rules) for entry in load_file(path)]


def verify_entry(entry: PhhEntry, rules: str = DEFAULT_RULES) -> HandResult:
    """A parsed hand's result; a parse problem becomes an error or unverified result."""
    if isinstance(entry, PhhProblem):
        status: Status = "unverified" if entry.kind == "unsupported" else "error"
        return HandResult(entry.source, entry.hand, status, reason=entry.message)
    return verify_hand(entry, rules)


# ---------------------------------------------------------------------------------------------
# Replaying one hand


class Replay(NamedTuple):
    """How far a strict replay got (a NamedTuple: one per hand, cheap to build).

    `state` is the last state reached. `violation` is set when an action was refused (or the
    record ends while betting is open); `unreplayable` when the record itself stops us (cards
    shown as unknown). `error` holds an unexpected engine failure.
    """

    state: HandState | None
    violation: Violation | None = None
    unreplayable: str | None = None
    error: str | None = None


def setup_for(hand: PhhHand, rules: str) -> HandSetup:
    """The engine's set-up for a PHH hand (heads-up: PHH reverse-assigns blinds and antes)."""
    blinds, antes = hand.blinds_or_straddles, hand.antes
    if hand.player_count == 2:
        # pokerkit's get_effective_blind_or_straddle: player i posts blinds[1 - i].
        blinds, antes = blinds[::-1], antes[::-1]
    count = hand.player_count
    return HandSetup(hand.starting_stacks, blinds, antes, hand.min_bet, hand.chip_unit, rules,
                     hand.players, _SEATS[count] if count < len(_SEATS) else (),
                     absent=hand.absent, dead_money=hand.dead_money)


_SEATS: Final = tuple(tuple(range(1, n + 1)) for n in range(33))  # HandSetup's default seats

# Every card by its rank and its suit character, as the engine numbers it (built with the
# engine's own parser): one character is a string Python keeps, so no slice is made.
_CARD: Final[dict[str, dict[str, Card]]] = {
    rank: {suit: parse_card(rank + suit) for suit in SUITS} for rank in RANKS}
# Every card text met so far (hole cards, boards): the same ones recur, so each is one lookup.
_CARD_TUPLES: Final[dict[str, tuple[Card, ...]]] = {}
_CARD_TUPLES_LIMIT: Final = 1 << 16


def _card_tuple(text: str) -> tuple[Card, ...]:
    # The PHH parser has checked the text is whole known cards ("AsKd7h"); repeats are left
    # for the engine to refuse as a duplicate card.
    cards = _CARD_TUPLES.get(text)
    if cards is None:
        if len(_CARD_TUPLES) >= _CARD_TUPLES_LIMIT:
            _CARD_TUPLES.clear()
        cards = _CARD_TUPLES[text] = tuple(
            [_CARD[text[i]][text[i + 1]] for i in range(0, len(text), 2)])
    return cards


def _hole(text: str) -> tuple[Card, ...] | None:
    # Unknown (or half-known) hole cards are dealt face down: the engine needs no more.
    cards = _CARD_TUPLES.get(text)
    if cards is not None:
        return cards
    return None if "?" in text else _card_tuple(text)


def command_for(action: PhhAction, state: HandState | None) -> Command | str:
    """The engine command for one PHH action, or why the record cannot be replayed further.

    `state` is needed only for `sm -` (show the cards dealt).
    """
    code, player = action.code, action.player
    if code == "f":
        assert player is not None
        return Fold(player)
    if code == "cc":
        assert player is not None
        return CheckCall(player)
    if code == "cbr":
        assert player is not None and action.amount is not None
        return BetRaise(player, action.amount)
    cards = action.cards
    if code == "dh":
        assert player is not None and cards is not None
        return DealHole(player, _hole(cards))
    if code == "db":
        assert cards is not None
        if "?" in cards:
            return "the board cards are unknown ('??'), so the showdown cannot be replayed"
        return DealBoard(_card_tuple(cards))
    assert code == "sm" and player is not None
    if cards is None:
        return MuckCards(player)
    if cards == "-":
        shown = state.hole[player] if state is not None else None
    else:
        shown = _hole(cards)
    if not shown:
        return (f"p{player + 1} shows cards the record does not give ({cards!r}), so the "
                "showdown cannot be replayed")
    return ShowCards(player, shown)


# Commands that do not depend on the state, by action text: the same strings ("p3 f",
# "d dh p1 AcKd") recur across thousands of hands, and building commands is per-action work.
_COMMANDS: Final[dict[str, Command]] = {}
_COMMAND_CACHE_LIMIT: Final = 1 << 18


HoleDeal = tuple[int, tuple[Card, ...] | None]
"""A hole-card deal as (position, cards): played with engine.hand.deal_hole, which is what
execute does with DealHole(position, cards), without building the command."""


def hand_commands(hand: PhhHand) -> list[Command | HoleDeal | None]:
    """The command of every action (a HoleDeal for a deal), None where it depends on the state
    (`sm -`, no-ops...)."""
    cache = _COMMANDS if hand.scale == 1 else {}  # scaled amounts are this hand's own
    if len(cache) > _COMMAND_CACHE_LIMIT:
        cache.clear()
    commands: list[Command | HoleDeal | None] = []
    dead_hands = hand.dead_hands
    for index, action in enumerate(hand.actions):
        if dead_hands and index in dead_hands:
            # A director's ruling written down in the record (`_dead_hands`), not a muck.
            assert action.player is not None
            commands.append(KillHand(action.player, "ruled dead by the director (_dead_hands)",
                                     "director's ruling"))
            continue
        code = action.code
        if code == "dh":
            assert action.player is not None and action.cards is not None
            commands.append((action.player, _hole(action.cards)))
            continue
        command = cache.get(action.text)
        if command is None:
            if code != "noop" and not (
                    code == "sm" and action.cards is not None
                    and (action.cards == "-" or "?" in action.cards)):
                built = command_for(action, None)
                if not isinstance(built, str):
                    command = cache[action.text] = built
        commands.append(command)
    return commands


_AWARD: Final = AwardPots()  # the engine's award, confirmed


def replay_hand(hand: PhhHand, rules: str = DEFAULT_RULES,
                extra: dict[int, Command] | None = None) -> Replay:
    """Feed the recorded actions to the engine, strictly, then push the pots if they are due.

    `extra` (diagnostics only) inserts commands before the given action indexes, to ask
    "what if the record had this action?"; `phh verify` never passes it.
    """
    try:
        state = start_hand(setup_for(hand, rules))
    except RuleViolation as violation:
        return Replay(None, Violation(None, None, violation.rule, _phh_positions(violation)))
    actions = hand.actions
    index = -1
    try:
        commands = hand_commands(hand)
        count = len(commands)
        index = 0
        while index < count:
            command = commands[index]
            if extra is not None and index in extra:
                state = execute(state, extra[index])
            if isinstance(command, tuple):
                # The deal: consecutive hole-card deals are dealt at once when they are all
                # the usual kind; otherwise one by one, so that a refusal names its action.
                deals = [command]
                end = index + 1
                while end < count and (extra is None or end not in extra):
                    following = commands[end]
                    if not isinstance(following, tuple):
                        break
                    deals.append(following)
                    end += 1
                dealt = deal_holes(state, deals) if len(deals) > 1 else None
                if dealt is not None:
                    state = dealt
                    index = end
                    continue
                state = deal_hole(state, command[0], command[1])
                index += 1
                continue
            if command is None:
                action = actions[index]
                if action.code == "noop":
                    index += 1
                    continue
                built = command_for(action, state)
                if isinstance(built, str):
                    return Replay(state,
                                  unreplayable=f"action {index} {action.text!r}: {built}")
                command = built
            state = execute(state, command)
            index += 1
        index = len(actions)
        if extra is not None and index in extra:
            state = execute(state, extra[index])
        if not state.is_complete and state.awards_pending:
            state = execute(state, _AWARD)
    except RuleViolation as violation:
        text = actions[index].text if 0 <= index < len(actions) else None
        return Replay(state, Violation(index, text, violation.rule, _phh_positions(violation)))
    except Exception as error:  # noqa: BLE001 - an engine bug must not stop a 10,000-file run
        return Replay(state, error=f"engine failure at action {index}: "
                                   f"{type(error).__name__}: {error}")
    if not state.is_complete:
        return Replay(state, _incomplete(hand, state))
    return Replay(state)


def _phh_positions(violation: RuleViolation) -> str:
    """The engine's message with its positions (0 = p1) written as PHH players."""
    text = violation.message
    if violation.legal:
        text += "; allowed: " + ", ".join(violation.legal)
    return re.sub(r"\bposition (\d+)('s)?", lambda m: f"p{int(m.group(1)) + 1}{m.group(2) or ''}",
                  text)


def _incomplete(hand: PhhHand, state: HandState) -> Violation:
    if state.to_act is not None:
        who = _seat_name(hand, state.to_act)
        message = (f"the record ends while {who} is to act: no action is recorded for "
                   f"{_short(hand, state.to_act)}")
    elif state.phase == BOARD:
        street = {0: "flop", 3: "turn", 4: "river"}.get(len(state.board), "next board card")
        message = f"the record ends before the {street} is dealt"
    else:
        message = f"the record ends before the hand is over (the hand is at {state.phase})"
    return Violation(len(hand.actions), None, "strict-replay", message)


# ---------------------------------------------------------------------------------------------
# Verifying one hand


def verify_hand(hand: PhhHand, rules: str = DEFAULT_RULES) -> HandResult:
    """Replay one hand strictly and compare it with its recorded finishing stacks."""
    profile_name = hand.rules or rules
    notes = _record_notes(hand)
    try:
        profile = get_profile(profile_name)
    except KeyError:
        known = ", ".join(PROFILES)
        where = hand.source if hand.hand is None else f"{hand.source} [{hand.hand}]"
        field_name = "_rules" if hand.rules else "--rules"
        return HandResult(hand.source, hand.hand, "error", None, _recorded(hand),
                          f"{where}: field '{field_name}': unknown house-rule profile "
                          f"{profile_name!r}; known profiles: {known}")
    replay = replay_hand(hand, profile_name)
    recorded = _recorded(hand)
    if replay.error is not None:
        return HandResult(hand.source, hand.hand, "error", None, recorded,
                          _join([replay.error, *notes]))
    if replay.unreplayable is not None:
        return HandResult(hand.source, hand.hand, "unverified", None, recorded,
                          _join([replay.unreplayable, *notes]))
    state = replay.state
    if replay.violation is not None:
        if replay.violation.rule == "strict-replay" and state is not None \
                and hand.finishing_stacks is not None:
            # A partial record may give the stacks as they stand (optional.rst).
            computed = _in_file_units(hand, state.stacks)
            if _equal(hand.finishing_stacks, state.stacks):
                return HandResult(hand.source, hand.hand, "match", computed, recorded,
                                  _join([f"partial record: {replay.violation.message}", *notes]))
            return HandResult(hand.source, hand.hand, "mismatch", computed, recorded,
                              _join([replay.violation.message,
                                     *_mismatch_reasons(hand, state, profile),
                                     *notes]))
        diagnosis = _diagnose(hand, replay, profile_name)
        return HandResult(hand.source, hand.hand, "illegal", None, recorded,
                          _join([*diagnosis, *notes,
                                 *_forced_bet_notes(hand, profile)]),
                          replay.violation)
    assert state is not None
    computed = _in_file_units(hand, state.stacks)
    if hand.finishing_stacks is None:
        why = "no finishing_stacks recorded"
        if hand.has_winnings:
            why += " (winnings are not an oracle: they are often zero and net of rake)"
        return HandResult(hand.source, hand.hand, "unverified", computed, None,
                          _join([why, *notes]))
    if _matches(hand, state.stacks):
        return HandResult(hand.source, hand.hand, "match", computed, recorded,
                          _join(notes) if hand.scale != 1 else None)
    return HandResult(hand.source, hand.hand, "mismatch", computed, recorded,
                      _join([*_mismatch_reasons(hand, state, profile), *notes,
                             *_forced_bet_notes(hand, profile)]))


def _equal(recorded: Sequence[Decimal], stacks: Sequence[int]) -> bool:
    return all(r == s for r, s in zip(recorded, stacks, strict=True))


def _matches(hand: PhhHand, stacks: Sequence[int]) -> bool:
    """The recorded finishing stacks equal `stacks` exactly (whole numbers compare as such)."""
    written = hand.recorded_finishing_stacks
    if hand.scale == 1 and written is not None and Decimal not in map(type, written):
        return tuple(written) == tuple(stacks)
    assert hand.finishing_stacks is not None
    return _equal(hand.finishing_stacks, stacks)


def _join(parts: Sequence[str]) -> str | None:
    return "; ".join(parts) if parts else None


def _recorded(hand: PhhHand) -> tuple[FileNumber, ...] | None:
    if hand.recorded_finishing_stacks is None:
        return None
    written = hand.recorded_finishing_stacks
    if Decimal not in map(type, written):
        return tuple(written)  # type: ignore[arg-type]  # whole numbers, as written
    return tuple(v if isinstance(v, int) else float(v) for v in written)


def _in_file_units(hand: PhhHand, stacks: Sequence[int]) -> tuple[FileNumber, ...]:
    if hand.scale == 1:
        return tuple(stacks)
    return tuple(float(Decimal(stack) / hand.scale) for stack in stacks)


def _amount(hand: PhhHand, value: Decimal | int) -> str:
    """An engine amount written in the file's units."""
    number = Decimal(value) / hand.scale
    return f"{number.normalize():f}" if number != number.to_integral_value() else str(int(number))


def _short(hand: PhhHand, player: int) -> str:
    return f"p{player + 1}"


def _seat_name(hand: PhhHand, player: int) -> str:
    """`p8 (Ashish Ahuja, the button)`: the PHH label with the name and the blind seats."""
    count = hand.player_count
    role = ""
    if count == 2:
        role = "the big blind" if player == 0 else "the button and small blind"
    elif player == count - 1:
        role = "the button"
    elif player == 0:
        role = "the small blind"
    elif player == 1:
        role = "the big blind"
    name = hand.players[player] if player < len(hand.players) else ""
    details = ", ".join(part for part in (name, role) if part)
    return f"p{player + 1} ({details})" if details else f"p{player + 1}"


# ---------------------------------------------------------------------------------------------
# Explaining what does not match


def _record_notes(hand: PhhHand) -> list[str]:
    """Facts about the record itself that bear on its result."""
    notes: list[str] = []
    if hand.scale != 1:
        notes.append(f"amounts are decimal (cash): scaled by {hand.scale} to integer units of "
                     f"{_amount(hand, 1)} for the engine, and reported back in the file's units")
    if hand.ante_trimming_status and len(set(hand.antes)) > 1:
        antes = ", ".join(_amount(hand, ante) for ante in hand.antes)
        notes.append(f"the record declares ante_trimming_status = true with non-uniform antes "
                     f"[{antes}], which the PHH spec (optional.rst) says must be false for "
                     "non-uniform antes such as a big-blind ante; the engine keeps every ante in "
                     "the pot (an ante is never returned as an uncalled bet)")
    return notes


def _mismatch_reasons(hand: PhhHand, state: HandState, profile: Profile) -> list[str]:
    recorded = hand.finishing_stacks
    assert recorded is not None
    computed = state.stacks
    differences = [(i, recorded[i] - computed[i]) for i in range(hand.player_count)
                   if recorded[i] != computed[i]]
    unit = hand.chip_unit
    fractional = [i for i in range(hand.player_count) if recorded[i] % unit != 0]
    reasons: list[str] = []
    conserved = sum(recorded, Decimal(0)) == sum(computed)
    odd_chip_players = {i for award in state.awards for i in award.odd_chips}
    if (conserved and fractional and all(abs(d) < unit for _, d in differences)
            and {i for i, _ in differences} <= set(fractional) | odd_chip_players):
        halves = all((recorded[i] % unit) * 2 == unit for i in fractional)
        split = "half chips (x.5)" if halves else "fractions of a chip"
        given = ", ".join(f"{_short(hand, i)} {_amount(hand, recorded[i])}" for i in fractional)
        receivers = [i for i, d in differences if d < 0]
        to = ", ".join(_seat_name(hand, i) for i in receivers) or "nobody"
        reasons.append(f"record splits the odd chip into {split}: {given}; engine awards the "
                       f"odd chip to {to} per {_odd_chip_rule(profile)}")
        return reasons
    listed = ", ".join(f"{_short(hand, i)} recorded {_amount(hand, recorded[i])}, engine "
                       f"{_amount(hand, computed[i])}" for i, _ in differences)
    odd_pots = [award for award in state.awards if award.odd_chips]
    split_winners = {i for award in odd_pots for i in award.winners}
    if (conserved and not fractional and odd_pots
            and sum(abs(d) for _, d in differences) <= 2 * unit * sum(
                len(award.odd_chips) for award in odd_pots)
            and {i for i, _ in differences} <= split_winners):
        given = "; ".join(
            f"pot {award.pot} ({_amount(hand, award.amount)} split {len(award.winners)} ways) "
            f"to {', '.join(_short(hand, i) for i in award.odd_chips)}" for award in odd_pots)
        reasons.append(f"the record places the odd chips of a split pot differently ({listed}); "
                       f"the engine gives the odd chips of {given} per "
                       f"{_odd_chip_rule(profile)}, with folded chips as dead money in the pot "
                       "they were bet into")
        return reasons
    reasons.append(f"finishing stacks differ: {listed}")
    if not conserved:
        started = sum(hand.starting_stacks)
        total = sum(recorded, Decimal(0))
        reasons.append(f"the recorded finishing stacks add up to {_amount(hand, total)} but "
                       f"the hand started with {_amount(hand, started)} in play "
                       f"({'more' if total > started else 'less'} by "
                       f"{_amount(hand, abs(total - started))}: rake or a recording error)")
    if fractional:
        reasons.append("the record gives fractions of the smallest chip ("
                       + ", ".join(f"{_short(hand, i)} {_amount(hand, recorded[i])}"
                                   for i in fractional) + ")")
    return reasons


def _forced_bet_notes(hand: PhhHand, profile: Profile) -> list[str]:
    """Short blinds and big-blind antes: where live rules and PokerKit-written records part."""
    setup = setup_for(hand, profile.name)
    big = max(setup.blinds, default=0)
    notes: list[str] = []
    for i, stack in enumerate(setup.stacks):
        blind, ante = setup.blinds[i], setup.antes[i]
        if ante and stack < ante and not blind:
            flag = ("false: a short ante still wins every ante" if not hand.ante_trimming_status
                    else "true: a short ante wins only what it matched")
            notes.append(f"{_seat_name(hand, i)} is all-in for {_amount(hand, stack)} of the "
                         f"{_amount(hand, ante)} ante; the record's ante_trimming_status is "
                         f"{flag} (PHH optional.rst); the engine lets an all-in player win only "
                         "what he matched from each opponent (side pots, TDA 21)")
        if not blind or stack >= blind + ante:
            continue
        who = _seat_name(hand, i)
        if ante:
            first = ("the blind first" if profile.big_blind_ante_order == "big_blind_first"
                     else "the ante first")
            notes.append(f"{who} cannot cover both the blind ({_amount(hand, blind)}) and the "
                         f"ante ({_amount(hand, ante)}) with {_amount(hand, stack)}: the engine "
                         f"posts {first} ({profile.citations.get('big_blind_ante_order', '')}); "
                         "PokerKit posts the ante first")
        elif blind == big:
            level = ("still match the full big blind" if profile.full_big_blind_level
                     else "call only the amount posted")
            notes.append(f"{who} posts an all-in big blind of {_amount(hand, stack)}, short of "
                         f"{_amount(hand, blind)}: under the {profile.name} profile callers "
                         f"{level}; PokerKit lets them call the amount posted")
    return notes


def _odd_chip_rule(profile: Profile) -> str:
    if profile.odd_chip_all_in_first:
        return (f"the {profile.name} profile (seat order from the button, but a lone chip goes "
                "to an all-in winner)")
    return "TDA 20 (odd chips go to the first seat left of the button)"


def _diagnose(hand: PhhHand, replay: Replay, rules: str) -> list[str]:
    """For an illegal hand: what the record seems to omit, and what it would give if added."""
    violation = replay.violation
    state = replay.state
    if violation is None or state is None or violation.action_index is None:
        return []
    index = violation.action_index
    if index >= len(hand.actions):
        return []
    action = hand.actions[index]
    if (action.code == "cc" and action.player is not None and state.phase != BETTING
            and state.betting_closed and not state.folded[action.player]):
        return [f"the record has {_short(hand, action.player)} check or call after the betting "
                "is over (no opponent is left who could still bet): records written by "
                "PokerKit give that player an empty action here; the engine deals on without it"]
    expected = state.to_act
    if (action.code not in ("f", "cc", "cbr") or expected is None
            or action.player == expected):
        return []
    later = {a.player for a in hand.actions[index:] if a.code in ("f", "cc", "cbr")}
    if expected in later:
        return [f"{_short(hand, action.player or 0)} acts while {_seat_name(hand, expected)} "
                "is to act"]
    what = (f"the record has {_short(hand, action.player or 0)} act while "
            f"{_seat_name(hand, expected)} is to act, and {_short(hand, expected)} never acts "
            f"again: the record omits {_short(hand, expected)}'s action (a fold, since the hand "
            "goes on without him)")
    # Diagnostics only: would the record hold together with the omitted folds put back?
    extra: dict[int, Command] = {}
    trial = replay
    for _ in range(hand.player_count):
        tv = trial.violation
        ts = trial.state
        if tv is None or ts is None or tv.action_index is None or ts.to_act is None:
            break
        if tv.action_index >= len(hand.actions) or tv.action_index in extra:
            break
        missing = ts.to_act
        if missing in {a.player for a in hand.actions[tv.action_index:]
                       if a.code in ("f", "cc", "cbr")}:
            break
        extra[tv.action_index] = Fold(missing)
        trial = replay_hand(hand, rules, extra)
    if trial.violation is None and trial.error is None and trial.unreplayable is None \
            and trial.state is not None and extra:
        folds = ", ".join(f"{_short(hand, command.player)} folding before action {i}"
                          for i, command in extra.items() if isinstance(command, Fold))
        if hand.finishing_stacks is None:
            what += f"; with {folds} the hand replays legally"
        elif _equal(hand.finishing_stacks, trial.state.stacks):
            what += (f"; with {folds} the hand replays legally and matches the recorded "
                     "finishing stacks")
        else:
            stacks = ", ".join(_amount(hand, s) for s in trial.state.stacks)
            what += (f"; with {folds} the hand replays legally but gives [{stacks}], not the "
                     "recorded finishing stacks")
    return [what]
