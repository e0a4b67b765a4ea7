// @ts-check
// A tournament's box on the floor: its clock, stakes, the director's clock buttons, what comes
// next and the schedule; and `cmd`, a button that sends one tournament command.

import * as H from "../common.js";
import { html, nothing } from "../lit.js";
import { F, director } from "./state.js";

/** @param {number} ms */
function mmss(ms) {
  const total = Math.max(0, Math.round(ms / 1000));
  const m = Math.floor(total / 60);
  const sec = total % 60;
  return `${m}:${String(sec).padStart(2, "0")}`;
}

export function clockText(t) {
  const c = t.clock;
  if ((c.kind === "level" || c.kind === "break") && c.paused) return `${mmss(c.left_ms)} paused`;
  if (c.kind === "level" || c.kind === "break") {
    const left = c.ends - (Date.now() + F.offset);
    return left > 0 ? mmss(left) : "time";
  }
  return "";
}

function stakesText(s) {
  if (!s) return "no level yet";
  return `${H.chips(s.small_blind)}/${H.chips(s.big_blind)}${s.ante ? ` ante ${H.chips(s.ante)}` : ""}`;
}

/**
 * A button that sends one command to tournament `t`; its extra fields ride as JSON in
 * data-args (floor/forms.js reads them).
 * @param {any} t
 * @param {string} type
 * @param {string} label
 * @param {string} [cls]
 * @param {Record<string, any>} [extra]
 */
export function cmd(t, type, label, cls, extra) {
  return html`<button type="button" class=${`btn ${cls || ""}`} data-action="t-cmd" data-t=${t.id} data-type=${type} data-args=${extra ? JSON.stringify(extra) : nothing}>${label}</button>`;
}

function clockActions(t) {
  if (!director() || t.finished) return nothing;
  const buttons = [];
  if (t.on_break) buttons.push(cmd(t, "end_break", "End the break", "primary"));
  else if (t.next.ok) buttons.push(cmd(t, "start_level", `Start level ${t.level + 1}`, "primary"));
  else {
    const legal = (t.next.legal || []).join(" ");
    if (/break/.test(legal)) buttons.push(cmd(t, "start_break", "Start the break", "primary"));
    if (/color-up/.test(legal)) buttons.push(cmd(t, "color_up", "Color-up", "primary"));
    if (/decide antes/.test(legal)) buttons.push(cmd(t, "decide_antes", "Decide the antes", "primary"));
  }
  if (t.level && (t.clock.kind === "level" || t.clock.kind === "break")) {
    buttons.push(t.clock.paused
      ? cmd(t, "clock", "Resume the clock", "small", { action: "resume" })
      : cmd(t, "clock", "Pause the clock", "small", { action: "pause" }));
    buttons.push(cmd(t, "clock", "+1 min", "small", { action: "add_time", seconds: 60 }));
  }
  if (!t.on_break && t.level) buttons.push(html`<form class="form inline" data-form="extra-break" data-t=${t.id}><input name="minutes" type="number" min="1" max="240" value="10" inputmode="numeric" aria-label="Extra break minutes"><button type="submit" class="btn small">Extra break</button></form>`);
  buttons.push(html`<form class="form inline" data-form="message" data-t=${t.id}><input name="text" maxlength="200" .value=${t.message || ""} placeholder="Message to the room (clock screen)" aria-label="Message to the room"><button type="submit" class="btn small">Post the message</button></form>`);
  return html`<div class="clock-actions">${buttons}</div>`;
}

function upcomingNote(t) {
  if (!t.upcoming) return nothing;
  const lv = t.upcoming.level;
  const next = lv ? `Next level ${lv.number}: ${H.chips(lv.small_blind)}/${H.chips(lv.big_blind)}${lv.ante ? ` ante ${H.chips(lv.ante)}` : ""}` : "Last level";
  return html`<div class="panel-note upcoming">${next}${t.upcoming.break_after ? ` · next break after level ${t.upcoming.break_after}` : ""}</div>`;
}

// The readings the profile (or the structure's room profile) decides, the tournament's first, each
// with the sentence it rests on: which reading is in force is on the floor, not in a file.
function readingsNote(t) {
  const list = t.readings || [];
  if (!list.length) return nothing;
  return html`<details class="readings"><summary>House rules in force (${t.profile})</summary><ul>${list.map((r) => html`<li data-reading=${r.name} data-scope=${r.scope}><b>${r.name.replace(/_/g, " ")}</b> = ${String(r.value)} <small>(${r.scope}) ${r.citation}</small></li>`)}</ul></details>`;
}

// The room's paper (replay/paper.py), each a print view in a new tab.
const PAPER = [["seat-cards", "Seat cards"], ["receipts", "Receipts"], ["vouchers", "Chip vouchers"], ["bag-sheet", "Bag sheet"]];

function paperLinks(t) {
  if (!director()) return nothing;
  return html`<div class="links paper">Print: ${PAPER.map(([kind, label]) => html`<a class="btn small" data-paper=${kind} target="_blank" rel="noopener" href=${`/api/paper/${kind}?tournament=${encodeURIComponent(t.id)}`}>${label}</a>`)}</div>`;
}

export function tournamentBox(t) {
  const label = `${t.clock.label || (t.level ? `Level ${t.level}` : "Not started")}${t.on_break ? "" : ` · ${stakesText(t.stakes)}`}`;
  return html`<section class="box tournament" data-tournament=${t.id} data-version=${t.version}><h2>${t.name} <small>${t.id} · ${t.profile} rules · ${t.remaining}/${t.entries} players · average ${H.chips(t.average_stack)} · chips ${H.chips(t.chip_total)} · smallest chip ${H.chips(t.chip_unit)}</small></h2><div class="clock-row"><div><div class="clock-label" id=${`clock-label-${t.id}`}>${label}</div><div class="clock-big" data-clock=${t.id}>${clockText(t)}</div></div>${t.finished ? html`<div class="winner">Winner: ${t.winner}</div>` : nothing}${clockActions(t)}</div>${upcomingNote(t)}${!t.next.ok && !t.finished && t.level ? html`<div class="panel-note">Next: ${t.next.message} <span class="rule">${t.next.rule_words || t.next.rule}</span></div>` : nothing}${readingsNote(t)}${paperLinks(t)}<ol class="schedule">${t.schedule.map((lv) => html`<li class=${lv.current ? "current" : ""}>L${lv.number} ${H.chips(lv.small_blind)}/${H.chips(lv.big_blind)}${lv.ante ? ` a${H.chips(lv.ante)}` : ""} · ${lv.minutes}′${lv.break_after ? ` · break ${lv.break_after}′` : ""}</li>`)}</ol></section>`;
}
