// @ts-check
// The action panel: the betting buttons, the amount keypad and presets, the chip tray, the
// showdown and the start of the next hand, the tools row; and what their taps record.

import { html, nothing, render as paint } from "../lit.js";
import { startClock, stopClock } from "./clock.js";
import { decidesHere } from "./engine.js";
import { discardConflict, discardHeld, reapplyConflict, record, sendHeld } from "./outbox.js";
import { render } from "./hooks.js";
import { $, H, MODE, S, blocked, canRecord, legal, levelText, nameOf, queuedCards, queuesAsTapped, seatName } from "./store.js";

/**
 * A button that the page's one click handler dispatches by its data-action (main.js); its
 * data (to, key, value, player) go into data- attributes. Off while a conflict or a refusal
 * waits for the dealer.
 * @param {string} action
 * @param {unknown} label text, or a template
 * @param {string} [cls]
 * @param {{to?: number | string, key?: string, value?: number | string, player?: number}} [data]
 */
export function button(action, label, cls, data) {
  const d = data || {};
  return html`<button type="button" class=${`btn ${cls || ""}`} data-action=${action} data-to=${d.to ?? nothing} data-key=${d.key ?? nothing} data-value=${d.value ?? nothing} data-player=${d.player ?? nothing} ?disabled=${blocked()}>${label}</button>`;
}

export function renderActions() {
  paint(actionsView(), $("actions"));
}

function actionsView() {
  if (!canRecord() || !S.state.open) {
    return MODE === "viewer" ? html`<div class="viewer-note">Viewer: read-only. Hole cards appear when shown.</div>` : nothing;
  }
  if (queuesAsTapped()) return queuePanel();
  const hand = S.state.hand;
  if (!hand || !S.state.hand_in_progress) return startPanel();
  if (hand.phase === "betting" && hand.legal) return bettingPanel(hand, hand.legal);
  if (hand.phase === "board") {
    const street = hand.board.length ? (hand.board.length === 3 ? "turn" : "river") : "flop";
    return html`<div class="panel-title">Deal the ${street}</div>${button("open-board", `Pick ${hand.board_due === 3 ? "3 cards" : "1 card"}`, "primary wide")}${hand.showdown ? showdownPanel(hand) : nothing}`;
  }
  if (hand.phase === "showdown") return showdownPanel(hand);
  return html`<div class="panel-title">${hand.next_steps.join(" · ")}</div>`;
}

// Offline without the rules engine here: every entry a hand may need, each queued as tapped
// (the betting for whoever is then to act, the amount as typed; the board; a show or a muck by
// seat; the push; the next hand), the server deciding them in order when the network returns.
function queuePanel() {
  const typed = S.ui.typed ? parseInt(S.ui.typed, 10) : 0;
  const board = queuedCards().board.length;
  const due = board === 0 ? 3 : 1;
  const main = [button("fold", "Fold", "fold"), button("check", "Check", "check"), button("call", "Call", "call"), button("allin", "All-in", "allin")];
  const raise = html`<button type="button" class="btn raise primary wide" data-action="raise" data-to=${typed || nothing} ?disabled=${!typed || blocked()}>${typed ? `Bet/raise to ${H.chips(typed)}` : "Bet/raise: type the amount"}</button>`;
  return html`<div class="panel-title queue-title">Offline: rules not checked here</div><div class="panel-note queue-note">This tablet cannot check the rules offline: each tap is queued as tapped, for whoever is then to act, and the server decides them in order when the network returns.</div><div class="row actions-main">${main}</div><div class="raise-box"><div class="amount"><span>Bet/raise to</span> <output id="amount" data-amount=${typed}>${typed ? H.chips(typed) : "—"}</output></div><div class="keypad">${KEYS.map((key) => button("key", key, "key", { key }))}</div>${raise}</div><div class="row wrap queue-steps">${board < 5 ? button("open-board", `Board: ${due === 3 ? "flop" : board === 3 ? "turn" : "river"}`, "") : nothing}${button("queue-show", "Show / muck…", "")}${button("award", "Push the pot", "")}${button("start", "Start next hand", "")}</div>`;
}

