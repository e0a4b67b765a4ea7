// @ts-check
// Card entry: the 52-card picker (cards already seen are greyed out) for the board, the shown
// hands, hole cards and an exposed card; and what its taps record.

import { html, nothing } from "../lit.js";
import { record, render, renderSheet } from "./hooks.js";
import { H, RANKS, S, SUITS, canRecord, freshUi, nameOf, queuedCards, queuesAsTapped, seatName } from "./store.js";

export function knownCards() {
  const known = new Set(S.state.hand ? S.state.hand.known_cards : []);
  if (queuesAsTapped()) for (const c of queuedCards().seen) known.add(c);
  for (const c of S.ui.picked) known.delete(c);
  return known;
}

/**
 * A new step on screen (another player to act, a board card due, a hand to show) starts a
 * fresh entry and opens its picker; the same step keeps what the dealer has keyed so far.
 * @param {any} hand
 */
export function stepTo(hand) {
  const key = hand ? `${hand.number}:${hand.phase}:${hand.to_act}:${hand.board.length}` : "none";
  if (S.ui.key === key) return;
  S.ui = freshUi();
  S.ui.key = key;
  autoOpen(hand);
}

// The sheet that opens by itself when the view changes (one tap less each): the board picker
// when a board card is due; at a contested showdown, the picker of the first hand to show.
export function autoOpen(hand) {
  if (!hand || !S.state.hand_in_progress || !canRecord()) return;
  if (hand.phase === "board") {
    S.ui.sheet = "board";
    return;
  }
  const sd = hand.showdown;
  if (hand.phase !== "showdown" || !sd || sd.proposed || sd.order.length < 2) return;
  const next = unshown(sd)[0];
  if (next !== undefined) openShow(next);
}

// The hands still to show or muck at the showdown, in the engine's showdown order.
export function unshown(sd) {
  return sd.order.filter((p) => {
    const seat = S.state.seats.find((x) => x.position === p && x.in_hand);
    return seat && !seat.shown && !seat.folded;
  });
}

export function openShow(position) {
  S.ui.sheet = "show";
  S.ui.player = position;
  S.ui.queuedSeat = null;
  // Hole cards the dealer recorded are the ones shown: preselected, one tap to confirm.
  const seat = S.state.seats.find((x) => x.position === position && x.in_hand);
  S.ui.preset = !!(seat && seat.hole && seat.hole.length === 2);
  S.ui.picked = S.ui.preset ? seat.hole.slice() : [];
}

const SUIT_SIGNS = { s: "♠", h: "♥", d: "♦", c: "♣" };

// At the showdown: whose cards these are (the winner's first: tap another name to switch),
// and Muck when the hand may be thrown away unseen (not when an all-in tables every hand).
export function showChoices() {
  const hand = S.state.hand;
  const sd = hand && hand.showdown;
  if (!sd) return nothing;
  const tabled = S.state.seats.some((x) => x.in_hand && !x.folded && x.all_in);
  const others = unshown(sd).filter((p) => p !== S.ui.player);
  return html`<div class="row wrap show-whose">${others.map((p) => html`<button type="button" class="btn small" data-action="open-show" data-player=${p}>${nameOf(p)}'s cards</button>`)}${tabled ? nothing : html`<button type="button" class="btn small" data-action="muck" data-player=${S.ui.player}>${nameOf(S.ui.player)} mucks</button>`}</div>`;
}

/**
 * The 52-card picker with its title and its Cancel, Clear and confirm buttons.
 * @param {number} count how many cards to pick
 * @param {string} title
 * @param {string} confirmAction
 * @param {string} confirmLabel
 */
