// The service worker: the pages load with no network. handlog serves this file at /sw.js (so
// its scope is the whole site) with the list of its page files and their digest filled in;
// a new release changes the digest, so the tablet installs the new files in one go and drops
// the old ones (never a new page with an old module).
//
// Pages (navigations): the network first, the cached page when there is none. Page files
// (/static/, /vendor/): the cache first (they change only with the digest). The API (/api/)
// is never cached: what the table recorded comes from the server, and the dealer page keeps
// its own queue of what is still to send (dealer/outbox.js).
"use strict";

const BUILD = "__HANDLOG_BUILD__";
/** @type {string[]} */
const ASSETS = JSON.parse('__HANDLOG_ASSETS__');
const CACHE = `handlog-${BUILD}`;

// Which cached page answers a navigation to a path.
function shell(path) {
  if (path.startsWith("/dealer/") || path.startsWith("/view/")) return "/static/table.html";
  if (path === "/floor" || path === "/view" || path === "/") return "/static/floor.html";
  if (path === "/join") return "/static/join.html";
  if (path === "/replayer") return "/static/replayer.html";
  return null;
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(ASSETS)).then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("handlog-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  if (request.mode === "navigate") {
    const page = shell(url.pathname);
    if (!page) return;
    event.respondWith(
      fetch(request).catch(() => caches.match(page, { cacheName: CACHE }).then((hit) => hit || Response.error())),
    );
    return;
  }
  if (url.pathname.startsWith("/static/") || url.pathname.startsWith("/vendor/")) {
    event.respondWith(
      caches.match(url.pathname, { cacheName: CACHE }).then((hit) => hit || fetch(request)),
    );
  }
});
