"""The tournament: decisions that validate a floor command and return the events it causes, or
raise RuleViolation naming the rule, why, and what is allowed.

State and its fold live in engine.tournament_state, seats and tables in engine.seating, the
structure in engine.structure, color-up arithmetic in engine.colorup; this module re-exports
what a caller needs, so `engine.tournament` is the one import.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from handlog.engine.breaking import button_redraw_due
from handlog.engine.colorup import SeatedStack, color_up_adjustments, race_chips
from handlog.engine.deals import check_deal_allowed
from handlog.engine.entries import entries_of, next_entry
from handlog.engine.errors import RuleViolation
from handlog.engine.events import HandStarted
from handlog.engine.limits import check_tournament_id
from handlog.engine.names import name_problem
from handlog.engine.profiles import Profile, get_profile
from handlog.engine.seating import (
    BalanceMove,
    close_table,
    draw_button,
    draw_seats,
    free_seats,
    move_player,
    needs_balancing,
    redraw_seats,
    suggest_balance,
    table_counts,
)
from handlog.engine.structure import (
    BlindLevel,
    LateEntry,
    Structure,
    payout_bracket,
    payouts_for,
    satellite_seats,
    structure_problems,
)
from handlog.engine.table import Level
from handlog.engine.tournament_events import (
    TOURNAMENT_EVENT_TYPES,
    AntesDecided,
    BountyAward,
    BreakEnded,
    BreakStarted,
    ChipsColoredUp,
    HighHandAwarded,
    JackpotShare,
    LevelStarted,
    PenaltyRecorded,
    PlayerEliminated,
    PlayerRegistered,
    PlayerWithdrew,
    PrizeAward,
    PrizesAwarded,
    RulingRecorded,
    SeatAward,
    TournamentCreated,
    TournamentEvent,
    TournamentFinished,
)
from handlog.engine.tournament_state import (
    ChipLedger,
    Entrant,
    TournamentState,
    apply_tournament,
    chip_ledger,
    expected_chip_total,
    fold_tournament,
)
from handlog.engine.words import cite, profile_rule

__all__ = [
    "TOURNAMENT_EVENT_TYPES", "BalanceMove",
    "Bust", "ChipLedger", "Entrant", "TournamentEvent", "TournamentState", "apply_tournament",
    "award_high_hand", "award_prizes", "button_redraw_due", "check_deal_allowed",
    "late_entry_window", "played_no_hand", "remove_absent_at_level_end",
    "remove_absent_player", "chip_ledger", "close_table", "color_up", "color_up_racers",
    "create_tournament", "decide_antes", "draw_button", "draw_seats", "eliminate", "end_break",
    "expected_chip_total", "fold_tournament", "free_seats", "late_entry_deduction",
    "late_entry_open", "move_player", "needs_balancing", "race_chips", "record_penalty",
    "record_ruling", "redraw_seats", "register", "share_prizes", "stakes", "start_break",
    "start_level", "suggest_balance", "table_counts", "withdraw",
]


def _profile(state: TournamentState) -> Profile:
    return get_profile(state.structure.profile)


def _check_running(state: TournamentState) -> None:
    if state.day_ended is not None:
        raise RuleViolation("tournament", f"{state.tournament}'s day is over: its survivors "
                            "are bagged for the next day")
    if state.finished:
        raise RuleViolation("tournament", f"{state.tournament} is over: {state.winner} won")


def _text(value: str, what: str) -> None:
    if not value.strip():
        raise RuleViolation("record", f"{what} must not be empty")


# --- set-up and registration ---------------------------------------------------------------


def create_tournament(tournament: str, structure: Structure) -> TournamentCreated:
    """The first event of a tournament's stream; the structure must have no problems."""
    check_tournament_id(tournament)
    problems = structure_problems(structure)
    if problems:
        raise RuleViolation("structure", f"{structure.name}: {problems[0]}",
                            tuple(str(p) for p in problems))
    return TournamentCreated(tournament, structure)


def late_entry_open(state: TournamentState) -> bool:
    """Entries are open before the start, then through the structure's last late-entry level
    (and the break after it when the structure says so)."""
    if state.finished:
        return False
    if state.level == 0:
        return True
    late = late_entry_window(state)
    if state.level != late.last_level:
        return state.level < late.last_level
    if state.on_break:
        return late.through_break
    return state.level not in state.breaks_taken  # the break after it is over


