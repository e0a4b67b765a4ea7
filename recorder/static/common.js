// @ts-check
// Shared helpers of the handlog pages: the API (with the CSRF header), sessions, the device id,
// server-sent events, HTML escaping and number formatting. No framework, no build step.
"use strict";
/* exported Handlog */

const Handlog = (() => {
  const CSRF_COOKIE = "handlog_csrf";
  const CSRF_HEADER = "X-CSRF-Token";

  // Test hooks (latencies, render times, the page's state for the browser tests) exist only
  // behind the test flag: `?test=1` in the address, or localStorage "handlog.test" = "1" (the
  // browser tests and the benchmark set it before the page loads).
  const testing = (() => {
    try {
      return new URLSearchParams(location.search).get("test") === "1" || localStorage.getItem("handlog.test") === "1";
    } catch (_e) {
      return false;
    }
  })();

  function cookie(name) {
    for (const part of document.cookie.split(";")) {
      const [key, ...rest] = part.trim().split("=");
      if (key === name) return decodeURIComponent(rest.join("="));
    }
    return "";
  }

  // crypto.randomUUID needs a secure context; tablets on a LAN often use plain http.
  function uuid4() {
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  function deviceId() {
    let id = localStorage.getItem("handlog.device");
    if (!id) {
      id = "tablet-" + uuid4().slice(0, 8);
      localStorage.setItem("handlog.device", id);
    }
    return id;
  }

  // fetch JSON; resolves {status, body}; rejects only when the network fails.
  async function api(method, path, body) {
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

  async function session() {
    try {
      const r = await api("GET", "/api/session");
      return r.body || { role: null };
    } catch (_e) {
      return { role: null, offline: true };
    }
  }

  async function login(fields) {
    return api("POST", "/api/session", Object.assign({ device: deviceId() }, fields));
  }

  async function logout() {
    return api("DELETE", "/api/session");
  }

  // Follow server-sent `state` events; onState(view), onStatus("live" | "reconnecting").
  // Follow a stream of server-sent events: `state` frames to onState, and each other named
  // frame to its handler in `more` (the floor's `changes`); reconnects by itself.
  function follow(path, onState, onStatus, more = {}) {
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

  const ESC = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
  function esc(value) {
    return String(value === null || value === undefined ? "" : value).replace(/[&<>"']/g, (c) => ESC[c]);
  }

  function chips(n) {
    return Number(n || 0).toLocaleString("en-US");
  }

  const SUIT = { c: "♣", d: "♦", h: "♥", s: "♠" };
  function cardHtml(card, extra) {
    if (!card) return `<span class="card blank${extra ? " " + extra : ""}"></span>`;
    const rank = card[0] === "T" ? "10" : card[0];
    const suit = card[1];
    return `<span class="card suit-${suit}${extra ? " " + extra : ""}" data-card="${esc(card)}">${esc(rank)}${SUIT[suit] || ""}</span>`;
  }

  function cardsText(cards) {
    return (cards || []).map((c) => (c[0] === "T" ? "10" : c[0]) + (SUIT[c[1]] || "")).join(" ");
  }

  // An alert (a refusal, a conflict, a lost connection) in `box`: title, rule, text, what is
  // allowed, any extra buttons, then OK. No alert hides the box.
  function showAlert(box, alert, buttons) {
    if (!alert) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.className = `alert ${alert.kind}`;
    box.innerHTML =
      `<div class="alert-title">${esc(alert.title)}</div>` +
      (alert.rule ? `<div class="alert-rule" data-rule="${esc(alert.rule)}">${esc(alert.rule_words || alert.rule)}</div>` : "") +
      `<div class="alert-text">${esc(alert.text)}</div>` +
      (alert.legal && alert.legal.length ? `<div class="alert-legal">Allowed: ${esc(alert.legal.join("; "))}</div>` : "") +
      (alert.extra ? `<div class="alert-legal">${esc(alert.extra)}</div>` : "") +
      (buttons || "") +
      `<button type="button" class="btn small" data-action="dismiss">OK</button>`;
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

  function theme() {
    const stored = storedTheme();
    if (stored) return stored;
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark";
  }

  function setTheme(value) {
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
  const offlinePages = "serviceWorker" in navigator && window.isSecureContext;
  if (offlinePages) navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);

  return { testing, offlinePages, api, session, login, logout, follow, esc, chips, cardHtml, cardsText, uuid4, deviceId, cookie, showAlert, theme, setTheme };
})();
