// The service worker (served at /sw.js): shows a pushed notification, and opens (or
// focuses) its page when it is clicked. A push is the server's JSON (notifications/
// channels.py, push_payload: title, body, url, kind, id); anything else is shown as text
// rather than dropped (a push that shows nothing is held against the site by browsers).

function read(data) {
  if (!data) return {};
  try {
    const found = data.json();
    return found && typeof found === "object" ? found : { body: String(found) };
  } catch {
    return { body: data.text() };
  }
}

self.addEventListener("push", (event) => {
  const message = read(event.data);
  const url = typeof message.url === "string" && message.url.startsWith("/") ? message.url : "/";
  event.waitUntil(
    self.registration.showNotification(message.title || "Othello & Go", {
      body: message.body || "",
      // One notification a game and kind: a newer one replaces it.
      tag: message.kind ? `${message.kind}:${url}` : undefined,
      data: { url, id: message.id ?? null },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
