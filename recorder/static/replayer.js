// @ts-check
// The hand replayer (/replayer?table=STREAM&hand=N&at=VERSION): step through one hand action
// by action. Everything shown comes from GET /api/tables/{stream}/hands/{n}; a viewer gets
// only the cards shown at the table (the server decides that, not this page).
import * as H from "./common.js";
import { html, nothing, render } from "./lit.js";

/** @type {(id: string) => any} */
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const state = { table: params.get("table") || "", hand: Number(params.get("hand") || 0),
                at: Number(params.get("at") || 0), view: null, step: 0, director: false };

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

function setUrl() {
  const q = new URLSearchParams({ table: state.table, hand: String(state.hand) });
  const step = state.view && state.view.steps[state.step];
  if (step) q.set("at", String(step.version));
  history.replaceState(null, "", `/replayer?${q}`);
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
  render(hands.map((h) => html`<option value=${h.hand}>#${h.hand} · level ${h.level} · ${h.outcome}${h.all_in.length ? " · all-in" : ""}</option>`), $("hand"));
  if (!state.hand && state.at) {
    const around = hands.find((h) => h.first_version <= state.at && state.at <= h.last_version);
    if (around) state.hand = around.hand;
  }
  if (!hands.some((h) => h.hand === state.hand) && hands.length) state.hand = hands[hands.length - 1].hand;
  $("hand").value = String(state.hand);
}

async function loadHand() {
  if (!state.table || !state.hand) return;
  const view = await get(`/api/tables/${encodeURIComponent(state.table)}/hands/${state.hand}`);
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
  $("info").textContent = `${view.table} · hand #${view.hand} · level ${view.level} · ${view.profile} rules` +
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
  render(html`${step.pots.map((p) => html`<li class="pot"><b>${p.name}</b> <span class="amount">${H.chips(p.amount)}</span> · eligible: ${p.eligible.join(", ")}</li>`)}<li class="pot-total">Total <span id="pot-total">${H.chips(step.pot_total)}</span></li>`, $("pots"));
  /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#corrections li")).forEach((li) => {
    li.classList.toggle("here", Number(li.dataset.version) === step.version);
  });
  renderWhatIf(step);
  setUrl();
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
  const places = w.places.map((p) => html`<tr data-player=${p.player}><td>${p.player}</td><td>${p.recorded_place || "-"} (${money(p.recorded_prize)})</td><td class="whatif-place">${p.whatif_place ? `${p.whatif_place} (${money(p.whatif_prize)})` : `open, ${H.chips(p.whatif_stack || 0)} chips`}</td></tr>`);
  const verdict = w.complete ? "Every later entry still fits: followed to the end of the table."
    : `Followed up to #${w.stopped_at}: ${w.stop_message} (${w.stop_rule}). From there the players would have played differently.`;
  render(html`<p id="whatif-verdict">${verdict}</p><table class="seats-table"><thead><tr><th>Player</th><th>Recorded</th><th>What if</th><th>Out (recorded)</th><th>Out (what if)</th></tr></thead><tbody>${rows}</tbody></table>${places.length ? html`<table class="seats-table" id="whatif-places"><thead><tr><th>Player</th><th>Place (recorded)</th><th>Place (what if)</th></tr></thead><tbody>${places}</tbody></table>` : nothing}`, $("whatif-result"));
}

async function find() {
  const q = new URLSearchParams();
  if ($("player").value.trim()) q.set("player", $("player").value.trim());
  if ($("allin").checked) q.set("all_in", "true");
  const answer = await get(`/api/hands?${q}`);
  const hands = (answer && answer.hands) || [];
  $("found").hidden = false;
  render(hands.length ? hands.map((h) =>
    html`<li><a href=${`/replayer?table=${encodeURIComponent(h.stream)}&hand=${h.hand}`} data-stream=${h.stream} data-hand=${h.hand}>${h.table} #${h.hand} · level ${h.level}${h.all_in.length ? " · all-in: " + h.all_in.join(", ") : ""}</a></li>`)
    : html`<li class="muted">no hand found</li>`, $("found"));
}

function wire() {
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(state.step - 1));
  $("next").addEventListener("click", () => go(state.step + 1));
  $("last").addEventListener("click", () => go(Infinity));
  $("slider").addEventListener("input", () => go(Number($("slider").value)));
  $("table").addEventListener("change", async () => {
    state.table = $("table").value; state.hand = 0;
    await loadHands(); await loadHand();
  });
  $("hand").addEventListener("change", async () => { state.hand = Number($("hand").value); await loadHand(); });
  $("find").addEventListener("click", find);
  $("whatif-form").addEventListener("submit", (e) => {
    e.preventDefault();
    tryWhatIf(e.submitter ? e.submitter.dataset.kind : "drop");
  });
  $("found").addEventListener("click", async (e) => {
    const a = e.target.closest("a[data-stream]");
    if (!a) return;
    e.preventDefault();
    state.table = a.dataset.stream; state.hand = Number(a.dataset.hand);
    $("table").value = state.table;
    await loadHands(); await loadHand();
  });
  document.addEventListener("keydown", (e) => {
    const target = /** @type {HTMLInputElement | null} */ (e.target);
    if (target && (target.tagName === "INPUT" && target.type !== "range")) return;
    if (e.key === "ArrowRight") { go(state.step + 1); e.preventDefault(); }
    if (e.key === "ArrowLeft") { go(state.step - 1); e.preventDefault(); }
    if (e.key === "Home") go(0);
    if (e.key === "End") go(Infinity);
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
