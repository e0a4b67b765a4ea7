// @ts-check
// The action panel: the betting buttons, the amount keypad and presets, the chip tray, the
// showdown and the start of the next hand, the tools row; and what their taps record.

import { startClock, stopClock } from "./clock.js";
import { decidesHere } from "./engine.js";
import { discardConflict, discardHeld, reapplyConflict, record, sendHeld } from "./outbox.js";
import { render } from "./render.js";
import { $, H, MODE, S, blocked, canRecord, legal, levelText, nameOf, seatName } from "./store.js";

export function button(action, label, cls, data) {
  const attrs = Object.entries(data || {}).map(([k, v]) => ` data-${k}="${H.esc(v)}"`).join("");
  const disabled = blocked() ? " disabled" : "";
  return `<button type="button" class="btn ${cls || ""}" data-action="${action}"${attrs}${disabled}>${label}</button>`;
}

export function renderActions() {
  const box = $("actions");
  if (!canRecord() || !S.state.open) {
    box.innerHTML = MODE === "viewer" ? '<div class="viewer-note">Viewer: read-only. Hole cards appear when shown.</div>' : "";
    return;
  }
  const hand = S.state.hand;
  if (!hand || !S.state.hand_in_progress) {
    box.innerHTML = startPanel();
    return;
  }
  if (hand.phase === "betting" && hand.legal) {
    box.innerHTML = bettingPanel(hand, hand.legal);
  } else if (hand.phase === "board") {
    box.innerHTML =
      `<div class="panel-title">Deal the ${hand.board.length ? (hand.board.length === 3 ? "turn" : "river") : "flop"}</div>` +
      button("open-board", `Pick ${hand.board_due === 3 ? "3 cards" : "1 card"}`, "primary wide") +
      (hand.showdown ? showdownPanel(hand) : "");
  } else if (hand.phase === "showdown") {
    box.innerHTML = showdownPanel(hand);
  } else {
    box.innerHTML = `<div class="panel-title">${H.esc(hand.next_steps.join(" · "))}</div>`;
  }
}

export function startPanel() {
  const next = S.state.next_hand;
  const hand = S.state.hand;
  let html = "";
  if (hand && hand.phase === "misdealt") html += '<div class="panel-title">Misdeal: re-deal the same hand</div>';
  else if (hand && hand.phase === "void") html += '<div class="panel-title">Hand void: chips returned</div>';
  if (next && next.ready) {
    const number = hand && (hand.phase === "misdealt" || hand.phase === "void") ? hand.number : S.state.hands_played + 1;
    html += `<div class="panel-note">Button seat ${next.button_seat} · SB ${next.small_blind_seat ? "seat " + next.small_blind_seat : "dead"} · BB seat ${next.big_blind_seat}${S.state.level ? " · " + H.esc(levelText(S.state.level)) : ""}</div>`;
    if (S.state.carry) html += `<div class="panel-note carry">${H.chips(S.state.carry)} carried into this pot (odd chips of the color-up): put them in the middle</div>`;
    if (next.hold && next.hold_text && hand) html += `<div class="panel-note hold" data-hold="${H.esc(next.hold)}">${H.esc(next.hold_text)}</div>`;
    html += button("start", `Start hand #${number}`, "primary wide");
  } else if (next) {
    html += `<div class="panel-note">No hand can start: ${H.esc(next.why.message)} (${H.esc(next.why.rule)})</div>`;
  }
  return html;
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
  let html = `<div class="panel-title to-act-title">${H.esc(legal.name)} to act <small>seat ${legal.seat}</small></div>`;
  html += '<div class="row actions-main">';
  if (legal.fold) html += button("fold", "Fold", "fold");
  if (legal.check) html += button("check", "Check", "check");
  if (legal.call) html += button("call", `Call ${H.chips(legal.call)}${legal.call_all_in ? " (all-in)" : ""}`, "call");
  if (legal.raise_kind) html += button("allin", `All-in ${H.chips(legal.max_to)}`, "allin", { to: legal.max_to });
  html += "</div>";
  if (legal.raise_kind) {
    const verb = legal.raise_kind === "bet" ? "Bet" : "Raise to";
    const amount = amountOf(legal);
    const problem = amountProblem(legal, amount);
    html += '<div class="raise-box">';
    html += `<div class="amount"><span>${verb}</span> <output id="amount" data-amount="${amount}">${H.chips(amount)}</output><small id="amount-note"${problem ? ' class="amount-problem"' : ""}>${problem ? H.esc(problem) : `min ${H.chips(legal.min_to)} · max ${H.chips(legal.max_to)}`}</small></div>`;
    html += `<div class="row sizes">${legal.sizes.map((s) => sizeButton(s)).join("")}</div>`;
    html += '<div class="keypad">';
    for (const key of ["1", "2", "3", "4", "5", "6", "7", "8", "9", "00", "0", "⌫"]) html += button("key", key, "key", { key });
    html += "</div>";
    // The Raise button never reads an amount that cannot be sent: below the minimum it reads
    // the minimum and is off until the amount is right.
    if (problem) {
      const floor = Math.max(legal.min_to, Math.min(amount, legal.max_to));
      html += `<button type="button" class="btn raise primary wide" data-action="raise" data-to="${floor}" disabled>${verb} ${H.chips(floor)}${amount < legal.min_to ? " min" : ""}</button>`;
    } else if (isHuge(hand, amount) && S.ui.confirmed === amount) {
      html += button("raise", `${verb} ${H.chips(amount)}?<small>over 10× the pot: tap again to confirm</small>`, "raise primary wide confirm", { to: amount });
    } else {
      html += button("raise", `${verb} ${H.chips(amount)}`, "raise primary wide", { to: amount });
    }
    html += "</div>";
  }
  if (S.trayOpen) html += chipTray(hand);
  return html;
}