export function startPanel() {
  const next = S.state.next_hand;
  const hand = S.state.hand;
  const parts = [];
  if (hand && hand.phase === "misdealt") parts.push(html`<div class="panel-title">Misdeal: re-deal the same hand</div>`);
  else if (hand && hand.phase === "void") parts.push(html`<div class="panel-title">Hand void: chips returned</div>`);
  if (next && next.ready) {
    const number = hand && (hand.phase === "misdealt" || hand.phase === "void") ? hand.number : S.state.hands_played + 1;
    parts.push(html`<div class="panel-note">Button seat ${next.button_seat} · SB ${next.small_blind_seat ? "seat " + next.small_blind_seat : "dead"} · BB seat ${next.big_blind_seat}${S.state.level ? " · " + levelText(S.state.level) : ""}</div>`);
    if (S.state.carry) parts.push(html`<div class="panel-note carry">${H.chips(S.state.carry)} carried into this pot (odd chips of the color-up): put them in the middle</div>`);
    if (next.hold && next.hold_text && hand) parts.push(html`<div class="panel-note hold" data-hold=${next.hold}>${next.hold_text}</div>`);
    parts.push(button("start", `Start hand #${number}`, "primary wide"));
  } else if (next) {
    parts.push(html`<div class="panel-note">No hand can start: ${next.why.message} (${next.why.rule_words || next.why.rule})</div>`);
  }
  return parts;
}

export function amountOf(legal) {
  if (S.ui.typed) return parseInt(S.ui.typed, 10);
  return legal.min_to;
}

// What is wrong with an amount before it is sent (the server decides again): below the
// minimum, above all-in, or chips the chips in play cannot make; "" when it may be sent.
export function amountProblem(legal, amount) {
  if (amount === legal.max_to) return "";
  if (!(amount >= legal.min_to)) return `below the minimum ${H.chips(legal.min_to)}`;
  if (amount > legal.max_to) return `more than all-in ${H.chips(legal.max_to)}`;
  const step = legal.step || 1;
  if (step > 1 && (amount - (legal.bet || 0)) % step) {
    const lower = amount - ((amount - (legal.bet || 0)) % step);
    const options = [lower, lower + step].filter((o) => o >= legal.min_to && o <= legal.max_to);
    return `the chips in play make ${options.map((o) => H.chips(o)).join(" or ")}`;
  }
  return "";
}

// An amount above ten times the pot asks once (a slip of the keypad: 1500 for 150): the first
// tap asks, the second records.
export function isHuge(hand, amount) {
  return amount > 10 * Math.max(hand.pot_total, 1);
}

// Auto steps after this tablet's own entry (never after another tablet's or an undo): a pot
// nobody contests is pushed, and the next hand starts when the server says it starts by
// itself (engine.table.start_hold: no level, break or move due).
export function autoAdvance() {
  const s = S.state;
  if (!canRecord() || !s || !s.open || S.conflict || S.outbox.length) return;
  const last = s.events && s.events[0];
  if (!last || last.device !== H.deviceId() || S.autoAt === s.version) return;
  const hand = s.hand;
  if (s.hand_in_progress && hand && hand.phase === "showdown" && hand.showdown && hand.showdown.awards_by_itself
      && (last.type === "player_folded" || last.type === "cards_mucked")) {
    S.autoAt = s.version;
    record({ type: "award_pots" }, "push the pot (nobody left to contest it)");
  } else if (!s.hand_in_progress && hand && last.type === "pot_awarded" && s.next_hand && s.next_hand.ready
      && s.next_hand.starts_by_itself) {
    S.autoAt = s.version;
    record({ type: "start_hand" }, "start the next hand");
  }
}

export function bettingPanel(hand, legal) {
  const main = [];
  if (legal.fold) main.push(button("fold", "Fold", "fold"));
  if (legal.check) main.push(button("check", "Check", "check"));
  if (legal.call) main.push(button("call", `Call ${H.chips(legal.call)}${legal.call_all_in ? " (all-in)" : ""}`, "call"));
  if (legal.raise_kind) main.push(button("allin", `All-in ${H.chips(legal.max_to)}`, "allin", { to: legal.max_to }));
  return html`<div class="panel-title to-act-title">${legal.name} to act <small>seat ${legal.seat}</small></div><div class="row actions-main">${main}</div>${legal.raise_kind ? raiseBox(hand, legal) : nothing}${S.trayOpen ? chipTray(hand) : nothing}`;
}

/**
 * How many folds make a walk from here: pre-flop, nobody but the blinds has put chips in and
 * nobody raised, the big blind not yet to act; the number of players who would each fold in
 * turn (each can act). 0 when it is not that moment, or while entries wait to be sent.
 * @param {any} hand
 * @param {any} legal
 */
