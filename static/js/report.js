// Reporting a player to the staff (POST /reports/). Any button with data-report (the
// reported username; data-report-game and data-report-chat: the game's id and the chat
// line's id, where it happened; data-report-line: the line's words, shown in the form)
// opens the form in a dialog: on a profile, on the game page, and in a chat line's menu
// (chatLineMenu, which the game page's script puts on each line of another account's).

const REASONS = [
  ["cheat", gettext("Cheating: an engine's help")],
  ["abuse", gettext("Insults or abuse")],
  ["name", gettext("An offensive username")],
  ["sandbag", gettext("Losing on purpose (sandbagging)")],
  ["other", gettext("Something else")],
];
const TEXT_MAX = 1000; // as the server's moderation.models.TEXT_MAX

const csrf = () => decodeURIComponent(document.cookie.match(/(?:^|; )csrftoken=([^;]+)/)?.[1] ?? "");

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {Record<string, string>} [attributes] @param {(Node | string)[]} children
 * @returns {HTMLElementTagNameMap[K]}
 */
function element(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
  made.append(...children);
  return made;
}

/** @type {HTMLDialogElement | null} */
let dialog = null;
/** @type {{ username: string, game: string | null, chat: number | null } | null} what the open form reports */
let reported = null;

/** The open dialog's element `selector`. @template {HTMLElement} T @param {HTMLDialogElement} shown @param {string} selector @returns {T} */
const part = (shown, selector) => /** @type {T} */ (shown.querySelector(selector));

/** The dialog, made once: the reason, what happened, Send and Cancel. @returns {HTMLDialogElement} */
function reportDialog() {
  if (dialog) return dialog;
  const reason = element("select", { id: "report-reason", name: "reason", required: "" });
  for (const [value, label] of REASONS) reason.append(element("option", { value }, label));
  const text = element("textarea", { id: "report-text", name: "text", rows: "4", maxlength: String(TEXT_MAX) });
  const sendButton = element("button", { type: "submit", id: "report-send" }, gettext("Send the report"));
  sendButton.classList.add("button", "primary");
  const form = element(
    "form",
    { class: "report-form", method: "dialog" },
    element("h2", { id: "report-heading" }),
    element("blockquote", { class: "report-line", id: "report-line", hidden: "" }),
    element("p", { class: "field" }, element("label", { for: "report-reason" }, gettext("Why?")), reason),
    element("p", { class: "field" }, element("label", { for: "report-text" }, gettext("What happened (optional)")), text),
    element("p", { class: "report-status", id: "report-status", role: "status" }),
    element(
      "div",
      { class: "report-buttons" },
      sendButton,
      element("button", { type: "button", class: "button", id: "report-cancel" }, gettext("Cancel")),
    ),
  );
  const made = element("dialog", { class: "report-dialog", "aria-labelledby": "report-heading" }, form);
  dialog = made;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send();
  });
  part(made, "#report-cancel").addEventListener("click", () => made.close());
  document.body.append(made);
  return made;
}

/** @param {{ username: string, game?: string, chat?: string, line?: string }} what */
function open({ username, game, chat, line }) {
  const shown = reportDialog();
  reported = { username, game: game || null, chat: chat ? Number(chat) : null };
  part(shown, "#report-heading").textContent = interpolate(gettext("Report %(name)s"), { name: username }, true);
  const quote = part(shown, "#report-line");
  quote.hidden = !line;
  quote.textContent = line ?? "";
  /** @type {HTMLTextAreaElement} */ (part(shown, "#report-text")).value = "";
  part(shown, "#report-status").textContent = "";
  /** @type {HTMLButtonElement} */ (part(shown, "#report-send")).disabled = false;
  part(shown, "#report-send").hidden = false;
  part(shown, "#report-cancel").textContent = gettext("Cancel");
  shown.showModal();
}

async function send() {
  if (!dialog) return;
  const status = part(dialog, "#report-status");
  /** @type {HTMLButtonElement} */
  const button = part(dialog, "#report-send");
  button.disabled = true;
  status.textContent = gettext("Sending…");
  const body = {
    ...reported,
    reason: /** @type {HTMLSelectElement} */ (part(dialog, "#report-reason")).value,
    text: /** @type {HTMLTextAreaElement} */ (part(dialog, "#report-text")).value,
  };
  try {
    const response = await fetch("/reports/", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(answer.message || interpolate(gettext("the server answered %(status)s"), { status: response.status }, true));
    status.textContent = gettext("Thank you: your report went to the staff.");
    button.hidden = true;
    part(dialog, "#report-cancel").textContent = gettext("Close");
  } catch (error) {
    status.textContent = interpolate(gettext("The report was not sent: %(reason)s."), { reason: error instanceof Error ? error.message : String(error) }, true);
    button.disabled = false;
  }
}

document.addEventListener("click", (event) => {
  const button = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest("[data-report]"));
  if (!button) return;
  button.closest("details")?.removeAttribute("open");
  const { report: username = "", reportGame: game, reportChat: chat, reportLine: line } = button.dataset;
  open({ username, game, chat, line });
});

/**
 * The menu of a chat line (G's chat message `said`) of an account other than `viewer`
 * (a logged-in viewer's username; "" for a guest): Report, naming the line and `game`.
 * Null for a guest's line, a record's comment, the viewer's own, or a guest viewer.
 * @param {import("./types.js").ChatLine} said @param {{ game: string, viewer: string }} where
 */
export function chatLineMenu(said, { game, viewer }) {
  if (!viewer || !said.username || said.username === viewer) return null;
  const report = element(
    "button",
    {
      type: "button",
      class: "report-link",
      "data-report": said.username,
      "data-report-game": game,
      "data-report-chat": String(said.id),
      "data-report-line": `${said.name}: ${said.text}`,
    },
    gettext("Report"),
  );
  const label = interpolate(gettext("More about %(name)s's line"), { name: said.name }, true);
  return element("details", { class: "chat-menu" }, element("summary", { "aria-label": label, title: label }, "⋯"), report);
}
