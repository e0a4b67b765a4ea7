// The dealer's tablet (/dealer/<table>) and the viewer's screen (/view/<table>).
//
// The state lives on the server: this page renders the table view the API sends (the same
// after a reload) and records the dealer's taps as commands. Each command gets its event id
// here and waits in a queue kept in localStorage until the server answers, so a lost answer is
// retried with the same id (recorded once) and a tablet that was offline shows what it still
// has to send, or the conflict with what the table recorded meanwhile.
"use strict";

(() => {
  const H = Handlog;
  const parts = location.pathname.split("/");
  const MODE = parts[1] === "view" ? "viewer" : "dealer";
  const STREAM = decodeURIComponent(parts[2] || "");
  const OUTBOX_KEY = `handlog.outbox.${STREAM}`;
  const CLOCK_KEY = `handlog.clock.${STREAM}`;
  const RANKS = "AKQJT98765432";
  const SUITS = "shdc";

  let state = null; // the table view from the server
  let me = { role: null };
  let outbox = loadOutbox();
  let conflict = null; // {item, body} after a 409
  let alertBox = null; // {kind, title, text, legal}
  let ui = freshUi();
  let connection = "connecting";
  let flushing = false;
  let retryTimer = null;
  let clockTimer = null;
  let tapAt = null;
  window.__latencies = [];

  function freshUi() {
    return { sheet: null, player: null, picked: [], typed: "", inDeal: true, key: null,
      tray: [[]], said: "nothing" };
  }

  function $(id) {
    return document.getElementById(id);
  }

  function canRecord() {
    return MODE === "dealer" && (me.role === "director" || (me.role === "dealer" && me.table === STREAM));
  }

  // --- the outbox -------------------------------------------------------------------------

  function loadOutbox() {
    try {
      const items = JSON.parse(localStorage.getItem(OUTBOX_KEY) || "[]");
      return Array.isArray(items) ? items : [];
    } catch (_e) {
      return [];
    }
  }

  function saveOutbox() {
    localStorage.setItem(OUTBOX_KEY, JSON.stringify(outbox));
  }

  // One tap = one command. The version is the one on screen when the dealer tapped; a command
  // queued behind another takes the version that one is recorded at.
  function record(command, label) {
    if (!canRecord() || !state) return;
    tapAt = lastTap !== null ? lastTap : performance.now();
    outbox.push({
      event_id: H.uuid4(),
      expected_version: outbox.length ? null : state.version,
      command,
      label,
      queued_at: new Date().toISOString(),
    });
    saveOutbox();
    alertBox = null;
    ui = freshUi();
    render();
    flush();
  }

  async function flush() {
    if (flushing || conflict || !outbox.length) return;
    flushing = true;
    try {
      while (outbox.length && !conflict) {
        const item = outbox[0];
        if (item.expected_version === null) {
          item.expected_version = state.version;
          saveOutbox();
        }
        let answer;
        try {
          answer = await H.api("POST", `/api/tables/${encodeURIComponent(STREAM)}/commands`, {
            event_id: item.event_id,
            expected_version: item.expected_version,
            command: item.command,
          });
        } catch (_e) {
          setConnection("offline");
          scheduleRetry();
          return;
        }
        const body = answer.body || {};
        if (answer.status === 200) {
          outbox.shift();
          if (outbox.length && outbox[0].expected_version === null) outbox[0].expected_version = body.version;
          saveOutbox();
          if (connection === "offline") setConnection("live");
          apply(body.table);
        } else if (answer.status === 409) {
          conflict = { item, body };
          apply(body.table);
        } else if (answer.status === 401) {
          me = { role: null };
          showSignIn("Your session ended: sign in again to send the waiting entries.");
          return;
        } else if (answer.status >= 500 || answer.status === 0) {
          scheduleRetry();
          return;
        } else {
          // Refused (422 rule or request, 403 role, 400 malformed, 413 too large): nothing was recorded. What was queued
          // behind it was meant to follow it, so it goes too.
          const dropped = outbox.length;
          outbox = [];
          saveOutbox();
          alertBox = {
            kind: "refused",
            title: `Refused: ${item.label}`,
            rule: body.rule || `HTTP ${answer.status}`,
            rule_words: body.rule_words || "",
            text: body.message || "",
            legal: body.legal || [],
            extra: dropped > 1 ? `${dropped - 1} later entr${dropped > 2 ? "ies" : "y"} dropped too` : "",
          };
          if (body.table) apply(body.table);
        }
        render();
      }
    } finally {
      flushing = false;
    }
    render();
  }

  function scheduleRetry() {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(flush, 1500);
    render();
  }

  function discardConflict() {
    outbox = [];
    conflict = null;
    saveOutbox();
    render();
  }

  function reapplyConflict() {
    // The same entry again, as a new entry on the table as it is now.
    if (!outbox.length) return discardConflict();
    outbox[0].event_id = H.uuid4();
    outbox[0].expected_version = state.version;
    for (const item of outbox.slice(1)) item.expected_version = null;
    conflict = null;
    saveOutbox();
    tapAt = performance.now();
    flush();
  }

  // --- state ------------------------------------------------------------------------------

  function apply(view) {
    if (!view || (state && view.version < state.version)) return;
    const before = state;
    state = view;
    if (!before || before.version !== view.version) {
      const hand = view.hand;
      const key = hand ? `${hand.number}:${hand.phase}:${hand.to_act}:${hand.board.length}` : "none";
      if (ui.key !== key) {
        ui = freshUi();
        ui.key = key;
        // A board card is due: open the picker straight away (one tap less per street).
        if (hand && hand.phase === "board" && state.hand_in_progress && canRecord()) ui.sheet = "board";
      }
      checkClock();
    }
    render();
    if (tapAt !== null && before && before.version !== view.version) {
      // Tap to updated screen: from the tap's input event to the paint of the new state
      // (a task queued from the next animation frame runs once that frame is painted).
      const started = tapAt;
      tapAt = null;
      requestAnimationFrame(() => setTimeout(() => window.__latencies.push(performance.now() - started), 0));
    }
  }

  function setConnection(value) {
    connection = value;
    renderStatus();
  }

  // --- rendering --------------------------------------------------------------------------

  function render() {
    const t0 = performance.now();
    renderAll();
    window.__renderMs = (window.__renderMs || []).concat([performance.now() - t0]).slice(-200);
  }

  function renderAll() {
    document.body.dataset.mode = MODE;
    document.body.dataset.version = state ? state.version : "";
    renderStatus();
    if (!state) return;
    renderBar();
    renderRing();
    renderFelt();
    renderAlert();
    renderOutbox();
    renderActions();
    renderTools();
    renderClock();
    renderEvents();
    renderSheet();
  }

  function renderStatus() {
    const waiting = outbox.length;
    let text = connection;
    if (waiting) text += ` · ${waiting} to send`;
    $("status-text").textContent = text;
    $("status").dataset.state = connection;
  }

  function levelText(level) {
    if (!level) return "";
    const ante = level.ante ? ` ante ${H.chips(level.ante)}` : "";
    return `Level ${level.number} · ${H.chips(level.small_blind)}/${H.chips(level.big_blind)}${ante}`;
  }

  function renderBar() {
    const s = state;
    $("title").textContent = s.open ? `Table ${s.table}` : `Table ${STREAM}`;
    document.title = `${s.open ? s.table : STREAM} · handlog ${MODE}`;
    const bits = [];
    if (s.hand && s.hand_in_progress) bits.push(`Hand #${s.hand.number} · ${phaseText(s.hand)}`);
    else if (s.hand) bits.push(`Hand #${s.hand.number} ${s.hand.phase}`);
    if (s.level) bits.push(levelText(s.level));
    bits.push(`v${s.version}`);
    if (me.role) bits.push(`${me.role}${me.name ? ": " + me.name : ""}`);
    $("info").textContent = bits.join(" · ");
  }

  function phaseText(hand) {
    if (hand.phase === "betting") return `${hand.street} betting`;
    if (hand.phase === "board") return hand.board.length ? "deal the next card" : "deal the flop";
    return hand.phase;
  }

  function seatPosition(seat, count) {
    const gap = 28;
    const step = count > 1 ? (360 - 2 * gap) / (count - 1) : 0;
    const angle = ((90 + gap + (seat - 1) * step) * Math.PI) / 180;
    return { left: 50 + 41 * Math.cos(angle), top: 50 + 40 * Math.sin(angle) };
  }

  function renderRing() {
    const ring = $("ring");
    const felt = $("felt");
    for (const node of Array.from(ring.querySelectorAll(".seat"))) node.remove();
    if (!state.open) return;
    const tag = canRecord() ? "button" : "div";
    for (const s of state.seats) {
      const el = document.createElement(tag);
      el.className = "seat";
      el.dataset.seat = s.seat;
      if (tag === "button") {
        el.type = "button";
        el.dataset.action = "seat";
      }
      const pos = seatPosition(s.seat, state.seat_count);
      el.style.left = `${pos.left}%`;
      el.style.top = `${pos.top}%`;
      if (!s.player) {
        el.classList.add("empty");
        el.innerHTML = `<div class="seat-head"><span class="seat-no">${s.seat}</span><span class="name">empty</span>${markers(s)}</div>`;
        if (tag === "button") el.disabled = true;
        ring.insertBefore(el, felt);
        continue;
      }
      for (const flag of ["to_act", "folded", "all_in", "absent"]) if (s[flag]) el.classList.add(flag.replace("_", "-"));
      if (s.in_hand === false && state.hand_in_progress) el.classList.add("out");
      const cards = s.shown || s.hole;
      const tags = [];
      if (s.folded) tags.push("folded");
      if (s.all_in) tags.push("all-in");
      if (s.absent) tags.push("absent");
      if (s.waits) tags.push("waits");
      el.innerHTML =
        `<div class="seat-head"><span class="seat-no">${s.seat}</span><span class="name">${H.esc(s.player)}</span>${markers(s)}</div>` +
        `<div class="stack" data-stack="${s.stack}">${H.chips(s.stack)}</div>` +
        (s.bet ? `<div class="bet">bet ${H.chips(s.bet)}</div>` : "") +
        (cards && cards.length ? `<div class="seat-cards${s.shown ? " shown" : ""}">${cards.map((c) => H.cardHtml(c, "small")).join("")}</div>` : "") +
        (tags.length ? `<div class="tags">${tags.map((t) => `<span class="tag">${t}</span>`).join("")}</div>` : "");
      ring.insertBefore(el, felt);
    }
  }

  function markers(s) {
    let html = "";
    if (s.button) html += '<span class="marker button" title="button">D</span>';
    if (s.small_blind) html += '<span class="marker sb" title="small blind">SB</span>';
    if (s.big_blind) html += '<span class="marker bb" title="big blind">BB</span>';
    return `<span class="markers">${html}</span>`;
  }

  function renderFelt() {
    const felt = $("felt");
    if (!state.open) {
      felt.innerHTML = `<div class="felt-note">table ${H.esc(STREAM)} is not open</div>`;
      return;
    }
    const hand = state.hand;
    let html = "";
    if (hand && state.hand_in_progress) {
      const pots = hand.pots.length > 1 || (hand.pots.length === 1 && hand.pots[0].amount !== hand.pot_total) ? hand.pots : [];
      html += `<div class="pots">${pots.map((p) => `<div class="pot" data-pot="${H.esc(p.name)}"><span>${H.esc(p.name)}</span> <b>${H.chips(p.amount)}</b></div>`).join("")}<div class="pot total"><span>${pots.length ? "Total" : "Pot"}</span> <b id="pot-total">${H.chips(hand.pot_total)}</b></div></div>`;
    } else if (hand && hand.awards.length) {
      html += `<div class="pots">${hand.awards.map((a) => `<div class="pot done">${a.pot ? "Side pot " + a.pot : "Main pot"} ${H.chips(a.amount)} → ${a.winner_seats.map((w, i) => `${H.esc(seatName(w))} ${H.chips(a.shares[i])}`).join(", ")}</div>`).join("")}</div>`;
    }
    const board = hand ? hand.board : [];
    html += `<div class="board">${[0, 1, 2, 3, 4].map((i) => H.cardHtml(board[i] || null)).join("")}</div>`;
    if (hand && state.hand_in_progress) {
      const who = hand.legal ? `${hand.legal.name} to act` : hand.next_steps.join(" · ");
      html += `<div class="felt-note">${H.esc(who)}</div>`;
    } else {
      html += `<div class="felt-note">${hand ? "hand complete" : "no hand yet"}</div>`;
    }
    felt.innerHTML = html;
  }

  function seatName(seat) {
    const s = state.seats.find((x) => x.seat === seat);
    return s && s.player ? s.player : `seat ${seat}`;
  }

  function nameOf(position) {
    const s = state.seats.find((x) => x.position === position && x.in_hand);
    return s ? s.player : `position ${position}`;
  }

  function renderAlert() {
    H.showAlert($("alert"), alertBox);
  }

  function renderOutbox() {
    const box = $("outbox");
    if (!outbox.length && !conflict) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    let html = "";
    if (conflict) {
      const b = conflict.body || {};
      box.className = "outbox conflict";
      html += `<div class="alert-title">Not recorded: the table changed</div>`;
      if (b.rule === "stale version") {
        html += `<div class="alert-text">This tablet saw version ${H.esc(b.expected)}; the table is at ${H.esc(b.actual)}. Meanwhile it recorded:</div>`;
      } else {
        html += `<div class="alert-text">${H.esc(b.message || "")}</div>`;
      }
      html += `<ol class="since">${(b.since || []).map((e) => `<li>#${e.version} ${H.esc(e.text)} <small>(${H.esc(e.actor)}, ${H.esc(e.device)})</small></li>`).join("")}</ol>`;
      html += `<div class="alert-text">Still to send from this tablet:</div>`;
    } else {
      box.className = "outbox";
      html += `<div class="alert-title">${connection === "offline" ? "Offline: " : "Sending: "}${outbox.length} entr${outbox.length > 1 ? "ies" : "y"} waiting</div>`;
    }
    html += `<ol class="pending">${outbox.map((i) => `<li>${H.esc(i.label)}</li>`).join("")}</ol>`;
    if (conflict) {
      html += `<div class="row"><button type="button" class="btn" data-action="discard">Discard mine</button><button type="button" class="btn primary" data-action="reapply">Re-apply mine</button></div>`;
    }
    box.innerHTML = html;
  }

  function busy() {
    return outbox.length > 0 || conflict !== null;
  }

  function button(action, label, cls, data) {
    const attrs = Object.entries(data || {}).map(([k, v]) => ` data-${k}="${H.esc(v)}"`).join("");
    const disabled = busy() ? " disabled" : "";
    return `<button type="button" class="btn ${cls || ""}" data-action="${action}"${attrs}${disabled}>${label}</button>`;
  }

  function renderActions() {
    const box = $("actions");
    if (!canRecord() || !state.open) {
      box.innerHTML = MODE === "viewer" ? '<div class="viewer-note">Viewer: read-only. Hole cards appear when shown.</div>' : "";
      return;
    }
    const hand = state.hand;
    if (!hand || !state.hand_in_progress) {
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

  function startPanel() {
    const next = state.next_hand;
    const hand = state.hand;
    let html = "";
    if (hand && hand.phase === "misdealt") html += '<div class="panel-title">Misdeal: re-deal the same hand</div>';
    else if (hand && hand.phase === "void") html += '<div class="panel-title">Hand void: chips returned</div>';
    if (next && next.ready) {
      const number = hand && (hand.phase === "misdealt" || hand.phase === "void") ? hand.number : state.hands_played + 1;
      html += `<div class="panel-note">Button seat ${next.button_seat} · SB ${next.small_blind_seat ? "seat " + next.small_blind_seat : "dead"} · BB seat ${next.big_blind_seat}${state.level ? " · " + H.esc(levelText(state.level)) : ""}</div>`;
      if (state.carry) html += `<div class="panel-note carry">${H.chips(state.carry)} carried into this pot (odd chips of the color-up): put them in the middle</div>`;
      html += button("start", `Start hand #${number}`, "primary wide");
    } else if (next) {
      html += `<div class="panel-note">No hand can start: ${H.esc(next.why.message)} (${H.esc(next.why.rule)})</div>`;
    }
    return html;
  }

  function amountOf(legal) {
    if (ui.typed) return parseInt(ui.typed, 10);
    return legal.min_to;
  }

  function bettingPanel(hand, legal) {
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
      html += '<div class="raise-box">';
      html += `<div class="amount"><span>${verb}</span> <output id="amount" data-amount="${amount}">${H.chips(amount)}</output><small>min ${H.chips(legal.min_to)} · max ${H.chips(legal.max_to)}</small></div>`;
      html += `<div class="row sizes">${legal.sizes.map((s) => button("size", `${s.label}<small>${H.chips(s.to)}</small>`, "size", { to: s.to })).join("")}</div>`;
      html += '<div class="keypad">';
      for (const key of ["1", "2", "3", "4", "5", "6", "7", "8", "9", "00", "0", "⌫"]) html += button("key", key, "key", { key });
      html += "</div>";
      html += button("raise", `${verb} ${H.chips(amount)}`, "raise primary wide", { to: amount });
      html += "</div>";
    }
    html += chipTray(hand);
    return html;
  }

  // The chip tray: what the dealer saw pushed, one tap per chip, motion by motion, and whether
  // the player said raise; the engine rules it under the house rules (push_chips).
  function chipTray(hand) {
    const unit = hand.chip_unit || 1;
    const values = [1, 4, 20, 100].map((k) => k * unit);
    const motions = ui.tray.filter((m) => m.length);
    const text = motions.map((m) => {
      const counts = {};
      for (const v of m) counts[v] = (counts[v] || 0) + 1;
      return Object.keys(counts).map(Number).sort((a, b) => b - a).map((v) => `${counts[v]} x ${H.chips(v)}`).join(" + ");
    }).join(" | ");
    let html = '<div class="chip-tray"><div class="panel-title">Chips pushed</div><div class="row wrap chips">';
    html += values.map((v) => button("chip", H.chips(v), "chip", { value: v })).join("");
    html += button("motion", "Next motion", "small", {}) + button("tray-clear", "Clear", "small", {});
    html += `</div><div class="tray-content" id="tray">${H.esc(text || "no chips yet")}</div><div class="row">`;
    html += button("said", ui.said === "raise" ? "Said raise" : "Said nothing", "said", {});
    html += button("push", "Rule it", "push primary", {}) + "</div></div>";
    return html;
  }

  function showdownPanel(hand) {
    const sd = hand.showdown;
    const contested = sd.order.length > 1;
    // TDA 16: with a player all-in and the betting over, every hand still in is tabled.
    const tabled = state.seats.some((x) => x.in_hand && !x.folded && x.all_in);
    let html = `<div class="panel-title">${contested ? "Showdown" : "Uncontested"}</div>`;
    if (contested && tabled) html += '<div class="panel-note">All-in: every hand is turned face up (TDA 16)</div>';
    html += '<ol class="showdown">';
    for (const position of sd.order) {
      const seat = state.seats.find((x) => x.position === position && x.in_hand);
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

  function renderTools() {
    const box = $("tools");
    if (!canRecord() || !state.open) {
      box.innerHTML = MODE === "dealer" ? "" : "";
      return;
    }
    const hand = state.hand;
    const inHand = state.hand_in_progress;
    let html = "";
    if (hand) html += button("undo", "Undo", "tool");
    if (inHand && hand.phase === "betting") html += button("clock", "Clock", "tool");
    if (inHand) html += button("misdeal", "Misdeal", "tool") + button("exposed", "Exposed card", "tool");
    if (me.role === "director" && hand) html += button("director", "Director…", "tool");
    box.innerHTML = html;
  }

  function renderEvents() {
    $("events").innerHTML = state.events
      .map(
        (e) =>
          `<li class="${e.voided ? "voided" : ""}${e.correction ? " correction" : ""}" data-version="${e.version}"><a class="v" href="/replayer?table=${encodeURIComponent(STREAM)}&at=${e.version}" title="Replay the hand at this entry">#${e.version}</a> <span class="text">${H.esc(e.text)}</span>${e.rule ? ` <span class="rule">${H.esc(e.rule)}</span>` : ""} <small>${H.esc(e.actor)} · ${H.esc(e.device)}</small></li>`,
      )
      .join("");
  }

  // --- sheets: card picker, seat, misdeal, exposed card --------------------------------------

  function knownCards() {
    const known = new Set(state.hand ? state.hand.known_cards : []);
    for (const c of ui.picked) known.delete(c);
    return known;
  }

  function picker(count, title, confirmAction, confirmLabel) {
    const known = knownCards();
    let html = `<div class="sheet-title">${H.esc(title)}</div><div class="picker">`;
    for (const suit of SUITS) {
      for (const rank of RANKS) {
        const card = rank + suit;
        const picked = ui.picked.includes(card);
        const seen = known.has(card) && !picked;
        html += `<button type="button" class="pick suit-${suit}${picked ? " picked" : ""}" data-action="pick" data-card="${card}"${seen ? " disabled" : ""}>${rank === "T" ? "10" : rank}<span>${{ s: "♠", h: "♥", d: "♦", c: "♣" }[suit]}</span></button>`;
      }
    }
    html += "</div>";
    const ready = ui.picked.length === count;
    html += `<div class="row sheet-actions"><button type="button" class="btn" data-action="close">Cancel</button><button type="button" class="btn" data-action="clear-pick">Clear</button><button type="button" class="btn primary" data-action="${confirmAction}"${ready ? "" : " disabled"}>${H.esc(confirmLabel)} ${H.esc(H.cardsText(ui.picked))}</button></div>`;
    return html;
  }

  function renderSheet() {
    const sheet = $("sheet");
    if (!ui.sheet || !canRecord() || busy()) {
      sheet.hidden = true;
      sheet.innerHTML = "";
      return;
    }
    sheet.hidden = false;
    const hand = state.hand;
    const s = ui.sheet;
    let html = "";
    if (s === "board" && hand) {
      const due = hand.board_due || 1;
      const street = hand.board.length ? (hand.board.length === 3 ? "turn" : "river") : "flop";
      html = picker(due, `Deal the ${street}: pick ${due} card${due > 1 ? "s" : ""}`, "deal", `Deal ${street}`);
    } else if (s === "show") {
      html = picker(2, `${nameOf(ui.player)} shows: pick 2 cards`, "show", `${nameOf(ui.player)} shows`);
    } else if (s === "hole") {
      html = picker(2, `Hole cards of ${nameOf(ui.player)} (optional)`, "hole", "Deal");
    } else if (s === "expose-card") {
      html = picker(1, `Card exposed for ${nameOf(ui.player)} (${ui.inDeal ? "in the deal" : "by the player"})`, "expose", "Exposed:");
    } else if (s === "expose") {
      html = '<div class="sheet-title">Exposed card: whose card?</div><div class="row wrap">';
      for (const seat of state.seats) {
        if (seat.in_hand && !seat.folded) html += `<button type="button" class="btn" data-action="expose-player" data-player="${seat.position}">${H.esc(seat.player)}</button>`;
      }
      html += `</div><div class="row"><button type="button" class="btn${ui.inDeal ? " primary" : ""}" data-action="in-deal" data-value="1">During the deal</button><button type="button" class="btn${ui.inDeal ? "" : " primary"}" data-action="in-deal" data-value="0">By the player</button></div>`;
      html += '<div class="row sheet-actions"><button type="button" class="btn" data-action="close">Cancel</button></div>';
    } else if (s === "misdeal") {
      html = '<div class="sheet-title">Declare a misdeal: why?</div><div class="row wrap">';
      for (const reason of ["card exposed in the deal", "wrong number of cards", "button misplaced", "deck problem"]) {
        html += `<button type="button" class="btn" data-action="declare-misdeal" data-reason="${reason}">${reason}</button>`;
      }
      html += '</div><div class="row sheet-actions"><button type="button" class="btn" data-action="close">Cancel</button></div>';
    } else if (s === "director") {
      html = directorSheet();
    } else if (s === "seat") {
      const seat = state.seats.find((x) => x.seat === ui.seat);
      if (!seat || !seat.player) {
        ui.sheet = null;
        sheet.hidden = true;
        return;
      }
      html = `<div class="sheet-title">Seat ${seat.seat}: ${H.esc(seat.player)} · ${H.chips(seat.stack)}</div><div class="row wrap">`;
      html += seat.absent
        ? `<button type="button" class="btn primary" data-action="absence" data-seat="${seat.seat}" data-value="0">Returned</button>`
        : `<button type="button" class="btn" data-action="absence" data-seat="${seat.seat}" data-value="1">Absent</button>`;
      if (seat.in_hand && state.hand_in_progress && !seat.hole && !seat.folded) {
        html += `<button type="button" class="btn" data-action="open-hole" data-player="${seat.position}">Hole cards…</button>`;
      }
      html += '</div><div class="row sheet-actions"><button type="button" class="btn" data-action="close">Close</button></div>';
    }
    if (sheet.innerHTML === html) return;
    // Keep what the director is typing when the live view redraws the sheet.
    const focused = document.activeElement && sheet.contains(document.activeElement) ? document.activeElement.id : null;
    const caret = focused ? document.activeElement.selectionStart : null;
    sheet.innerHTML = html;
    if (focused && $(focused)) {
      $(focused).focus();
      if (caret !== null && $(focused).setSelectionRange) $(focused).setSelectionRange(caret, caret);
    }
  }

  // --- the director's rulings at the table -----------------------------------------------------
  // A director signed in on the tablet (or the floor's browser) rules here: a hand killed, the
  // hand void (foreign or duplicate card), the pots awarded by ruling, earlier entries voided.
  // Each needs the rule it rests on and the reason; the log keeps both with the director's name.

  function freshDirector() {
    return { player: null, rule: "", reason: "", winners: null, versions: [], amend: null, to: "" };
  }

  function dButton(action, label, cls, enabled) {
    const off = busy() || !enabled ? " disabled" : "";
    return `<button type="button" class="btn ${cls}" data-action="${action}"${off}>${label}</button>`;
  }

  function toggle(action, data, label, on) {
    const attrs = Object.entries(data).map(([k, v]) => ` data-${k}="${H.esc(v)}"`).join("");
    return `<button type="button" class="btn toggle${on ? " picked" : ""}" aria-pressed="${on}" data-action="${action}"${attrs}>${label}</button>`;
  }

  function directorSheet() {
    const d = ui.director || (ui.director = freshDirector());
    const hand = state.hand;
    const inHand = state.hand_in_progress;
    let html = '<div class="sheet-title">Director: ruling at the table</div>';
    html += '<div class="row wrap director-why">' +
      `<input id="d-rule" data-field="rule" placeholder="Rule (e.g. TDA 65)" autocomplete="off" value="${H.esc(d.rule)}">` +
      `<input id="d-reason" data-field="reason" placeholder="Reason" autocomplete="off" value="${H.esc(d.reason)}"></div>`;
    if (inHand && hand.phase !== "showdown") {
      html += '<div class="panel-title">Kill a hand</div><div class="row wrap director-kill">';
      for (const seat of state.seats) {
        if (seat.in_hand && !seat.folded) html += toggle("d-player", { player: seat.position }, H.esc(seat.player), d.player === seat.position);
      }
      html += "</div>";
      const who = d.player !== null ? nameOf(d.player) : "";
      html += `<div class="row">${dButton("d-kill", who ? `Kill ${H.esc(who)}'s hand` : "Kill the hand", "", !!who)}</div>`;
    }
    if (inHand) {
      html += '<div class="panel-title">Foreign-back or duplicate card</div>';
      html += `<div class="row">${dButton("d-void-hand", "Void the hand: every bet back", "", true)}</div>`;
    }
    if (inHand && hand.phase === "showdown" && hand.pots.length) {
      if (!d.winners) {
        const proposed = (hand.showdown && hand.showdown.proposed) || [];
        d.winners = hand.pots.map((_p, k) => (proposed[k] ? proposed[k].winners.slice() : []));
      }
      html += '<div class="panel-title">Award the pots by ruling</div>';
      hand.pots.forEach((pot, k) => {
        html += `<div class="row wrap award-pot" data-pot="${k}"><b>${H.esc(pot.name)} ${H.chips(pot.amount)}</b>`;
        for (const p of pot.eligible) html += toggle("d-winner", { pot: k, player: p }, H.esc(nameOf(p)), d.winners[k].includes(p));
        html += "</div>";
      });
      const ready = d.winners.every((w) => w.length);
      html += `<div class="row">${dButton("d-award", "Award as ruled", "primary", ready)}</div>`;
    }
    // What a director voids is an entry: an action, a deal, a post, a push... The table's own
    // set-up (opening, seating, the button, a hand's start) is corrected on the floor.
    const fixed = new Set(["table_opened", "player_seated", "player_left", "button_placed", "hand_started"]);
    const voidable = state.events.filter((e) => !e.voided && !e.correction && !fixed.has(e.type)).slice(0, 8);
    if (voidable.length) {
      html += '<div class="panel-title">Void earlier entries</div><div class="void-list">';
      for (const e of voidable) html += toggle("d-version", { version: e.version }, `#${e.version} ${H.esc(e.text)}`, d.versions.includes(e.version));
      html += `</div><div class="row">${dButton("d-void-events", "Void the chosen entries", "", d.versions.length > 0)}</div>`;
    }
    const bets = state.events.filter((e) => !e.voided && (e.type === "bet_made" || e.type === "raise_made")).slice(0, 6);
    if (bets.length) {
      html += '<div class="panel-title">Correct a bet\'s amount</div><div class="void-list amend-list">';
      for (const e of bets) html += toggle("d-amend", { version: e.version }, `#${e.version} ${H.esc(e.text)}`, d.amend === e.version);
      html += `</div><div class="row"><input id="d-to" data-field="to" inputmode="numeric" placeholder="Right amount (to)" autocomplete="off" value="${H.esc(d.to)}">`;
      const to = parseInt(d.to, 10);
      html += dButton("d-amend-amount", d.amend && to > 0 ? `Amend #${d.amend} to ${H.chips(to)}` : "Amend", "", !!d.amend && to > 0) + "</div>";
    }
    html += '<div class="row sheet-actions"><button type="button" class="btn" data-action="close">Close</button></div>';
    return html;
  }

  // The rule and the reason, or an alert saying that a ruling needs both.
  function ruling() {
    const d = ui.director;
    if (d && d.rule.trim() && d.reason.trim()) return { rule: d.rule.trim(), reason: d.reason.trim() };
    alertBox = { kind: "refused", title: "A ruling needs its rule and its reason", rule: "ruling", text: "Fill in the rule (e.g. TDA 65) and the reason; the log keeps both with your name.", legal: [] };
    renderAlert();
    return null;
  }

  document.addEventListener("input", (event) => {
    const field = event.target.dataset && event.target.dataset.field;
    if (field && ui.director) {
      ui.director[field] = event.target.value;
      if (field === "to") renderSheet(); // the Amend button names the amount
    }
  });

  // --- the clock ------------------------------------------------------------------------------

  function loadClock() {
    try {
      return JSON.parse(localStorage.getItem(CLOCK_KEY) || "null");
    } catch (_e) {
      return null;
    }
  }

  function startClock() {
    const hand = state.hand;
    if (!hand || !hand.legal) return;
    const p = state.profile;
    const total = p.clock_seconds + p.clock_countdown_seconds;
    const clock = { player: hand.legal.player, name: hand.legal.name, hand: hand.number, version: state.version, ends: Date.now() + total * 1000, countdown: p.clock_countdown_seconds };
    localStorage.setItem(CLOCK_KEY, JSON.stringify(clock));
    tickClock();
  }

  function stopClock() {
    localStorage.removeItem(CLOCK_KEY);
    clearTimeout(clockTimer);
    renderClock();
  }

  function checkClock() {
    const clock = loadClock();
    if (!clock || !state) return;
    const hand = state.hand;
    if (!hand || !state.hand_in_progress || hand.number !== clock.hand || hand.to_act !== clock.player || (hand.legal && state.version !== clock.version && hand.legal.player !== clock.player)) {
      stopClock();
    }
  }

  function tickClock() {
    clearTimeout(clockTimer);
    const clock = loadClock();
    renderClock();
    if (!clock) return;
    if (Date.now() >= clock.ends) {
      stopClock();
      if (state.hand && state.hand.to_act === clock.player && !busy()) {
        record({ type: "expire_clock", player: clock.player }, `${clock.name}: clock expired`);
      }
      return;
    }
    clockTimer = setTimeout(tickClock, 250);
  }

  function renderClock() {
    const box = $("clock");
    const clock = loadClock();
    if (!clock || MODE !== "dealer") {
      box.hidden = true;
      return;
    }
    const left = Math.max(0, Math.ceil((clock.ends - Date.now()) / 1000));
    box.hidden = false;
    box.className = `clock${left <= clock.countdown ? " countdown" : ""}`;
    box.innerHTML = `<span>Clock on ${H.esc(clock.name)}</span> <b id="clock-left">${left}</b><button type="button" class="btn small" data-action="clock-cancel">Cancel</button>`;
  }

  // --- taps -------------------------------------------------------------------------------

  function legal() {
    return state && state.hand ? state.hand.legal : null;
  }

  const actions = {
    dismiss() {
      alertBox = null;
      render();
    },
    discard: discardConflict,
    reapply: reapplyConflict,
    fold() {
      const l = legal();
      record({ type: "fold", player: l.player }, `${l.name}: fold`);
    },
    check() {
      const l = legal();
      record({ type: "check_call", player: l.player }, `${l.name}: check`);
    },
    call() {
      const l = legal();
      record({ type: "check_call", player: l.player }, `${l.name}: call ${H.chips(l.call)}`);
    },
    allin() {
      const l = legal();
      record({ type: "bet_raise", player: l.player, to: l.max_to }, `${l.name}: all-in ${H.chips(l.max_to)}`);
    },
    size(el) {
      ui.typed = el.dataset.to;
      render();
    },
    chip(el) {
      ui.tray[ui.tray.length - 1].push(Number(el.dataset.value));
      render();
    },
    motion() {
      if (ui.tray[ui.tray.length - 1].length) ui.tray.push([]);
      render();
    },
    "tray-clear"() {
      ui.tray = [[]];
      ui.said = "nothing";
      render();
    },
    said() {
      ui.said = ui.said === "raise" ? "nothing" : "raise";
      render();
    },
    push() {
      const l = legal();
      const motions = ui.tray.filter((m) => m.length);
      const chips = motions.reduce((n, m) => n + m.reduce((a, b) => a + b, 0), 0);
      record({ type: "push_chips", player: l.player, motions, said: ui.said },
        `${l.name}: pushed ${H.chips(chips)}${motions.length > 1 ? ` in ${motions.length} motions` : ""}${ui.said === "raise" ? ", said raise" : ""}`);
    },
    key(el) {
      const key = el.dataset.key;
      if (key === "⌫") ui.typed = ui.typed.slice(0, -1);
      else if (ui.typed.length < 9) ui.typed = (ui.typed + key).replace(/^0+/, "");
      render();
    },
    raise() {
      const l = legal();
      const to = amountOf(l);
      const verb = l.raise_kind === "bet" ? "bet" : "raise to";
      record({ type: "bet_raise", player: l.player, to }, `${l.name}: ${verb} ${H.chips(to)}`);
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
    "open-board"() {
      ui.sheet = "board";
      ui.picked = [];
      render();
    },
    "open-show"(el) {
      ui.sheet = "show";
      ui.player = Number(el.dataset.player);
      // Hole cards the dealer recorded are the ones shown: preselected, one tap to confirm.
      const seat = state.seats.find((x) => x.position === ui.player && x.in_hand);
      ui.picked = seat && seat.hole && seat.hole.length === 2 ? seat.hole.slice() : [];
      render();
    },
    "open-hole"(el) {
      ui.sheet = "hole";
      ui.player = Number(el.dataset.player);
      ui.picked = [];
      render();
    },
    pick(el) {
      const card = el.dataset.card;
      const limit = { board: state.hand.board_due || 1, show: 2, hole: 2, "expose-card": 1 }[ui.sheet] || 1;
      if (ui.picked.includes(card)) ui.picked = ui.picked.filter((c) => c !== card);
      else if (ui.picked.length < limit) ui.picked.push(card);
      else if (limit === 1) ui.picked = [card];
      renderSheet();
    },
    "clear-pick"() {
      ui.picked = [];
      renderSheet();
    },
    close() {
      ui.sheet = null;
      ui.picked = [];
      render();
    },
    deal() {
      const cards = ui.picked.slice();
      record({ type: "deal_board", cards: cards.join("") }, `board ${H.cardsText(cards)}`);
    },
    show() {
      const cards = ui.picked.slice();
      record({ type: "show_cards", player: ui.player, cards: cards.join("") }, `${nameOf(ui.player)} shows ${H.cardsText(cards)}`);
    },
    hole() {
      const cards = ui.picked.slice();
      record({ type: "deal_hole", player: ui.player, cards: cards.join("") }, `${nameOf(ui.player)} dealt ${H.cardsText(cards)}`);
    },
    seat(el) {
      ui.sheet = "seat";
      ui.seat = Number(el.dataset.seat);
      render();
    },
    absence(el) {
      const seat = Number(el.dataset.seat);
      const absent = el.dataset.value === "1";
      record({ type: "set_absence", seat, absent }, `${seatName(seat)}: ${absent ? "absent" : "returned"}`);
    },
    misdeal() {
      ui.sheet = "misdeal";
      render();
    },
    "declare-misdeal"(el) {
      record({ type: "declare_misdeal", reason: el.dataset.reason }, `misdeal: ${el.dataset.reason}`);
    },
    exposed() {
      ui.sheet = "expose";
      ui.inDeal = state.hand && state.hand.street === "preflop";
      render();
    },
    "in-deal"(el) {
      ui.inDeal = el.dataset.value === "1";
      render();
    },
    "expose-player"(el) {
      ui.player = Number(el.dataset.player);
      ui.sheet = "expose-card";
      ui.picked = [];
      render();
    },
    expose() {
      const card = ui.picked[0];
      record({ type: "expose_card", player: ui.player, card, in_deal: ui.inDeal }, `${nameOf(ui.player)}: ${H.cardsText([card])} exposed`);
    },
    clock: startClock,
    "clock-cancel": stopClock,
    director() {
      ui.sheet = "director";
      ui.director = freshDirector();
      render();
    },
    "d-player"(el) {
      const p = Number(el.dataset.player);
      ui.director.player = ui.director.player === p ? null : p;
      renderSheet();
    },
    "d-winner"(el) {
      const k = Number(el.dataset.pot);
      const p = Number(el.dataset.player);
      const list = ui.director.winners[k];
      ui.director.winners[k] = list.includes(p) ? list.filter((x) => x !== p) : list.concat([p]).sort((a, b) => a - b);
      renderSheet();
    },
    "d-version"(el) {
      const v = Number(el.dataset.version);
      const list = ui.director.versions;
      ui.director.versions = list.includes(v) ? list.filter((x) => x !== v) : list.concat([v]).sort((a, b) => a - b);
      renderSheet();
    },
    "d-kill"() {
      const why = ruling();
      const p = ui.director.player;
      if (!why || p === null) return;
      record({ type: "kill_hand", player: p, reason: why.reason, rule: why.rule }, `${nameOf(p)}: hand killed (${why.rule})`);
    },
    "d-void-hand"() {
      const why = ruling();
      if (!why) return;
      record({ type: "void_hand", reason: `${why.rule}: ${why.reason}` }, `hand void (${why.rule})`);
    },
    "d-award"() {
      const why = ruling();
      if (!why) return;
      record({ type: "award_pots", winners: ui.director.winners, ruling: `${why.rule}: ${why.reason}` }, `pots awarded by ruling (${why.rule})`);
    },
    "d-amend"(el) {
      const v = Number(el.dataset.version);
      ui.director.amend = ui.director.amend === v ? null : v;
      renderSheet();
    },
    "d-amend-amount"() {
      const why = ruling();
      const to = parseInt(ui.director.to, 10);
      if (!why || !ui.director.amend || !(to > 0)) return;
      record({ type: "amend_amount", version: ui.director.amend, to, reason: why.reason, rule: why.rule }, `#${ui.director.amend} amended to ${H.chips(to)} (${why.rule})`);
    },
    "d-void-events"() {
      const why = ruling();
      if (!why) return;
      const versions = ui.director.versions.slice();
      record({ type: "void_events", versions, reason: why.reason, rule: why.rule }, `void #${versions.join(", #")} (${why.rule})`);
    },
  };

  let lastTap = null;
  document.addEventListener("click", (event) => {
    const el = event.target.closest("[data-action]");
    if (!el || el.disabled) return;
    const handler = actions[el.dataset.action];
    lastTap = event.timeStamp;
    if (handler) handler(el);
    lastTap = null;
  });

  // --- signing in -----------------------------------------------------------------------------

  function showSignIn(message) {
    const box = $("signin");
    box.hidden = false;
    const pin = { value: "", code: false, director: false, name: localStorage.getItem("handlog.name") || "" };
    box.oninput = (event) => {
      if (event.target.id === "signin-name") pin.name = event.target.value;
    };
    function draw(error) {
      const what = pin.director ? "Director PIN" : pin.code ? "Pairing code" : `Dealer PIN for table ${STREAM}`;
      box.innerHTML =
        `<div class="signin"><h1>${H.esc(what)}</h1>` +
        (message ? `<p>${H.esc(message)}</p>` : "") +
        `<input class="name-input" id="signin-name" autocomplete="name" placeholder="Your name (on every entry)" value="${H.esc(pin.name)}">` +
        `<output class="pin" id="pin-value">${pin.value.replace(/./g, "•") || "&nbsp;"}</output>` +
        (error ? `<p class="error" id="signin-error">${H.esc(error)}</p>` : "") +
        `<div class="keypad">${["1", "2", "3", "4", "5", "6", "7", "8", "9", "C", "0", "⌫"].map((k) => `<button type="button" class="btn key" data-pin="${k}">${k}</button>`).join("")}</div>` +
        `<button type="button" class="btn primary wide" data-pin="join">Join</button>` +
        `<div class="row wrap"><button type="button" class="btn small" data-pin="mode-pin">Dealer PIN</button><button type="button" class="btn small" data-pin="mode-code">Pairing code</button><button type="button" class="btn small" data-pin="mode-director">Director</button><a class="btn small" href="/view/${encodeURIComponent(STREAM)}">Watch as viewer</a></div></div>`;
    }
    box.onclick = async (event) => {
      const el = event.target.closest("[data-pin]");
      if (!el) return;
      const key = el.dataset.pin;
      if (key === "C") pin.value = "";
      else if (key === "⌫") pin.value = pin.value.slice(0, -1);
      else if (/^\d$/.test(key)) pin.value = (pin.value + key).slice(0, 12);
      else if (key.startsWith("mode-")) {
        pin.code = key === "mode-code";
        pin.director = key === "mode-director";
        pin.value = "";
      } else if (key === "join") {
        const name = pin.name.trim();
        localStorage.setItem("handlog.name", name);
        const fields = pin.director ? { role: "director", pin: pin.value } : pin.code ? { role: "dealer", code: pin.value, table: STREAM } : { role: "dealer", pin: pin.value, table: STREAM };
        if (name) fields.name = name;
        const answer = await H.login(fields);
        if (answer.status === 200) {
          me = answer.body;
          box.hidden = true;
          box.innerHTML = "";
          message = "";
          start();
          return;
        }
        pin.value = "";
        const wait = answer.headers.get("Retry-After");
        draw((answer.body && answer.body.message) || `refused (${answer.status})` + (wait ? ` — wait ${wait} s` : ""));
        return;
      }
      draw();
    };
    draw();
  }

  // --- start ------------------------------------------------------------------------------

  let following = null;

  async function start() {
    if (!following) {
      following = H.follow(`/api/tables/${encodeURIComponent(STREAM)}/events`, apply, (s) => {
        setConnection(s);
        if (s === "live") flush();
        else checkSession();
      });
    }
    const answer = await H.api("GET", `/api/tables/${encodeURIComponent(STREAM)}`).catch(() => null);
    if (answer && answer.status === 200) apply(answer.body);
    else if (answer && answer.status === 404) $("title").textContent = `No table ${STREAM}`;
    tickClock();
    flush();
  }

  // A session can end (signed out, expired, or a server with a new secret): the event
  // stream then fails for good; say so.
  let lastCheck = 0;
  async function checkSession() {
    if (Date.now() - lastCheck < 5000 || !$("signin").hidden) return;
    lastCheck = Date.now();
    const session = await H.session();
    if (!session.offline && !session.role) {
      me = { role: null };
      showSignIn("Your session ended: sign in again.");
    }
  }

  async function boot() {
    me = await H.session();
    if (MODE === "viewer") {
      if (!me.role) {
        const answer = await H.login({ role: "viewer" });
        me = answer.body || { role: null };
      }
      start();
      return;
    }
    if (me.role === "director" || (me.role === "dealer" && me.table === STREAM)) {
      start();
    } else {
      showSignIn(me.role === "dealer" ? `This tablet is the dealer of table ${me.table}.` : "");
    }
  }

  window.addEventListener("online", () => {
    setConnection("live");
    flush();
  });
  window.addEventListener("offline", () => setConnection("offline"));
  setInterval(() => {
    if (outbox.length && !conflict && !flushing) flush();
  }, 3000);
  window.handlogTable = { outbox: () => outbox.slice(), state: () => state };
  boot();
})();
