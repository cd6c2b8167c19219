// Fairsheet's service worker (docs/offline.md), served at /sw.js by characters/views/offline.py
// with the files it keeps filled in. Small and written by hand, with no build step: it keeps
// the play pages a player opened, as last synced, and the files they load; for any other
// page without a connection it shows the offline page, which says what does not work offline.
// Writes are not its business: static/js/offline.js queues them on the page.
"use strict";

const VERSION = "{{ version }}";
const ASSETS_CACHE = `fairsheet-assets-${VERSION}`;
const PAGES_CACHE = "fairsheet-play-pages"; // outlives a new version: the pages are data
const ASSETS = {{ assets|safe }};
const OFFLINE_URL = {{ offline_url|safe }};
const PLAY_PAGE = /^\/characters\/\d+\/play\/$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(ASSETS_CACHE)
      .then((cache) => cache.addAll([...ASSETS, OFFLINE_URL]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  const old = (key) => key.startsWith("fairsheet-assets-") && key !== ASSETS_CACHE;
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter(old).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(PLAY_PAGE.test(url.pathname) ? playPage(request, url) : elsewhere(request));
  } else if (ASSETS.includes(url.pathname)) {
    event.respondWith(caches.match(request, { ignoreVary: true }).then((kept) => kept || fetch(request)));
  }
});

// The network first, so that a play page is always live when it can be; its answer is
// kept as the page last synced. Without a network, the kept one.
async function playPage(request, url) {
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") {
      const cache = await caches.open(PAGES_CACHE);
      await cache.put(url.pathname, response.clone());
    }
    return response;
  } catch (error) {
    const kept = await caches.match(url.pathname, { cacheName: PAGES_CACHE, ignoreVary: true });
    return kept || offlinePage();
  }
}

async function elsewhere(request) {
  try {
    return await fetch(request);
  } catch (error) {
    return offlinePage();
  }
}

async function offlinePage() {
  const kept = await caches.match(OFFLINE_URL, { ignoreVary: true });
  return kept || new Response("Offline", { status: 503, headers: { "Content-Type": "text/plain" } });
}
