// @ts-check
// The hand replayer (/replayer?table=STREAM&hand=LABEL&at=VERSION): step through one hand
// action by action, or play it, on a drawn table (seats around the felt with their stacks and
// cards, each bet in front of its seat, the board, the pots; a bet nobody called is shown as
// such, and the chips it gives back at its seat). Everything shown comes from
// GET /api/tables/{stream}/hands/{label}; a viewer gets only the cards shown at the table (the
// server decides that, not this page). LABEL is the hand's number, or "N-misdealt" for a
// misdealt hand whose redeal is N; the URL always holds the moment shown, and "Link to this
// moment" gives it to copy.
import * as H from "./common.js";
import { html, nothing, render } from "./lit.js";

/** @type {(id: string) => any} */
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const state = { table: params.get("table") || "", hand: params.get("hand") || "",
                at: Number(params.get("at") || 0), view: null, step: 0, director: false,
                /** @type {number | null} */ timer: null, speed: 1 };
const STEP_MS = 1200; // one step a second and a bit at 1x: time to read the action

function alert(text) {
  H.showAlert($("alert"), text ? { kind: "error", title: "Cannot show that", text } : null);
}

async function get(path) {
  const r = await H.api("GET", path);
  if (r.status === 401) {
    await H.login({ role: "viewer" });
    return (await H.api("GET", path)).body;
  }
  if (r.status !== 200) {
    alert((r.body && r.body.message) || `answer ${r.status}`);
    return null;
  }
  return r.body;
}

function momentUrl() {
  const q = new URLSearchParams({ table: state.table, hand: state.hand });
  const step = state.view && state.view.steps[state.step];
  if (step) q.set("at", String(step.version));
  return `/replayer?${q}`;
}

function setUrl() {
  history.replaceState(null, "", momentUrl());
  $("share-link").hidden = true;
  $("share-said").textContent = "";
}

async function share() {
  const link = `${location.origin}${momentUrl()}`;
  $("share-link").hidden = false;
  $("share-link").value = link;
  $("share-link").select();
  try {
    await navigator.clipboard.writeText(link);
    $("share-said").textContent = "copied";
  } catch {
    $("share-said").textContent = "select and copy the link";
  }
}

async function loadTables() {
  const tables = (await get("/api/tables")) || [];
  render(tables.map((t) => html`<option value=${t.stream}>${t.name || t.table || t.stream}</option>`), $("table"));
  if (!state.table && tables.length) state.table = tables[0].stream;
  $("table").value = state.table;
}

async function loadHands() {
  if (!state.table) return;
  const list = await get(`/api/tables/${encodeURIComponent(state.table)}/hands`);
  const hands = (list && list.hands) || [];
  render(hands.map((h) => html`<option value=${h.label}>#${h.label} · level ${h.level} · ${h.outcome}${h.all_in.length ? " · all-in" : ""}</option>`), $("hand"));
  if (!state.hand && state.at) {
    const around = hands.find((h) => h.first_version <= state.at && state.at <= h.last_version);
    if (around) state.hand = around.label;
  }
  if (!hands.some((h) => h.label === state.hand)) {
    // A number alone names the last hand dealt under it (a misdeal's redeal).
    const same = hands.filter((h) => String(h.hand) === state.hand);
    state.hand = same.length ? same[same.length - 1].label : (hands.length ? hands[hands.length - 1].label : "");
  }
  $("hand").value = state.hand;
}

async function loadHand() {
  if (!state.table || !state.hand) return;
  pause();
  const view = await get(`/api/tables/${encodeURIComponent(state.table)}/hands/${encodeURIComponent(state.hand)}`);
  if (!view) return;
  alert(null);
  state.view = view;
  let step = view.steps.length - 1;
  if (state.at) {
    step = 0;
    view.steps.forEach((s, i) => { if (s.version <= state.at) step = i; });
    state.at = 0;
  }
  $("slider").max = String(view.steps.length - 1);
  const marks = [];
  let street = "";
  view.steps.forEach((s, i) => {
    if (s.street !== street) { street = s.street; marks.push({ i, street }); }
  });
  render(marks.map((m) => html`<option value=${m.i} label=${m.street}></option>`), $("streets"));
  const width = Math.max(1, view.steps.length - 1);
  render(marks.map((m) => html`<span class="streetmark" data-street=${m.street} data-at=${m.i}>${m.street}</span>`), $("streetmarks"));
  // Positions set through the CSSOM: the page's CSP refuses inline style attributes.
  $("streetmarks").querySelectorAll(".streetmark").forEach((el) => {
    el.style.left = `${(100 * Number(el.dataset.at)) / width}%`;
  });
  $("info").textContent = `${view.table} · hand #${view.label} · level ${view.level} · ${view.profile} rules` +
    (view.public ? " · cards shown at the table only" : "");
  renderCorrections(view);
  go(step);
}