def late_entry_window(state: TournamentState) -> LateEntry:
    """When late entry closes: as the profile's late_entry_closes says (BSE: the end of the
    first break; Octobermuck: after the third round), or as the structure sets it."""
    closes = _profile(state).late_entry_closes
    if closes == "end_of_level_3":
        return LateEntry(3, False)
    if closes == "end_of_first_break":
        first = min((b.after_level for b in state.structure.breaks), default=0)
        return LateEntry(first, bool(first))
    return state.structure.late_entry


def late_entry_deduction(state: TournamentState) -> int:
    """Chips a late entrant loses now: the profile's big blinds at the current level (during a
    break, the level after it: BSE 'Those arriving during break will be deducted chips according
    to blinds after break')."""
    penalty = _profile(state).late_entry_penalty_big_blinds
    if state.level == 0 or not penalty:
        return 0
    number = state.level + 1 if state.on_break else state.level
    if number > len(state.structure.levels):
        number = state.level
    return penalty * state.structure.level(number).big_blind


def register(state: TournamentState, player: str, name: str,
             high_hand: bool = False, person: str = "") -> PlayerRegistered:
    """An entry of `person` (the room's player id; generated from the tournament and the entry
    id when not given). Once play has started it is late: the profile says what a late entrant
    loses (BSE: five big blinds; Octobermuck: the blinds that pass while his seat is empty,
    which the table takes; TDA: nothing). A person whose entry is out re-enters (a new entry,
    engine.entries) where the structure and the profile allow it."""
    _check_running(state)
    _text(player, "the player id")
    problem = name_problem(name or player)
    if problem is not None:
        raise RuleViolation("registration", f"the name {name or player!r} {problem}")
    known = state.entrant(player)
    if known is not None and known.alive:
        raise RuleViolation("registration", f"{player} is already registered")
    if known is not None:
        raise RuleViolation("registration", f"{player} is an entry that is out: re-enter "
                            "him (a new entry of the same person)", (f"re-enter {player}",))
    who = person.strip() or f"{state.tournament}.{player}"
    problem = name_problem(who)
    if problem is not None:
        raise RuleViolation("registration", f"the person id {who!r} {problem}")
    entry = next_entry(state, who)
    earlier = entries_of(state, who) if entry > 1 else ()
    if earlier and not name:
        name = earlier[-1].name
    shown = (name or player).strip().casefold()
    if shown in state.entrant_names and not any(
            e.name.strip().casefold() == shown for e in earlier):
        # Two entrants the floor cannot tell apart would be paid, moved and penalised by
        # guesswork: the second needs a name that tells them apart.
        raise RuleViolation("registration", f"an entrant named {name or player!r} is already "
                            "registered: give a name that tells them apart",
                            (f"{name or player} 2", f"{name or player} (town)"))
    if high_hand and not state.structure.money.high_hand_fee:
        raise RuleViolation("structure",
                            f"{state.structure.name} has no high-hand jackpot")
    profile = _profile(state)
    start = state.structure.starting_stack
    if state.level == 0:
        return PlayerRegistered(player, name or player, False, 0, start, 0, high_hand,
                                person=who, entry=entry)
    late = late_entry_window(state)
    if not late_entry_open(state):
        closes = (f"the end of level {late.last_level}" if late.last_level else "the start")
        if late.through_break and late.last_level:
            closes += " and the break after it"
        raise RuleViolation("structure",
                            f"late entry closed at {closes}; level {state.level} is running")
    deduction = late_entry_deduction(state)
    if deduction >= start:
        raise RuleViolation("late-entry", f"the late-entry deduction {deduction} would take "
                            "the whole stack")
    if profile.late_entry_penalty_big_blinds:
        rule = profile_rule(profile.name, "late_entry_penalty_big_blinds")
    elif not profile.absent_hand_killed_at_deal:
        # Octobermuck: the late player is seated, dealt in and loses the blinds as they come
        # round (his hand killed at his turn, not at the deal).
        rule = profile_rule(profile.name, "absent_hand_killed_at_deal")
    else:
        rule = profile_rule(profile.name, "late_entry_penalty_big_blinds")
    if entry > 1:
        # A re-entry is a late entry of a full stack (TDA 2024 Rule 8-A); what it loses
        # comes from the same profile reading.
        rule = f"{rule}, {profile.rule('re_entry')}"
    return PlayerRegistered(player, name or player, True, deduction, start - deduction,
                            state.level, high_hand, rule, who, entry)


