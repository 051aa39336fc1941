// The personal screen, loaded when first opened: who is signed in, the storage used, Sign out, *Request files…*
// (requests.js), the history's Atom feed to copy, and its webhooks (add one and see its secret once, its deliveries with Retry, stop, start,
// remove). It reads `GET /me` for the history shown (an admin's view of another user's is that user's).

import { signOut } from "./account.js";
import { request } from "./api.js";
import { dateTime } from "./format.js";
import { sayingFailuresIn, screenDialog } from "./screens.js";

const byId = (id) => document.getElementById(id);

// Fixed markup only: everything a user or the server wrote goes in as text.
const markup = `
<h2 id="personal-title">Account</h2>
<p id="personal-who"></p>
<p id="personal-usage"></p>
<div class="buttons"><button type="button" id="personal-sign-out" hidden>Sign out</button></div>
<h3>File requests</h3>
<p>A link through which anyone sends you files, into a folder of yours.</p>
<div class="buttons"><button type="button" id="personal-requests">Request files…</button></div>
<h3>Feed</h3>
<p>A feed reader shows what happens to your shares. Anyone with this address reads it: keep it to yourself.</p>
<label class="share-link">Feed address <input id="feed-url" readonly spellcheck="false"></label>
<div class="buttons">
  <button type="button" id="feed-copy">Copy address</button>
  <button type="button" id="feed-renew">New address</button>
</div>
<p id="feed-said" class="copied" role="status"></p>
<h3>Webhooks</h3>
<p id="hooks-empty">No webhooks: add one to have each event posted to a URL, signed.</p>
<ul id="hook-list" class="hook-list" aria-label="Webhooks"></ul>
<form id="hook-form" class="hook-form">
  <label>URL <input id="hook-url" type="url" required spellcheck="false" placeholder="https://example.com/hooks/share"></label>
  <label>Send <select id="hook-events">
    <option value="*">Every event</option>
    <option value="uploaded,downloaded">Uploads and downloads</option>
    <option value="downloaded">Downloads</option>
  </select></label>
  <label>Note <input id="hook-description" maxlength="200" placeholder="what it is for (optional)"></label>
  <div class="buttons"><button type="submit">Add webhook</button></div>
</form>
<p id="hook-secret-line" class="hook-secret" role="status" hidden>Its secret, shown this once, for the receiver to
  check signatures: <code id="hook-secret"></code> <button type="button" id="hook-secret-copy">Copy secret</button></p>
<p id="hook-error" class="message" role="alert" hidden></p>
<div class="buttons"><button type="button" class="close">Done</button></div>`;

const eventNames = { "*": "Every event", "uploaded,downloaded": "Uploads and downloads", downloaded: "Downloads" };

const dialog = () => screenDialog("personal", markup);

/** `action`, its failure said under the webhooks. */
const guarded = sayingFailuresIn("hook-error");

