// Request files, loaded when first opened: a link through which anyone sends files into a folder of this history
// (its title, the most files, the largest file, how long it stays open, a code), made and copied here; and the
// history's requests, newest first, with what each received, each closed or opened again. What is sent arrives as
// shares in the request's folder.

import { request } from "./api.js";
import { dateTime, size } from "./format.js";
import { sayingFailuresIn, screenDialog } from "./screens.js";

const byId = (id) => document.getElementById(id);

// Fixed markup only: everything a user or the server wrote goes in as text.
const markup = `
<h2 id="requests-title">Request files</h2>
<p>A link through which anyone sends you files, without an account. Each file becomes a share in the folder you
  choose; nobody with the link sees what others sent.</p>
<form id="request-form" class="hook-form">
  <label>What you ask for <input id="request-name" required maxlength="120" placeholder="Tax papers 2026"></label>
  <label>Into the folder <input id="request-folder" required spellcheck="false"></label>
  <label>Most files <input id="request-max-files" type="number" min="1" max="10000" inputmode="numeric" placeholder="no limit"></label>
  <label>Largest file, in MB <input id="request-max-mb" type="number" min="1" inputmode="numeric" placeholder="no limit"></label>
  <label>Open for <select id="request-days">
    <option value="1">1 day</option>
    <option value="7" selected>7 days</option>
    <option value="30">30 days</option>
    <option value="">No end date</option>
  </select></label>
  <label class="check"><input type="checkbox" id="request-code"> Ask for a code</label>
  <div class="buttons"><button type="submit">Make link</button></div>
</form>
<div id="request-made" hidden>
  <label class="share-link">Link <input id="request-link" readonly spellcheck="false"></label>
  <p id="request-code-line" hidden>Code: <code id="request-code-text"></code></p>
  <div class="buttons"><button type="button" id="request-copy">Copy link</button></div>
</div>
<p id="request-said" class="copied" role="status"></p>
<h3>Your requests</h3>
<p id="requests-empty">None yet.</p>
<ul id="request-list" class="hook-list" aria-label="Your file requests"></ul>
<p id="request-error" class="message" role="alert" hidden></p>
<div class="buttons"><button type="button" class="close">Done</button></div>`;

const dialog = () => screenDialog("requests", markup);

/** `action`, its failure said in the dialog. */
const guarded = sayingFailuresIn("request-error");

const linkOf = (made) => new URL(made.link, location.href).href;

/** Opens the dialog, its folder the one shown (`folder`); focus goes back to what opened it. */
export async function openRequests(folder) {
  const element = await dialog();
  const opener = document.activeElement;
  byId("request-form").onsubmit = guarded(make);
  byId("request-folder").value = folder;
  byId("request-made").hidden = true;
  byId("request-error").hidden = true;
  byId("request-said").textContent = "";
  await showRequests();
  element.onclose = () => opener?.focus?.();
  element.showModal();
  byId("request-name").focus();
}

async function make(event) {
  event.preventDefault();
  const number = (id) => (byId(id).value ? Number(byId(id).value) : undefined);
  const days = byId("request-days").value;
  const body = {
    title: byId("request-name").value.trim(),
    folder: byId("request-folder").value.trim(),
    maxFiles: number("request-max-files"),
    maxBytes: number("request-max-mb") && number("request-max-mb") * 1_000_000,
    expiresAt: days ? new Date(Date.now() + Number(days) * 86_400_000).toISOString() : undefined,
    code: byId("request-code").checked || undefined,
  };
  const made = await (await request("requests", { method: "POST", body })).json();
  byId("request-link").value = linkOf(made);
  byId("request-code-text").textContent = made.code ?? "";
  byId("request-code-line").hidden = !made.code;
  byId("request-made").hidden = false;
  byId("request-copy").onclick = () => copy(made);
  byId("request-name").value = "";
  byId("request-said").textContent = "Made: copy the link and send it to whoever has the files.";
  await showRequests();
  byId("request-copy").focus();
}

async function copy(made) {
  const text = made.code ? `${linkOf(made)}\nCode: ${made.code}` : linkOf(made);
  await navigator.clipboard?.writeText(text).catch(() => {});
  byId("request-said").textContent = made.code ? "Link and code copied." : "Link copied.";
}

/** Lists the history's requests, each with what it received and whether it takes files. */
async function showRequests() {
  const requests = await (await request("requests")).json();
  byId("requests-empty").hidden = requests.length > 0;
  byId("request-list").replaceChildren(...requests.map(requestItem));
}

function requestItem(made) {
  const item = Object.assign(document.createElement("li"), { className: "hook" });
  const title = Object.assign(document.createElement("span"), { className: "hook-url", textContent: made.title });
  const state = Object.assign(document.createElement("span"), { className: "hook-state", textContent: words(made) });
  if (made.state !== "open") state.classList.add("stopped");
  const buttons = Object.assign(document.createElement("div"), { className: "buttons" });
  const button = (text, label, action) => {
    const element = Object.assign(document.createElement("button"), { type: "button", textContent: text });
    element.setAttribute("aria-label", `${label} ${made.title}`);
    element.onclick = guarded(action);
    buttons.append(element);
  };
  if (made.state === "open" || made.state === "full") button("Copy link", "Copy the link of", () => copy(made));
  const closed = made.state === "closed";
  button(closed ? "Open again" : "Close", closed ? "Open again" : "Close", async () => {
    await request(`requests/${encodeURIComponent(made.id)}`, { method: "PATCH", body: { closed: !closed } });
    await showRequests();
  });
  item.append(title, state, buttons);
  return item;
}

/** `2 of 10 files · into /taxes · open until 14 Dec 2026, 18:00`. */
function words(made) {
  const noun = (made.maxFiles ?? made.received) === 1 ? "file" : "files";
  const received = made.maxFiles ? `${made.received} of ${made.maxFiles} ${noun}` : `${made.received} ${noun}`;
  const each = made.maxBytes ? ` of at most ${size(made.maxBytes)}` : "";
  const open = { open: made.expiresAt ? `open until ${dateTime(made.expiresAt)}` : "open", full: "full", closed: "closed", expired: "expired" };
  return `${received}${each} · into ${made.folder} · ${open[made.state]}`;
}
