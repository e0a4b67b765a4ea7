// @ts-check
// The sheets over the table: the card picker, a seat, the misdeal, the exposed card, and the
// director's rulings at the table (a hand killed, the hand void, the pots awarded by ruling,
// entries voided, an amount amended); each ruling needs the rule and the reason.

import { html, nothing, render as paint } from "../lit.js";
import { picker } from "./cards.js";
import { record } from "./outbox.js";
import { render, renderAlert } from "./hooks.js";
import { $, H, S, busy, canRecord, nameOf, queuedCards, queuesAsTapped, seatName } from "./store.js";

export function renderSheet() {
  const sheet = $("sheet");
  const view = S.ui.sheet && canRecord() && !busy() ? sheetView() : null;
  sheet.hidden = !view;
  // lit-html updates the sheet in place: what the director is typing keeps its focus and caret
  // when the live view redraws it.
  paint(view || nothing, sheet);
}

const CLOSE = html`<div class="row sheet-actions"><button type="button" class="btn" data-action="close">Cancel</button></div>`;
// 1st, 2nd, 3rd, 4th ... 11th ... 21st.
const ordinal = (n) => `${n}${n % 100 >= 10 && n % 100 <= 20 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"}`;
const MISDEALS = ["card exposed in the deal", "wrong number of cards", "button misplaced", "deck problem"];

/** The open sheet's content, or null when there is none to show. */
function sheetView() {
  const hand = S.state.hand;
  const s = S.ui.sheet;
  if (s === "board" && hand) {
    const dealt = queuesAsTapped() ? queuedCards().board.length : hand.board.length;
    const due = queuesAsTapped() ? (dealt ? 1 : 3) : hand.board_due || 1;
    const street = dealt ? (dealt === 3 ? "turn" : "river") : "flop";
    return picker(due, `Deal the ${street}: pick ${due} card${due > 1 ? "s" : ""}`, "deal", `Deal ${street}`);
  }
  if (s === "show") {
    const name = S.ui.queuedSeat ? seatName(S.ui.queuedSeat) : nameOf(S.ui.player);
    return picker(2, `${name} shows: pick 2 cards`, "show", `${name} shows`);
  }
  if (s === "queue-show") {
    // Offline, queued as tapped: by seat (the server finds who sits there in its hand).
    const players = S.state.seats.filter((seat) => seat.player);
    return html`<div class="sheet-title">Show or muck: whose hand?</div><div class="row wrap">${players.map((seat) => html`<button type="button" class="btn" data-action="queue-pick" data-seat=${seat.seat}>${seat.player} shows</button><button type="button" class="btn" data-action="muck" data-seat=${seat.seat}>${seat.player} mucks</button>`)}</div>${CLOSE}`;
  }
  if (s === "hole") return picker(2, `Hole cards of ${nameOf(S.ui.player)} (optional)`, "hole", "Deal");
  if (s === "expose-card") {
    return picker(1, `Card exposed for ${nameOf(S.ui.player)} (${S.ui.inDeal ? "in the deal" : "by the player"})`, "expose", "Exposed:");
  }
  if (s === "expose") {
    const players = S.state.seats.filter((seat) => seat.in_hand && !seat.folded);
    // In the deal: which card of the deal (the 1st goes left of the button, round twice);
    // the house rules judge it by that place (the first two dealt, the blinds' second cards).
    const dealt = S.state.seats.filter((seat) => seat.in_hand).sort((a, b) => a.position - b.position);
    const places = dealt.concat(dealt).map((seat, i) => html`<button type="button" class="btn" data-action="expose-place" data-place=${i + 1} data-player=${seat.position}>${ordinal(i + 1)} card · ${seat.player}${i >= dealt.length ? " (2nd)" : ""}</button>`);
    const byPlace = S.ui.inDeal
      ? html`<div class="sheet-title">Exposed in the deal: which card of the deal?</div><div class="row wrap" id="deal-places">${places}</div>` : nothing;
    const whose = html`${byPlace}<div class="sheet-title">${S.ui.inDeal ? "Or whose card (its place not known)?" : "Exposed card: whose card?"}</div><div class="row wrap">${players.map((seat) => html`<button type="button" class="btn" data-action="expose-player" data-player=${seat.position}>${seat.player}</button>`)}</div>`;
    return html`${whose}<div class="row"><button type="button" class=${S.ui.inDeal ? "btn primary" : "btn"} data-action="in-deal" data-value="1">During the deal</button><button type="button" class=${S.ui.inDeal ? "btn" : "btn primary"} data-action="in-deal" data-value="0">By the player</button></div>${CLOSE}`;
  }
  if (s === "out-of-turn") return outOfTurnSheet();
  if (s === "misdeal") {
    return html`<div class="sheet-title">Declare a misdeal: why?</div><div class="row wrap">${MISDEALS.map((reason) => html`<button type="button" class="btn" data-action="declare-misdeal" data-reason=${reason}>${reason}</button>`)}</div>${CLOSE}`;
  }
  if (s === "director") return directorSheet();
  if (s === "seat") {
    const seat = S.state.seats.find((x) => x.seat === S.ui.seat);
    if (!seat || !seat.player) {
      S.ui.sheet = null;
      return null;
    }
    const absence = seat.absent
      ? html`<button type="button" class="btn primary" data-action="absence" data-seat=${seat.seat} data-value="0">Returned</button>`
      : html`<button type="button" class="btn" data-action="absence" data-seat=${seat.seat} data-value="1">Absent</button>`;
    const hole = seat.in_hand && S.state.hand_in_progress && !seat.hole && !seat.folded
      ? html`<button type="button" class="btn" data-action="open-hole" data-player=${seat.position}>Hole cards…</button>`
      : nothing;
    return html`<div class="sheet-title">Seat ${seat.seat}: ${seat.player} · ${H.chips(seat.stack)}</div><div class="row wrap">${absence}${hole}</div><div class="row sheet-actions"><button type="button" class="btn" data-action="close">Close</button></div>`;
  }
  return null;
}

