"""Money to the cent: who collects a bounty, the high hand shown, and where every cent of a
tournament went (all amounts in the smallest currency unit).

- Bounties (Octobermuck Bounties: 'If the all-in player loses the hand (and is covered by the
  victor) the victor gets to add the departed player's Bounty chip'): the winner of the pot
  that takes the player's last chips (the highest pot he was eligible for) collects it; a split
  of that pot, or an elimination outside a hand, is not settled by the rules: the director
  decides, with the engine's proposal (the winners who covered him, most chips first).
- The high hand (Octobermuck High Hand Jackpot: 'We will start keeping track of high hands when
  the first flush is made. ... it must be shown ... before the next hand is dealt ... suits will
  not be used to break a tie'): a flush or better, shown, among the jackpot's entrants.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from handlog.engine.cards import card_text, parse_card
from handlog.engine.errors import RuleViolation
from handlog.engine.evaluator import FLUSH, best_five, evaluate
from handlog.engine.hand_state import HandState
from handlog.engine.structure import re_entry_price
from handlog.engine.tournament_events import BountyAssigned, HighHandFeeRecorded, HighHandPosted
from handlog.engine.tournament_state import TournamentState

BOUNTY_RULE = "octobermuck-bounties"
HIGH_HAND_RULE = "octobermuck-high-hand-jackpot"
GUARANTEE_RULE = "money:guarantee"
COVERING_WINNER = "covering_winner"
SPLIT_POT = "split_pot"
NO_POT = "no_pot"


@dataclass(frozen=True, slots=True)
class BountyCall:
    """Who collects a player's bounty: `to` ("" when the director decides), the `proposal`
    (players who could, best first) and why (`code`)."""

    to: str
    proposal: tuple[str, ...]
    code: str


def bounty_for(hand: HandState | None, player: str) -> BountyCall:
    """The collector of `player`'s bounty, who has just lost his last chips in `hand`.

    >>> bounty_for(None, "p1")
    BountyCall(to='', proposal=(), code='no_pot')
    """
    if hand is None or player not in hand.setup.players:
        return BountyCall("", (), NO_POT)
    setup = hand.setup
    position = setup.players.index(player)
    lost = [a for a in hand.awards if position in a.eligible and a.amount > 0]
    if not lost:
        return BountyCall("", (), NO_POT)
    last = max(lost, key=lambda a: a.pot)
    covering = sorted((w for w in last.winners if setup.stacks[w] >= setup.stacks[position]),
                      key=lambda w: (-setup.stacks[w], w))
    names = tuple(setup.players[w] for w in covering)
    if len(last.winners) == 1 and names:
        return BountyCall(names[0], names, COVERING_WINNER)
    return BountyCall("", names, SPLIT_POT)


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand shown in `hand_number` at `table`: the five cards that play."""

    player: str
    table: str
    hand_number: int
    cards: tuple[str, ...]

    @property
    def value(self) -> int:
        return evaluate([parse_card(c) for c in self.cards])


def high_hands_shown(hand: HandState, table: str, entered: Collection[str]) -> list[ShownHand]:
    """The flushes or better shown in a finished hand by jackpot entrants (hole cards first,
    so a hole card plays over a board card of the same rank)."""
    out: list[ShownHand] = []
    board = tuple(hand.board)
    for position, shown in enumerate(hand.shown):
        player = hand.setup.players[position]
        if shown is None or player not in entered or len(shown) + len(board) < 5:
            continue
        five = best_five(tuple(shown) + board)
        if evaluate(five) >> 20 >= FLUSH:
            out.append(ShownHand(player, table, hand.setup.hand_number,
                                 tuple(card_text(c) for c in five)))
    return out


def best_high_hands(current: Sequence[ShownHand], new: Sequence[ShownHand]) -> list[ShownHand]:
    """Of `new`, the hands that beat or equal the best so far (`current`): the ones to post.
    Equal values are equal hands: suits never break a tie."""
    best = max((h.value for h in current), default=-1)
    top = max((h.value for h in new), default=-1)
    if top < best or top < 0:
        return []
    return [h for h in new if h.value == top]


