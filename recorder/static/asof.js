// @ts-check
// A table's page as it stood at a moment (/view/<table>?at=VERSION, ?hand=N or ?time=UTC;
// /dealer/<table>?... the same): read-only, from GET /api/tables/{stream}/as-of, the same
// time travel `handlog table show --at/--hand/--time` prints. Nothing here records anything;
// the live page (table.html) is served when no moment is asked for.

import * as H from "./common.js";
import { html, render } from "./lit.js";

/** @type {(id: string) => any} */
const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/");
const STREAM = decodeURIComponent(parts[2] || "");
const params = new URLSearchParams(location.search);

// The moment asked for: `at` is a version, or a time when it reads like one.
function moment() {
  const at = params.get("at");
  if (at && /^\d+$/.test(at)) return { version: at };
  if (at) return { time: at };
  if (params.get("hand")) return { hand: params.get("hand") };
  if (params.get("time")) return { time: params.get("time") };
  return {};
}

/** @param {string} path */
async function get(path) {
  let r = await H.api("GET", path);
  if (r.status === 401) {
    await H.login({ role: "viewer" });
    r = await H.api("GET", path);
  }
  return r;
}

function asOfText(view) {
  const when = view.last_event.recorded_at.slice(0, 19).replace("T", " ");
  const asked = view.as_of.startsWith("hand") ? `the start of ${view.as_of}` : view.as_of;
  return `As of ${asked}: version ${view.version} of ${view.live_version}, last entry ` +
    `"${view.last_event.text}" by ${view.last_event.actor} at ${when} UTC. ` +
    "Read-only: this is the table as it stood then, not now.";
}

/**
 * @param {number} version
 * @param {string} label
 */
function link(version, label) {
  return html`<a class="btn small" href=${`${location.pathname}?at=${version}`} data-version=${version}>${label}</a>`;
}

function show(view) {
  document.body.dataset.version = view.version;
  $("title").textContent = `${STREAM} as of ${view.as_of}`;
  $("info").textContent = `version ${view.version}`;
  $("asof").textContent = asOfText(view);
  $("asof").dataset.version = view.version;
  const steps = [];
  if (view.version > 1) steps.push(link(view.version - 1, "◀ one entry earlier"));
  if (view.version < view.live_version) steps.push(link(view.version + 1, "one entry later ▶"));
  steps.push(html`<a class="btn small" href=${`/view/${encodeURIComponent(STREAM)}`}>The table now</a>`);
  steps.push(html`<a class="btn small" href=${`/replayer?table=${encodeURIComponent(STREAM)}&at=${view.version}`}>In the replayer</a>`);
  render(steps.map((step) => html`${step} `), $("steps"));
  render(H.linesView(view.lines), $("lines"));
  $("findings-box").hidden = !view.findings.length;
  render(view.findings.map((f) => html`<li>#${f.version} ${f.message} <span class="rule">${f.rule_words || f.rule}</span></li>`), $("findings"));
}

async function start() {
  const q = new URLSearchParams(moment());
  const r = await get(`/api/tables/${encodeURIComponent(STREAM)}/as-of?${q}`);
  if (r.status !== 200) {
    $("asof").textContent = "";
    H.showAlert($("alert"), { kind: "refused", title: `Cannot show ${STREAM} then`,
      text: (r.body && r.body.message) || `answer ${r.status}` });
    return;
  }
  show(r.body);
}

// What the browser tests read, only behind the test flag (common.js).
if (H.testing) window.handlogAsOf = { moment };
start();
