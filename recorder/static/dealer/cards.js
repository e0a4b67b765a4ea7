// @ts-check
// Card entry: the 52-card picker (cards already seen are greyed out) for the board, the shown
// hands, hole cards and an exposed card; and what its taps record.

import { record } from "./outbox.js";
import { render } from "./render.js";
import { renderSheet } from "./sheets.js";
import { H, RANKS, S, SUITS, nameOf } from "./store.js";

export function knownCards() {
  const known = new Set(S.state.hand ? S.state.hand.known_cards : []);
  for (const c of S.ui.picked) known.delete(c);
  return known;
}

export function picker(count, title, confirmAction, confirmLabel) {
  const known = knownCards();
  let html = `<div class="sheet-title">${H.esc(title)}</div><div class="picker">`;
  for (const suit of SUITS) {
    for (const rank of RANKS) {
      const card = rank + suit;
      const picked = S.ui.picked.includes(card);
      const seen = known.has(card) && !picked;
      html += `<button type="button" class="pick suit-${suit}${picked ? " picked" : ""}" data-action="pick" data-card="${card}"${seen ? " disabled" : ""}>${rank === "T" ? "10" : rank}<span>${{ s: "♠", h: "♥", d: "♦", c: "♣" }[suit]}</span></button>`;
    }
  }
  html += "</div>";
  const ready = S.ui.picked.length === count;
  html += `<div class="row sheet-actions"><button type="button" class="btn" data-action="close">Cancel</button><button type="button" class="btn" data-action="clear-pick">Clear</button><button type="button" class="btn primary" data-action="${confirmAction}"${ready ? "" : " disabled"}>${H.esc(confirmLabel)} ${H.esc(H.cardsText(S.ui.picked))}</button></div>`;
  return html;
}

/** @type {Record<string, (el: any) => void>} */
export const cardTaps = {
  "open-board"() {
    S.ui.sheet = "board";
    S.ui.picked = [];
    render();
  },
  "open-show"(el) {
    S.ui.sheet = "show";
    S.ui.player = Number(el.dataset.player);
    // Hole cards the dealer recorded are the ones shown: preselected, one tap to confirm.
    const seat = S.state.seats.find((x) => x.position === S.ui.player && x.in_hand);
    S.ui.picked = seat && seat.hole && seat.hole.length === 2 ? seat.hole.slice() : [];
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
    const limit = { board: S.state.hand.board_due || 1, show: 2, hole: 2, "expose-card": 1 }[S.ui.sheet] || 1;
    if (S.ui.picked.includes(card)) S.ui.picked = S.ui.picked.filter((c) => c !== card);
    else if (S.ui.picked.length < limit) S.ui.picked.push(card);
    else if (limit === 1) S.ui.picked = [card];
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
    record({ type: "show_cards", player: S.ui.player, cards: cards.join("") }, `${nameOf(S.ui.player)} shows ${H.cardsText(cards)}`);
  },
  hole() {
    const cards = S.ui.picked.slice();
    record({ type: "deal_hole", player: S.ui.player, cards: cards.join("") }, `${nameOf(S.ui.player)} dealt ${H.cardsText(cards)}`);
  },
  expose() {
    const card = S.ui.picked[0];
    record({ type: "expose_card", player: S.ui.player, card, in_deal: S.ui.inDeal }, `${nameOf(S.ui.player)}: ${H.cardsText([card])} exposed`);
  },
};
