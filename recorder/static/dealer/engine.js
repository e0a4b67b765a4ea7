// @ts-check
// The rules while offline: the same engine as the server's, the pure-Python `engine` package,
// run in the browser by Pyodide (served by handlog at /vendor/pyodide/, kept by the service
// worker). It is loaded when the tablet goes offline; each betting tap is then decided by the
// engine against the hand in progress (the table view's `offline_hand`) and the entries still
// waiting, so the screen shows who is to act next. The server decides every entry again.
// Without Pyodide on the server (a machine that ran only the README's first command) the page
// says so, and taps are queued unchecked.

import { S } from "./store.js";

/** @type {{state: "off" | "loading" | "ready" | "missing", why: string, decide: any}} */
export const engine = { state: "off", why: "", decide: null };
/** @type {Promise<void> | null} */
let loading = null;
/** @type {() => void} */
let onChange = () => {};

/** @param {() => void} callback called when the engine's state changes */
export function watchEngine(callback) {
  onChange = callback;
}

export function loadEngine() {
  if (loading) return loading;
  engine.state = "loading";
  onChange();
  loading = (async () => {
    try {
      const url = "/vendor/pyodide/pyodide.mjs";
      const pyodide = await import(url);
      const py = await pyodide.loadPyodide({ indexURL: "/vendor/pyodide/" });
      const answer = await fetch("/vendor/engine.zip");
      if (!answer.ok) throw new Error(`engine.zip: HTTP ${answer.status}`);
      py.unpackArchive(await answer.arrayBuffer(), "zip", { extractDir: "/handlog" });
      py.runPython("import sys\nsys.path.insert(0, '/handlog')\nimport handlog_offline");
      engine.decide = py.pyimport("handlog_offline").decide;
      engine.state = "ready";
    } catch (e) {
      engine.state = "missing";
      engine.why = `the rules engine could not start on this tablet (${e instanceof Error ? e.message : e}): is Pyodide installed on the handlog server (npm ci --prefix web)?`;
      loading = null;
    }
    onChange();
  })();
  return loading;
}

const DECIDED = new Set(["fold", "check_call", "bet_raise", "deal_board"]);

/**
 * Decide `command` (its player null: the player to act) after the entries still waiting,
 * with the engine: {ok: true, command, name, view} (the command with its player, the table as
 * it would then be, the same version) or the table as it would then be, or
 * {ok: false, rule, message, legal_words}; null when the engine cannot say (not loaded, no
 * hand in progress in the last view, a command it does not decide here).
 * @param {any} command
 */
/** Whether taps are decided here now: offline, with the engine loaded. */
export function decidesHere() {
  return S.connection === "offline" && engine.state === "ready";
}

export function decideOffline(command) {
  const view = S.state;
  if (engine.state !== "ready" || !view || !view.offline_hand || !view.hand_in_progress || !DECIDED.has(command.type)) return null;
  const entries = S.outbox.map((item) => item.command).filter((c) => DECIDED.has(c.type)).concat([command]);
  const answer = JSON.parse(engine.decide(JSON.stringify(view.offline_hand), JSON.stringify(entries)));
  if (!answer.ok) return answer;
  const last = answer.last;
  const seat = view.seats.find((s) => s.position === last.player && s.in_hand);
  return { ok: true, command: last, name: seat ? seat.player : "", view: predicted(view, answer) };
}

/**
 * After a reload offline, or once the engine has started: the screen shows the table as the
 * engine says it is after the entries still waiting.
 */
export function predictNow() {
  const view = S.state;
  if (engine.state !== "ready" || !view || !view.offline_hand || !view.hand_in_progress || view.predicted) return;
  const entries = S.outbox.map((item) => item.command).filter((c) => DECIDED.has(c.type));
  if (!entries.length) return;
  const answer = JSON.parse(engine.decide(JSON.stringify(view.offline_hand), JSON.stringify(entries)));
  if (answer.ok) S.state = predicted(view, answer);
}

/** The table view as the engine says it is after the waiting entries (the same version). */
function predicted(view, answer) {
  const next = JSON.parse(JSON.stringify(view));
  next.predicted = true;
  const hand = next.hand;
  for (const seat of next.seats) {
    const p = seat.position;
    if (p === null || p === undefined || !seat.in_hand) continue;
    seat.stack = answer.stacks[p];
    seat.bet = answer.bets[p];
    seat.folded = answer.folded[p];
    seat.all_in = answer.stacks[p] === 0 && !answer.folded[p];
    seat.to_act = answer.to_act === p;
  }
  hand.to_act = answer.to_act;
  // Betting and the board are played on here; what follows them (shows, the award) waits for
  // the server: its view of them (the showdown's order, the proposed awards) is not predicted.
  hand.phase = answer.phase === "betting" || answer.phase === "board" ? answer.phase : "waiting for the server";
  if (answer.phase === "board") hand.board_due = answer.board === 0 ? 3 : 1;
  const legal = answer.legal;
  if (legal) {
    const seat = next.seats.find((s) => s.position === legal.player && s.in_hand);
    hand.legal = Object.assign({}, legal, { seat: seat ? seat.seat : 0, name: seat ? seat.player : `position ${legal.player}`, sizes: [], describe: [] });
  } else {
    hand.legal = null;
    hand.next_steps = [answer.phase === "board" ? "deal the next card(s) (the server checks them)" : "the server decides what comes next when the network returns"];
  }
  return next;
}
