// @ts-check
// The floor's side column: for each tournament the director's forms (registration, seat draw,
// moves, penalties, bounties, the high hand, a deal, rulings) and what everyone may read
// (moves, penalties, money, eliminations and places, color-ups, rulings); then the tables'
// rulings and corrections, the director's sign-off of the results, and the latest signed
// checkpoint of the log with the witnesses' state.

import * as H from "../common.js";
import { html, nothing } from "../lit.js";
import { chipCountBox } from "./counts.js";
import { dealBox } from "./deal.js";
import { F, director } from "./state.js";
import { cmd } from "./tournament.js";

const money = (cents) => (cents / 100).toFixed(2);

// Hand-for-hand: the round being played and the tables the others wait for.
function handForHandNote(t) {
  if (!t.hand_for_hand) return nothing;
  const r = t.round || { number: 0, complete: true, waiting: [] };
  return html`<div class="panel-note hand-for-hand" data-round=${r.number}>Hand-for-hand${r.number ? `, round ${r.number}` : ""}: ${r.complete ? "every table may deal the next hand" : `waiting for table ${r.waiting.join(", ")}`}</div>`;
}

function penaltyList(t) {
  const left = Object.fromEntries(t.serving.map((x) => [x.player, x.hands_left]));
  return html`<ol tabindex="0" class="list penalties">${t.penalties.length ? t.penalties.map((p) => html`<li data-player=${p.player}>${p.name}: ${p.penalty}${p.hands ? ` ${p.hands} hand(s)` : ""}${left[p.player] ? html` <b class="serving">serving, ${left[p.player]} left</b>` : nothing} <span class="rule">${p.rule}</span> <small>${p.reason}</small></li>`) : html`<li>none</li>`}</ol>`;
}

function registration(t) {
  const unseated = t.unseated.length
    ? html`<div class="panel-note">Not seated: ${t.unseated.map((e) => e.name).join(", ")}</div>${t.tables.length ? nothing : html`<form class="form" data-form="draw" data-t=${t.id}><input name="tables" type="number" min="1" max="10000" aria-label="Tables to draw" data-follow value=${t.tables_needed || 1} inputmode="numeric"><button type="submit" class="btn primary">Draw seats</button></form>`}`
    : nothing;
  const form = t.registration_open
    ? html`<form class="form" data-form="register" data-t=${t.id}><input name="name" placeholder="Player name" autocomplete="off" required>${t.jackpot ? html`<label class="check"><input type="checkbox" name="high_hand"> high-hand fee paid</label>` : nothing}<button type="submit" class="btn primary">Register</button></form>`
    : html`<div class="panel-note">Registration is closed.</div>`;
  return html`<section class="box"><h2>Registration and seats</h2>${form}${unseated}</section>`;
}

// Entries beyond the first, as the structure sells them (t.offers): a re-entry of a person
// whose entry is out, a rebuy, the add-on. The engine decides each and names the rule it
// refuses on.
function entriesBox(t) {
  const o = t.offers || {};
  if (!o.re_entry && !o.rebuy && !o.add_on) return nothing;
  const out = t.eliminations.filter((e) => e.player);
  const players = t.players.map((p) => html`<option value=${p.player}>${p.name} (T${p.table} s${p.seat})</option>`);
  const reEnter = o.re_entry
    ? html`<form class="form" data-form="re-enter" data-t=${t.id}><select name="player" aria-label="Entry out to re-enter">${out.map((e) => html`<option value=${e.player}>${e.name} (${e.place}.)</option>`)}</select><button type="submit" class="btn" ?disabled=${!out.length}>Re-enter</button></form>`
    : nothing;
  const rebuy = o.rebuy
    ? html`<form class="form" data-form="rebuy" data-t=${t.id}><select name="player" aria-label="Player who rebuys">${players}</select><button type="submit" class="btn">Rebuy</button></form>`
    : nothing;
  const addOn = o.add_on
    ? html`<form class="form" data-form="add-on" data-t=${t.id}><select name="player" aria-label="Player who takes the add-on">${players}</select><button type="submit" class="btn">Add-on</button></form>`
    : nothing;
  return html`<section class="box entries-desk"><h2>Re-entries, rebuys and add-ons</h2>${reEnter}${rebuy}${addOn}</section>`;
}