export function foldsToBigBlind(hand, legal) {
  if (hand.phase !== "betting" || hand.board.length || S.outbox.length) return 0;
  const seats = S.state.seats.filter((x) => x.in_hand && !x.folded);
  const big = seats.find((x) => x.seat === hand.big_blind_seat);
  if (!big || legal.seat === big.seat) return 0;
  const blinds = [hand.small_blind_seat, hand.big_blind_seat];
  if (seats.some((x) => !blinds.includes(x.seat) && x.bet > 0)) return 0;
  if (seats.some((x) => x.bet > big.bet)) return 0;
  return seats.filter((x) => x.seat !== big.seat && x.stack > 0).length;
}

/**
 * How many checks end a betting round after the flop from here: nobody has acted on this
 * street yet (no bet, the first player after the button to act), so each player who can act
 * checks in turn. 0 when it is not that moment, or while entries wait to be sent.
 * @param {any} hand
 * @param {any} legal
 */
export function checksAround(hand, legal) {
  if (hand.phase !== "betting" || !hand.board.length || S.outbox.length || !legal.check) return 0;
  const seats = S.state.seats.filter((x) => x.in_hand && !x.folded);
  if (seats.some((x) => x.bet > 0)) return 0;
  const acting = seats.filter((x) => !x.all_in && x.stack > 0);
  const button = S.state.seats.find((x) => x.button);
  const from = button ? button.seat : 0;
  // The first to act after the flop: the first of them to the button's left.
  const first = acting.slice().sort((a, b) => ((a.seat - from + 99) % 99 || 99) - ((b.seat - from + 99) % 99 || 99))[0];
  if (!first || first.seat !== legal.seat) return 0;
  return acting.length;
}

const KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "00", "0", "⌫"];

/** The amount, its presets, the keypad and the Raise button. */
function raiseBox(hand, legal) {
  const verb = legal.raise_kind === "bet" ? "Bet" : "Raise to";
  const amount = amountOf(legal);
  const problem = amountProblem(legal, amount);
  let raise;
  // The Raise button never reads an amount that cannot be sent: below the minimum it reads
  // the minimum and is off until the amount is right.
  if (problem) {
    const floor = Math.max(legal.min_to, Math.min(amount, legal.max_to));
    raise = html`<button type="button" class="btn raise primary wide" data-action="raise" data-to=${floor} disabled>${verb} ${H.chips(floor)}${amount < legal.min_to ? " min" : ""}</button>`;
  } else if (isHuge(hand, amount) && S.ui.confirmed === amount) {
    raise = button("raise", html`${verb} ${H.chips(amount)}?<small>over 10× the pot: tap again to confirm</small>`, "raise primary wide confirm", { to: amount });
  } else {
    raise = button("raise", `${verb} ${H.chips(amount)}`, "raise primary wide", { to: amount });
  }
  const note = problem || `min ${H.chips(legal.min_to)} · max ${H.chips(legal.max_to)}`;
  // A raise heard as "raise 300" is entered as said (300 more than the bet he faces): the
  // engine converts it under the house rules and records what was said.
  const typed = S.ui.typed ? parseInt(S.ui.typed, 10) : 0;
  const saidBy = legal.raise_kind === "raise" && typed
    ? button("said-raise-by", `Said “raise ${H.chips(typed)}”`, "said-by", { value: typed }) : nothing;
  return html`<div class="raise-box"><div class="amount"><span>${verb}</span> <output id="amount" data-amount=${amount}>${H.chips(amount)}</output><small id="amount-note" class=${problem ? "amount-problem" : nothing}>${note}</small></div><div class="row sizes">${legal.sizes.map((s) => sizeButton(s))}</div><div class="keypad">${KEYS.map((key) => button("key", key, "key", { key }))}</div><div class="raise-row">${raise}${saidBy}</div></div>`;
}

// A preset: its label and amount; the all-in says which presets it caps ("= ½ pot, Pot").
export function sizeButton(s) {
  const capped = s.all_in && s.capped && s.capped.length ? ` = ${s.capped.join(", ")} capped` : "";
  return button("size", html`${s.label}<small>${H.chips(s.to)}${capped}</small>`, `size${s.all_in ? " size-all-in" : ""}`, { to: s.to });
}

