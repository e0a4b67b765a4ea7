// @ts-check
// The dealer page's calls to the server: the table view, the live updates, the commands; the
// CSRF header and the session cookie are common.js's (api).

import { H, STREAM } from "./store.js";

const TABLE = `/api/tables/${encodeURIComponent(STREAM)}`;

/** The table view now: {status, body}; rejects when the network fails. */
export function fetchTable() {
  return H.api("GET", TABLE);
}

/**
 * Follow the table's server-sent updates.
 * @param {(view: any) => void} onState
 * @param {(status: string) => void} onStatus
 */
export function followTable(onState, onStatus) {
  return H.follow(`${TABLE}/events`, onState, onStatus);
}

/**
 * Send one queued entry: {status, body}; rejects when the network fails.
 * @param {{event_id: string, expected_version: number | null, command: any}} item
 */
export function sendCommand(item) {
  return H.api("POST", `${TABLE}/commands`, {
    event_id: item.event_id,
    expected_version: item.expected_version,
    command: item.command,
  });
}

/** Who this tablet is signed in as ({role: null} if no one, offline: true if unreachable). */
export function session() {
  return H.session();
}

/** @param {Record<string, string>} fields */
export function login(fields) {
  return H.login(fields);
}
