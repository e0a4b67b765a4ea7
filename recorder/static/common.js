// @ts-check
// Shared helpers of the handlog pages, an ES module each page imports (`import * as H from
// "../common.js"`): the API (with the CSRF header), sessions, the device id, server-sent
// events, the alert box, number and card formatting, the theme. No framework, no build step;
// the pages build their DOM with lit-html (lit.js).

import { html, nothing, render } from "./lit.js";

const CSRF_COOKIE = "handlog_csrf";
const CSRF_HEADER = "X-CSRF-Token";

// Test hooks (latencies, render times, the page's state for the browser tests) exist only
// behind the test flag: `?test=1` in the address, or localStorage "handlog.test" = "1" (the
// browser tests and the benchmark set it before the page loads).
export const testing = (() => {
  try {
    return new URLSearchParams(location.search).get("test") === "1" || localStorage.getItem("handlog.test") === "1";
  } catch (_e) {
    return false;
  }
})();

export function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return "";
}

// crypto.randomUUID needs a secure context; tablets on a LAN often use plain http.
export function uuid4() {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function deviceId() {
  let id = localStorage.getItem("handlog.device");
  if (!id) {
    id = "tablet-" + uuid4().slice(0, 8);
    localStorage.setItem("handlog.device", id);
  }
  return id;
}

// fetch JSON; resolves {status, body}; rejects only when the network fails.
export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET") headers[CSRF_HEADER] = cookie(CSRF_COOKIE);
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
    cache: "no-store",
  });
  let data;
  try {
    data = await response.json();
  } catch (_e) {
    data = null;
  }
  return { status: response.status, body: data, headers: response.headers };
}

export async function session() {
  try {
    const r = await api("GET", "/api/session");
    return r.body || { role: null };
  } catch (_e) {
    return { role: null, offline: true };
  }
}

export async function login(fields) {
  return api("POST", "/api/session", Object.assign({ device: deviceId() }, fields));
}

export async function logout() {
  return api("DELETE", "/api/session");
}

// Follow server-sent `state` events; onState(view), onStatus("live" | "reconnecting").
// Follow a stream of server-sent events: `state` frames to onState, and each other named
// frame to its handler in `more` (the floor's `changes`); reconnects by itself.
export function follow(path, onState, onStatus, more = {}) {
  let source = null;
  function open() {
    source = new EventSource(path);
    source.addEventListener("state", (e) => onState(JSON.parse(e.data)));
    for (const [name, handler] of Object.entries(more)) {
      source.addEventListener(name, (e) => handler(JSON.parse(e.data)));
    }
    source.onopen = () => onStatus("live");
    source.onerror = () => {
      onStatus("reconnecting");
      if (source.readyState === EventSource.CLOSED) setTimeout(open, 1000);
    };
  }
  open();
  return () => source && source.close();
}

export function chips(n) {
  return Number(n || 0).toLocaleString("en-US");
}

const SUIT = { c: "♣", d: "♦", h: "♥", s: "♠" };

/**
 * A card face ("Ah": A♥), or a blank place for a card still to come.
 * @param {string | null} card
 * @param {string} [extra] another class ("small")
 */
export function cardView(card, extra) {
  const more = extra ? ` ${extra}` : "";
  if (!card) return html`<span class=${`card blank${more}`}></span>`;
  return html`<span class=${`card suit-${card[1]}${more}`} data-card=${card}>${card[0] === "T" ? "10" : card[0]}${SUIT[card[1]] || ""}</span>`;
}

export function cardsText(cards) {
  return (cards || []).map((c) => (c[0] === "T" ? "10" : c[0]) + (SUIT[c[1]] || "")).join(" ");
}

/**
 * Items with `separator` between them (a list of templates read as "a, b, c").
 * @param {unknown[]} items
 * @param {unknown} separator
 */
export function joined(items, separator) {
  return items.flatMap((item, i) => (i ? [separator, item] : [item]));
}

// A table's lines as the CLI prints them (the as-of pages): an indented line belongs to the
// one above it.
/** @param {string[]} lines */
export function linesView(lines) {
  return lines.map((line) => html`<li class=${/^\s/.test(line) ? "sub" : ""}>${line.trim()}</li>`);
}

/**
 * An alert (a refusal, a conflict, a lost connection) in `box`: title, rule, text, what is
 * allowed, any extra buttons (a template), then OK. No alert hides the box.
 * @param {HTMLElement} box
 * @param {any} alert
 * @param {unknown} [buttons]
 */
export function showAlert(box, alert, buttons) {
  box.hidden = !alert;
  if (!alert) return;
  box.className = `alert ${alert.kind}`;
  render(html`<div class="alert-title">${alert.title}</div>${alert.rule ? html`<div class="alert-rule" data-rule=${alert.rule}>${alert.rule_words || alert.rule}</div>` : nothing}<div class="alert-text">${alert.text}</div>${alert.legal && alert.legal.length ? html`<div class="alert-legal">Allowed: ${alert.legal.join("; ")}</div>` : nothing}${alert.extra ? html`<div class="alert-legal">${alert.extra}</div>` : nothing}${buttons || nothing}<button type="button" class="btn small" data-action="dismiss">OK</button>`, box);
}

// The theme: dark, or light for bright rooms. The tablet's choice is kept in localStorage;
// without one the system's preference (prefers-color-scheme) holds.
const THEME_KEY = "handlog.theme";

function storedTheme() {
  try {
    const value = localStorage.getItem(THEME_KEY);
    return value === "light" || value === "dark" ? value : null;
  } catch (_e) {
    return null;
  }
}

export function theme() {
  const stored = storedTheme();
  if (stored) return stored;
  return window.matchMedia && window.matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark";
}

export function setTheme(value) {
  localStorage.setItem(THEME_KEY, value);
  document.documentElement.dataset.theme = value;
  for (const b of document.querySelectorAll(".theme-toggle")) drawThemeToggle(b);
}

function drawThemeToggle(b) {
  const light = theme() === "light";
  b.setAttribute("aria-pressed", String(light));
  b.textContent = "☀ Light";
  b.title = light ? "Light theme on: tap for the dark one" : "Tap for the light theme (bright rooms)";
}

// A toggle in the page's bar (or in an element marked data-theme-toggle).
function addThemeToggle() {
  const holder = document.querySelector("[data-theme-toggle]") || document.querySelector("header.bar");
  if (!holder || holder.querySelector(".theme-toggle")) return;
  const b = document.createElement("button");
  b.type = "button";
  b.className = "btn small theme-toggle";
  b.id = "theme-toggle";
  b.addEventListener("click", () => setTheme(theme() === "light" ? "dark" : "light"));
  drawThemeToggle(b);
  holder.appendChild(b);
}

// The theme that holds (the tablet's choice, else the system's) is data-theme on <html>, the
// one switch app.css reads; without a choice it follows the system when that changes.
document.documentElement.dataset.theme = theme();
if (window.matchMedia) {
  window.matchMedia("(prefers-color-scheme: light)").addEventListener("change", () => {
    if (storedTheme()) return;
    document.documentElement.dataset.theme = theme();
    for (const b of document.querySelectorAll(".theme-toggle")) drawThemeToggle(b);
  });
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", addThemeToggle);
else addThemeToggle();


// The service worker (sw.js) keeps the pages for a reload with no network. Browsers allow one
// only in a secure context (HTTPS, or localhost): a tablet on plain http over a LAN has none.
export const offlinePages = "serviceWorker" in navigator && window.isSecureContext;
if (offlinePages) navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);

