// @ts-check
// The calls that go up the dealer page's module tree: a module low in it (the card picker, the
// outbox, a sheet) asks for a redraw or records an entry through these, and main.js wires the
// real functions in at start. So no module imports one that imports it back (no import
// circle: tests/test_js_imports.py), and each module can be read from its imports down.

/** @type {Record<string, (...args: any[]) => any>} */
const wired = {};

/**
 * main.js hands over the page's functions once, before anything is drawn.
 * @param {{render: () => void, renderSheet: () => void, renderAlert: () => void,
 *   record: (command: any, label: string) => any, apply: (view: any) => void,
 *   setConnection: (value: string) => void, start: () => any}} calls
 */
export function wire(calls) {
  Object.assign(wired, calls);
}

/** Draw the whole page again (render.js). */
export function render() {
  wired.render();
}

/** Draw the open sheet again (sheets.js). */
export function renderSheet() {
  wired.renderSheet();
}

/** Draw the alert box again (render.js). */
export function renderAlert() {
  wired.renderAlert();
}

/**
 * Record a command through the outbox (outbox.js).
 * @param {any} command
 * @param {string} label
 * @param {any} [options] outbox.js's record options
 */
export function record(command, label, options) {
  return wired.record(command, label, options);
}

/**
 * Take a table view the server sent (main.js).
 * @param {any} view
 */
export function apply(view) {
  wired.apply(view);
}

/**
 * "live", "reconnecting" or "offline" (main.js).
 * @param {string} value
 */
export function setConnection(value) {
  wired.setConnection(value);
}

/** Follow the table once signed in (main.js). */
export function start() {
  return wired.start();
}