// The chip tray: what the dealer saw pushed, one tap per chip, motion by motion, and whether
// the player said raise; the engine rules it under the house rules (push_chips).
export function chipTray(hand) {
  // The chips in play at this level (the structure's, after each color-up: hand_started
  // records them); a table outside a tournament has none listed: multiples of its smallest.
  const unit = hand.chip_unit || 1;
  const values = hand.denominations && hand.denominations.length
    ? [...hand.denominations].sort((a, b) => a - b)
    : [1, 4, 20, 100].map((k) => k * unit);
  const motions = S.ui.tray.filter((m) => m.length);
  const text = motions.map((m) => {
    const counts = {};
    for (const v of m) counts[v] = (counts[v] || 0) + 1;
    return Object.keys(counts).map(Number).sort((a, b) => b - a).map((v) => `${counts[v]} x ${H.chips(v)}`).join(" + ");
  }).join(" | ");
  return html`<div class="chip-tray"><div class="panel-title">Chips pushed</div><div class="row wrap chips">${values.map((v) => button("chip", H.chips(v), "chip", { value: v }))}${button("motion", "Next motion", "small", {})}${button("tray-clear", "Clear", "small", {})}</div><div class="tray-content" id="tray">${text || "no chips yet"}</div><div class="row">${button("said", S.ui.said === "raise" ? "Said raise" : "Said nothing", "said", {})}${button("push", "Rule it", "push primary", {})}</div></div>`;
}

export function showdownPanel(hand) {
  const sd = hand.showdown;
  const contested = sd.order.length > 1;
  // TDA 16: with a player all-in and the betting over, every hand still in is tabled.
  const tabled = S.state.seats.some((x) => x.in_hand && !x.folded && x.all_in);
  const rows = [];
  for (const position of sd.order) {
    const seat = S.state.seats.find((x) => x.position === position && x.in_hand);
    if (!seat) continue;
    const shown = seat.shown ? html`<span class="shown">${seat.shown.map((c) => H.cardView(c, "small"))}</span>` : nothing;
    const choices = !seat.shown && contested
      ? html`${button("open-show", "Show", "small", { player: position })}${tabled ? nothing : button("muck", "Muck", "small", { player: position })}`
      : nothing;
    rows.push(html`<li><span class="name">${seat.player}</span>${shown}${choices}</li>`);
  }
  const head = html`<div class="panel-title">${contested ? "Showdown" : "Uncontested"}</div>${contested && tabled ? html`<div class="panel-note">All-in: every hand is turned face up (TDA 16)</div>` : nothing}<ol class="showdown">${rows}</ol>`;
  if (hand.phase !== "showdown") return head;
  if (sd.proposed) {
    const awards = sd.proposed.map((a) => {
      const winners = a.winners.map((w, i) => `${nameOf(w)} ${H.chips(a.shares[i])}`).join(", ");
      return html`<div class="award" data-pot=${a.pot}><b>${a.pot ? "Side pot " + a.pot : "Main pot"} ${H.chips(a.amount)}</b> → ${winners}${a.hand_name ? html` <small>${a.hand_name}</small>` : nothing}${a.odd_chips.length ? html` <small>odd chip: ${a.odd_chips.map((w) => nameOf(w)).join(", ")}</small>` : nothing}</div>`;
    });
    return html`${head}<div class="awards">${awards}</div>${button("award", sd.proposed.length > 1 ? "Push the pots" : "Push the pot", "primary wide")}`;
  }
  if (sd.pending) return html`${head}<div class="panel-note">${sd.pending.message} (${sd.pending.rule_words || sd.pending.rule})</div>`;
  return head;
}

export function renderTools() {
  const hand = S.state && S.state.hand;
  const ready = canRecord() && S.state && S.state.open && S.state.hand_in_progress && hand && hand.legal && !queuesAsTapped();
  const walk = ready ? Math.max(foldsToBigBlind(hand, hand.legal), checksAround(hand, hand.legal)) : 0;
  $("tools").classList.toggle("has-walk", walk > 1);
  paint(toolsView(), $("tools"));
}