function renderCorrections(view) {
  render(view.corrections.length ? view.corrections.map((c) =>
    html`<li data-version=${c.version}><b>${c.kind.replace(/_/g, " ")}</b> #${c.version} (touches ${c.versions.map((v) => "#" + v).join(", ")}) by ${c.actor} on ${c.device}, ${c.at.slice(0, 19).replace("T", " ")} UTC: ${c.reason || "-"}${c.rule ? html` <span class="rule">${c.rule}</span>` : nothing}</li>`)
    : html`<li class="muted">none</li>`, $("corrections"));
}

function go(index) {
  const view = state.view;
  if (!view) return;
  state.step = Math.max(0, Math.min(view.steps.length - 1, index));
  const step = view.steps[state.step];
  $("slider").value = String(state.step);
  $("position").textContent = `step ${state.step + 1} of ${view.steps.length} · ${step.street}`;
  $("action").textContent = `#${step.version} ${step.text}`;
  const rulings = step.rulings.filter((r) => r.text);
  $("ruling").hidden = !rulings.length;
  $("ruling").textContent = rulings.map((r) => r.text).join(" · ");
  render(step.board.length ? step.board.map((c) => H.cardView(c)) : html`<span class="muted">no board yet</span>`, $("board"));
  const button = view.button_seat;
  render(step.seats.map((s) => {
    const marks = [];
    if (s.seat === button) marks.push("D");
    if (s.seat === view.small_blind_seat) marks.push("SB");
    if (s.seat === view.big_blind_seat) marks.push("BB");
    const cards = step.cards[s.position];
    const status = s.folded ? "folded" : (s.all_in ? "all-in" : (step.to_act === s.position ? "to act" : ""));
    return html`<tr data-seat=${s.seat} class=${s.folded ? "folded" : ""}><td>${s.seat} ${marks.map((m) => html`<span class="badge">${m}</span>`)}</td><td>${s.name}</td><td class="cards">${cards ? cards.map((c) => H.cardView(c)) : nothing}</td><td>${H.chips(s.stack)}</td><td>${H.chips(s.in_front)}</td><td>${H.chips(s.in_pot)}</td><td>${status}</td></tr>`;
  }), $("seats"));
  render(html`${step.pots.map((p) => p.uncalled
    ? html`<li class="pot uncalled"><b>${p.name}</b>: <span class="amount">${H.chips(p.amount)}</span></li>`
    : html`<li class="pot"><b>${p.name}</b> <span class="amount">${H.chips(p.amount)}</span> · eligible: ${p.eligible.join(", ")}</li>`)}<li class="pot-total">Total in the middle <span id="pot-total">${H.chips(step.pot_total)}</span></li>`, $("pots"));
  drawTable(view, step);
  /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#corrections li")).forEach((li) => {
    li.classList.toggle("here", Number(li.dataset.version) === step.version);
  });
  renderWhatIf(step);
  setUrl();
}

/** Where seat `seat` of `count` sits around the felt, `radius` (percent) from its middle:
 * seat 1 at the bottom, then clockwise. */
function around(seat, count, radius) {
  const angle = Math.PI / 2 + (2 * Math.PI * (seat - 1)) / count;
  return { x: 50 + radius * Math.cos(angle), y: 50 + radius * 0.93 * Math.sin(angle) };
}

// The table drawn: each seat with its name, stack, cards and what it is doing; its bet in front
// of it; the dealer button; the board and the pots on the felt.
function drawTable(view, step) {
  const count = Math.max(6, ...step.seats.map((s) => s.seat));
  const placed = (seat, radius) => around(seat, count, radius);
  render(step.pots.length
    ? step.pots.map((p) => html`<li class=${p.uncalled ? "rpot uncalled" : "rpot"} data-pot=${p.uncalled ? "uncalled" : p.name}>${p.uncalled ? html`${p.name}: <b>${H.chips(p.amount)}</b>` : html`${p.name} <b>${H.chips(p.amount)}</b>`}</li>`)
    : html`<li class="rpot">no pot</li>`, $("rpots"));
  const button = step.seats.find((s) => s.seat === view.button_seat);
  render(html`${step.seats.map((s) => {
    const at = placed(s.seat, 44);
    const bet = placed(s.seat, 27);
    const cards = step.cards[s.position];
    const status = s.folded ? "folded" : (s.all_in ? "all-in" : (step.to_act === s.position ? "to act" : ""));
    const classes = ["rseat", s.folded ? "folded" : "", step.to_act === s.position ? "to-act" : ""].join(" ");
    return html`<div class=${classes} data-seat=${s.seat} data-x=${at.x} data-y=${at.y}>
        <div class="rname">${s.seat} ${s.name}</div>
        <div class="rstack">${H.chips(s.stack)}</div>
        <div class="cards">${cards ? cards.map((c) => H.cardView(c)) : nothing}</div>
        ${status ? html`<div class="rstatus">${status}</div>` : nothing}
        ${s.returned ? html`<div class="rreturned">${H.chips(s.returned)} uncalled, returned</div>` : nothing}
      </div>
      ${s.in_front ? html`<div class="rbet" data-bet=${s.seat} data-x=${bet.x} data-y=${bet.y}>${H.chips(s.in_front)}</div>` : nothing}`;
  })}
  ${button ? html`<div class="rbutton" aria-label="dealer button" data-x=${placed(button.seat + 0.35, 33).x} data-y=${placed(button.seat + 0.35, 33).y}>D</div>` : nothing}`, $("rseats"));
  // Positions set through the CSSOM: the page's CSP refuses inline style attributes.
  /** @type {NodeListOf<HTMLElement>} */ ($("rseats").querySelectorAll("[data-x]")).forEach((el) => {
    el.style.left = `${el.dataset.x}%`;
    el.style.top = `${el.dataset.y}%`;
  });
}

