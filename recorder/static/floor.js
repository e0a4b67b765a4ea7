// @ts-check
// The floor page (/floor, and /view for viewers): every table at a glance, the tournament's
// clock, registration, seat draw, moves, eliminations, color-ups, rulings and corrections;
// for the director the dealer PINs and one-time pairing codes. Live over server-sent events.
"use strict";

(() => {
  const H = Handlog;
  const VIEW_ONLY = location.pathname.startsWith("/view");
  let me = { role: null };
  let floor = null;
  let alertBox = null;
  let tick = null;
  // Test hooks only behind the test flag (common.js): elsewhere they go to a throwaway object.
  const hooks = H.testing ? window : {};
  hooks.__floorUpdates = 0;

  /** @returns {any} */
  function $(id) {
    return document.getElementById(id);
  }

  // Replace a region's HTML, keeping what the director is typing in its forms.
  const lastHtml = new Map();
  function setHtml(el, html) {
    if (lastHtml.get(el.id) === html) return;
    lastHtml.set(el.id, html);
    const values = new Map();
    let focused = null;
    for (const input of el.querySelectorAll("input, select")) {
      const key = `${input.form ? input.form.dataset.form + ":" + (input.form.dataset.t || "") : ""}:${input.name}`;
      values.set(key, input.value);
      if (input === document.activeElement) focused = key;
    }
    el.innerHTML = html;
    for (const input of el.querySelectorAll("input, select")) {
      const key = `${input.form ? input.form.dataset.form + ":" + (input.form.dataset.t || "") : ""}:${input.name}`;
      // A field marked data-follow shows what the server proposes now (the tables the
      // entries need) unless the director is typing in it.
      const follows = input.dataset.follow !== undefined && key !== focused;
      // A select keeps its choice only while that option is still offered (a player who
      // has since been eliminated is not): else it would send nothing at all.
      const gone = input.tagName === "SELECT" && ![...input.options].some((o) => o.value === values.get(key));
      if (values.has(key) && input.type !== "hidden" && !follows && !gone) input.value = values.get(key);
      if (key === focused) input.focus();
    }
  }

  function showAlert(kind, title, body) {
    alertBox = { kind, title, rule: (body && body.rule) || "", text: (body && body.message) || "", legal: (body && body.legal) || [] };
    renderAlert();
  }

  function renderAlert() {
    H.showAlert($("alert"), alertBox,
      unsent ? `<button type="button" class="btn small primary" data-action="resend">Send again</button>` : "");
  }

  function render() {
    if (!floor) return;
    document.body.dataset.version = floor.version;
    const players = floor.tables.reduce((n, t) => n + (t.players ? t.players.length : 0), 0);
    $("info").textContent = `${floor.tables.length} table${floor.tables.length === 1 ? "" : "s"} · ${players} players seated`;
    $("who").innerHTML = me.role
      ? `<button type="button" class="btn small" data-action="signout">${H.esc(me.role)}: sign out</button>`
      : "";
    setHtml($("tables"), floor.tables.map(tableCard).join("") || '<div class="box">No table is open yet.</div>');
    renderTournament();
    renderSide();
    renderAlert();
  }

  function tableCard(t) {
    if (!t.open) return t.problem ? problemCard(t) : "";
    const hand = t.hand;
    const level = t.level ? ` · L${t.level.number} ${H.chips(t.level.small_blind)}/${H.chips(t.level.big_blind)}` : "";
    let html = `<article class="table-card${hand ? " in-hand" : ""}" data-stream="${H.esc(t.stream)}">`;
    const owner = t.tournament ? (floor.tournaments || []).find((x) => x.id === t.tournament) : null;
    const ownerText = owner ? `${H.esc(owner.name)} (${H.esc(owner.id)}) · ` : (t.tournament ? `${H.esc(t.tournament)} · ` : "");
    html += `<h3>Table ${H.esc(t.table)} <small>${ownerText}${H.esc(t.profile)}${level} · ${t.hands_played} hands</small></h3>`;
    html += `<div class="hand-line">${hand ? `Hand #${hand.number} · ${H.esc(hand.phase === "betting" ? hand.street : hand.phase)} · pot ${H.chips(hand.pot_total)}${hand.to_act ? ` · ${H.esc(hand.to_act)} to act` : ""}` : "between hands"}${t.carry ? ` · <span class="carry">${H.chips(t.carry)} carried into the next pot</span>` : ""}</div>`;
    html += '<table class="players"><tbody>';
    for (const p of t.players) {
      const cls = [p.to_act ? "to-act" : "", p.stack === 0 && !p.in_hand ? "out" : "", p.folded ? "folded" : ""].join(" ").trim();
      html += `<tr class="${cls}" data-player="${H.esc(p.player)}"><td>${p.seat}</td><td>${H.esc(p.player)}${p.absent ? " <small>(absent)</small>" : ""}</td><td class="num stack">${H.chips(p.stack)}</td></tr>`;
    }
    html += "</tbody></table>";
    html += `<div class="links">`;
    if (me.role === "director") html += `<a class="btn small" href="/dealer/${encodeURIComponent(t.stream)}">Dealer page</a>`;
    html += `<a class="btn small" href="/view/${encodeURIComponent(t.stream)}">Watch</a>`;
    html += `<a class="btn small" href="/replayer?table=${encodeURIComponent(t.stream)}">Hands</a></div>`;
    if (floor.dealer_pins && floor.dealer_pins[t.stream]) {
      const codes = (floor.pairing_codes || []).filter((c) => c.table === t.stream).map((c) => `<b class="code">${H.esc(c.code)}</b>`);
      html += `<div class="pin-line">Dealer PIN <b class="dealer-pin">${H.esc(floor.dealer_pins[t.stream])}</b>${codes.length ? ` · pairing code ${codes.join(", ")}` : ""}</div>`;
      html += `<button type="button" class="btn small wide" data-action="pair" data-stream="${H.esc(t.stream)}">New pairing code</button>`;
    }
    html += "</article>";
    return html;
  }

  // A table that cannot be shown (an entry this release cannot apply) says why on its card;
  // the other tables are shown as usual.
  function problemCard(t) {
    const p = t.problem;
    let html = `<article class="table-card broken" data-stream="${H.esc(t.stream)}">`;
    html += `<h3>${H.esc(t.stream)} <small>cannot be shown</small></h3>`;
    html += `<div class="problem">${H.esc(p.message)} <small>(${H.esc(p.rule)}${p.version ? `, #${p.version}` : ""})</small></div>`;
    if (me.role === "director" && p.legal && p.legal.length) html += `<div class="hand-line">${H.esc(p.legal.join(" · "))}</div>`;
    html += "</article>";
    return html;
  }

  // --- the tournaments: clock, schedule, registration, seat draw, moves, eliminations -----

  let offset = 0; // server clock minus this screen's clock

  function mmss(ms) {
    const total = Math.max(0, Math.round(ms / 1000));
    const m = Math.floor(total / 60);
    const sec = total % 60;
    return `${m}:${String(sec).padStart(2, "0")}`;
  }

  function clockText(t) {
    const c = t.clock;
    if ((c.kind === "level" || c.kind === "break") && c.paused) return `${mmss(c.left_ms)} paused`;
    if (c.kind === "level" || c.kind === "break") {
      const left = c.ends - (Date.now() + offset);
      return left > 0 ? mmss(left) : "time";
    }
    return "";
  }

  function stakesText(s) {
    if (!s) return "no level yet";
    return `${H.chips(s.small_blind)}/${H.chips(s.big_blind)}${s.ante ? ` ante ${H.chips(s.ante)}` : ""}`;
  }

  function director() {
    return me.role === "director";
  }

  function tournamentBox(t) {
    let html = `<section class="box tournament" data-tournament="${H.esc(t.id)}" data-version="${t.version}">`;
    html += `<h2>${H.esc(t.name)} <small>${H.esc(t.id)} · ${H.esc(t.profile)} rules · ${t.remaining}/${t.entries} players · average ${H.chips(t.average_stack)} · chips ${H.chips(t.chip_total)} · smallest chip ${H.chips(t.chip_unit)}</small></h2>`;
    html += '<div class="clock-row">';
    html += `<div><div class="clock-label" id="clock-label-${H.esc(t.id)}">${H.esc(t.clock.label || (t.level ? `Level ${t.level}` : "Not started"))}${t.on_break ? "" : ` · ${H.esc(stakesText(t.stakes))}`}</div>`;
    html += `<div class="clock-big" data-clock="${H.esc(t.id)}">${clockText(t)}</div></div>`;
    if (t.finished) html += `<div class="winner">Winner: ${H.esc(t.winner)}</div>`;
    if (director() && !t.finished) {
      html += '<div class="clock-actions">';
      if (t.on_break) html += cmd(t, "end_break", "End the break", "primary");
      else if (t.next.ok) html += cmd(t, "start_level", `Start level ${t.level + 1}`, "primary");
      else {
        const legal = (t.next.legal || []).join(" ");
        if (/break/.test(legal)) html += cmd(t, "start_break", "Start the break", "primary");
        if (/color-up/.test(legal)) html += cmd(t, "color_up", "Color-up", "primary");
        if (/decide antes/.test(legal)) html += cmd(t, "decide_antes", "Decide the antes", "primary");
      }
      if (t.level && (t.clock.kind === "level" || t.clock.kind === "break")) {
        html += t.clock.paused
          ? cmd(t, "clock", "Resume the clock", "small", { action: "resume" })
          : cmd(t, "clock", "Pause the clock", "small", { action: "pause" });
        html += cmd(t, "clock", "+1 min", "small", { action: "add_time", seconds: 60 });
      }
      if (!t.on_break && t.level) html += `<form class="form inline" data-form="extra-break" data-t="${H.esc(t.id)}"><input name="minutes" type="number" min="1" max="240" value="10" inputmode="numeric" aria-label="Extra break minutes"><button type="submit" class="btn small">Extra break</button></form>`;
      html += "</div>";
    }
    html += "</div>";
    if (t.upcoming) html += `<div class="panel-note upcoming">${t.upcoming.level ? `Next level ${t.upcoming.level.number}: ${H.chips(t.upcoming.level.small_blind)}/${H.chips(t.upcoming.level.big_blind)}${t.upcoming.level.ante ? ` ante ${H.chips(t.upcoming.level.ante)}` : ""}` : "Last level"}${t.upcoming.break_after ? ` · next break after level ${t.upcoming.break_after}` : ""}</div>`;
    if (!t.next.ok && !t.finished && t.level) html += `<div class="panel-note">Next: ${H.esc(t.next.message)} <span class="rule">${H.esc(t.next.rule)}</span></div>`;
    html += '<ol class="schedule">';
    for (const lv of t.schedule) {
      html += `<li class="${lv.current ? "current" : ""}">L${lv.number} ${H.chips(lv.small_blind)}/${H.chips(lv.big_blind)}${lv.ante ? ` a${H.chips(lv.ante)}` : ""} · ${lv.minutes}′${lv.break_after ? ` · break ${lv.break_after}′` : ""}</li>`;
    }
    html += "</ol></section>";
    return html;
  }

  function cmd(t, type, label, cls, extra) {
    // Extra fields of the command ride as data-arg-NAME attributes.
    const data = Object.entries(extra || {}).map(([k, v]) => ` data-arg-${k}="${H.esc(v)}"`).join("");
    return `<button type="button" class="btn ${cls || ""}" data-action="t-cmd" data-t="${H.esc(t.id)}" data-type="${type}"${data}>${H.esc(label)}</button>`;
  }

  function tournamentSide(t) {
    let html = "";
    if (director() && !t.finished) {
      html += '<section class="box"><h2>Registration and seats</h2>';
      if (t.registration_open) {
        html += `<form class="form" data-form="register" data-t="${H.esc(t.id)}"><input name="name" placeholder="Player name" autocomplete="off" required>${t.jackpot ? '<label class="check"><input type="checkbox" name="high_hand"> high-hand fee paid</label>' : ""}<button type="submit" class="btn primary">Register</button></form>`;
      } else {
        html += '<div class="panel-note">Registration is closed.</div>';
      }
      if (t.unseated.length) {
        html += `<div class="panel-note">Not seated: ${t.unseated.map((e) => H.esc(e.name)).join(", ")}</div>`;
        if (!t.tables.length) {
          html += `<form class="form" data-form="draw" data-t="${H.esc(t.id)}"><input name="tables" type="number" min="1" max="10000" aria-label="Tables to draw" data-follow value="${t.tables_needed || 1}" inputmode="numeric"><button type="submit" class="btn primary">Draw seats</button></form>`;
        }
      }
      html += "</section>";
      html += '<section class="box"><h2>Moves</h2>';
      if (t.tables.length > 1 || t.hand_for_hand) html += cmd(t, "hand_for_hand", t.hand_for_hand ? "End hand-for-hand" : "Start hand-for-hand", "wide", { on: t.hand_for_hand ? "false" : "true" });
      html += handForHandNote(t);
      if (t.table_break) html += cmd(t, "break_table", t.table_break.label, "primary wide");
      else if (t.needs_balancing) html += cmd(t, "balance", "Balance the tables", "primary wide");
      if (t.tables.length > 1) {
        html += `<form class="form" data-form="move" data-t="${H.esc(t.id)}"><select name="player" aria-label="Player to move">${t.players.map((p) => `<option value="${H.esc(p.player)}">${H.esc(p.name)} (T${H.esc(p.table)} s${p.seat})</option>`).join("")}</select><select name="to_table" aria-label="To table">${t.tables.map((x) => `<option>${H.esc(x)}</option>`).join("")}</select><button type="submit" class="btn">Move</button></form>`;
      }
      html += `<ol tabindex="0" class="list moves">${t.moves.map((m) => `<li>${H.esc(m.name)}: table ${H.esc(m.from_table)} seat ${m.from_seat} → table ${H.esc(m.to_table)} seat ${m.to_seat} with ${H.chips(m.stack)} <small>${H.esc(m.reason)}</small>${m.rule ? ` <span class="rule">${H.esc(m.rule)}</span>` : ""}</li>`).join("") || "<li>none</li>"}</ol>`;
      html += "</section>";
      html += `<section class="box"><h2>Penalties</h2><form class="form" data-form="penalty" data-t="${H.esc(t.id)}"><select name="player" aria-label="Player penalised">${t.players.map((p) => `<option value="${H.esc(p.player)}">${H.esc(p.name)}</option>`).join("")}</select><select name="penalty" aria-label="Penalty"><option value="warning">warning</option><option value="hands">hands</option><option value="rounds">rounds</option><option value="disqualification">disqualification</option></select><input name="count" type="number" min="0" max="100" value="1" inputmode="numeric" aria-label="hands or rounds"><input name="rule" value="tda-71" aria-label="rule"><input name="reason" placeholder="Reason" aria-label="Reason"><button type="submit" class="btn">Give penalty</button></form>`;
      html += penaltyList(t) + "</section>";
      html += chipCountBox(t);
      if (t.bounties_referred.length) {
        html += '<section class="box"><h2>Bounties to decide</h2><ol tabindex="0" class="list bounties">';
        for (const b of t.bounties_referred) {
          html += `<li>${H.esc(b.name)} (table ${H.esc(b.table)}, hand #${b.hand}, ${H.esc(b.code)}): ${(b.proposal.length ? b.proposal : t.players).map((p) => cmd(t, "assign_bounty", `to ${p.name}`, "small", { player: b.player, to: p.player })).join(" ")}</li>`;
        }
        html += "</ol></section>";
      }
      if (t.high_hand && !t.high_hand.awarded && t.high_hand.players.length && t.finished) {
        html += `<section class="box"><h2>High hand</h2>${cmd(t, "award_high_hand", `Award the jackpot: ${t.high_hand.players.map((p) => p.name).join(", ")}`, "primary wide")}</section>`;
      }
      if (t.deals_allowed) {
        html += `<section class="box"><h2>Deal</h2><form class="form" data-form="deal" data-t="${H.esc(t.id)}"><select name="method" aria-label="Deal method"><option value="icm">ICM</option><option value="chip_chop">chip chop</option><option value="chip_chop_last_guaranteed">chip chop, last place guaranteed</option></select><input name="kept" type="number" min="0" value="0" inputmode="numeric" aria-label="kept to play for (cents)">${t.players.map((p) => `<label class="check"><input type="checkbox" name="consent:${H.esc(p.player)}" value="${H.esc(p.name)}"> ${H.esc(p.name)} agrees</label>`).join("")}<button type="submit" class="btn primary">Record the deal</button></form></section>`;
      }
      html += '<section class="box"><h2>Ruling</h2>';
      html += `<form class="form" data-form="ruling" data-t="${H.esc(t.id)}"><input name="rule" placeholder="Rule (e.g. TDA 45)" required><input name="text" placeholder="Decision" required><select name="stream" aria-label="Ruling at table"><option value="">(tournament)</option>${t.tables.map((x) => `<option value="${H.esc(t.table_streams[x])}">table ${H.esc(x)}</option>`).join("")}</select><button type="submit" class="btn">Record ruling</button></form>`;
      html += "</section>";
    } else if (t.moves.length) {
      html += `<section class="box"><h2>Moves</h2><ol tabindex="0" class="list moves">${t.moves.map((m) => `<li>${H.esc(m.name)}: ${H.esc(m.from_table)} → ${H.esc(m.to_table)} seat ${m.to_seat}</li>`).join("")}</ol></section>`;
    }
    if (!director()) html += `<section class="box"><h2>Penalties</h2>${penaltyList(t)}</section>` + (t.hand_for_hand ? `<section class="box"><h2>Hand-for-hand</h2>${handForHandNote(t)}</section>` : "");
    if (t.high_hand) html += `<section class="box"><h2>High hand</h2><div class="high-hand">${t.high_hand.cards ? `${H.esc(t.high_hand.cards)} · ${t.high_hand.players.map((p) => H.esc(p.name)).join(", ")}` : "none posted yet"}${t.high_hand.awarded ? ` · paid ${t.high_hand.shares.map((x) => `${H.esc(x.name)} ${H.esc(t.currency)} ${(x.amount / 100).toFixed(2)}`).join(", ")}` : ""}</div></section>`;
    if (t.deal) html += `<section class="box"><h2>Deal (${H.esc(t.deal.method)})</h2><ol tabindex="0" class="list deal">${t.deal.shares.map((x) => `<li>${H.esc(x.name)}: ${H.esc(t.currency)} ${(x.amount / 100).toFixed(2)} <small>stack ${H.chips(x.stack)}, agreed as ${H.esc(x.consent)}</small></li>`).join("")}</ol></section>`;
    html += `<section class="box"><h2>Money</h2><div class="money">${["buy_ins", "fees", "bounty_pool", "high_hand_pool", "prizes_paid", "bounties_paid", "high_hand_paid", "unaccounted"].map((k) => `<span data-money="${k}">${k.replace(/_/g, " ")} ${H.esc(t.currency)} ${(t.money[k] / 100).toFixed(2)}</span>`).join(" · ")}</div></section>`;
    html += `<section class="box"><h2>Eliminations and places</h2><ol tabindex="0" class="list eliminations">${t.eliminations.map((e) => `<li data-place="${e.place}"><b>${e.place}.</b> ${H.esc(e.name)} <small>table ${H.esc(e.table)}, hand #${e.hand}</small></li>`).join("") || "<li>nobody out yet</li>"}</ol>`;
    if (t.prizes.length) html += `<h2>Prizes</h2><ol tabindex="0" class="list">${t.prizes.map((p) => `<li>${p.place}. ${H.esc(p.name)} ${H.esc(t.currency)} ${(p.amount / 100).toFixed(2)}</li>`).join("")}</ol>`;
    html += "</section>";
    html += `<section class="box"><h2>Color-ups</h2><ol tabindex="0" class="list colorups">${t.color_ups.map((c) => `<li>after level ${c.after_level}: ${H.esc(c.colours.join(", "))} out, smallest chip ${H.chips(c.old_unit)} → ${H.chips(c.new_unit)} (${H.esc(c.method)}) <span class="rule">${H.esc(c.rule)}</span>${c.changes.length ? `<br><small>${c.changes.map((x) => `${H.esc(x.name)} ${x.amount > 0 ? "+" : ""}${H.chips(x.amount)}`).join(", ")}</small>` : ""}</li>`).join("") || "<li>none yet</li>"}</ol></section>`;
    html += `<section class="box"><h2>Rulings</h2><ol tabindex="0" class="list rulings">${t.rulings.map((r) => `<li><span class="rule">${H.esc(r.rule)}</span> ${H.esc(r.text)} <small>${H.esc(r.by)}${r.stream ? ` · ${H.esc(r.stream)}` : ""}</small></li>`).join("") || "<li>none yet</li>"}</ol></section>`;
    return html;
  }

  // Hand-for-hand: the round being played and the tables the others wait for.
  function handForHandNote(t) {
    if (!t.hand_for_hand) return "";
    const r = t.round || { number: 0, complete: true, waiting: [] };
    return `<div class="panel-note hand-for-hand" data-round="${r.number}">Hand-for-hand${r.number ? `, round ${r.number}` : ""}: ${r.complete ? "every table may deal the next hand" : `waiting for table ${r.waiting.map((x) => H.esc(x)).join(", ")}`}</div>`;
  }

  // Chip counts: pick a table, type each counted stack (at a break or the end of the day);
  // the differences from the log stay listed until the director corrects each stack.
  const countTable = {};
  function chipCountBox(t) {
    const c = t.chip_counts || { open: [], corrections: [], counted_tables: [] };
    let html = '<section class="box"><h2>Chip counts</h2>';
    html += `<form class="form inline" data-form="count-table" data-t="${H.esc(t.id)}"><select name="table" aria-label="table to count">${t.tables.map((x) => `<option${countTable[t.id] === x ? " selected" : ""}>${H.esc(x)}</option>`).join("")}</select><button type="submit" class="btn small">Count this table</button></form>`;
    const table = countTable[t.id];
    if (table && t.tables.includes(table)) {
      const seated = t.players.filter((p) => p.table === table);
      html += `<form class="form" data-form="count" data-t="${H.esc(t.id)}" data-table="${H.esc(table)}"><select name="occasion" aria-label="when"><option value="break"${t.on_break ? " selected" : ""}>at the break</option><option value="end_of_day"${t.on_break ? "" : " selected"}>end of the day</option></select>`;
      html += seated.map((p) => `<label class="count">${H.esc(p.name)} (s${p.seat}) <input name="stack:${H.esc(p.player)}" type="number" min="0" inputmode="numeric" required></label>`).join("");
      html += `<button type="submit" class="btn primary">Record the count of table ${H.esc(table)}</button></form>`;
    }
    if (c.counted_tables.length) html += `<div class="panel-note">Counted this level: table ${c.counted_tables.map((x) => H.esc(x)).join(", ")}</div>`;
    html += `<ol class="list count-differences">${c.open.map((d) => `<li data-player="${H.esc(d.player)}">${H.esc(d.name)} (table ${H.esc(d.table)}): counted ${H.chips(d.counted)}, the log says ${H.chips(d.computed)}<form class="form inline" data-form="correct" data-t="${H.esc(t.id)}" data-player="${H.esc(d.player)}"><input name="ruled:${H.esc(d.player)}" type="number" min="0" value="${d.counted}" inputmode="numeric" aria-label="stack ruled"><input name="reason:${H.esc(d.player)}" placeholder="Reason" required><button type="submit" class="btn small">Correct the stack</button></form></li>`).join("") || "<li>no difference open</li>"}</ol>`;
    if (c.corrections.length) html += `<ol class="list count-corrections">${c.corrections.map((x) => `<li>${H.esc(x.name)}: ${x.amount > 0 ? "+" : ""}${H.chips(x.amount)} (counted ${H.chips(x.counted)}, the log ${H.chips(x.computed)}) <small>${H.esc(x.reason)} · ${H.esc(x.by)}</small></li>`).join("")}</ol>`;
    return html + "</section>";
  }

  function penaltyList(t) {
    const left = Object.fromEntries(t.serving.map((x) => [x.player, x.hands_left]));
    return `<ol tabindex="0" class="list penalties">${t.penalties.map((p) => `<li data-player="${H.esc(p.player)}">${H.esc(p.name)}: ${H.esc(p.penalty)}${p.hands ? ` ${p.hands} hand(s)` : ""}${left[p.player] ? ` <b class="serving">serving, ${left[p.player]} left</b>` : ""} <span class="rule">${H.esc(p.rule)}</span> <small>${H.esc(p.reason)}</small></li>`).join("") || "<li>none</li>"}</ol>`;
  }

  function renderTournament() {
    const box = $("tournament");
    const list = floor.tournaments || [];
    if (list.length) offset = list[0].now - Date.now();
    setHtml(box, list.map(tournamentBox).join(""));
  }

  function tickClocks() {
    for (const t of (floor && floor.tournaments) || []) {
      const el = document.querySelector(`[data-clock="${CSS.escape(t.id)}"]`);
      if (el) el.textContent = clockText(t);
    }
  }

  function renderSide() {
    let html = "";
    for (const t of floor.tournaments || []) html += tournamentSide(t);
    html += '<section class="box"><h2>Table rulings and corrections</h2><ol tabindex="0" class="list" id="corrections">';
    html += (floor.corrections || [])
      .map((c) => `<li data-version="${c.version}"><b>${H.esc(c.table)}</b> #${c.version} ${H.esc(c.text)}${c.rule ? ` <span class="rule">${H.esc(c.rule)}</span>` : ""} <small>${H.esc(c.actor)} · ${H.esc(c.device)}</small></li>`)
      .join("") || "<li>none yet</li>";
    html += "</ol></section>";
    html += checkpointBox(floor.checkpoint);
    setHtml($("side"), html);
  }

  // The latest signed checkpoint of the log, in full: what a director posts at the desk.
  function checkpointBox(cp) {
    let html = '<section class="box checkpoint"><h2>Signed checkpoint of the log</h2>';
    if (cp) {
      html += `<p><small>#${cp.number} · ${H.esc(cp.reason.replace(/_/g, " "))} · ${H.esc(cp.created_at)} · ${cp.size} events</small></p>`;
      html += `<pre class="checkpoint-text" id="checkpoint-text">${H.esc(cp.text)}</pre>`;
    } else {
      html += "<p>none yet</p>";
    }
    if (director()) html += '<button type="button" class="btn small" data-action="checkpoint">Sign a checkpoint now</button>';
    return html + "</section>";
  }

  // One click = one command with its own event id and the tournament's version on screen. A
  // lost answer is sent again with the same id (automatically, then with "Send again"), so the
  // server records it once; a stale version comes back as a conflict to check.
  let unsent = null; // {path, body, label} whose answer never came

  // Commands from this screen go one after the other: one clicked while the last is still
  // being recorded waits for its answer and is sent with the version that answer brings. (A
  // command may take several appends, e.g. a late entry and his seat; the live view can show
  // the first before the rest, and a version taken from it would be refused as stale.)
  let queue = Promise.resolve();
  hooks.__floorPending = 0;

  function tournamentCommand(t, command, label) {
    const eventId = H.uuid4();
    const run = () => {
      const shown = ((floor && floor.tournaments) || []).find((x) => x.id === t);
      const body = { event_id: eventId, expected_version: shown ? shown.version : null, command };
      return send(`/api/tournaments/${encodeURIComponent(t)}/commands`, body, label);
    };
    hooks.__floorPending += 1;
    const result = queue.then(run, run).finally(() => { hooks.__floorPending -= 1; });
    queue = result.catch(() => null);
    return result;
  }

  async function send(path, body, label) {
    unsent = null;
    for (let attempt = 1; ; attempt += 1) {
      let answer;
      try {
        answer = await H.api("POST", path, body);
      } catch (_e) {
        answer = null; // offline, or the answer was lost
      }
      const resend = answer && answer.body && answer.body.resend;
      if (answer && answer.status === 200) {
        alertBox = null;
        if (answer.body.tournament) applyChanges(answer.body);
        else apply(answer.body);
        return answer.body;
      }
      if (answer && answer.status < 500 && !resend) {
        if (answer.body && answer.body.floor) apply(answer.body.floor);
        showAlert("refused", `Refused: ${label}`, answer.body);
        return null;
      }
      if (attempt >= 3) {
        unsent = { path, body, label };
        showAlert("refused", `${label}: not confirmed`, {
          rule: answer ? (answer.body && answer.body.rule) || `HTTP ${answer.status}` : "offline",
          message: "No answer from the server. Send it again: it is recorded once, however often it is sent.",
        });
        return null;
      }
      await new Promise((resolve) => setTimeout(resolve, 700 * attempt));
    }
  }

  async function command_(path, body, label) {
    let answer;
    try {
      answer = await H.api("POST", path, body);
    } catch (_e) {
      showAlert("refused", `${label}: not sent (offline)`, null);
      return null;
    }
    if (answer.status !== 200) {
      showAlert("refused", `Refused: ${label}`, answer.body);
      return null;
    }
    alertBox = null;
    renderAlert();
    return answer.body;
  }

  // --- signed-in tablets (the director): who is signed in where, and a sign-out for each ----

  let tablets = null;
  let tabletsTick = null;

  function ago(seconds) {
    if (seconds < 60) return "in use now";
    const minutes = Math.floor(seconds / 60);
    return `unused for ${minutes} min`;
  }

  async function loadTablets() {
    if (!director()) return;
    const answer = await H.api("GET", "/api/sessions").catch(() => null);
    if (answer && answer.status === 200) {
      tablets = answer.body;
      renderTablets();
    }
  }

  function renderTablets() {
    const box = $("tablets");
    box.hidden = !director() || !tablets;
    if (box.hidden) return;
    let html = `<h2>Signed-in tablets <small>signed out after ${tablets.idle_minutes} minutes unused</small></h2><table class="players sessions"><tbody>`;
    for (const s of tablets.sessions) {
      const what = s.role === "dealer" ? `dealer ${H.esc(s.table)}` : H.esc(s.role);
      const end = s.current ? "<small>this screen</small>" : `<button type="button" class="btn small" data-action="revoke" data-session="${H.esc(s.id)}">Sign out</button>`;
      html += `<tr data-session="${H.esc(s.id)}" data-device="${H.esc(s.device)}"><td>${what}</td><td>${H.esc(s.name)} <small>${H.esc(s.device)} · ${H.esc(s.client)}</small></td><td><small>${ago(s.idle_seconds)}</small></td><td>${end}</td></tr>`;
    }
    html += "</tbody></table>";
    setHtml(box, html);
  }

  const actions = {
    async revoke(el) {
      const answer = await H.api("DELETE", `/api/sessions/${encodeURIComponent(el.dataset.session)}`).catch(() => null);
      if (!answer) showAlert("refused", "Sign out a tablet: not sent (offline)", null);
      else if (answer.status !== 200 && answer.status !== 404) showAlert("refused", "Refused: sign out a tablet", answer.body);
      await loadTablets();
    },
    dismiss() {
      alertBox = null;
      unsent = null;
      renderAlert();
    },
    async resend() {
      if (unsent) await send(unsent.path, unsent.body, unsent.label); // the same event id
    },
    async pair(el) {
      const body = await command_(`/api/tables/${encodeURIComponent(el.dataset.stream)}/pairing`, {}, "pairing code");
      if (body) refresh();
    },
    async checkpoint() {
      const body = await command_("/api/log/checkpoint", {}, "checkpoint");
      if (body && floor) {
        floor.checkpoint = body.checkpoint;
        renderSide();
      }
    },
    async "t-cmd"(el) {
      const command = { type: el.dataset.type };
      for (const [key, value] of Object.entries(el.dataset)) {
        if (!key.startsWith("arg")) continue;
        const name = key.slice(3).toLowerCase();
        command[name] = name === "seconds" ? parseInt(value, 10) : name === "on" ? value === "true" : value;
      }
      await tournamentCommand(el.dataset.t, command, el.textContent);
    },
    async signout() {
      await H.logout();
      location.reload();
    },
  };

  document.addEventListener("click", (event) => {
    const el = /** @type {any} */ (event.target).closest("[data-action]");
    if (!el || el.disabled) return;
    const handler = actions[el.dataset.action];
    if (handler) handler(el);
  });

  document.addEventListener("submit", async (event) => {
    const form = /** @type {any} */ (event.target).closest("[data-form]");
    if (!form) return;
    event.preventDefault();
    /** @type {Record<string, any>} */
    const data = Object.fromEntries(new FormData(form).entries());
    const t = form.dataset.t;
    const kind = form.dataset.form;
    let done = null;
    if (kind === "extra-break") {
      const minutes = parseInt(data.minutes, 10);
      if (minutes > 0) done = await tournamentCommand(t, { type: "start_break", minutes }, "extra break");
    } else if (kind === "register") done = await tournamentCommand(t, { type: "register", name: data.name, high_hand: data.high_hand === "on" }, `register ${data.name}`);
    else if (kind === "penalty") done = await tournamentCommand(t, { type: "penalty", player: data.player, penalty: data.penalty, count: parseInt(data.count || "0", 10), rule: data.rule || "tda-71", reason: data.reason || "" }, "penalty");
    else if (kind === "deal") {
      const consents = {};
      for (const [key, value] of Object.entries(data)) if (key.startsWith("consent:")) consents[key.slice(8)] = value;
      done = await tournamentCommand(t, { type: "deal", method: data.method, kept: parseInt(data.kept || "0", 10), consents }, "deal");
    }
    else if (kind === "count-table") {
      countTable[t] = data.table;
      render();
    } else if (kind === "count") {
      const stacks = {};
      for (const [key, value] of Object.entries(data)) if (key.startsWith("stack:")) stacks[key.slice(6)] = parseInt(value, 10);
      done = await tournamentCommand(t, { type: "count_stacks", table: form.dataset.table, occasion: data.occasion, stacks }, `count of table ${form.dataset.table}`);
      if (done) {
        delete countTable[t];
        render();
      }
    } else if (kind === "correct") {
      const player = form.dataset.player;
      const command = { type: "correct_stack", player, reason: data[`reason:${player}`] };
      if (data[`ruled:${player}`] !== "") command.stack = parseInt(data[`ruled:${player}`], 10);
      done = await tournamentCommand(t, command, "stack correction");
    }
    else if (kind === "draw") done = await tournamentCommand(t, { type: "draw_seats", tables: parseInt(data.tables, 10) }, "seat draw");
    else if (kind === "move") done = await tournamentCommand(t, { type: "move", player: data.player, to_table: data.to_table, reason: "floor move" }, "move");
    else if (kind === "ruling") done = await tournamentCommand(t, { type: "ruling", rule: data.rule, text: data.text, stream: data.stream }, "ruling");
    if (done && (kind === "register" || kind === "ruling")) {
      const fresh = document.querySelector(`[data-form="${kind}"][data-t="${CSS.escape(t)}"]`);
      if (fresh) for (const input of fresh.querySelectorAll("input")) input.value = "";
    }
  });

  // A new tournament from a structure file (TOML): the server checks it and names every wrong
  // field. The form is outside the live view, so a redraw never clears the chosen file.
  const newTournament = $("new-tournament-form");
  let newTournamentId = H.uuid4(); // the same on a retry: created once
  newTournament.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(newTournament);
    const file = /** @type {File | null} */ (data.get("structure"));
    if (!file || !file.name) return;
    alertBox = null; // the last refusal was about the last attempt
    renderAlert();
    const text = await file.text();
    const answer = await H.api("POST", "/api/tournaments", {
      id: data.get("id"), structure: text, file: file.name, event_id: newTournamentId,
    }).catch(() => null);
    if (!answer) {
      showAlert("refused", "New tournament: not sent (offline)", null);
    } else if (answer.status === 200) {
      alertBox = null;
      apply(answer.body);
      newTournament.reset();
      newTournamentId = H.uuid4();
    } else {
      showAlert("refused", "Refused: new tournament", answer.body);
    }
  });

  async function refresh() {
    const answer = await H.api("GET", "/api/floor").catch(() => null);
    if (answer && answer.status === 200) apply(answer.body);
  }

  function apply(view) {
    if (!view || (floor && view.version < floor.version)) return; // an older view, late
    if (floor && view.tournaments) {
      // A tournament already shown newer (a command's answer applied) stays as it is.
      const mine = new Map((floor.tournaments || []).map((t) => [t.id, t]));
      view.tournaments = view.tournaments.map((t) => (mine.has(t.id) && mine.get(t.id).version > t.version ? mine.get(t.id) : t));
    }
    floor = view;
    hooks.__floorUpdates += 1;
    render();
  }

  // A tournament command's answer is what it changed: the tournament view's changed fields
  // (against the view of version `base`) and the cards of the tables it recorded at. Applied
  // to the floor on screen when that is the view they were taken against; else (another
  // change came in between, not yet here) the floor is read whole.
  function applyChanges(changes) {
    if (!floor) return;
    if (changes.tables_changed) {
      refresh(); // a seat draw over many tables: the floor read once, not 1,000 cards here
      return;
    }
    if (!mergeTournament(changes.tournament)) {
      refresh();
      return;
    }
    mergeCards(changes);
    hooks.__floorUpdates += 1;
    render();
  }

  // One tournament's delta merged into the floor on screen; false when it was taken against
  // a view this page does not hold (the floor is then read whole).
  function mergeTournament(delta) {
    const list = floor.tournaments || (floor.tournaments = []);
    const index = list.findIndex((x) => x.id === delta.id);
    const shown = index >= 0 ? list[index] : null;
    if (shown && shown.version >= delta.version) return true; // got here first
    if (!delta.base) { // the whole view
      if (index >= 0) list[index] = delta;
      else list.push(delta);
      return true;
    }
    if (!shown || shown.version !== delta.base) return false;
    const fields = Object.assign({}, delta);
    const lists = fields.lists;
    delete fields.base;
    delete fields.lists;
    const next = Object.assign({}, shown, fields);
    for (const [key, change] of Object.entries(lists || {})) next[key] = mergeRows(shown[key] || [], change, next.list_limit);
    list[index] = next;
    return true;
  }

  function mergeCards(changes) {
    for (const card of changes.tables || []) {
      const at = floor.tables.findIndex((x) => x.stream === card.stream);
      if (at >= 0) floor.tables[at] = card;
      else floor.tables.push(card);
    }
    if (changes.dealer_pins) floor.dealer_pins = Object.assign({}, floor.dealer_pins, changes.dealer_pins);
  }

  // A live `changes` frame (GET /api/floor/events): the cards of the tables that changed,
  // each tournament's delta, the corrections when they changed.
  function applyLive(changes) {
    if (!floor) return refresh();
    if (!(changes.tournaments || []).every(mergeTournament)) return refresh();
    mergeCards(changes);
    if (changes.corrections) floor.corrections = changes.corrections;
    if (changes.checkpoint !== undefined) floor.checkpoint = changes.checkpoint;
    floor.version = Math.max(floor.version, changes.version);
    hooks.__floorUpdates += 1;
    hooks.__floorLive = (hooks.__floorLive || 0) + 1;
    render();
  }

  // A list of players changed row by row (by player id): ordered as the server orders it,
  // by table, seat and entry number, and held to the first `limit` rows as the server's.
  function mergeRows(rows, change, limit) {
    const gone = new Set(change.removed);
    const changed = new Map(change.changed.map((r) => [r.player, r]));
    const merged = rows.filter((r) => !gone.has(r.player) && !changed.has(r.player)).concat(change.changed);
    const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
    merged.sort((a, b) => cmp(a.table || "", b.table || "") || (a.seat || 0) - (b.seat || 0) || a.n - b.n);
    return limit ? merged.slice(0, limit) : merged;
  }

  // The floor's event stream: `state` (the whole floor) on opening, `changes` after.
  function follow(path, onStatus) {
    return H.follow(path, apply, onStatus, { changes: applyLive });
  }

  function signIn() {
    const box = $("signin");
    box.hidden = false;
    box.innerHTML =
      '<h2>Sign in</h2><form class="form" id="signin-form"><input id="director-pin" type="password" inputmode="numeric" autocomplete="off" placeholder="Director PIN">' +
      '<button type="submit" class="btn primary">Director</button><button type="button" class="btn" id="as-viewer">Continue as viewer</button></form><p class="error" id="signin-error" hidden></p>';
    $("signin-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const answer = await H.login({ role: "director", pin: $("director-pin").value });
      if (answer.status === 200) {
        me = answer.body;
        box.hidden = true;
        start();
      } else {
        const error = $("signin-error");
        error.hidden = false;
        error.textContent = (answer.body && answer.body.message) || `refused (${answer.status})`;
      }
    });
    $("as-viewer").addEventListener("click", async () => {
      const answer = await H.login({ role: "viewer" });
      me = answer.body;
      box.hidden = true;
      start();
    });
  }

  let following = null;
  let lastCheck = 0;
  function start() {
    $("new-tournament").hidden = !director();
    if (following) following();
    following = follow("/api/floor/events", async (s) => {
      $("status-text").textContent = s;
      $("status").dataset.state = s;
      if (s !== "live" && Date.now() - lastCheck > 5000) {
        lastCheck = Date.now();
        const session = await H.session();
        if (!session.offline && !session.role) {
          if (following) following();
          following = null;
          me = { role: null };
          if (VIEW_ONLY) boot();
          else signIn();
        }
      }
    });
    clearInterval(tick);
    tick = setInterval(tickClocks, 1000);
    clearInterval(tabletsTick);
    tablets = null;
    renderTablets();
    if (director()) {
      loadTablets();
      tabletsTick = setInterval(loadTablets, 15000);
    }
  }

  // --- the room as it stood at a time (/floor?time=UTC, or ?at=UTC): read-only ------------

  const PARAMS = new URLSearchParams(location.search);
  const AS_OF = PARAMS.get("time") || (PARAMS.get("at") && !/^\d+$/.test(PARAMS.get("at")) ? PARAMS.get("at") : null);

  function asOfTable(t) {
    const lines = t.lines.map((line) => `<li class="${/^\s/.test(line) ? "sub" : ""}">${H.esc(line.trim())}</li>`).join("");
    return `<article class="table-card" data-stream="${H.esc(t.stream)}" data-version="${t.version}">` +
      `<h3>${H.esc(t.stream)} <small>version ${t.version} of ${t.live_version}</small></h3>` +
      `<ul class="asof-lines">${lines}</ul><div class="links">` +
      `<a class="btn small" href="/view/${encodeURIComponent(t.stream)}?at=${t.version}">The table then</a>` +
      `<a class="btn small" href="/replayer?table=${encodeURIComponent(t.stream)}&at=${t.version}">In the replayer</a></div></article>`;
  }

  function asOfTournament(t) {
    return `<section class="box tournament" data-tournament="${H.esc(t.tournament)}">` +
      `<h2>${H.esc(t.tournament)} <small>level ${t.level}${t.on_break ? " (on a break)" : ""} · ${t.left.length} left of ${t.entrants}</small></h2>` +
      (t.winner ? `<div class="winner">Winner: ${H.esc(t.winner)}</div>` : "") +
      `<ol class="list eliminations">${t.out.map((o) => `<li data-place="${o.place}"><b>${o.place}.</b> ${H.esc(o.name)}${o.table ? ` <small>table ${H.esc(o.table)}, hand #${o.hand}</small>` : ""}</li>`).join("") || "<li>nobody out yet</li>"}</ol></section>`;
  }

  async function showAsOf() {
    const banner = document.createElement("div");
    banner.id = "asof";
    banner.className = "asof-banner";
    banner.setAttribute("role", "status");
    banner.textContent = "loading…";
    document.querySelector("main").before(banner);
    $("status").hidden = true;
    let answer = await H.api("GET", `/api/floor/as-of?time=${encodeURIComponent(AS_OF)}`).catch(() => null);
    if (answer && answer.status === 401) {
      await H.login({ role: "viewer" });
      answer = await H.api("GET", `/api/floor/as-of?time=${encodeURIComponent(AS_OF)}`).catch(() => null);
    }
    if (!answer || answer.status !== 200) {
      banner.textContent = "";
      showAlert("refused", `Cannot show the floor as of ${AS_OF}`, answer ? answer.body : null);
      return;
    }
    const room = answer.body;
    banner.textContent = `As of ${room.time.slice(0, 19).replace("T", " ")} UTC: the room as it stood then, read-only (not now).`;
    banner.innerHTML += ` <a class="btn small" href="${location.pathname}">The floor now</a>`;
    $("info").textContent = `${room.tables.length} table${room.tables.length === 1 ? "" : "s"} then`;
    $("tournament").innerHTML = room.tournaments.map(asOfTournament).join("");
    $("tables").innerHTML = room.tables.map(asOfTable).join("") || '<div class="box">No table was open yet.</div>';
    if (H.testing) window.handlogFloor.asOf = () => room;
  }

  // --- find hands: by player, all-ins, showdowns, rulings, corrections (GET /api/hands) ----

  function findBox() {
    const box = document.createElement("section");
    box.className = "box find-hands";
    box.id = "find-hands";
    box.setAttribute("aria-label", "Find hands");
    box.innerHTML = '<h2>Find hands</h2><form class="form" id="find-form">' +
      '<input id="find-player" name="player" type="search" placeholder="Player name" aria-label="Player name" autocomplete="off">' +
      '<input id="find-hand" name="hand" type="number" min="1" placeholder="Hand #" aria-label="Hand number" inputmode="numeric">' +
      ["all_in:all-ins", "showdown:showdowns", "rulings:rulings", "corrections:corrections"].map((x) => {
        const [name, label] = x.split(":");
        return `<label class="check"><input type="checkbox" name="${name}" id="find-${name}"> ${label}</label>`;
      }).join("") +
      '<button type="submit" class="btn">Find</button></form><ol class="list" id="found-hands" aria-label="Hands found" hidden></ol>';
    $("tournament").before(box);
    $("find-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      event.stopPropagation();
      const data = new FormData($("find-form"));
      const q = new URLSearchParams();
      for (const [key, value] of data.entries()) {
        if (value === "on") q.set(key, "true");
        else if (String(value).trim()) q.set(key, String(value).trim());
      }
      const answer = await H.api("GET", `/api/hands?${q}`).catch(() => null);
      const list = $("found-hands");
      list.hidden = false;
      if (!answer || answer.status !== 200) {
        list.innerHTML = `<li class="error">${H.esc((answer && answer.body && answer.body.message) || "not answered")}</li>`;
        return;
      }
      list.innerHTML = answer.body.hands.map((h) =>
        `<li data-stream="${H.esc(h.stream)}" data-hand="${h.hand}"><a href="/replayer?table=${encodeURIComponent(h.stream)}&hand=${h.hand}">${H.esc(h.table)} #${h.hand}</a> ` +
        `<small>level ${h.level} · ${H.esc(h.outcome)}${h.all_in.length ? ` · all-in: ${H.esc(h.all_in.join(", "))}` : ""}${h.showdown ? " · showdown" : ""}</small> ` +
        `<a class="btn small" href="/view/${encodeURIComponent(h.stream)}?hand=${h.hand}">as it started</a></li>`).join("") ||
        "<li>no hand found</li>";
      list.dataset.count = answer.body.count;
    });
  }

  async function boot() {
    if (AS_OF) {
      $("new-tournament").hidden = true;
      return showAsOf();
    }
    me = await H.session();
    if (me.role) return start();
    if (VIEW_ONLY) {
      const answer = await H.login({ role: "viewer" });
      me = answer.body;
      return start();
    }
    signIn();
  }

  // What the browser tests read, only behind the test flag (common.js).
  if (H.testing) window.handlogFloor = { refresh, state: () => floor, me: () => me, unsent: () => unsent, tablets: () => tablets, loadTablets };
  if (!AS_OF) findBox();
  boot();
})();