# --- levels, breaks, the ante checkpoint ---------------------------------------------------


def stakes(state: TournamentState) -> Level:
    """The stakes a hand is played at now (for engine.table.plan_hand)."""
    if state.stakes is None:
        raise RuleViolation("tournament", "no level has started yet", ("start level 1",))
    return state.stakes


def _due_before_next_level(state: TournamentState) -> list[str]:
    """What the schedule still wants done after the current level."""
    s = state.structure
    due: list[str] = []
    if state.level == 0:
        return due
    if s.break_after(state.level) and state.level not in state.breaks_taken:
        due.append(f"the break after level {state.level}")
    step = s.color_up_after(state.level)
    if step and state.level not in state.color_ups_done and not (
            step.unless_antes and state.antes_used):
        due.append(f"the color-up of {', '.join(step.remove)} after level {state.level}")
    return due


def start_level(state: TournamentState, ruling: str = "") -> LevelStarted:
    """The next level. A scheduled break or color-up not yet done blocks it unless a ruling
    (`ruling`: the director's reason) skips it; the ante checkpoint must be decided first."""
    _check_running(state)
    s = state.structure
    if state.on_break:
        raise RuleViolation("schedule", f"the break after level {state.level} is on",
                            ("end the break",))
    number = state.level + 1
    if number > len(s.levels):
        raise RuleViolation("structure", f"{s.name} has {len(s.levels)} levels; "
                            f"level {state.level} goes on", ())
    if number == 1 and sum(1 for e in state.remaining if e.table) < 2:
        raise RuleViolation("seating", "seat at least two players before play starts",
                            ("draw seats",))
    checkpoint = s.ante_checkpoint
    if checkpoint and checkpoint.after_level == state.level and state.antes_used is None:
        raise RuleViolation("structure", f"decide whether antes are played "
                            f"after level {state.level} first", ("decide antes",))
    due = _due_before_next_level(state)
    if due and not ruling.strip():
        raise RuleViolation("schedule", f"{' and '.join(due)} has not happened",
                            tuple(f"do {d}" for d in due) + ("start the level with a ruling",))
    level: BlindLevel = s.level(number)
    ante, kind = level.ante, level.ante_kind
    if s.ante_is_conditional(number) and not state.antes_used:
        ante, kind = 0, "none"
    return LevelStarted(number, level.small_blind, level.big_blind, ante, kind, level.minutes,
                        state.chip_unit, ruling if due else "")


def start_break(state: TournamentState, minutes: int = 0) -> BreakStarted:
    """The scheduled break after the current level, or an extra one ('Breaks as needed') of
    `minutes`."""
    _check_running(state)
    if state.level == 0:
        raise RuleViolation("schedule", "play has not started", ("start level 1",))
    if state.on_break:
        raise RuleViolation("schedule", "a break is already on", ("end the break",))
    scheduled = state.structure.break_after(state.level)
    if scheduled and state.level not in state.breaks_taken:
        return BreakStarted(state.level, minutes or scheduled.minutes, True)
    if minutes <= 0:
        raise RuleViolation("schedule", f"no break is scheduled after level {state.level}: "
                            "an extra break needs its length in minutes")
    return BreakStarted(state.level, minutes, False)


def end_break(state: TournamentState) -> BreakEnded:
    if not state.on_break:
        raise RuleViolation("schedule", "no break is on")
    return BreakEnded(state.level)


def decide_antes(state: TournamentState) -> AntesDecided:
    """The ante checkpoint (Octobermuck: 'If there are still 16 or more players active after
    the sixth round, antes will be instituted for the rest of the tourney')."""
    _check_running(state)
    checkpoint = state.structure.ante_checkpoint
    if checkpoint is None:
        raise RuleViolation("structure",
                            f"{state.structure.name} has no ante checkpoint")
    if state.antes_used is not None:
        raise RuleViolation("structure", "the antes are already decided")
    if state.level != checkpoint.after_level:
        raise RuleViolation("structure", f"antes are decided after level "
                            f"{checkpoint.after_level}; level {state.level} is running")
    remaining = len(state.remaining)
    return AntesDecided(checkpoint.after_level, remaining, checkpoint.players_at_least,
                        remaining >= checkpoint.players_at_least)