// An event in flights and days (t.days): at the end of a day each stack in play is counted
// and bagged, then the day ends without a winner; a next day takes the survivors of the logs
// named (then its seats are drawn as usual). The engine decides each step.
function daysBox(t) {
  const d = t.days;
  if (!d) return nothing;
  const label = d.flight ? `Day ${d.flight}` : `Day ${d.day}`;
  if (d.day > 1 && !d.started) {
    return html`<section class="box days-desk"><h2>${label}: the next day</h2><form class="form" data-form="next-day" data-t=${t.id}><input name="sources" required placeholder="1A, 1B" aria-label="Flights or day whose survivors come"><button type="submit" class="btn primary">Take the survivors</button></form></section>`;
  }
  const open = t.players.filter((p) => !(p.player in d.bags));
  const bag = html`<form class="form" data-form="bag" data-t=${t.id}><select name="player" aria-label="Player whose stack is bagged">${open.map((p) => html`<option value=${p.player}>${p.name} (T${p.table} s${p.seat})</option>`)}</select><input name="chips" type="number" min="0" required aria-label="Counted chips"><input name="bag" required aria-label="Bag number"><button type="submit" class="btn" ?disabled=${!open.length}>Bag</button></form>`;
  const bagged = Object.entries(d.bags).map(([player, b]) => html`<li data-player=${player}>${b.bag}: ${b.chips}</li>`);
  return html`<section class="box days-desk"><h2>${label}: bags</h2>${bag}<ul class="bags">${bagged}</ul>${cmd(t, "end_day", "End the day", "wide")}</section>`;
}

function moves(t) {
  const hfh = t.tables.length > 1 || t.hand_for_hand
    ? cmd(t, "hand_for_hand", t.hand_for_hand ? "End hand-for-hand" : "Start hand-for-hand", "wide", { on: !t.hand_for_hand })
    : nothing;
  const next = t.table_break ? cmd(t, "break_table", t.table_break.label, "primary wide")
    : t.needs_balancing ? cmd(t, "balance", "Balance the tables", "primary wide") : nothing;
  const form = t.tables.length > 1
    ? html`<form class="form" data-form="move" data-t=${t.id}><select name="player" aria-label="Player to move">${t.players.map((p) => html`<option value=${p.player}>${p.name} (T${p.table} s${p.seat})</option>`)}</select><select name="to_table" aria-label="To table">${t.tables.map((x) => html`<option>${x}</option>`)}</select><button type="submit" class="btn">Move</button></form>`
    : nothing;
  const list = t.moves.length ? t.moves.map((m) => html`<li>${m.name}: table ${m.from_table} seat ${m.from_seat} → table ${m.to_table} seat ${m.to_seat} with ${H.chips(m.stack)} <small>${m.reason}</small>${m.rule ? html` <span class="rule">${m.rule}</span>` : nothing}</li>`) : html`<li>none</li>`;
  return html`<section class="box"><h2>Moves</h2>${hfh}${handForHandNote(t)}${next}${form}<ol tabindex="0" class="list moves">${list}</ol></section>`;
}

function penalties(t) {
  return html`<section class="box"><h2>Penalties</h2><form class="form" data-form="penalty" data-t=${t.id}><select name="player" aria-label="Player penalised">${t.players.map((p) => html`<option value=${p.player}>${p.name}</option>`)}</select><select name="penalty" aria-label="Penalty"><option value="warning">warning</option><option value="hands">hands</option><option value="rounds">rounds</option><option value="disqualification">disqualification</option></select><input name="count" type="number" min="0" max="100" value="1" inputmode="numeric" aria-label="hands or rounds"><input name="rule" value="tda-71" aria-label="rule"><input name="reason" placeholder="Reason" aria-label="Reason"><button type="submit" class="btn">Give penalty</button></form>${penaltyList(t)}</section>`;
}