function toolsView() {
  if (!canRecord() || !S.state.open) return nothing;
  const hand = S.state.hand;
  // Queued as tapped offline: the tools that need no table the tablet cannot see.
  if (queuesAsTapped()) return html`${hand ? button("undo", "Undo", "tool") : nothing}${button("misdeal", "Misdeal", "tool")}`;
  const inHand = S.state.hand_in_progress;
  const betting = inHand && hand.phase === "betting";
  // The walk in one tap, first in the row (the main buttons keep their places and sizes).
  const walk = betting && hand.legal ? foldsToBigBlind(hand, hand.legal) : 0;
  const checks = betting && hand.legal ? checksAround(hand, hand.legal) : 0;
  return html`${walk > 1 ? button("folds-to-bb", `All fold to BB (${walk})`, "tool folds-to-bb", { value: walk }) : nothing}${checks > 1 ? button("checks-around", `All check (${checks})`, "tool checks-around", { value: checks }) : nothing}${hand ? button("undo", "Undo", "tool") : nothing}${betting ? html`${button("clock", "Clock", "tool")}${button("out-of-turn", "Out of turn…", "tool")}` : nothing}${betting && hand.legal ? button("tray-toggle", S.trayOpen ? "Hide chips" : "Chips pushed…", "tool") : nothing}${inHand ? html`${button("misdeal", "Misdeal", "tool")}${button("exposed", "Exposed card", "tool")}` : nothing}${S.me.role === "director" && hand ? button("director", "Director…", "tool") : nothing}`;
}

// A betting action for the player to act. Tapped while earlier entries are still waiting (in
// flight or offline), it is the action of whoever is to act once they are recorded: the outbox
// fills in the player (and an all-in's amount) from the table the previous answer brings.
function bet(command, words, queuedWords, queued) {
  const l = legal();
  if (decidesHere()) {
    // Offline with the engine here: the screen shows the engine's next player, the engine
    // fills in who (record, engine.js).
    record(Object.assign({ player: null }, command, queued || {}), `next to act: ${words}`, { forNext: true });
    return;
  }
  // Nothing waiting: the player on screen (the server's last view, offline too). Else, and
  // offline with no one to act on screen: whoever is to act once the entries before it are
  // recorded (outbox.js's resolve).
  if (!S.outbox.length && l) {
    record(Object.assign({ player: l.player }, command), `${l.name}: ${words}`);
    return;
  }
  record(Object.assign({ player: null }, command, queued || {}), `next to act: ${queuedWords || words}`, { forNext: true });
}