# --- color-up -----------------------------------------------------------------------------


def color_up_racers(state: TournamentState, stacks: Mapping[str, int]) -> tuple[str, ...]:
    """Who is dealt race cards at the color-up scheduled now (`color_up`): under a chip race
    (TDA 24) each player holding odd chips of the colours leaving, in player order; nobody
    where the house rounds odd chips up (BSE) or forfeits them to the next pot (Octobermuck)."""
    if _profile(state).color_up != "race":
        return ()
    step = state.structure.color_up_after(state.level)
    left = [d.value for d in state.structure.denominations if d.colour in state.in_play
            and (step is None or d.colour not in step.remove)]
    if not left:
        return ()
    unit = min(left)
    return tuple(player for player, stack in sorted(stacks.items()) if stack % unit)


def color_up(state: TournamentState, stacks: Mapping[str, int],
             colours: Sequence[str] = (),
             race_cards: Mapping[str, Sequence[str]] | None = None) -> ChipsColoredUp:
    """Take `colours` out of play (default: the color-up scheduled after the current level).

    `stacks` is every seated player's stack now (from the tables); `race_cards` the cards of a
    chip race (profile `race`). The event carries each player's adjustment (per the profile's
    method), what goes into each table's next pot, and the new smallest chip. A forfeit can
    leave a stack of nothing but odd chips at 0 (Octobermuck: 'manage your stack
    accordingly'): record that player's elimination next, with hand_number 0."""
    _check_running(state)
    s = state.structure
    profile = _profile(state)
    rule = profile_rule(profile.name, "color_up")
    step = s.color_up_after(state.level)
    if not colours:
        if step is None or state.level in state.color_ups_done:
            raise RuleViolation("structure", f"no color-up is due after level "
                                f"{state.level}: name the colours to take out")
        if step.unless_antes and state.antes_used is None:
            raise RuleViolation("structure", "decide the antes first: this "
                                "color-up happens only without antes", ("decide antes",))
        if step.unless_antes and state.antes_used:
            raise RuleViolation("structure", f"with antes, "
                                f"{', '.join(step.remove)} stay in play")
        colours = step.remove
    unknown = [c for c in colours if c not in state.in_play]
    if unknown:
        raise RuleViolation("color-up", f"{', '.join(unknown)} not in play", state.in_play)
    left = [d.value for d in s.denominations if d.colour in state.in_play
            and d.colour not in colours]
    if not left:
        raise RuleViolation("color-up", "that would leave no chips in play")
    new_unit = min(left)
    _check_next_level_payable(state, new_unit)
    seated = [e for t in state.tables for e in state.seated_at(t)]
    expected = {e.player for e in seated}
    if set(stacks) != expected:
        missing = sorted(expected - set(stacks))
        extra = sorted(set(stacks) - expected)
        raise RuleViolation("color-up", "give the stack of every seated player and no one else"
                            + (f"; missing {', '.join(missing)}" if missing else "")
                            + (f"; not seated {', '.join(extra)}" if extra else ""))
    bad = [p for p, chips in stacks.items() if chips <= 0]
    if bad:
        raise RuleViolation("color-up", f"{', '.join(bad)} has no chips: record the "
                            "elimination first")
    adjustments, carries = color_up_adjustments(
        profile.color_up, [SeatedStack(e.player, e.table, stacks[e.player]) for e in seated],
        new_unit, race_cards, rule, profile.color_up_keeps_a_player_in)
    change = sum(a.amount for a in adjustments) + sum(c.amount for c in carries)
    return ChipsColoredUp(state.level, tuple(colours), state.chip_unit, new_unit,
                          profile.color_up, adjustments, carries, -change, rule)


def _check_next_level_payable(state: TournamentState, unit: int) -> None:
    s = state.structure
    number = min(state.level + 1, len(s.levels))
    level = s.level(number)
    amounts = [("small blind", level.small_blind), ("big blind", level.big_blind)]
    if level.ante and (state.antes_used or not s.ante_is_conditional(number)):
        amounts.append(("ante", level.ante))
    for what, amount in amounts:
        if amount % unit:
            raise RuleViolation("color-up", f"the {what} of level {number} ({amount}) needs "
                                f"chips smaller than {unit}")