// A preset: its label and amount; the all-in says which presets it caps ("= ½ pot, Pot").
export function sizeButton(s) {
  const capped = s.all_in && s.capped && s.capped.length ? ` = ${s.capped.join(", ")} capped` : "";
  return button("size", `${H.esc(s.label)}<small>${H.chips(s.to)}${H.esc(capped)}</small>`, `size${s.all_in ? " size-all-in" : ""}`, { to: s.to });
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
  let html = '<div class="chip-tray"><div class="panel-title">Chips pushed</div><div class="row wrap chips">';
  html += values.map((v) => button("chip", H.chips(v), "chip", { value: v })).join("");
  html += button("motion", "Next motion", "small", {}) + button("tray-clear", "Clear", "small", {});
  html += `</div><div class="tray-content" id="tray">${H.esc(text || "no chips yet")}</div><div class="row">`;
  html += button("said", S.ui.said === "raise" ? "Said raise" : "Said nothing", "said", {});
  html += button("push", "Rule it", "push primary", {}) + "</div></div>";
  return html;
}

export function showdownPanel(hand) {
  const sd = hand.showdown;
  const contested = sd.order.length > 1;
  // TDA 16: with a player all-in and the betting over, every hand still in is tabled.
  const tabled = S.state.seats.some((x) => x.in_hand && !x.folded && x.all_in);
  let html = `<div class="panel-title">${contested ? "Showdown" : "Uncontested"}</div>`;
  if (contested && tabled) html += '<div class="panel-note">All-in: every hand is turned face up (TDA 16)</div>';
  html += '<ol class="showdown">';
  for (const position of sd.order) {
    const seat = S.state.seats.find((x) => x.position === position && x.in_hand);
    if (!seat) continue;
    const shown = seat.shown ? `<span class="shown">${seat.shown.map((c) => H.cardHtml(c, "small")).join("")}</span>` : "";
    html += `<li><span class="name">${H.esc(seat.player)}</span>${shown}`;
    if (!seat.shown && contested) html += button("open-show", "Show", "small", { player: position }) + (tabled ? "" : button("muck", "Muck", "small", { player: position }));
    html += "</li>";
  }
  html += "</ol>";
  if (hand.phase !== "showdown") return html;
  if (sd.proposed) {
    html += '<div class="awards">';
    for (const a of sd.proposed) {
      const winners = a.winners.map((w, i) => `${H.esc(nameOf(w))} ${H.chips(a.shares[i])}`).join(", ");
      html += `<div class="award" data-pot="${a.pot}"><b>${a.pot ? "Side pot " + a.pot : "Main pot"} ${H.chips(a.amount)}</b> → ${winners}${a.hand_name ? ` <small>${H.esc(a.hand_name)}</small>` : ""}${a.odd_chips.length ? ` <small>odd chip: ${a.odd_chips.map((w) => H.esc(nameOf(w))).join(", ")}</small>` : ""}</div>`;
    }
    html += "</div>";
    html += button("award", sd.proposed.length > 1 ? "Push the pots" : "Push the pot", "primary wide");
  } else if (sd.pending) {
    html += `<div class="panel-note">${H.esc(sd.pending.message)} (${H.esc(sd.pending.rule)})</div>`;
  }
  return html;
}

export function renderTools() {
  const box = $("tools");
  if (!canRecord() || !S.state.open) {
    box.innerHTML = MODE === "dealer" ? "" : "";
    return;
  }
  const hand = S.state.hand;
  const inHand = S.state.hand_in_progress;
  let html = "";
  if (hand) html += button("undo", "Undo", "tool");
  if (inHand && hand.phase === "betting") html += button("clock", "Clock", "tool") + button("out-of-turn", "Out of turn…", "tool");
  if (inHand && hand.phase === "betting" && hand.legal) html += button("tray-toggle", S.trayOpen ? "Hide chips" : "Chips pushed…", "tool");
  if (inHand) html += button("misdeal", "Misdeal", "tool") + button("exposed", "Exposed card", "tool");
  if (S.me.role === "director" && hand) html += button("director", "Director…", "tool");
  box.innerHTML = html;
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
  if (!S.outbox.length) {
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
  check() {
    bet({ type: "check_call" }, "check", "check/call");
  },
  call() {
    const l = legal();
    bet({ type: "check_call" }, `call ${H.chips(l.call)}`, "check/call");
  },
  allin() {
    const l = legal();
    bet({ type: "bet_raise", to: l.max_to }, `all-in ${H.chips(l.max_to)}`, "all-in", { to: "max" });
  },
  size(el) {
    S.ui.typed = el.dataset.to;
    render();
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
    const p = Number(el.dataset.player);
    record({ type: "muck_cards", player: p }, `${nameOf(p)}: muck`);
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
  "expose-player"(el) {
    S.ui.player = Number(el.dataset.player);
    S.ui.sheet = "expose-card";
    S.ui.picked = [];
    render();
  },
  clock: startClock,
  "clock-cancel": stopClock,
};