const absolute = (url) => new URL(url.replace(/^\//, ""), document.baseURI).href;

/** Opens the personal screen (its *Request files…* for `folder`, the one shown); `onChange(me)` is told what `GET /me` says after a webhook was stopped, started or
 *  removed. Focus goes back to what opened it. */
export async function openPersonal(onChange, folder) {
  const element = await dialog();
  const opener = document.activeElement;
  const me = await (await request("me")).json();
  byId("personal-who").textContent = me.signedInWith ? `Signed in as ${me.user}.` : "This server asks nobody to sign in.";
  byId("personal-usage").textContent = `Storage: ${byId("usage-text").textContent}`;
  const out = byId("personal-sign-out");
  out.hidden = !(me.signedInWith === "token" || me.signOutUrl);
  out.onclick = () => signOut(me);
  showFeed(me.feedUrl);
  byId("personal-requests").onclick = guarded(async () => (await import("./requests.js")).openRequests(folder));
  byId("hook-secret-line").hidden = true;
  byId("hook-error").hidden = true;
  const changed = async () => onChange(await (await request("me")).json());
  byId("hook-form").onsubmit = guarded((event) => addHook(event, changed));
  await showHooks(changed);
  element.onclose = () => opener?.focus?.();
  element.showModal();
  byId("feed-copy").focus();
}

function showFeed(url) {
  const field = byId("feed-url");
  field.value = url ? absolute(url) : "";
  byId("feed-said").textContent = "";
  byId("feed-copy").onclick = async () => {
    await navigator.clipboard?.writeText(field.value).catch(() => {});
    field.select();
    byId("feed-said").textContent = "Copied.";
  };
  byId("feed-renew").onclick = guarded(async () => {
    const answer = await (await request("me/feed-key", { method: "POST" })).json();
    field.value = absolute(answer.feedUrl);
    byId("feed-said").textContent = "A new address: the old one opens nothing any more.";
  });
}

async function addHook(event, changed) {
  event.preventDefault();
  const body = { url: byId("hook-url").value.trim(), events: byId("hook-events").value.split(","), description: byId("hook-description").value.trim() };
  const hook = await (await request("hooks", { method: "POST", body })).json();
  byId("hook-secret").textContent = hook.secret;
  byId("hook-secret-line").hidden = false;
  byId("hook-secret-copy").onclick = () => navigator.clipboard?.writeText(hook.secret).catch(() => {});
  byId("hook-url").value = "";
  byId("hook-description").value = "";
  await showHooks(changed);
}

/** Lists the history's webhooks, each with its state and what can be done with it. */
async function showHooks(changed) {
  const hooks = await (await request("hooks")).json();
  byId("hooks-empty").hidden = hooks.length > 0;
  byId("hook-list").replaceChildren(...hooks.map((hook) => hookItem(hook, changed)));
}

function hookItem(hook, changed) {
  const item = Object.assign(document.createElement("li"), { className: "hook" });
  const what = eventNames[hook.events.join(",")] ?? hook.events.join(", ");
  const state = hook.enabled ? "Sending" : `Stopped: ${hook.disabledReason ?? "by you"}`;
  const detail = Object.assign(document.createElement("span"), {
    className: hook.enabled ? "hook-state" : "hook-state stopped",
    textContent: `${what} · ${state}${hook.description ? ` · ${hook.description}` : ""}`,
  });
  const deliveries = Object.assign(document.createElement("ol"), { className: "history-events hook-deliveries", hidden: true });
  const path = `hooks/${encodeURIComponent(hook.id)}`;
  const button = (label, action, className = "") => {
    const control = Object.assign(document.createElement("button"), { type: "button", textContent: label, className });
    control.setAttribute("aria-label", `${label}: ${hook.url}`);
    control.onclick = guarded(action);
    return control;
  };
  const changeHook = async (init) => {
    await request(path, init);
    await showHooks(changed);
    await changed();
  };
  const toggle = button("Deliveries", async () => {
    deliveries.hidden = !deliveries.hidden;
    toggle.setAttribute("aria-expanded", String(!deliveries.hidden));
    if (!deliveries.hidden) await showDeliveries(path, deliveries, changed);
  });
  toggle.setAttribute("aria-expanded", "false");
  const actions = Object.assign(document.createElement("div"), { className: "buttons hook-actions" });
  actions.append(
    toggle,
    button(hook.enabled ? "Stop" : "Start", () => changeHook({ method: "PATCH", body: { enabled: !hook.enabled } })),
    button("Remove", () => changeHook({ method: "DELETE" }), "danger"),
  );
  item.append(Object.assign(document.createElement("span"), { className: "hook-url", textContent: hook.url }), detail, actions, deliveries);
  return item;
}

/** A hook's latest deliveries, each with its answer, and Retry. */
async function showDeliveries(path, list, changed) {
  const deliveries = await (await request(`${path}/deliveries?limit=20`)).json();
  if (!deliveries.length) {
    list.replaceChildren(Object.assign(document.createElement("li"), { textContent: "Nothing sent yet." }));
    return;
  }
  list.replaceChildren(
    ...deliveries.map((delivery) => {
      const answer = delivery.status ? `answered ${delivery.status}` : "no answer";
      const error = delivery.error ? ` · ${delivery.error}` : "";
      const item = Object.assign(document.createElement("li"), {
        textContent: `${dateTime(delivery.at)} · ${delivery.type} · try ${delivery.attempt} · ${answer} in ${delivery.ms} ms${error} `,
      });
      const retry = Object.assign(document.createElement("button"), { type: "button", textContent: "Retry" });
      retry.setAttribute("aria-label", `Retry delivery ${delivery.id}`);
      retry.onclick = guarded(async () => {
        await request(`${path}/deliveries/${encodeURIComponent(delivery.id)}/retry`, { method: "POST" });
        retry.disabled = true;
        retry.textContent = "Sent again";
        await changed();
      });
      item.append(retry);
      return item;
    }),
  );
}
