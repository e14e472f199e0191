// "Notify me on this device": registers the service worker (/sw.js), subscribes this
// browser to Web Push with the server's VAPID key, and gives the subscription to the
// server (POST /notifications/push/); turned off, it unsubscribes and tells the server.
// A browser that cannot (no service worker, notifications refused, no push service: a
// private window, a browser built without one) is told as it is, and the switch stays off.

const box = document.getElementById("push-device");
const toggle = /** @type {HTMLInputElement} */ (document.getElementById("push-switch"));
const status = document.getElementById("push-status");
const csrf = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/)?.[1] ?? "";
const SUBSCRIBE_TIMEOUT_MS = 30000;

const NOTIFIED = () => gettext("This device is notified.");
const NOT_NOTIFIED = () => gettext("This device is not notified.");

function say(text, trouble = false) {
  status.textContent = text;
  status.classList.toggle("error", trouble);
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
    // The server's reason, in the page's language (an endpoint refused: too many devices...).
    const refused = await response.json().catch(() => null);
    throw new Error(
      refused?.message ?? interpolate(gettext("the server answered %(status)s"), { status: response.status }, true),
    );
  }
}

class NoPushService extends Error {}

/** The browser's subscription; NoPushService when its push service refuses or never
 * answers (Chromium says "permission denied" in a private window even though
 * notifications are allowed; one without a reachable push service never answers). */
async function subscribe(registration) {
  let timer;
  const never = new Promise((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new NoPushService(gettext("its push service did not answer"))),
      SUBSCRIBE_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([
      registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: applicationServerKey(box.dataset.key),
      }),
      never,
    ]);
  } catch (error) {
    throw error instanceof NoPushService ? error : new NoPushService(error.message);
  } finally {
    clearTimeout(timer);
  }
}

async function turnOn(registration) {
  if ((await Notification.requestPermission()) !== "granted") {
    toggle.checked = false;
    say(gettext("This browser does not allow notifications from this site: allow them in its settings."), true);
    return;
  }
  let subscription;
  try {
    subscription = await subscribe(registration);
  } catch (error) {
    toggle.checked = false;
    say(
      interpolate(
        gettext("This browser has no push service for this site (a private window has none), so it cannot be notified here: %(error)s."),
        { error: error.message },
        true,
      ),
      true,
    );
    return;
  }
  try {
    await tell(subscription.toJSON());
  } catch (error) {
    await subscription.unsubscribe(); // the server does not know it: keep nothing half done
    throw error;
  }
  say(NOTIFIED());
}

async function turnOff(registration) {
  const subscription = await registration.pushManager.getSubscription();
  if (subscription) {
    await tell({ endpoint: subscription.endpoint, remove: true });
    await subscription.unsubscribe();
  }
  say(NOT_NOTIFIED());
}

async function start() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !window.Notification) {
    say(gettext("This browser cannot show notifications from a site."), true);
    return;
  }
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.getSubscription();
  toggle.checked = Boolean(subscription) && Notification.permission === "granted";
  toggle.disabled = false;
  if (Notification.permission === "denied") {
    say(gettext("This browser does not allow notifications from this site: allow them in its settings."), true);
  } else {
    say(toggle.checked ? NOTIFIED() : NOT_NOTIFIED());
  }
  toggle.addEventListener("change", async () => {
    toggle.disabled = true;
    box.dataset.state = "busy";
    const wanted = toggle.checked;
    say(wanted ? gettext("Asking this browser…") : gettext("Turning off…"));
    try {
      await (wanted ? turnOn(registration) : turnOff(registration));
    } catch (error) {
      toggle.checked = !wanted;
      say(interpolate(gettext("That did not work: %(error)s"), { error: error.message }, true), true);
    } finally {
      toggle.disabled = false;
      box.dataset.state = toggle.checked ? "on" : "off"; // settled: what the tests wait for
    }
  });
  box.dataset.state = toggle.checked ? "on" : "off";
}

start().catch((error) => {
  say(interpolate(gettext("Notifications cannot be set up here: %(error)s"), { error: error.message }, true), true);
  box.dataset.state = "unavailable";
});