// Play: a step every STEP_MS / speed, until the last step or a pause.
function play() {
  const view = state.view;
  if (!view) return;
  if (state.step >= view.steps.length - 1) go(0);
  $("play").textContent = "Pause";
  $("play").setAttribute("aria-label", "Pause");
  $("play").dataset.playing = "true";
  const tick = () => {
    if (!state.view || state.step >= state.view.steps.length - 1) { pause(); return; }
    go(state.step + 1);
    state.timer = setTimeout(tick, STEP_MS / state.speed);
  };
  state.timer = setTimeout(tick, STEP_MS / state.speed);
}

function pause() {
  if (state.timer !== null) clearTimeout(state.timer);
  state.timer = null;
  $("play").textContent = "Play";
  $("play").setAttribute("aria-label", "Play");
  $("play").dataset.playing = "false";
}

function toggle() {
  if (state.timer === null) play(); else pause();
}

function setSpeed(speed) {
  const speeds = [0.5, 1, 2, 4];
  state.speed = speeds.includes(speed) ? speed : 1;
  $("speed").value = String(state.speed);
}

// The director's what-if at this step: another award of the pots, another amount, or the
// entry dropped. The server re-decides everything after it; the page only shows the answer.
function renderWhatIf(step) {
  const box = $("whatif");
  box.hidden = !state.director;
  if (!state.director) return;
  const view = state.view;
  const parts = [];
  if (step.type === "pot_awarded") {
    const awards = view.steps.filter((s) => s.type === "pot_awarded");
    const first = awards[0];
    const pots = view.steps[Math.max(0, first.index - 1)].pots;
    parts.push(html`<input type="hidden" name="at" value=${first.version}>`);
    pots.forEach((pot, k) => {
      parts.push(html`<label>${pot.name} ${H.chips(pot.amount)} to <select name="pot" data-pot=${k} aria-label=${`${pot.name} to`}>${pot.eligible.map((name) => html`<option value=${name}>${name}</option>`)}</select></label>`);
    });
    parts.push(html`<button type="submit" class="btn small" data-kind="award">Award otherwise</button>`);
  } else if (step.type === "bet_made" || step.type === "raise_made") {
    parts.push(html`<input type="hidden" name="at" value=${step.version}>`);
    parts.push(html`<label>to <input type="number" name="amount" min="1" aria-label="Another amount"></label>`);
    parts.push(html`<button type="submit" class="btn small" data-kind="amount">Another amount</button>`);
  } else {
    parts.push(html`<input type="hidden" name="at" value=${step.version}>`);
  }
  if (step.index > 0) parts.push(html`<button type="submit" class="btn small" data-kind="drop">As if this entry had not happened</button>`);
  // A fresh form at each step (nothing chosen or typed carries over to another entry).
  render(nothing, $("whatif-form"));
  render(parts.map((part) => html`${part} `), $("whatif-form"));
}

