// @ts-check
// The room as it stood at a time (/floor?time=UTC, or ?at=UTC): read-only, from
// GET /api/floor/as-of.

import * as H from "../common.js";
import { html, nothing, render as paint } from "../lit.js";
import { showAlert } from "./render.js";
import { $ } from "./state.js";

const PARAMS = new URLSearchParams(location.search);
export const AS_OF = PARAMS.get("time") || (PARAMS.get("at") && !/^\d+$/.test(PARAMS.get("at") || "") ? PARAMS.get("at") : null);

function asOfTable(t) {
  const stream = encodeURIComponent(t.stream);
  return html`<article class="table-card" data-stream=${t.stream} data-version=${t.version}><h3>${t.stream} <small>version ${t.version} of ${t.live_version}</small></h3><ul class="asof-lines">${H.linesView(t.lines)}</ul><div class="links"><a class="btn small" href=${`/view/${stream}?at=${t.version}`}>The table then</a><a class="btn small" href=${`/replayer?table=${stream}&at=${t.version}`}>In the replayer</a></div></article>`;
}

function asOfTournament(t) {
  return html`<section class="box tournament" data-tournament=${t.tournament}><h2>${t.tournament} <small>level ${t.level}${t.on_break ? " (on a break)" : ""} · ${t.left.length} left of ${t.entrants}</small></h2>${t.winner ? html`<div class="winner">Winner: ${t.winner}</div>` : nothing}<ol class="list eliminations">${t.out.length ? t.out.map((o) => html`<li data-place=${o.place}><b>${o.place}.</b> ${o.name}${o.table ? html` <small>table ${o.table}, hand #${o.hand}</small>` : nothing}</li>`) : html`<li>nobody out yet</li>`}</ol></section>`;
}

export async function showAsOf() {
  const banner = document.createElement("div");
  banner.id = "asof";
  banner.className = "asof-banner";
  banner.setAttribute("role", "status");
  banner.textContent = "loading…";
  document.querySelector("main").before(banner);
  $("status").hidden = true;
  const path = `/api/floor/as-of?time=${encodeURIComponent(AS_OF || "")}`;
  let answer = await H.api("GET", path).catch(() => null);
  if (answer && answer.status === 401) {
    await H.login({ role: "viewer" });
    answer = await H.api("GET", path).catch(() => null);
  }
  if (!answer || answer.status !== 200) {
    banner.textContent = "";
    showAlert("refused", `Cannot show the floor as of ${AS_OF}`, answer ? answer.body : null);
    return;
  }
  const room = answer.body;
  banner.textContent = "";
  paint(html`As of ${room.time.slice(0, 19).replace("T", " ")} UTC: the room as it stood then, read-only (not now). <a class="btn small" href=${location.pathname}>The floor now</a>`, banner);
  $("info").textContent = `${room.tables.length} table${room.tables.length === 1 ? "" : "s"} then`;
  paint(room.tournaments.map(asOfTournament), $("tournament"));
  paint(room.tables.length ? room.tables.map(asOfTable) : html`<div class="box">No table was open yet.</div>`, $("tables"));
  if (H.testing) window.handlogFloor.asOf = () => room;
}