function bounties(t) {
  if (!t.bounties_referred.length) return nothing;
  return html`<section class="box"><h2>Bounties to decide</h2><ol tabindex="0" class="list bounties">${t.bounties_referred.map((b) => html`<li>${b.name} (table ${b.table}, hand #${b.hand}, ${b.code}): ${H.joined((b.proposal.length ? b.proposal : t.players).map((p) => cmd(t, "assign_bounty", `to ${p.name}`, "small", { player: b.player, to: p.player })), " ")}</li>`)}</ol></section>`;
}

function ruling(t) {
  return html`<section class="box"><h2>Ruling</h2><form class="form" data-form="ruling" data-t=${t.id}><input name="rule" placeholder="Rule (e.g. TDA 45)" required><input name="text" placeholder="Decision" required><select name="stream" aria-label="Ruling at table"><option value="">(tournament)</option>${t.tables.map((x) => html`<option value=${t.table_streams[x]}>table ${x}</option>`)}</select><button type="submit" class="btn">Record ruling</button></form></section>`;
}

// The high-hand jackpot for the director until it is awarded: each entrant's fee (a tick
// lost at registration, or a fee paid later, is recorded here) and the award, to the
// holders of the best hand shown or to the entrants he names when none was shown.
function highHandDesk(t) {
  const h = t.high_hand;
  if (!h || h.awarded) return nothing;
  const proposed = new Set(h.players.map((p) => p.player));
  const paid = h.fees.filter((f) => f.paid);
  const fee = html`<form class="form inline" data-form="high-hand-fee" data-t=${t.id}><select name="player" aria-label="Player whose fee">${h.fees.map((f) => html`<option value=${f.player}>${f.name}${f.paid ? " (paid)" : " (not paid)"}${f.alive ? "" : " · out"}</option>`)}</select><select name="paid" aria-label="Fee"><option value="paid">paid</option><option value="not paid">not paid</option></select><button type="submit" class="btn small">Record the fee</button></form>`;
  const award = !t.finished
    ? html`<div class="panel-note">${h.cards ? `Best hand so far: ${h.cards} (${h.players.map((p) => p.name).join(", ")}). ` : ""}The jackpot is awarded once the tournament is over ("over the course of the tourney").</div>`
    : paid.length
    ? html`<form class="form" data-form="award-high-hand" data-t=${t.id}><div class="panel-note">${h.cards ? `Best hand shown: ${h.cards} (${h.players.map((p) => p.name).join(", ")})` : "No flush or better shown: tick the holders the director rules"}</div>${paid.map((f) => html`<label class="check"><input type="checkbox" name=${`holder:${f.player}`} ?checked=${proposed.has(f.player)}> ${f.name}</label>`)}<button type="submit" class="btn primary">Award the jackpot</button></form>`
    : html`<div class="panel-note">Nobody has paid the high-hand fee.</div>`;
  return html`<section class="box high-hand-desk"><h2>High-hand jackpot</h2><div class="panel-note">${paid.length} of ${h.fees.length} paid the fee</div>${fee}${award}</section>`;
}

// The director's forms of a tournament still being played; once it is over, what is left to
// settle (the jackpot, a count's differences, rulings).
function directorsBoxes(t) {
  if (t.finished) return html`${chipCountBox(t)}${highHandDesk(t)}${ruling(t)}`;
  return html`${registration(t)}${entriesBox(t)}${daysBox(t)}${moves(t)}${penalties(t)}${chipCountBox(t)}${bounties(t)}${highHandDesk(t)}${dealBox(t)}${ruling(t)}`;
}

function highHandBox(t) {
  const h = t.high_hand;
  if (!h) return nothing;
  return html`<section class="box"><h2>High hand</h2><div class="high-hand">${h.cards ? `${h.cards} · ${h.players.map((p) => p.name).join(", ")}` : "none posted yet"}${h.awarded ? ` · paid ${h.shares.map((x) => `${x.name} ${t.currency} ${money(x.amount)}`).join(", ")}` : ""}</div></section>`;
}

const MONEY = ["buy_ins", "re_entries", "rebuys", "add_ons", "carried_in", "overlay", "fees", "bounty_pool", "high_hand_pool", "prizes_paid", "seats_awarded", "bounties_paid", "high_hand_paid", "carried_out", "unaccounted"];

// What everyone may read of a tournament.
function publicBoxes(t) {
  const readersMoves = !(director() && !t.finished) && t.moves.length
    ? html`<section class="box"><h2>Moves</h2><ol tabindex="0" class="list moves">${t.moves.map((m) => html`<li>${m.name}: ${m.from_table} → ${m.to_table} seat ${m.to_seat}</li>`)}</ol></section>`
    : nothing;
  const readersPenalties = director() ? nothing
    : html`<section class="box"><h2>Penalties</h2>${penaltyList(t)}</section>${t.hand_for_hand ? html`<section class="box"><h2>Hand-for-hand</h2>${handForHandNote(t)}</section>` : nothing}`;
  const dealBox = t.deal
    ? html`<section class="box"><h2>Deal (${t.deal.method})</h2><ol tabindex="0" class="list deal">${t.deal.shares.map((x) => html`<li>${x.name}: ${t.currency} ${money(x.amount)} <small>stack ${H.chips(x.stack)}, agreed as ${x.consent}</small></li>`)}</ol></section>`
    : nothing;
  const moneyBox = html`<section class="box"><h2>Money</h2><div class="money">${H.joined(MONEY.filter((k) => k in t.money).map((k) => html`<span data-money=${k}>${k.replace(/_/g, " ")} ${t.currency} ${money(t.money[k])}</span>`), " · ")}</div></section>`;
  const places = html`<section class="box"><h2>Eliminations and places</h2><ol tabindex="0" class="list eliminations">${t.eliminations.length ? t.eliminations.map((e) => html`<li data-place=${e.place}><b>${e.place}.</b> ${e.name} <small>table ${e.table}, hand #${e.hand}</small></li>`) : html`<li>nobody out yet</li>`}</ol>${t.prizes.length ? html`<h2>Prizes</h2><ol tabindex="0" class="list">${t.prizes.map((p) => html`<li data-seat=${p.seat || nothing}>${p.place}. ${p.name} ${p.seat ? `a seat in ${p.seat} (${t.currency} ${money(p.amount)})` : `${t.currency} ${money(p.amount)}`}</li>`)}</ol>` : nothing}</section>`;
  const colorUps = html`<section class="box"><h2>Color-ups</h2><ol tabindex="0" class="list colorups">${t.color_ups.length ? t.color_ups.map((c) => html`<li>after level ${c.after_level}: ${c.colours.join(", ")} out, smallest chip ${H.chips(c.old_unit)} → ${H.chips(c.new_unit)} (${c.method}) <span class="rule">${c.rule}</span>${c.changes.length ? html`<br><small>${c.changes.map((x) => `${x.name} ${x.amount > 0 ? "+" : ""}${H.chips(x.amount)}`).join(", ")}</small>` : nothing}</li>`) : html`<li>none yet</li>`}</ol></section>`;
  const rulings = html`<section class="box"><h2>Rulings</h2><ol tabindex="0" class="list rulings">${t.rulings.length ? t.rulings.map((r) => html`<li><span class="rule">${r.rule}</span> ${r.text} <small>${r.by}${r.stream ? ` · ${r.stream}` : ""}</small></li>`) : html`<li>none yet</li>`}</ol></section>`;
  return html`${readersMoves}${readersPenalties}${highHandBox(t)}${dealBox}${moneyBox}${places}${colorUps}${rulings}`;
}

function tournamentSide(t) {
  return html`${director() ? directorsBoxes(t) : nothing}${publicBoxes(t)}${signOffBox(t)}`;
}

// One witness the checkpoints are posted to: what it cosigned, what waits, why it failed (a
// witness that is down is retried; the tables never wait for it).
function witnessRow(w) {
  const state = w.error ? (w.error.startsWith("unreachable") ? "down" : "refused") : w.pending_size !== null ? "pending" : "ok";
  return html`<li data-witness=${w.witness} data-state=${state}><b>${w.witness}</b>: ${w.cosigned_size ? `cosigned ${w.cosigned_size} events` : "nothing cosigned yet"}${w.pending_size !== null ? html` · <span class="pending">${w.pending_size} events waiting${w.error ? ", retrying" : ""}</span>` : nothing}${w.error ? html` <span class="bad">${state}: ${w.error}</span>` : nothing}</li>`;
}

// The latest signed checkpoint of the log, in full: what a director posts at the desk; under
// it the witnesses' state.
function checkpointBox(cp, witnesses) {
  const shown = witnesses && witnesses.length ? html`<h2>Witnesses</h2><ol tabindex="0" class="list" id="witnesses">${witnesses.map(witnessRow)}</ol>` : nothing;
  return html`<section class="box checkpoint"><h2>Signed checkpoint of the log</h2>${cp ? html`<p><small>#${cp.number} · ${cp.reason.replace(/_/g, " ")} · ${cp.created_at} · ${cp.size} events</small></p><pre class="checkpoint-text" id="checkpoint-text">${cp.text}</pre>` : html`<p>none yet</p>`}${director() ? html`<button type="button" class="btn small" data-action="checkpoint">Sign a checkpoint now</button>` : nothing}${shown}</section>`;
}

// The director's sign-off of the tournament's results (signed with the director's own key on
// a checkpoint taken then); a result recorded after it is a finding in the report.
function signOffBox(t) {
  const mine = (F.floor.sign_offs || []).filter((s) => s.tournament === t.id);
  const list = mine.length ? html`<ol tabindex="0" class="list sign-offs">${mine.map((s) => html`<li data-checkpoint=${s.checkpoint}>${s.results} results signed off by ${s.director} at ${s.signed_at} <small>checkpoint #${s.checkpoint}, ${s.size} events</small></li>`)}</ol>` : html`<p>not signed off yet</p>`;
  const button = director() ? html`<button type="button" class="btn small" data-action="sign-off" data-t=${t.id}>Sign off the results</button>` : nothing;
  return html`<section class="box sign-off"><h2>Sign-off of the results</h2>${list}${button}</section>`;
}

export function sideView() {
  const floor = F.floor;
  const corrections = floor.corrections || [];
  return html`${(floor.tournaments || []).map(tournamentSide)}<section class="box"><h2>Table rulings and corrections</h2><ol tabindex="0" class="list" id="corrections">${corrections.length ? corrections.map((c) => html`<li data-version=${c.version}><b>${c.table}</b> #${c.version} ${c.text}${c.rule ? html` <span class="rule">${c.rule}</span>` : nothing} <small>${c.actor} · ${c.device}</small></li>`) : html`<li>none yet</li>`}</ol></section>${checkpointBox(floor.checkpoint, floor.witnesses)}`;
}
