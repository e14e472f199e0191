// The service worker (served at /sw.js): shows a pushed notification, and opens (or
// focuses) its page when it is clicked. A push is the server's JSON (notifications/
// channels.py, push_payload: title, body, url, kind, id); anything else is shown as text
// rather than dropped (a push that shows nothing is held against the site by browsers).

/** This script's global scope: a service worker's. */
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

/**
 * A push as the server sends it (or a stranger's, its text as the body).
 * @typedef {{ title?: string, body?: string, url?: unknown, kind?: string, id?: number }} Push
 */

/** @param {PushMessageData | null} data @returns {Push} */
function read(data) {
  if (!data) return {};
  try {
    const found = data.json();
    return found && typeof found === "object" ? found : { body: String(found) };
  } catch {
    return { body: data.text() };
  }
}

worker.addEventListener("push", (event) => {
  const message = read(event.data);
  const url = typeof message.url === "string" && message.url.startsWith("/") ? message.url : "/";
  event.waitUntil(
    worker.registration.showNotification(message.title || "Othello & Go", {
      body: message.body || "",
      // One notification a game and kind: a newer one replaces it.
      tag: message.kind ? `${message.kind}:${url}` : undefined,
      data: { url, id: message.id ?? null },
    }),
  );
});

worker.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/", worker.location.origin).href;
  event.waitUntil(
    worker.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url);
      return open ? open.focus() : worker.clients.openWindow(url);
    }),
  );
});
