// The field app's service worker, scoped to /app/: keeps this version's files (page, script, styles,
// manifest, icons) and answers them from its cache, so that the app opens with no network. It never
// answers anything else, the API above all. A new version waits until every page of the old one is
// closed, so it takes over at the next open and never in the middle of a send.
declare const __APP_FILES__: string[];
declare const __APP_VERSION__: string;

const sw = self as unknown as ServiceWorkerGlobalScope;
const CACHE = `app-${__APP_VERSION__}`;
const PAGE = "/app/";

sw.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(__APP_FILES__)));
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((n) => n.startsWith("app-") && n !== CACHE).map((n) => caches.delete(n))),
      )
      .then(() => sw.clients.claim()),
  );
});

sw.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== sw.location.origin) return;
  // The enrollment screen is the page itself.
  const path = url.pathname === "/app/enroll" ? PAGE : url.pathname;
  if (!__APP_FILES__.includes(path)) return;
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(path))
      .then((hit) => hit ?? fetch(event.request)),
  );
});
