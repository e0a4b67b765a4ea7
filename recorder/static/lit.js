// @ts-check
// lit-html, the one way the pages build their DOM: templates whose values go in as text
// and attributes, never parsed as markup, so a player's name or a server message can never
// become HTML (escaping by construction). The file is npm's lit-html, vendored unchanged into
// static/vendor/ (tests/test_vendor.py compares it with web/node_modules), so the page needs
// no build step and no npm on the machine that serves it; the types are the npm package's.

import * as lit from "./vendor/lit-html/lit-html.js";

/** @type {typeof import("lit-html").html} */
export const html = /** @type {any} */ (lit).html;
/** @type {typeof import("lit-html").nothing} */
export const nothing = /** @type {any} */ (lit).nothing;
/** @type {typeof import("lit-html").render} */
export const render = /** @type {any} */ (lit).render;
