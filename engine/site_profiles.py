"""House rules of online sites, for hands imported from their hand histories (the data:
engine/profiles.py derives the profiles, `SITE_PROFILES`, from the TDA baseline).

An online hand is judged by the site's rules, not a live room's: `handlog import` picks the
profile from the file's hand header (replay/import_sites.py, replay/import_hands.py). Each is
the TDA baseline with what the site's software does differently, cited from the site's own
hand-history text (the only document of its rules we read):

- a losing hand may be mucked at a showdown with a player all-in (the texts record `mucks
  hand` / `mucks` / `does not show` by a player in such a pot), where TDA 16 tables every hand;
  GGPoker alone turns every hand up, as TDA 16 does;
- the rest (full-raise reopening, minimum raises, side pots, the odd chip left of the button)
  is the TDA's, which the sites' texts agree with.

What a site's text carries that is no engine rule is read by the importer: the rake (given back
to a lone winner where the text states it, so a hand that balances by its own text is never a
mismatch), cash games' blinds and cents. Straddles and a board run twice are not played by the
engine: such hands are listed as not replayed, with the reason.
"""

from __future__ import annotations

SiteChanges = dict[str, tuple[object, str]]
"""A site's parameters that differ from the TDA baseline: name -> (value, citation)."""

_MUCK_EXAMPLES = {
    "pokerstars": "PokerStars: '<player>: mucks hand' after '*** SHOW DOWN ***' in a pot with "
                  "an all-in (HHSmithy sample PokerStars/CashGame/Limits/Limit5.txt)",
    "fulltilt": "Full Tilt Poker: 'theking881 calls $138, and is all in' ... '*** SHOW DOWN "
                "***' ... 'theking881 mucks' (HHSmithy sample FullTilt/CashGame/"
                "HandActionTests/AllInHandWithShowdown.txt)",
    # No sample of these with a muck beside an all-in is at hand: their texts write a hand
    # left unshown at a showdown, and online software does not table it.
    "ipoker": "iPoker: pocket cards left unshown ('X X') at a showdown",
    "ongame": "Ongame: a player at a showdown without cards in the summary",
    "partypoker": "PartyPoker: '<player> does not show cards.'",
    "absolute": "Absolute Poker: '<player> - Mucks' / '- Does not show'",
    "winamax": "Winamax: 'LEROISALO raises 20.35€ to 22.85€ and is all-in' ... 'Seat 4: "
               "LEROISALO (button) mucked' (HHSmithy sample Winamax/CashGame/HandActionTests/"
               "AllInHandWithShowdown.txt)",
    "888": "888poker: 'MomWasRight mucks [ 4s, 4c ]' after '** Summary **' (HHSmithy sample "
           "Pacific/CashGame/StreetTests/River.txt)",
}
SITE_TITLES = {
    "pokerstars": "PokerStars", "fulltilt": "Full Tilt Poker", "ipoker": "iPoker network",
    "ongame": "Ongame network", "partypoker": "PartyPoker", "absolute": "Absolute Poker",
    "winamax": "Winamax", "ggpoker": "GGPoker", "888": "888poker",
}
SITE_CHANGES: dict[str, SiteChanges] = {
    name: {"all_in_hands_tabled": (False, f"{example}: the site lets a losing hand be mucked "
                                   "even with a player all-in")}
    for name, example in _MUCK_EXAMPLES.items()
}
# GGPoker turns every hand up once a player is all-in and called: its texts show them all
# before the board is dealt, as TDA 16 asks.
SITE_CHANGES["ggpoker"] = {"all_in_hands_tabled": (True, (
    "GGPoker: 'Hero: raises 31,803 to 35,303 and is all-in' / '57f81f34: calls 31,803' / "
    "'Hero: shows [Kh As]' / '57f81f34: shows [Ac Ah]' before '*** FLOP ***' (poker-copilot "
    "sample GGtest.txt): every hand at an all-in showdown is shown"))}