# --- eliminations and prizes ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bust:
    """A player out: the hand (table and number; 0 outside a hand) and his chips at its start."""

    player: str
    chips_at_start: int
    table: str = ""
    hand_number: int = 0
    bounty_to: str = ""


def eliminate(state: TournamentState,
              busts: Sequence[Bust]) -> tuple[PlayerEliminated | TournamentFinished, ...]:
    """Players out together (one hand, or one hand-for-hand round). More chips at the start of
    the hand places higher; equal chips share the higher place (BSE Photo Finishes). With one
    player left, he wins."""
    _check_running(state)
    if not busts:
        raise RuleViolation("elimination", "name at least one player")
    players = [b.player for b in busts]
    if len(set(players)) != len(players):
        raise RuleViolation("elimination", "a player is listed twice")
    alive = {e.player for e in state.remaining}
    for b in busts:
        if b.player not in alive:
            raise RuleViolation("elimination", f"{b.player} is not in the tournament")
        if b.chips_at_start < 0:
            raise RuleViolation("elimination", f"{b.player}: chips at the start of the hand "
                                "must not be negative")
        _check_bounty(state, b, alive - set(players))
    remaining = len(alive)
    if len(busts) >= remaining:
        raise RuleViolation("elimination", "at least one player must be left",
                            tuple(sorted(alive)))
    rule = ""
    profile = _profile(state)
    if len(busts) > 1:
        rule = profile.rule("photo_finish")
    first_place = remaining - len(busts) + 1
    # TDA RP-8-A speaks of hand-for-hand ("the busting players will be eligible for a share
    # of the place(s) paid on the current hand"): busts on one hand outside it are placed by
    # the photo finish, the larger starting stack higher (issue 24).
    share = (profile.bubble_busts_share and state.hand_for_hand is not None
             and _bursts_the_bubble(state, first_place, len(busts)))
    if share:
        rule = profile.rule("bubble")
    ranked = sorted(busts, key=lambda b: (-b.chips_at_start, b.player))
    events: list[PlayerEliminated | TournamentFinished] = []
    for b in ranked:
        # TDA RP-8-A: busting into the money on one hand, they share the places paid whatever
        # their stacks; else more chips at the start of the hand places higher.
        place = first_place if share else \
            first_place + sum(1 for o in busts if o.chips_at_start > b.chips_at_start)
        events.append(PlayerEliminated(b.player, place, b.table, b.hand_number,
                                       b.chips_at_start, b.bounty_to, rule))
    events.extend(_finished(state, alive - set(players)))
    return tuple(events)


def _finished(state: TournamentState, left: Collection[str]) -> list[TournamentFinished]:
    """The end of the tournament when `left` are the players still in: one player wins; in
    a satellite whose seats are equal prizes, as many players as seats all win one (nothing
    is left to play for)."""
    ordered = sorted(left)
    if len(ordered) == 1:
        return [TournamentFinished(ordered[0])]
    if _seats_for_all(state, len(ordered)):
        return [TournamentFinished(ordered[0], tuple(ordered))]
    return []


def _seats_for_all(state: TournamentState, left: int) -> bool:
    """A satellite whose seats are shared equally, with as many players left as seats."""
    satellite = state.structure.satellite
    if not (satellite.share_equally and satellite.seats == left):
        return False
    return satellite_seats(state.structure, len(state.entrants), state.prize_pool)[0] == left


def _bursts_the_bubble(state: TournamentState, first_place: int, busted: int) -> bool:
    """Players out on one hand take places first_place.. on both sides of the money line."""
    if not state.structure.payouts:
        return False
    try:
        paid = len(payout_bracket(state.structure, state.ledger.entries).basis_points)
    except RuleViolation:
        return False
    return first_place <= paid < first_place + busted - 1


def remove_absent_player(state: TournamentState, player: str, chips: int,
                         played_this_level: bool,
                         ) -> tuple[PlayerWithdrew | TournamentFinished, ...]:
    """A player who played no hand for a whole blind level: under the league's rule his chips
    are turned in and he is out; elsewhere he is blinded off, and this is refused."""
    profile = _profile(state)
    if played_this_level or not profile.absent_eliminated_after_full_level:
        raise RuleViolation(profile.rule("absent_level"), f"{player} stays in: an absent player "
                            "is blinded off, not removed", ("let the blinds take his chips",))
    return withdraw(state, player, chips, rule=profile.rule("absent_level"))