/** @type {Record<string, (el: any) => void>} */
export const actionTaps = {
  dismiss() {
    S.alertBox = null;
    render();
  },
  discard: discardConflict,
  reapply: reapplyConflict,
  "send-held": sendHeld,
  "discard-held": discardHeld,
  fold() {
    bet({ type: "fold" }, "fold");
  },
  // Everyone folds to the big blind: one tap, each fold recorded as its own entry, in turn
  // (the same facts as tapping Fold for each); the pot then goes to the big blind by itself.
  "folds-to-bb"(el) {
    const count = Number(el.dataset.value || 0);
    const hand = S.state.hand;
    if (!hand || !hand.legal || foldsToBigBlind(hand, hand.legal) !== count) return;
    for (let k = 0; k < count; k += 1) bet({ type: "fold" }, "fold");
  },
  check() {
    bet({ type: "check_call" }, "check", "check/call");
  },
  // Everyone checks on a street after the flop: one tap, each check its own entry, in turn
  // (the same facts as tapping Check for each); the picker for the next card then opens.
  "checks-around"(el) {
    const count = Number(el.dataset.value || 0);
    const hand = S.state.hand;
    if (!hand || !hand.legal || checksAround(hand, hand.legal) !== count) return;
    for (let k = 0; k < count; k += 1) bet({ type: "check_call" }, "check", "check");
  },
  call() {
    const l = legal();
    bet({ type: "check_call" }, l ? `call ${H.chips(l.call)}` : "check/call", "check/call");
  },
  allin() {
    const l = legal();
    bet({ type: "bet_raise", to: l ? l.max_to : "max" }, l ? `all-in ${H.chips(l.max_to)}` : "all-in", "all-in", { to: "max" });
  },
  // A preset is the action itself: one tap records the bet or raise to its amount (Undo takes
  // a slip back); the keypad and the Raise button are for any other amount.
  size(el) {
    const l = legal();
    const to = Number(el.dataset.to);
    if (!l || amountProblem(l, to)) return;
    const verb = l.raise_kind === "bet" ? "bet" : "raise to";
    bet({ type: "bet_raise", to }, `${verb} ${H.chips(to)}`, `bet/raise to ${H.chips(to)}`);
  },
  "tray-toggle"() {
    S.trayOpen = !S.trayOpen;
    render();
  },
  chip(el) {
    S.ui.tray[S.ui.tray.length - 1].push(Number(el.dataset.value));
    render();
  },
  motion() {
    if (S.ui.tray[S.ui.tray.length - 1].length) S.ui.tray.push([]);
    render();
  },
  "tray-clear"() {
    S.ui.tray = [[]];
    S.ui.said = "nothing";
    render();
  },
  said() {
    S.ui.said = S.ui.said === "raise" ? "nothing" : "raise";
    render();
  },
  push() {
    const motions = S.ui.tray.filter((m) => m.length);
    const chips = motions.reduce((n, m) => n + m.reduce((a, b) => a + b, 0), 0);
    bet({ type: "push_chips", motions, said: S.ui.said },
      `pushed ${H.chips(chips)}${motions.length > 1 ? ` in ${motions.length} motions` : ""}${S.ui.said === "raise" ? ", said raise" : ""}`);
  },
  key(el) {
    const key = el.dataset.key;
    if (key === "⌫") S.ui.typed = S.ui.typed.slice(0, -1);
    else if (S.ui.typed.length < 9) S.ui.typed = (S.ui.typed + key).replace(/^0+/, "");
    render();
  },
  raise() {
    if (queuesAsTapped()) {
      // The amount as typed: the server checks it against the table as it is then.
      const to = parseInt(S.ui.typed || "0", 10);
      if (to > 0) bet({ type: "bet_raise", to }, `bet/raise to ${H.chips(to)}`, `bet/raise to ${H.chips(to)}`);
      return;
    }
    const l = legal();
    const to = amountOf(l);
    if (amountProblem(l, to)) return;
    if (isHuge(S.state.hand, to) && S.ui.confirmed !== to) {
      S.ui.confirmed = to;
      render();
      return;
    }
    const verb = l.raise_kind === "bet" ? "bet" : "raise to";
    bet({ type: "bet_raise", to }, `${verb} ${H.chips(to)}`, `bet/raise to ${H.chips(to)}`);
  },
  "said-raise-by"(el) {
    const by = Number(el.dataset.value);
    S.ui.typed = "";
    bet({ type: "push_chips", motions: [], said: "raise_by", said_to: by }, `said raise ${H.chips(by)}`);
  },
  start() {
    record({ type: "start_hand" }, "start the next hand");
  },
  undo() {
    record({ type: "undo" }, "undo the last entry");
  },
  award() {
    record({ type: "award_pots" }, "push the pots as proposed");
  },
  muck(el) {
    if (el.dataset.seat) {
      // Queued as tapped: the player at that seat in the hand the table is at when it is sent.
      const seat = Number(el.dataset.seat);
      record({ type: "muck_cards", player: null }, `${seatName(seat)}: muck`, { seat });
      return;
    }
    const p = Number(el.dataset.player);
    record({ type: "muck_cards", player: p }, `${nameOf(p)}: muck`);
  },
  "queue-show"() {
    S.ui.sheet = "queue-show";
    render();
  },
  seat(el) {
    S.ui.sheet = "seat";
    S.ui.seat = Number(el.dataset.seat);
    render();
  },
  absence(el) {
    const seat = Number(el.dataset.seat);
    const absent = el.dataset.value === "1";
    record({ type: "set_absence", seat, absent }, `${seatName(seat)}: ${absent ? "absent" : "returned"}`);
  },
  misdeal() {
    S.ui.sheet = "misdeal";
    render();
  },
  "declare-misdeal"(el) {
    record({ type: "declare_misdeal", reason: el.dataset.reason }, `misdeal: ${el.dataset.reason}`);
  },
  exposed() {
    S.ui.sheet = "expose";
    S.ui.inDeal = S.state.hand && S.state.hand.street === "preflop";
    render();
  },
  "in-deal"(el) {
    S.ui.inDeal = el.dataset.value === "1";
    render();
  },
  "expose-place"(el) {
    // In the deal the dealer says which card of the deal it was; the engine names the player.
    S.ui.place = Number(el.dataset.place);
    S.ui.player = Number(el.dataset.player);
    S.ui.sheet = "expose-card";
    S.ui.picked = [];
    render();
  },
  "expose-player"(el) {
    S.ui.place = 0;
    S.ui.player = Number(el.dataset.player);
    S.ui.sheet = "expose-card";
    S.ui.picked = [];
    render();
  },
  clock: startClock,
  "clock-cancel": stopClock,
};
