// @ts-check
// The floor page's shared state: who is signed in, the floor view the server sent, the alert,
// the command whose answer never came, the signed-in tablets, the table being counted. Every
// floor module reads and writes it through `F`.

import * as H from "../common.js";

export const VIEW_ONLY = location.pathname.startsWith("/view");

/** @type {any} */
export const F = {
  me: { role: null },
  floor: null, // the floor view from the server (GET /api/floor, then its live stream)
  alertBox: null, // {kind, title, rule, rule_words, text, legal}
  unsent: null, // {path, body, label}: a command whose answer never came
  tablets: null, // the signed-in tablets (the director's)
  countTable: {}, // tournament id -> the table whose chips are being counted
  offset: 0, // the server's clock minus this screen's
};

// Redrawing a part of the page from a module that render.js itself imports (deal.js, drawn
// inside the side panel): render.js sets it, so that no import goes round in a circle.
export const redraw = { side: () => {} };

// Test hooks only behind the test flag (common.js): elsewhere they go to a throwaway object.
/** @type {any} */
export const hooks = H.testing ? window : {};
hooks.__floorUpdates = 0;
hooks.__floorPending = 0;

/**
 * @param {string} id
 * @returns {any}
 */
export function $(id) {
  return document.getElementById(id);
}

export function director() {
  return F.me.role === "director";
}
