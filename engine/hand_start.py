"""How a hand starts: the set-up checked, the forced posts in their order, the first state."""

from __future__ import annotations

from typing import Any, NoReturn

from handlog.engine import HANDLOG_VERSION
from handlog.engine.errors import RuleViolation
from handlog.engine.events import (
    ChipsPosted,
    HandEvent,
    HandKilled,
    HandStarted,
)
from handlog.engine.hand_state import (
    _FALSES,
    _NONES,
    _NOT_ACTED,
    _PREBUILT,
    _ZEROS,
    NOT_ACTED,
    POSTING,
    HandSetup,
    HandState,
    _build,
    _largest,
    _smallest,
)
from handlog.engine.profiles import (
    PROFILES,
    Profile,
    profile_digest,
    rules_for,
)
from handlog.engine.words import render_rule

# --- start ---------------------------------------------------------------------------------


def forced_posts(setup: HandSetup, profile: Profile) -> tuple[tuple[int, str, int], ...]:
    """Every post (position, kind, amount), capped by the stack, in the order they are made."""
    blinds, antes, stacks = setup.blinds, setup.antes, setup.stacks
    n = len(stacks)
    big = _largest(blinds) if blinds else 0
    # A blind of the biggest amount is a big blind, a smaller one a small blind.
    if not any(antes):
        posts: list[tuple[int, str, int]] = []
        for i in range(n):
            blind = blinds[i]
            if blind > 0 and stacks[i] > 0:
                posts.append((i, "big_blind" if blind == big else "small_blind",
                              blind if blind < stacks[i] else stacks[i]))
        return tuple(posts)
    blind_positions = [i for i in range(n) if blinds[i] > 0]
    remaining = list(stacks)
    posts = []

    def post(i: int, kind: str, owed: int) -> None:
        amount = min(owed, remaining[i])
        if amount > 0:
            remaining[i] -= amount
            posts.append((i, kind, amount))

    ante_first = profile.big_blind_ante_order == "ante_first"
    blind_first_positions = set()
    if not ante_first:
        # A big-blind ante: the big blind comes before the ante he owes for the table.
        blind_first_positions = {i for i in range(n) if antes[i] and blinds[i]}
    for i in sorted(blind_first_positions):
        post(i, "big_blind" if blinds[i] == big else "small_blind", blinds[i])
    for i in range(n):
        if antes[i]:
            post(i, "ante", antes[i])
    for i in blind_positions:
        if i not in blind_first_positions:
            post(i, "big_blind" if blinds[i] == big else "small_blind", blinds[i])
    return tuple(posts)


def _validate_setup(setup: HandSetup) -> Profile:
    stacks, blinds, antes = setup.stacks, setup.blinds, setup.antes
    n = len(stacks)
    if n < 2 or len(blinds) != n or len(antes) != n or _smallest(stacks) < 0 \
            or _smallest(blinds) < 0 or _smallest(antes) < 0 or setup.min_bet <= 0 \
            or setup.chip_unit <= 0 or setup.dead_money < 0 \
            or (setup.denominations and _bad_denominations(setup)):
        _refuse_setup(setup)
    profile = rules_for(setup.profile, setup.rules_digest)
    if n > 2 and n - blinds.count(0) > 2:
        _refuse_straddle(setup, profile)
    return profile


def _refuse_straddle(setup: HandSetup, profile: Profile) -> NoReturn:
    """More than two blinds is a straddle. The engine plays none, so no profile offers one
    (BSE 'Straddle blinds are not allowed.'; TDA 2024 has no straddle rule: the forced bets
    are the posted structure's blinds and antes)."""
    posted = ", ".join(f"position {i} {b}" for i, b in enumerate(setup.blinds) if b)
    rule = profile.rule("straddle")
    raise RuleViolation(
        rule,
        f"a hand set up with more than two blinds ({posted}) carries a straddle; the "
        f"{profile.name} rules allow none ({render_rule(rule, profile)})",
        ("a small blind and a big blind", "a big blind alone (dead small blind)"))


def _refuse_setup(setup: HandSetup) -> NoReturn:
    n = len(setup.stacks)
    if n < 2:
        raise RuleViolation("setup", f"a hand needs at least 2 players, got {n}")
    for name in ("blinds", "antes"):
        if len(getattr(setup, name)) != n:
            raise RuleViolation("setup", f"{name} has {len(getattr(setup, name))} entries "
                                f"for {n} players")
    if min(setup.stacks) < 0 or min(setup.blinds) < 0 or min(setup.antes) < 0:
        raise RuleViolation("setup", "stacks, blinds and antes must not be negative")
    if setup.min_bet <= 0 or setup.chip_unit <= 0:
        raise RuleViolation("setup", "min_bet and chip_unit must be positive")
    if setup.dead_money < 0:
        raise RuleViolation("setup", f"dead money must not be negative, got {setup.dead_money}")
    if setup.denominations and _bad_denominations(setup):
        raise RuleViolation("setup", f"the chips in play {list(setup.denominations)} must be "
                            f"distinct, smallest first, the smallest being chip_unit "
                            f"({setup.chip_unit}) and each a multiple of it")
    raise AssertionError("_refuse_setup called on a valid setup")


def _bad_denominations(setup: HandSetup) -> bool:
    values = setup.denominations
    return values[0] != setup.chip_unit or any(
        b <= a or b % setup.chip_unit for a, b in zip(values, values[1:], strict=False))


