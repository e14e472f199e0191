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

function element(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
  made.append(...children);
  return made;
}

let dialog = null;
let reported = null; // {username, game, chat}: what the open form reports

/** The dialog, made once: the reason, what happened, Send and Cancel. */
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
  dialog = element("dialog", { class: "report-dialog", "aria-labelledby": "report-heading" }, form);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send();
  });
  form.querySelector("#report-cancel").addEventListener("click", () => dialog.close());
  document.body.append(dialog);
  return dialog;
}

function open({ username, game, chat, line }) {
  const shown = reportDialog();
  reported = { username, game: game || null, chat: chat ? Number(chat) : null };
  shown.querySelector("#report-heading").textContent = interpolate(gettext("Report %(name)s"), { name: username }, true);
  const quote = shown.querySelector("#report-line");
  quote.hidden = !line;
  quote.textContent = line ?? "";
  shown.querySelector("#report-text").value = "";
  shown.querySelector("#report-status").textContent = "";
  shown.querySelector("#report-send").disabled = false;
  shown.querySelector("#report-send").hidden = false;
  shown.querySelector("#report-cancel").textContent = gettext("Cancel");
  shown.showModal();
}

async function send() {
  const status = dialog.querySelector("#report-status");
  const button = dialog.querySelector("#report-send");
  button.disabled = true;
  status.textContent = gettext("Sending…");
  const body = {
    ...reported,
    reason: dialog.querySelector("#report-reason").value,
    text: dialog.querySelector("#report-text").value,
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
    dialog.querySelector("#report-cancel").textContent = gettext("Close");
  } catch (error) {
    status.textContent = interpolate(gettext("The report was not sent: %(reason)s."), { reason: error.message }, true);
    button.disabled = false;
  }
}

document.addEventListener("click", (event) => {
  const button = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest("[data-report]"));
  if (!button) return;
  button.closest("details")?.removeAttribute("open");
  const { report: username, reportGame: game, reportChat: chat, reportLine: line } = button.dataset;
  open({ username, game, chat, line });
});

/**
 * The menu of a chat line (G's chat message `said`) of an account other than `viewer`
 * (a logged-in viewer's username; "" for a guest): Report, naming the line and `game`.
 * Null for a guest's line, a record's comment, the viewer's own, or a guest viewer.
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