@dataclass(frozen=True, slots=True)
class MoneyBlock:
    """Where the money of a tournament went, in the smallest currency unit.

    `buy_ins` are the persons' first entries; `re_entries`, `rebuys` and `add_ons` what the
    others paid; `overlay` the house's money added to reach its guarantee; `seats_awarded`
    the value of a satellite's seats (paid to the target event). `unaccounted` = buy_ins +
    re_entries + rebuys + add_ons + high_hand_pool + overlay - fees - prizes_paid -
    seats_awarded - bounties_paid - high_hand_paid (+ carried_in, the prize pool a next day
    takes from its flights, - carried_out, the pool a flight hands on): money taken in and not
    paid out (0 once a tournament is settled)."""

    buy_ins: int
    fees: int
    bounty_pool: int
    high_hand_pool: int
    prizes_paid: int
    bounties_paid: int
    high_hand_paid: int
    re_entries: int = 0
    rebuys: int = 0
    add_ons: int = 0
    carried_in: int = 0
    carried_out: int = 0
    overlay: int = 0
    seats_awarded: int = 0

    @property
    def unaccounted(self) -> int:
        return (self.buy_ins + self.re_entries + self.rebuys + self.add_ons
                + self.high_hand_pool + self.overlay + self.carried_in - self.fees
                - self.prizes_paid - self.seats_awarded - self.bounties_paid
                - self.high_hand_paid - self.carried_out)

    def as_dict(self) -> dict[str, int]:
        return {"buy_ins": self.buy_ins, "re_entries": self.re_entries, "rebuys": self.rebuys,
                "add_ons": self.add_ons, "overlay": self.overlay, "fees": self.fees,
                "bounty_pool": self.bounty_pool, "high_hand_pool": self.high_hand_pool,
                "prizes_paid": self.prizes_paid, "seats_awarded": self.seats_awarded,
                "bounties_paid": self.bounties_paid, "high_hand_paid": self.high_hand_paid,
                **({"carried_in": self.carried_in, "carried_out": self.carried_out}
                   if self.carried_in or self.carried_out else {}),
                "unaccounted": self.unaccounted}


# --- decisions on the tournament --------------------------------------------------------------


def assign_bounty(state: TournamentState, player: str, to: str, by: str,
                  rule: str = BOUNTY_RULE) -> BountyAssigned:
    """The director settles a referred bounty: `to` must be one of the engine's proposal (any
    other entrant when it proposed nobody)."""
    referred = next((b for b in state.bounties_referred if b.player == player), None)
    if referred is None:
        raise RuleViolation(BOUNTY_RULE, f"{player}'s bounty is not waiting for a decision",
                            tuple(b.player for b in state.bounties_referred))
    allowed = referred.proposal or tuple(e.player for e in state.entrants if e.player != player)
    if to not in allowed:
        raise RuleViolation(BOUNTY_RULE, f"{to or 'nobody'} cannot collect {player}'s bounty",
                            allowed)
    if not by.strip():
        raise RuleViolation("record", "who ruled must not be empty")
    return BountyAssigned(player, to, rule, by)


def record_high_hand_fee(state: TournamentState, player: str, paid: bool,
                         by: str) -> HighHandFeeRecorded:
    """The director records that `player` paid the high-hand fee (or did not: a tick given in
    error), any time before the jackpot is awarded; the pool is the fee times the entrants
    who paid, so a fee recorded after the award would be money nobody can be paid."""
    if not state.structure.money.high_hand_fee:
        raise RuleViolation("structure", f"{state.structure.name} has no high-hand jackpot")
    entrant = state.entrant(player)
    if entrant is None:
        raise RuleViolation("high-hand", f"no entrant {player!r}",
                            tuple(e.player for e in state.entrants))
    if state.high_hand is not None:
        raise RuleViolation(HIGH_HAND_RULE, "the jackpot is already awarded: its pool can no "
                            "longer change")
    if entrant.high_hand == paid:
        raise RuleViolation("high-hand", f"{entrant.name}'s high-hand fee is already recorded "
                            f"as {'paid' if paid else 'not paid'}")
    if not by.strip():
        raise RuleViolation("record", "who recorded the fee must not be empty")
    return HighHandFeeRecorded(player, paid, by)


def post_high_hands(state: TournamentState, shown: Sequence[ShownHand]) -> list[HighHandPosted]:
    """The hands of one finished hand that go on the high-hand board (none without a
    jackpot): the flushes or better that beat or equal the best so far."""
    if not state.structure.money.high_hand_fee or state.high_hand is not None:
        return []
    current = [ShownHand(h.player, h.table, h.hand_number, h.cards) for h in state.high_hands]
    return [HighHandPosted(h.player, h.table, h.hand_number, h.cards)
            for h in best_high_hands(current, shown)]


def high_hand_proposal(state: TournamentState) -> tuple[tuple[str, ...], str]:
    """Who holds the high hand (several when equal) and its five cards: what the director
    confirms at the end."""
    if not state.high_hands:
        return (), ""
    players = tuple(dict.fromkeys(h.player for h in state.high_hands))
    return players, " ".join(state.high_hands[0].cards)