// A player acted before his turn (act_out_of_turn): who, and what he did; the engine holds it
// as pending and, when the action reaches him, binds it or gives it back as the profile says.
function outOfTurnSheet() {
  const hand = S.state.hand;
  const toAct = hand && hand.legal ? hand.legal.player : null;
  const players = S.state.seats.filter((seat) => seat.in_hand && !seat.folded && !seat.all_in && seat.position !== toAct);
  const who = S.ui.player !== null && S.ui.player !== undefined;
  return html`<div class="sheet-title">Out of turn: who acted?</div><div class="row wrap out-of-turn-players">${players.map((seat) => toggle("oot-player", { player: seat.position }, seat.player, S.ui.player === seat.position))}</div><div class="row wrap out-of-turn-actions">${["fold", "check", "call"].map((action) => dButton(`oot-${action}`, `${action[0].toUpperCase()}${action.slice(1)}`, "", who))}</div><div class="row"><input id="oot-to" inputmode="numeric" placeholder="Bet or raise to" autocomplete="off">${dButton("oot-bet", "Bet", "", who)}${dButton("oot-raise", "Raise to", "", who)}</div>${CLOSE}`;
}

function outOfTurn(action) {
  const p = S.ui.player;
  if (p === null || p === undefined) return;
  const field = /** @type {HTMLInputElement | null} */ ($("oot-to"));
  const to = action === "bet" || action === "raise" ? parseInt(field ? field.value : "", 10) : 0;
  if ((action === "bet" || action === "raise") && !(to > 0)) {
    S.alertBox = { kind: "refused", title: "An amount is needed", rule: "to", text: `Type the total of the ${action} out of turn.`, legal: [] };
    renderAlert();
    return;
  }
  const words = to ? `${action} ${H.chips(to)}` : action;
  record({ type: "act_out_of_turn", player: p, action, to }, `${nameOf(p)}: ${words} out of turn`);
}

/** @type {Record<string, (el: any) => void>} */
export const outOfTurnTaps = {
  "out-of-turn"() {
    S.ui.sheet = "out-of-turn";
    S.ui.player = null;
    render();
  },
  "oot-player"(el) {
    const p = Number(el.dataset.player);
    S.ui.player = S.ui.player === p ? null : p;
    renderSheet();
  },
  "oot-fold": () => outOfTurn("fold"),
  "oot-check": () => outOfTurn("check"),
  "oot-call": () => outOfTurn("call"),
  "oot-bet": () => outOfTurn("bet"),
  "oot-raise": () => outOfTurn("raise"),
};

