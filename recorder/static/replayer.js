// @ts-check
// The hand replayer (/replayer?table=STREAM&hand=N&at=VERSION): step through one hand action
// by action. Everything shown comes from GET /api/tables/{stream}/hands/{n}; a viewer gets
// only the cards shown at the table (the server decides that, not this page).
"use strict";

(() => {
  const H = Handlog;
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
    $("table").innerHTML = tables.map((t) =>
      `<option value="${H.esc(t.stream)}">${H.esc(t.name || t.table || t.stream)}</option>`).join("");
    if (!state.table && tables.length) state.table = tables[0].stream;
    $("table").value = state.table;
  }

  async function loadHands() {
    if (!state.table) return;
    const list = await get(`/api/tables/${encodeURIComponent(state.table)}/hands`);
    const hands = (list && list.hands) || [];
    $("hand").innerHTML = hands.map((h) =>
      `<option value="${h.hand}">#${h.hand} · level ${h.level} · ${H.esc(h.outcome)}${h.all_in.length ? " · all-in" : ""}</option>`).join("");
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
    $("streets").innerHTML = marks.map((m) => `<option value="${m.i}" label="${H.esc(m.street)}"></option>`).join("");
    const width = Math.max(1, view.steps.length - 1);
    $("streetmarks").innerHTML = marks.map((m) =>
      `<span class="streetmark" data-street="${H.esc(m.street)}" data-at="${m.i}">${H.esc(m.street)}</span>`).join("");
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
    $("corrections").innerHTML = view.corrections.length ? view.corrections.map((c) =>
      `<li data-version="${c.version}"><b>${H.esc(c.kind.replace(/_/g, " "))}</b> #${c.version}` +
      ` (touches ${c.versions.map((v) => "#" + v).join(", ")}) by ${H.esc(c.actor)} on ${H.esc(c.device)},` +
      ` ${H.esc(c.at.slice(0, 19).replace("T", " "))} UTC: ${H.esc(c.reason || "-")}` +
      (c.rule ? ` <span class="rule">${H.esc(c.rule)}</span>` : "") + "</li>").join("")
      : "<li class=\"muted\">none</li>";
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
    $("board").innerHTML = step.board.length ? step.board.map((c) => H.cardHtml(c)).join("") : '<span class="muted">no board yet</span>';
    const button = view.button_seat;
    $("seats").innerHTML = step.seats.map((s) => {
      const marks = [];
      if (s.seat === button) marks.push("D");
      if (s.seat === view.small_blind_seat) marks.push("SB");
      if (s.seat === view.big_blind_seat) marks.push("BB");
      const cards = step.cards[s.position];
      const status = s.folded ? "folded" : (s.all_in ? "all-in" : (step.to_act === s.position ? "to act" : ""));
      return `<tr data-seat="${s.seat}" class="${s.folded ? "folded" : ""}"><td>${s.seat} ${marks.map((m) => `<span class="badge">${m}</span>`).join("")}</td>` +
        `<td>${H.esc(s.name)}</td><td class="cards">${cards ? cards.map((c) => H.cardHtml(c)).join("") : ""}</td>` +
        `<td>${H.chips(s.stack)}</td><td>${H.chips(s.in_front)}</td><td>${H.chips(s.in_pot)}</td><td>${status}</td></tr>`;
    }).join("");
    $("pots").innerHTML = step.pots.map((p) =>
      `<li class="pot"><b>${H.esc(p.name)}</b> <span class="amount">${H.chips(p.amount)}</span> · eligible: ${H.esc(p.eligible.join(", "))}</li>`).join("") +
      `<li class="pot-total">Total <span id="pot-total">${H.chips(step.pot_total)}</span></li>`;
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
      parts.push(`<input type="hidden" name="at" value="${first.version}">`);
      pots.forEach((pot, k) => {
        parts.push(`<label>${H.esc(pot.name)} ${H.chips(pot.amount)} to <select name="pot" data-pot="${k}" aria-label="${H.esc(pot.name)} to">` +
          pot.eligible.map((name) => `<option value="${H.esc(name)}">${H.esc(name)}</option>`).join("") + "</select></label>");
      });
      parts.push('<button type="submit" class="btn small" data-kind="award">Award otherwise</button>');
    } else if (step.type === "bet_made" || step.type === "raise_made") {
      parts.push(`<input type="hidden" name="at" value="${step.version}">`);
      parts.push('<label>to <input type="number" name="amount" min="1" aria-label="Another amount"></label>');
      parts.push('<button type="submit" class="btn small" data-kind="amount">Another amount</button>');
    } else {
      parts.push(`<input type="hidden" name="at" value="${step.version}">`);
    }
    if (step.index > 0) parts.push('<button type="submit" class="btn small" data-kind="drop">As if this entry had not happened</button>');
    $("whatif-form").innerHTML = parts.join(" ");
  }

  async function tryWhatIf(kind) {
    const form = $("whatif-form");
    const body = { at: Number(form.querySelector("[name=at]").value) };
    if (kind === "award") body.award = Array.from(form.querySelectorAll("select[name=pot]")).map((s) => [s.value]);
    if (kind === "amount") body.amount = Number(form.querySelector("[name=amount]").value);
    if (kind === "drop") body.drop = true;
    const r = await H.api("POST", `/api/tables/${encodeURIComponent(state.table)}/whatif`, body);
    if (r.status !== 200) {
      $("whatif-result").innerHTML = `<p class="error">${H.esc((r.body && r.body.message) || r.status)}</p>`;
      return;
    }
    const w = r.body;
    const rows = w.players.map((p) => `<tr data-player="${H.esc(p.player)}"><td>${H.esc(p.player)}</td><td>${H.chips(p.recorded_stack)}</td>` +
      `<td class="whatif-stack">${H.chips(p.whatif_stack)}</td><td>${p.recorded_out_in_hand || "-"}</td><td>${p.whatif_out_in_hand || "-"}</td></tr>`).join("");
    const money = (c) => (c / 100).toLocaleString("en-US", { minimumFractionDigits: 2 });
    const places = w.places.map((p) => `<tr data-player="${H.esc(p.player)}"><td>${H.esc(p.player)}</td>` +
      `<td>${p.recorded_place || "-"} (${money(p.recorded_prize)})</td>` +
      `<td class="whatif-place">${p.whatif_place ? `${p.whatif_place} (${money(p.whatif_prize)})` : `open, ${H.chips(p.whatif_stack || 0)} chips`}</td></tr>`).join("");
    $("whatif-result").innerHTML =
      `<p id="whatif-verdict">${w.complete ? "Every later entry still fits: followed to the end of the table." :
        `Followed up to #${w.stopped_at}: ${H.esc(w.stop_message)} (${H.esc(w.stop_rule)}). From there the players would have played differently.`}</p>` +
      `<table class="seats-table"><thead><tr><th>Player</th><th>Recorded</th><th>What if</th><th>Out (recorded)</th><th>Out (what if)</th></tr></thead><tbody>${rows}</tbody></table>` +
      (places ? `<table class="seats-table" id="whatif-places"><thead><tr><th>Player</th><th>Place (recorded)</th><th>Place (what if)</th></tr></thead><tbody>${places}</tbody></table>` : "");
  }

  async function find() {
    const q = new URLSearchParams();
    if ($("player").value.trim()) q.set("player", $("player").value.trim());
    if ($("allin").checked) q.set("all_in", "true");
    const answer = await get(`/api/hands?${q}`);
    const hands = (answer && answer.hands) || [];
    $("found").hidden = false;
    $("found").innerHTML = hands.length ? hands.map((h) =>
      `<li><a href="/replayer?table=${encodeURIComponent(h.stream)}&hand=${h.hand}" data-stream="${H.esc(h.stream)}" data-hand="${h.hand}">` +
      `${H.esc(h.table)} #${h.hand} · level ${h.level}${h.all_in.length ? " · all-in: " + H.esc(h.all_in.join(", ")) : ""}</a></li>`).join("")
      : '<li class="muted">no hand found</li>';
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
})();