def hand_started_event(setup: HandSetup) -> HandStarted:
    n = len(setup.stacks)
    rules = rules_for(setup.profile, setup.rules_digest)
    return HandStarted(
        hand_number=setup.hand_number,
        players=setup.players or tuple(f"p{i + 1}" for i in range(n)),
        seats=setup.seats or tuple(range(1, n + 1)),
        stacks=setup.stacks,
        blinds=setup.blinds,
        antes=setup.antes,
        min_bet=setup.min_bet,
        chip_unit=setup.chip_unit,
        profile=setup.profile,
        button_seat=setup.button_seat,
        level=setup.level,
        small_blind_seat=setup.small_blind_seat,
        big_blind_seat=setup.big_blind_seat,
        absent=setup.absent,
        dead_money=setup.dead_money,
        rules_digest=profile_digest(rules),
        handlog_version=HANDLOG_VERSION,
        denominations=setup.denominations,
    )


def setup_from_event(event: HandStarted) -> HandSetup:
    return HandSetup(
        stacks=event.stacks, blinds=event.blinds, antes=event.antes, min_bet=event.min_bet,
        chip_unit=event.chip_unit, profile=event.profile, players=event.players,
        seats=event.seats, hand_number=event.hand_number, button_seat=event.button_seat,
        level=event.level, small_blind_seat=event.small_blind_seat,
        big_blind_seat=event.big_blind_seat, absent=event.absent, dead_money=event.dead_money,
        rules_digest=_other_rules(event), chips_checked=bool(event.handlog_version),
        denominations=event.denominations,
    )


def _other_rules(event: HandStarted) -> str:
    # The set-up names other rules only when they are not today's profile of that name, so a
    # hand replayed from its events has the same state as the hand played live.
    digest = event.rules_digest
    if not digest:
        return ""
    today = PROFILES.get(event.profile)
    return "" if today is not None and profile_digest(today) == digest else digest


def begin(setup: HandSetup) -> tuple[HandEvent, ...]:
    """The events that start a hand: what it started with, every forced post, then the hands
    killed at the deal (TDA 30: players away from their seats when the deal is complete)."""
    profile = _validate_setup(setup)
    return _begin_events(setup, _new_hand(setup, profile))


def _begin_events(setup: HandSetup, state: HandState) -> tuple[HandEvent, ...]:
    events: list[HandEvent] = [hand_started_event(setup)]
    events.extend(_post_events(setup, state.posts_due))
    events.extend(_deal_kills(setup, state.profile))
    return tuple(events)


def _post_events(setup: HandSetup,
                 posts: tuple[tuple[int, str, int], ...]) -> list[ChipsPosted]:
    remaining = list(setup.stacks)
    events = []
    for i, kind, amount in posts:
        remaining[i] -= amount
        events.append(ChipsPosted(i, kind, amount, remaining[i] == 0))
    return events


def _deal_kills(setup: HandSetup, profile: Profile) -> list[HandKilled]:
    return [HandKilled(i, "absent_at_deal", ("tda-30",))
            for i in _killed_at_deal(setup, profile)]


def _killed_at_deal(setup: HandSetup, profile: Profile) -> list[int]:
    """TDA 30 (`absent_hand_killed_at_deal`): the hand of a player away from his seat when the
    deal is complete is killed at once, and his posts forfeit to the pot. A deal with fewer
    than two players at their seats kills nobody (there would be no hand to play): the absent
    hands are then killed when the action reaches them, as for a player who leaves later."""
    if not setup.absent or not profile.absent_hand_killed_at_deal:
        return []
    n = len(setup.stacks)
    away = sorted({i for i in setup.absent if 0 <= i < n})
    return away if n - len(away) >= 2 else []


def initial_state(event: HandStarted) -> HandState:
    """The state right after hand_started, before the posts (replay's starting point)."""
    return new_hand(setup_from_event(event))


def new_hand(setup: HandSetup) -> HandState:
    return _new_hand(setup, rules_for(setup.profile, setup.rules_digest))


def _new_hand(setup: HandSetup, profile: Profile) -> HandState:
    return _build(_new_values(setup, profile))


def _new_values(setup: HandSetup, profile: Profile) -> list[Any]:
    """A new hand's state values, in field order (a HandState with keywords costs as much as the
    hand's first few events)."""
    n = len(setup.stacks)
    if n < _PREBUILT:
        zeros, falses, nones, not_acted = _ZEROS[n], _FALSES[n], _NONES[n], _NOT_ACTED[n]
    else:
        zeros, falses, nones, not_acted = (0,) * n, (False,) * n, (None,) * n, (NOT_ACTED,) * n
    absent = tuple(i in setup.absent for i in range(n)) if setup.absent else falses
    return [
        setup, profile, POSTING, 0, setup.stacks, zeros,  # setup .. bets
        zeros, setup.dead_money, falses, nones, nones, (),  # committed .. board
        None, 0, setup.min_bet, not_acted,  # to_act .. acted_level
        None, None, False, forced_posts(setup, profile),  # aggressor .. posts_due
        0, 0, 0, falses, zeros, absent,  # actions_in_turn .. absent
        zeros, 0, (), 0, 0, -1, 0, (), 0,  # returned .. full_level
    ]