// --- the director's rulings at the table -----------------------------------------------------
// A director signed in on the tablet (or the floor's browser) rules here: a hand killed, the
// hand void (foreign or duplicate card), the pots awarded by ruling, earlier entries voided.
// Each needs the rule it rests on and the reason; the log keeps both with the director's name.

export function freshDirector() {
  return { player: null, rule: "", reason: "", winners: null, versions: [], amend: null, to: "" };
}

/**
 * A button of a sheet, off while entries are waiting or until what it needs is chosen.
 * @param {string} action
 * @param {string} label
 * @param {string} cls
 * @param {boolean} enabled
 */
export function dButton(action, label, cls, enabled) {
  return html`<button type="button" class=${`btn ${cls}`} data-action=${action} ?disabled=${busy() || !enabled}>${label}</button>`;
}

/**
 * A choice that is on or off (aria-pressed), with its data (player, pot, version).
 * @param {string} action
 * @param {{player?: number, pot?: number, version?: number}} data
 * @param {string} label
 * @param {boolean} on
 */
export function toggle(action, data, label, on) {
  return html`<button type="button" class=${on ? "btn toggle picked" : "btn toggle"} aria-pressed=${String(on)} data-action=${action} data-player=${data.player ?? nothing} data-pot=${data.pot ?? nothing} data-version=${data.version ?? nothing}>${label}</button>`;
}