def played_no_hand(hands: Sequence[HandStarted], level: int) -> tuple[str, ...]:
    """The players dealt into hands of `level` (at one table, from its hand_started facts) who
    were away from the table for every one of them: they played no hand that level."""
    played: dict[str, bool] = {}
    for hand in hands:
        if hand.level != level:
            continue
        for position, player in enumerate(hand.players):
            played[player] = played.get(player, False) or position not in hand.absent
    return tuple(player for player, yes in played.items() if not yes)


def remove_absent_at_level_end(state: TournamentState, hands: Mapping[str, Sequence[HandStarted]],
                               stacks: Mapping[str, int],
                               ) -> tuple[PlayerWithdrew | TournamentFinished, ...]:
    """When a level ends (`state.level`, as the next one starts): under a house rule that
    removes a player who plays no hand for a whole level (League: 'their chips will be turned
    in to the TD, eliminating them from the tournament') each such player at the tables
    (`hands`: each table's hands, `stacks`: the chips each has now) is removed; elsewhere an
    absent player is blinded off and nobody is removed."""
    if not _profile(state).absent_eliminated_after_full_level:
        return ()
    events: list[PlayerWithdrew | TournamentFinished] = []
    for table in sorted(hands):
        for player in played_no_hand(hands[table], state.level):
            entrant = state.entrant(player)
            if state.finished or entrant is None or not entrant.alive \
                    or player not in stacks:
                continue
            out = remove_absent_player(state, player, stacks[player], False)
            for event in out:
                state = apply_tournament(state, event)
            events.extend(out)
    return tuple(events)


def _check_bounty(state: TournamentState, bust: Bust, survivors: set[str]) -> None:
    if not bust.bounty_to:
        return
    if not state.structure.money.bounty:
        raise RuleViolation("structure", f"{state.structure.name} has no bounties")
    if bust.bounty_to not in survivors:
        raise RuleViolation("octobermuck-bounties",
                            f"{bust.bounty_to} cannot collect {bust.player}'s bounty: the "
                            "victor collects it",
                            tuple(sorted(survivors)))


def withdraw(state: TournamentState, player: str, chips: int, rule: str = "",
             ) -> tuple[PlayerWithdrew | TournamentFinished, ...]:
    """A player leaving: his chips leave play (BSE: 'Chips from any Member wishing to withdraw
    mid-tournament must be removed from play'); he takes the next place."""
    _check_running(state)
    entrant = state.entrant(player)
    if entrant is None or not entrant.alive:
        raise RuleViolation("withdrawal", f"{player} is not in the tournament")
    if chips < 0:
        raise RuleViolation("withdrawal", "chips removed must not be negative")
    remaining = len(state.remaining)
    if remaining <= 1:
        raise RuleViolation("withdrawal", f"{player} is the last player")
    rule = rule or "bse-missing-player"
    events: list[PlayerWithdrew | TournamentFinished] = [
        PlayerWithdrew(player, remaining, chips, rule)]
    events.extend(_finished(state, [e.player for e in state.remaining if e.player != player]))
    return tuple(events)


def share_prizes(places: Mapping[str, int], amounts: Sequence[int]) -> tuple[PrizeAward, ...]:
    """Prize per player: players sharing a place split the prizes of the places they span
    (two players sharing 5th split 5th and 6th); odd cents go one each in player-id order."""
    awards: list[PrizeAward] = []
    by_place: dict[int, list[str]] = {}
    for player, place in places.items():
        by_place.setdefault(place, []).append(player)
    for place in sorted(by_place):
        group = sorted(by_place[place])
        total = sum(amounts[place - 1: place - 1 + len(group)])
        base, odd = divmod(total, len(group))
        for i, player in enumerate(group):
            amount = base + (1 if i < odd else 0)
            if amount:
                awards.append(PrizeAward(place, player, amount))
    return tuple(awards)