def money_block(state: TournamentState) -> MoneyBlock:
    """Where the tournament's money went (see MoneyBlock): the house keeps each kind's price
    less its share of the prize pool (and of the bounties)."""
    s = state.structure
    money = s.money
    firsts = sum(1 for e in state.entrants if e.entry == 1 and not e.carried)
    re_entries = sum(1 for e in state.entrants if e.entry > 1)
    re_cost, re_pool = re_entry_price(s)
    rebuys = sum(e.rebuys for e in state.entrants)
    add_ons = sum(1 for e in state.entrants if e.add_on)
    house = (firsts * max(0, money.buy_in - money.prize_pool_per_entry - money.bounty)
             + re_entries * max(0, re_cost - re_pool - money.bounty)
             + rebuys * (s.rebuy.cost - s.rebuy.prize_pool)
             + add_ons * (s.add_on.cost - s.add_on.prize_pool))
    prizes = state.prizes
    return MoneyBlock(
        buy_ins=firsts * money.buy_in,
        fees=house,
        bounty_pool=len(state.entrants) * money.bounty,
        high_hand_pool=money.high_hand_fee * sum(1 for e in state.entrants if e.high_hand),
        prizes_paid=sum(a.amount for a in prizes.awards) if prizes else 0,
        bounties_paid=sum(b.amount for b in prizes.bounties) if prizes else 0,
        high_hand_paid=(sum(s.amount for s in state.high_hand.shares)
                        if state.high_hand else 0),
        re_entries=re_entries * re_cost,
        rebuys=rebuys * s.rebuy.cost,
        add_ons=add_ons * s.add_on.cost,
        carried_in=state.day_started.prize_pool if state.day_started is not None else 0,
        carried_out=state.day_ended.prize_pool if state.day_ended is not None else 0,
        overlay=prizes.overlay if prizes else state.overlay,
        seats_awarded=sum(a.value for a in prizes.seats) if prizes else 0,
    )


def entry_paid(state: TournamentState, player: str) -> int:
    """What one entry paid in cents: its price (a first entry's buy-in, a re-entry's price),
    its rebuys and its add-on (the high-hand fee is the jackpot's, not the entry's)."""
    entry = state.entrant(player)
    if entry is None:
        return 0
    s = state.structure
    price = s.money.buy_in if entry.entry == 1 else re_entry_price(s)[0]
    return price + entry.rebuys * s.rebuy.cost + (s.add_on.cost if entry.add_on else 0)


def entries_by_person(state: TournamentState) -> list[dict[str, object]]:
    """Per person, in order of first entry: his name and each entry (id, kind, what it paid,
    rebuys, add-on, place, prize). Places and prizes belong to the entry."""
    prizes: dict[str, int] = {}
    if state.prizes is not None:
        for award in state.prizes.awards:
            prizes[award.player] = prizes.get(award.player, 0) + award.amount
    people: dict[str, dict[str, object]] = {}
    for e in state.entrants:
        row = people.setdefault(e.who, {"person": e.who, "name": e.name, "entries": []})
        entries = row["entries"]
        assert isinstance(entries, list)
        entries.append({"entry": e.player, "kind": "entry" if e.entry == 1 else "re_entry",
                        "paid": entry_paid(state, e.player), "rebuys": e.rebuys,
                        "add_on": e.add_on, "place": e.place,
                        "prize": prizes.get(e.player, 0)})
    return list(people.values())


def money_findings(state: TournamentState) -> list[tuple[str, str, str, str]]:
    """(rule, message code, expected, recorded) for a finished tournament whose money is not
    settled: prizes missing, bounties waiting, or money unaccounted for."""
    if not state.finished:
        return []
    block = money_block(state)
    found: list[tuple[str, str, str, str]] = []
    pool = state.prize_pool
    if pool and state.prizes is None and state.day_ended is None:
        found.append(("prizes", "prizes_missing", str(pool), "0"))
    if state.prizes is not None and (state.prizes.pool, state.prizes.overlay) != \
            (pool, state.overlay):
        # The guarantee decides the pool and the house's overlay: both are checked.
        found.append((GUARANTEE_RULE, "pool_differs", f"{pool} ({state.overlay} overlay)",
                      f"{state.prizes.pool} ({state.prizes.overlay} overlay)"))
    if state.bounties_referred:
        found.append((BOUNTY_RULE, "bounty_undecided", "0", str(len(state.bounties_referred))))
    if block.unaccounted:
        found.append(("money", "unaccounted", "0", str(block.unaccounted)))
    return found