export function picker(count, title, confirmAction, confirmLabel) {
  const known = knownCards();
  const picks = [];
  for (const suit of SUITS) {
    for (const rank of RANKS) {
      const card = rank + suit;
      const picked = S.ui.picked.includes(card);
      const seen = known.has(card) && !picked;
      picks.push(html`<button type="button" class=${`pick suit-${suit}${picked ? " picked" : ""}`} data-action="pick" data-card=${card} ?disabled=${seen}>${rank === "T" ? "10" : rank}<span>${SUIT_SIGNS[suit]}</span></button>`);
    }
  }
  const ready = S.ui.picked.length === count;
  return html`<div class="sheet-title">${title}</div>${S.ui.sheet === "show" && !S.ui.queuedSeat ? showChoices() : nothing}<div class="picker">${picks}</div><div class="row sheet-actions"><button type="button" class="btn" data-action="close">Cancel</button><button type="button" class="btn" data-action="clear-pick">Clear</button><button type="button" class="btn primary" data-action=${confirmAction} ?disabled=${!ready}>${confirmLabel} ${H.cardsText(S.ui.picked)}</button></div>`;
}

/** @type {Record<string, (el: any) => void>} */
export const cardTaps = {
  "open-board"() {
    S.ui.sheet = "board";
    S.ui.picked = [];
    render();
  },
  "open-show"(el) {
    openShow(Number(el.dataset.player));
    render();
  },
  // Offline, queued as tapped: the hand shown at a seat (queue-show's sheet).
  "queue-pick"(el) {
    S.ui.sheet = "show";
    S.ui.player = null;
    S.ui.queuedSeat = Number(el.dataset.seat);
    S.ui.preset = false;
    S.ui.picked = [];
    render();
  },
  "open-hole"(el) {
    S.ui.sheet = "hole";
    S.ui.player = Number(el.dataset.player);
    S.ui.picked = [];
    render();
  },
  pick(el) {
    const card = el.dataset.card;
    const due = queuesAsTapped() ? (queuedCards().board.length ? 1 : 3) : S.state.hand.board_due || 1;
    const limit = { board: due, show: 2, hole: 2, "expose-card": 1 }[S.ui.sheet] || 1;
    if (S.ui.picked.includes(card)) S.ui.picked = S.ui.picked.filter((c) => c !== card);
    else if (S.ui.picked.length < limit) S.ui.picked.push(card);
    else if (limit === 1) S.ui.picked = [card];
    // The board and a shown hand are recorded on their last card (no confirm tap; Undo
    // takes a slip back). Preselected hole cards still ask for the confirm.
    if (S.ui.picked.length === limit && !S.ui.preset) {
      if (S.ui.sheet === "board") return cardTaps.deal(el);
      if (S.ui.sheet === "show") return cardTaps.show(el);
    }
    renderSheet();
  },
  "clear-pick"() {
    S.ui.picked = [];
    renderSheet();
  },
  close() {
    S.ui.sheet = null;
    S.ui.picked = [];
    render();
  },
  deal() {
    const cards = S.ui.picked.slice();
    record({ type: "deal_board", cards: cards.join("") }, `board ${H.cardsText(cards)}`);
  },
  show() {
    const cards = S.ui.picked.slice();
    const seat = S.ui.queuedSeat;
    if (seat) {
      record({ type: "show_cards", player: null, cards: cards.join("") }, `${seatName(seat)} shows ${H.cardsText(cards)}`, { seat });
      return;
    }
    record({ type: "show_cards", player: S.ui.player, cards: cards.join("") }, `${nameOf(S.ui.player)} shows ${H.cardsText(cards)}`);
  },
  hole() {
    const cards = S.ui.picked.slice();
    record({ type: "deal_hole", player: S.ui.player, cards: cards.join("") }, `${nameOf(S.ui.player)} dealt ${H.cardsText(cards)}`);
  },
  expose() {
    const card = S.ui.picked[0];
    const place = S.ui.inDeal ? S.ui.place || 0 : 0;
    const command = place ? { type: "expose_card", card, in_deal: true, place } : { type: "expose_card", player: S.ui.player, card, in_deal: S.ui.inDeal };
    record(command, `${nameOf(S.ui.player)}: ${H.cardsText([card])}${place ? ` (card ${place} of the deal)` : ""} exposed`);
  },
};