def award_prizes(state: TournamentState) -> PrizesAwarded:
    """The prize pool by the payout line for the field size, and the bounties collected."""
    if not state.finished:
        raise RuleViolation("prizes", "the tournament is not over")
    if state.prizes is not None:
        raise RuleViolation("prizes", "the prizes are already awarded")
    money = state.structure.money
    field = state.field_size
    pool = state.prize_pool
    amounts = payouts_for(state.structure, field, pool)
    awards = share_prizes({e.player: e.place for e in state.entrants}, amounts)
    satellite = state.structure.satellite
    seats: tuple[SeatAward, ...] = ()
    if satellite.seat_value:
        # A whole seat's value at a seat's place is the seat; a place that shares a seat
        # with the cash place (a split) is paid in cash.
        won, _ = satellite_seats(state.structure, field, pool)
        seats = tuple(SeatAward(a.place, a.player, a.amount, satellite.target) for a in awards
                      if a.place <= won and a.amount == satellite.seat_value)
        awards = tuple(a for a in awards
                       if not (a.place <= won and a.amount == satellite.seat_value))
    if state.deal is not None:
        # The deal's amounts replace the prizes of the places it covered; the winner adds
        # what was kept to play for.
        dealt = {x.player: x.amount for x in state.deal.shares}
        places = {e.player: e.place for e in state.entrants}
        awards = tuple(a for a in awards if a.player not in dealt) + tuple(
            PrizeAward(places[p], p, amount + (state.deal.kept if p == state.winner else 0))
            for p, amount in dealt.items())
        awards = tuple(sorted(awards, key=lambda a: (a.place, a.player)))
    bounties: list[BountyAward] = []
    unclaimed = 0
    if money.bounty:
        held = {e.player: 0 for e in state.entrants}
        held[state.winner] += 1  # the winner keeps his own bounty chip
        for e in state.entrants:
            if e.bounty_to:
                held[e.bounty_to] += 1
            elif e.player != state.winner:
                unclaimed += money.bounty
        bounties = [BountyAward(p, n, n * money.bounty) for p, n in held.items() if n]
    # The payout line of the structure (tournament_created holds its percentages), or the
    # satellite's seats.
    if satellite.seat_value:
        rule = "satellite"
    else:
        bracket = payout_bracket(state.structure, field)
        rule = f"payouts:{bracket.min_players}-{bracket.max_players}"
    return PrizesAwarded(pool, field, awards, tuple(bounties), unclaimed, rule,
                         state.overlay, seats)


def award_high_hand(state: TournamentState, players: Sequence[str],
                    hand: str) -> HighHandAwarded:
    """The high-hand jackpot to the holder(s) of the best shown hand, split when equal
    (Octobermuck: 'the HHJP money will be split')."""
    fee = state.structure.money.high_hand_fee
    if not fee:
        raise RuleViolation("structure",
                            f"{state.structure.name} has no high-hand jackpot")
    if state.high_hand is not None:
        raise RuleViolation("high-hand", "the jackpot is already awarded")
    _text(hand, "the high hand")
    entered = {e.player for e in state.entrants if e.high_hand}
    if not players or len(set(players)) != len(players) or any(p not in entered for p in players):
        raise RuleViolation("octobermuck-high-hand-jackpot",
                            "name the jackpot entrant(s) holding the high hand: only "
                            "entrants who paid the fee share it",
                            tuple(sorted(entered)))
    pool = fee * len(entered)
    base, odd = divmod(pool, len(players))
    shares = tuple(JackpotShare(p, base + (1 if i < odd else 0)) for i, p in enumerate(players))
    return HighHandAwarded(hand, pool, shares)


# --- rulings and penalties ------------------------------------------------------------------


def record_ruling(state: TournamentState, rule: str, text: str, by: str, stream: str = "",
                  version: int = 0) -> RulingRecorded:
    """A director's ruling, the rule it rests on, and the stream event it affects."""
    for value, what in ((rule, "the rule"), (text, "the ruling"), (by, "who ruled")):
        _text(value, what)
    if version < 0:
        raise RuleViolation("record", "a stream version is not negative")
    return RulingRecorded(cite(rule), text, by, stream, version)


def record_penalty(state: TournamentState, player: str, penalty: str, rule: str, text: str,
                   by: str, hands: int = 0) -> PenaltyRecorded:
    if state.entrant(player) is None:
        raise RuleViolation("penalty", f"{player} is not registered")
    for value, what in ((penalty, "the penalty"), (rule, "the rule"), (by, "who ruled")):
        _text(value, what)
    if hands < 0:
        raise RuleViolation("penalty", "hands must not be negative")
    return PenaltyRecorded(player, penalty, cite(rule), text, by, hands)