export function directorSheet() {
  const d = S.ui.director || (S.ui.director = freshDirector());
  const hand = S.state.hand;
  const inHand = S.state.hand_in_progress;
  const parts = [html`<div class="sheet-title">Director: ruling at the table</div><div class="row wrap director-why"><input id="d-rule" data-field="rule" placeholder="Rule (e.g. TDA 65)" autocomplete="off" .value=${d.rule}><input id="d-reason" data-field="reason" placeholder="Reason" autocomplete="off" .value=${d.reason}></div>`];
  if (inHand && hand.phase !== "showdown") {
    const players = S.state.seats.filter((seat) => seat.in_hand && !seat.folded);
    const who = d.player !== null ? nameOf(d.player) : "";
    parts.push(html`<div class="panel-title">Kill a hand</div><div class="row wrap director-kill">${players.map((seat) => toggle("d-player", { player: seat.position }, seat.player, d.player === seat.position))}</div><div class="row">${dButton("d-kill", who ? `Kill ${who}'s hand` : "Kill the hand", "", !!who)}</div>`);
  }
  if (inHand) {
    parts.push(html`<div class="panel-title">Foreign-back or duplicate card</div><div class="row">${dButton("d-void-hand", "Void the hand: every bet back", "", true)}</div>`);
  }
  if (inHand && hand.phase === "showdown" && hand.pots.length) {
    if (!d.winners) {
      const proposed = (hand.showdown && hand.showdown.proposed) || [];
      d.winners = hand.pots.map((_p, k) => (proposed[k] ? proposed[k].winners.slice() : []));
    }
    const pots = hand.pots.map((pot, k) => html`<div class="row wrap award-pot" data-pot=${k}><b>${pot.name} ${H.chips(pot.amount)}</b>${pot.eligible.map((p) => toggle("d-winner", { pot: k, player: p }, nameOf(p), d.winners[k].includes(p)))}</div>`);
    const ready = d.winners.every((w) => w.length);
    parts.push(html`<div class="panel-title">Award the pots by ruling</div>${pots}<div class="row">${dButton("d-award", "Award as ruled", "primary", ready)}</div>`);
  }
  // What a director voids is an entry: an action, a deal, a post, a push... The table's own
  // set-up (opening, seating, the button, a hand's start) is corrected on the floor.
  const fixed = new Set(["table_opened", "player_seated", "player_left", "button_placed", "hand_started"]);
  const voidable = S.state.events.filter((e) => !e.voided && !e.correction && !fixed.has(e.type)).slice(0, 8);
  if (voidable.length) {
    parts.push(html`<div class="panel-title">Void earlier entries</div><div class="void-list">${voidable.map((e) => toggle("d-version", { version: e.version }, `#${e.version} ${e.text}`, d.versions.includes(e.version)))}</div><div class="row">${dButton("d-void-events", "Void the chosen entries", "", d.versions.length > 0)}</div>`);
  }
  const bets = S.state.events.filter((e) => !e.voided && (e.type === "bet_made" || e.type === "raise_made")).slice(0, 6);
  if (bets.length) {
    const to = parseInt(d.to, 10);
    parts.push(html`<div class="panel-title">Correct a bet's amount</div><div class="void-list amend-list">${bets.map((e) => toggle("d-amend", { version: e.version }, `#${e.version} ${e.text}`, d.amend === e.version))}</div><div class="row"><input id="d-to" data-field="to" inputmode="numeric" placeholder="Right amount (to)" autocomplete="off" .value=${d.to}>${dButton("d-amend-amount", d.amend && to > 0 ? `Amend #${d.amend} to ${H.chips(to)}` : "Amend", "", !!d.amend && to > 0)}</div>`);
  }
  parts.push(html`<div class="row sheet-actions"><button type="button" class="btn" data-action="close">Close</button></div>`);
  return parts;
}

// The rule and the reason, or an alert saying that a ruling needs both.
export function ruling() {
  const d = S.ui.director;
  if (d && d.rule.trim() && d.reason.trim()) return { rule: d.rule.trim(), reason: d.reason.trim() };
  S.alertBox = { kind: "refused", title: "A ruling needs its rule and its reason", rule: "ruling", text: "Fill in the rule (e.g. TDA 65) and the reason; the log keeps both with your name.", legal: [] };
  renderAlert();
  return null;
}

export function watchDirectorInputs() {
  document.addEventListener("input", (event) => {
    const target = /** @type {HTMLInputElement} */ (event.target);
    const field = target.dataset && target.dataset.field;
    if (field && S.ui.director) {
      S.ui.director[field] = target.value;
      if (field === "to") renderSheet(); // the Amend button names the amount
    }
  });
}

/** @type {Record<string, (el: any) => void>} */
export const directorTaps = {
  director() {
    S.ui.sheet = "director";
    S.ui.director = freshDirector();
    render();
  },
  "d-player"(el) {
    const p = Number(el.dataset.player);
    S.ui.director.player = S.ui.director.player === p ? null : p;
    renderSheet();
  },
  "d-winner"(el) {
    const k = Number(el.dataset.pot);
    const p = Number(el.dataset.player);
    const list = S.ui.director.winners[k];
    S.ui.director.winners[k] = list.includes(p) ? list.filter((x) => x !== p) : list.concat([p]).sort((a, b) => a - b);
    renderSheet();
  },
  "d-version"(el) {
    const v = Number(el.dataset.version);
    const list = S.ui.director.versions;
    S.ui.director.versions = list.includes(v) ? list.filter((x) => x !== v) : list.concat([v]).sort((a, b) => a - b);
    renderSheet();
  },
  "d-kill"() {
    const why = ruling();
    const p = S.ui.director.player;
    if (!why || p === null) return;
    record({ type: "kill_hand", player: p, reason: why.reason, rule: why.rule }, `${nameOf(p)}: hand killed (${why.rule})`);
  },
  "d-void-hand"() {
    const why = ruling();
    if (!why) return;
    record({ type: "void_hand", reason: `${why.rule}: ${why.reason}` }, `hand void (${why.rule})`);
  },
  "d-award"() {
    const why = ruling();
    if (!why) return;
    record({ type: "award_pots", winners: S.ui.director.winners, ruling: `${why.rule}: ${why.reason}` }, `pots awarded by ruling (${why.rule})`);
  },
  "d-amend"(el) {
    const v = Number(el.dataset.version);
    S.ui.director.amend = S.ui.director.amend === v ? null : v;
    renderSheet();
  },
  "d-amend-amount"() {
    const why = ruling();
    const to = parseInt(S.ui.director.to, 10);
    if (!why || !S.ui.director.amend || !(to > 0)) return;
    record({ type: "amend_amount", version: S.ui.director.amend, to, reason: why.reason, rule: why.rule }, `#${S.ui.director.amend} amended to ${H.chips(to)} (${why.rule})`);
  },
  "d-void-events"() {
    const why = ruling();
    if (!why) return;
    const versions = S.ui.director.versions.slice();
    record({ type: "void_events", versions, reason: why.reason, rule: why.rule }, `void #${versions.join(", #")} (${why.rule})`);
  },
};
