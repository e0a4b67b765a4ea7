// @ts-check
// The dealer page's shared state: the table view the server sent, who is signed in, the queue
// of entries still to send, the open sheet and what is typed. Every module reads and writes it
// through `S`; nothing else is global.

import * as H from "../common.js";

export { H };
const parts = location.pathname.split("/");
export const MODE = parts[1] === "view" ? "viewer" : "dealer";
export const STREAM = decodeURIComponent(parts[2] || "");
export const OUTBOX_KEY = `handlog.outbox.${STREAM}`;
export const CLOCK_KEY = `handlog.clock.${STREAM}`;
export const RANKS = "AKQJT98765432";
export const SUITS = "shdc";

/** @type {any} */
export const S = {
  state: null, // the table view from the server
  me: { role: null },
  outbox: [], // the entries still to send, oldest first (kept in localStorage)
  conflict: null, // {item, body} after a 409
  alertBox: null, // {kind, title, text, legal}
  ui: null,
  connection: "connecting",
  tapAt: null, // when the tap that is being recorded was made (performance.now)
  lastTap: null, // the event time of the tap being handled
  held: null, // {after: label}: entries queued behind a refused one wait for the dealer
  recorded: [], // the last entries this tablet recorded: {label, version}
  failed: [], // the last entries refused: {label, rule, text}
  failures: 0, // sends in a row that got no answer
  busy: null, // {until, message}: the server answered 503 (its store); the retry waits until then
  trayOpen: false, // the chip tray is shown (a tool toggles it)
  autoAt: null, // the version at which the page last took a step by itself (once each)
  engine: "off", // the state of the rules engine on this tablet (engine.js keeps it here)
};

export function freshUi() {
  return { sheet: null, player: null, picked: [], typed: "", inDeal: true, place: 0, key: null,
    tray: [[]], said: "nothing", queuedSeat: null };
}

export function $(id) {
  return document.getElementById(id);
}

export function canRecord() {
  return MODE === "dealer" && (S.me.role === "director" || (S.me.role === "dealer" && S.me.table === STREAM));
}

export function levelText(level) {
  if (!level) return "";
  const ante = level.ante ? ` ante ${H.chips(level.ante)}` : "";
  return `Level ${level.number} · ${H.chips(level.small_blind)}/${H.chips(level.big_blind)}${ante}`;
}

export function seatName(seat) {
  const s = S.state.seats.find((x) => x.seat === seat);
  return s && s.player ? s.player : `seat ${seat}`;
}

export function nameOf(position) {
  const s = S.state.seats.find((x) => x.position === position && x.in_hand);
  return s ? s.player : `position ${position}`;
}

/**
 * Entries are on their way (or a conflict waits): no sheet opens on a table that is about to
 * change. Offline, a screen the tablet's engine predicted already shows the table after the
 * waiting entries: its sheets (the board, a hand to show) are the next step.
 */
export function busy() {
  return (S.outbox.length > 0 && !(S.state && S.state.predicted) && !queuesAsTapped()) || S.conflict !== null;
}

/**
 * Offline without the rules engine on this tablet (Pyodide not installed on the server, or
 * still starting): the page cannot check the rules, so it offers every entry the dealer may
 * need (the betting, the board, the shows, the push, the next hand) and queues each as tapped;
 * the server decides them, in order, when the network returns.
 */
export function queuesAsTapped() {
  return S.connection === "offline" && S.engine !== "ready" && canRecord() && !!(S.state && S.state.open);
}

/**
 * Queued as tapped: the cards of the board of the hand being dealt, the server's and those
 * queued since (none once a new hand is queued), and every card queued shown.
 * @returns {{board: string[], seen: string[]}}
 */
export function queuedCards() {
  const hand = S.state && S.state.hand;
  let board = hand && S.state.hand_in_progress ? hand.board.slice() : [];
  const seen = [];
  for (const item of S.outbox) {
    const c = item.command;
    if (c.type === "start_hand") board = [];
    if (c.type === "deal_board") board = board.concat(c.cards.match(/../g) || []);
    if (c.type === "show_cards") seen.push(...(c.cards.match(/../g) || []));
  }
  return { board, seen: board.concat(seen) };
}

/** A conflict or a refusal waits for the dealer: nothing is recorded until he decides. */
export function blocked() {
  return S.conflict !== null || S.held !== null;
}

export function legal() {
  return S.state && S.state.hand ? S.state.hand.legal : null;
}

S.ui = freshUi();