async function tryWhatIf(kind) {
  const form = $("whatif-form");
  const body = { at: Number(form.querySelector("[name=at]").value) };
  if (kind === "award") body.award = Array.from(form.querySelectorAll("select[name=pot]")).map((s) => [s.value]);
  if (kind === "amount") body.amount = Number(form.querySelector("[name=amount]").value);
  if (kind === "drop") body.drop = true;
  const r = await H.api("POST", `/api/tables/${encodeURIComponent(state.table)}/whatif`, body);
  if (r.status !== 200) {
    render(html`<p class="error">${(r.body && r.body.message) || r.status}</p>`, $("whatif-result"));
    return;
  }
  const w = r.body;
  const rows = w.players.map((p) => html`<tr data-player=${p.player}><td>${p.player}</td><td>${H.chips(p.recorded_stack)}</td><td class="whatif-stack">${H.chips(p.whatif_stack)}</td><td>${p.recorded_out_in_hand || "-"}</td><td>${p.whatif_out_in_hand || "-"}</td></tr>`);
  const money = (c) => (c / 100).toLocaleString("en-US", { minimumFractionDigits: 2 });
  // The verdict and each place's words are the server's (the CLI prints the same).
  const places = w.places.map((p) => html`<tr data-player=${p.player}><td>${p.player}</td><td>${p.recorded_place || "-"} (${money(p.recorded_prize)})</td><td class="whatif-place">${p.whatif_text}</td></tr>`);
  const unfit = w.unfit.map((u) => html`<li data-version=${u.version}>#${u.version} (hand ${u.hand}): recorded ${u.recorded}; in the what-if ${u.whatif}</li>`);
  render(html`<p id="whatif-verdict">${w.verdict}</p>${unfit.length ? html`<ul id="whatif-unfit">${unfit}</ul>` : nothing}<table class="seats-table"><thead><tr><th>Player</th><th>Recorded</th><th>What if</th><th>Out (recorded)</th><th>Out (what if)</th></tr></thead><tbody>${rows}</tbody></table>${places.length ? html`<table class="seats-table" id="whatif-places"><thead><tr><th>Player</th><th>Place (recorded)</th><th>Place (what if)</th></tr></thead><tbody>${places}</tbody></table>` : nothing}`, $("whatif-result"));
}

async function find() {
  const q = new URLSearchParams();
  if ($("player").value.trim()) q.set("player", $("player").value.trim());
  if ($("allin").checked) q.set("all_in", "true");
  const answer = await get(`/api/hands?${q}`);
  const hands = (answer && answer.hands) || [];
  $("found").hidden = false;
  render(hands.length ? hands.map((h) =>
    html`<li><a href=${`/replayer?table=${encodeURIComponent(h.stream)}&hand=${encodeURIComponent(h.label)}`} data-stream=${h.stream} data-hand=${h.label}>${h.table} #${h.label} · level ${h.level}${h.all_in.length ? " · all-in: " + h.all_in.join(", ") : ""}</a></li>`)
    : html`<li class="muted">no hand found</li>`, $("found"));
}

function wire() {
  $("first").addEventListener("click", () => { pause(); go(0); });
  $("prev").addEventListener("click", () => { pause(); go(state.step - 1); });
  $("next").addEventListener("click", () => { pause(); go(state.step + 1); });
  $("last").addEventListener("click", () => { pause(); go(Infinity); });
  $("play").addEventListener("click", toggle);
  $("speed").addEventListener("change", () => setSpeed(Number($("speed").value)));
  $("share").addEventListener("click", share);
  $("slider").addEventListener("input", () => { pause(); go(Number($("slider").value)); });
  $("table").addEventListener("change", async () => {
    state.table = $("table").value; state.hand = "";
    await loadHands(); await loadHand();
  });
  $("hand").addEventListener("change", async () => { state.hand = $("hand").value; await loadHand(); });
  $("find").addEventListener("click", find);
  $("whatif-form").addEventListener("submit", (e) => {
    e.preventDefault();
    tryWhatIf(e.submitter ? e.submitter.dataset.kind : "drop");
  });
  $("found").addEventListener("click", async (e) => {
    const a = e.target.closest("a[data-stream]");
    if (!a) return;
    e.preventDefault();
    state.table = a.dataset.stream; state.hand = a.dataset.hand;
    $("table").value = state.table;
    await loadHands(); await loadHand();
  });
  document.addEventListener("keydown", (e) => {
    const target = /** @type {HTMLInputElement | null} */ (e.target);
    if (target && ((target.tagName === "INPUT" && target.type !== "range") || target.tagName === "SELECT")) return;
    if (e.key === "ArrowRight") { pause(); go(state.step + 1); e.preventDefault(); }
    if (e.key === "ArrowLeft") { pause(); go(state.step - 1); e.preventDefault(); }
    if (e.key === "Home") { pause(); go(0); }
    if (e.key === "End") { pause(); go(Infinity); }
    if (e.key === " " && !(target && target.tagName === "BUTTON")) { toggle(); e.preventDefault(); }
    if (e.key === "+" || e.key === "=") setSpeed(Math.min(4, state.speed * 2));
    if (e.key === "-") setSpeed(Math.max(0.5, state.speed / 2));
  });
}

async function start() {
  wire();
  const me = await H.session();
  state.director = me.role === "director";
  await loadTables();
  await loadHands();
  await loadHand();
}
start();
