// "Notify me on this device": registers the service worker (/sw.js), subscribes this
// browser to Web Push with the server's VAPID key, and gives the subscription to the
// server (POST /notifications/push/); turned off, it unsubscribes and tells the server.

const box = document.getElementById("push-device");
const toggle = document.getElementById("push-switch");
const status = document.getElementById("push-status");
const csrf = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/)?.[1] ?? "";

function say(text) {
  status.textContent = text;
}

/** The VAPID key as PushManager.subscribe takes it. */
function applicationServerKey(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(raw, (char) => char.charCodeAt(0));
}

async function tell(body) {
  const response = await fetch("/notifications/push/", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": decodeURIComponent(csrf) },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    throw new Error(interpolate(gettext("the server answered %(status)s"), { status: response.status }, true));
  }
}

async function turnOn(registration) {
  if ((await Notification.requestPermission()) !== "granted") {
    toggle.checked = false;
    say(gettext("This browser does not allow notifications from this site: allow them in its settings."));
    return;
  }
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: applicationServerKey(box.dataset.key),
  });
  await tell(subscription.toJSON());
  say(gettext("This device is notified."));
}

async function turnOff(registration) {
  const subscription = await registration.pushManager.getSubscription();
  if (subscription) {
    await tell({ endpoint: subscription.endpoint, remove: true });
    await subscription.unsubscribe();
  }
  say(gettext("This device is not notified."));
}

async function start() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    say(gettext("This browser cannot show notifications from a site."));
    return;
  }
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.getSubscription();
  toggle.checked = Boolean(subscription) && Notification.permission === "granted";
  toggle.disabled = false;
  say(toggle.checked ? gettext("This device is notified.") : gettext("This device is not notified."));
  toggle.addEventListener("change", async () => {
    toggle.disabled = true;
    try {
      await (toggle.checked ? turnOn(registration) : turnOff(registration));
    } catch (error) {
      toggle.checked = !toggle.checked;
      say(interpolate(gettext("That did not work: %(error)s"), { error: error.message }, true));
    } finally {
      toggle.disabled = false;
    }
  });
}

start().catch((error) =>
  say(interpolate(gettext("Notifications cannot be set up here: %(error)s"), { error: error.message }, true)),
);
