// Events as they happen: the page follows `GET /events` (a share uploaded in another tab or a download counted
// shows at once), and the Events dialog holds the feed's address and the history's webhooks, each with its
// deliveries, a retry, a stop and a removal.

import { historyURL, request, signedIn } from "./api.js";
import { dateTime } from "./format.js";

const byId = (id) => document.getElementById(id);

// MARK: - Following the stream

let following = null;

/** Follows the history's events (the one the page shows), calling `onEvent({id, type, message})` for each (the
 *  message is the JSON a webhook posts: `{type, timestamp, data}`), and comes
 *  back from the last one after a break; a new call follows from now on, for the history shown then. */
export function followEvents(onEvent) {
  following?.abort();
  const controller = new AbortController();
  following = controller;
  let last = null;
  let failures = 0;
  (async () => {
    while (!controller.signal.aborted) {
      try {
        const headers = signedIn({ Accept: "text/event-stream", ...(last ? { "Last-Event-ID": last } : {}) });
        const response = await fetch(historyURL("events"), { headers, signal: controller.signal, cache: "no-store" });
        // Not signed in, or not allowed: the page's own requests say so; the stream waits for a reload.
        if (response.status === 401 || response.status === 403) return;
        if (response.ok) {
          failures = 0;
          await read(response.body, (event) => {
            last = event.id;
            onEvent(event);
          });
        }
      } catch (error) {
        if (controller.signal.aborted) return;
      }
      failures += 1;
      await new Promise((resolve) => setTimeout(resolve, Math.min(failures, 10) * 1000));
    }
  })();
}

/** Reads server-sent events from `body` until it ends: each event's `id`, `event` and parsed `data` (its message). */
async function read(body, handle) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replaceAll("\r\n", "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = {};
      for (const line of frame.split("\n")) {
        if (!line || line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const name = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        fields[name] = name === "data" && fields.data !== undefined ? `${fields.data}\n${text}` : text;
      }
      if (fields.data === undefined) continue;
      try {
        handle({ id: fields.id, type: fields.event, message: JSON.parse(fields.data) });
      } catch {
        // Not an event of ours: passed over.
      }
    }
  }
}

// MARK: - The Events dialog

const eventNames = {
  "*": "Every event",
  "uploaded,downloaded": "Uploads and downloads",
  downloaded: "Downloads",
};

/** Says in the header's Events button when webhooks stopped (`me.disabledHooks`). */
export function showStoppedHooks(me) {
  const button = byId("events-button");
  button.hidden = !me?.user;
  const stopped = me?.disabledHooks ?? 0;
  button.textContent = stopped ? `Events (${stopped} stopped)` : "Events";
  button.classList.toggle("warning", stopped > 0);
}

/** Opens the Events dialog; `me` is what `GET /me` said, `onChange` is told when a hook's state changed. */
export async function openEvents(me, onChange) {
  const dialog = byId("events");
  const opener = document.activeElement;
  byId("feed-url").value = me.feedUrl ? new URL(me.feedUrl.replace(/^\//, ""), document.baseURI).href : "";
  byId("feed-said").textContent = "";
  byId("hook-secret-line").hidden = true;
  byId("hook-error").hidden = true;
  dialog.onclose = () => opener?.focus?.();
  byId("feed-copy").onclick = async () => {
    await navigator.clipboard?.writeText(byId("feed-url").value).catch(() => {});
    byId("feed-url").select();
    byId("feed-said").textContent = "Copied. Anyone with this address reads your history's events.";
  };
  byId("feed-renew").onclick = async () => {
    const answer = await (await request("me/feed-key", { method: "POST" })).json();
    me.feedUrl = answer.feedUrl;
    byId("feed-url").value = new URL(answer.feedUrl.replace(/^\//, ""), document.baseURI).href;
    byId("feed-said").textContent = "A new address: the old one opens nothing any more.";
  };
  byId("hook-form").onsubmit = async (event) => {
    event.preventDefault();
    const error = byId("hook-error");
    error.hidden = true;
    try {
      const hook = await (
        await request("hooks", {
          method: "POST",
          body: {
            url: byId("hook-url").value.trim(),
            events: byId("hook-events").value.split(","),
            description: byId("hook-description").value.trim(),
          },
        })
      ).json();
      byId("hook-secret").textContent = hook.secret;
      byId("hook-secret-line").hidden = false;
      byId("hook-secret-copy").onclick = () => navigator.clipboard?.writeText(hook.secret).catch(() => {});
      byId("hook-url").value = "";
      byId("hook-description").value = "";
      await showHooks(onChange);
    } catch (problem) {
      error.textContent = problem.message;
      error.hidden = false;
    }
  };
  await showHooks(onChange);
  dialog.showModal();
  byId("feed-copy").focus();
}

/** Lists the history's webhooks, each with its state and what can be done with it. */
async function showHooks(onChange) {
  const hooks = await (await request("hooks")).json();
  const list = byId("hook-list");
  byId("hooks-empty").hidden = hooks.length > 0;
  list.replaceChildren(...hooks.map((hook) => hookItem(hook, onChange)));
}

function hookItem(hook, onChange) {
  const item = document.createElement("li");
  item.className = "hook";
  const url = Object.assign(document.createElement("span"), { className: "hook-url", textContent: hook.url });
  const what = eventNames[hook.events.join(",")] ?? hook.events.join(", ");
  const state = hook.enabled ? "Sending" : `Stopped: ${hook.disabledReason ?? "by you"}`;
  const detail = Object.assign(document.createElement("span"), {
    className: hook.enabled ? "hook-state" : "hook-state stopped",
    textContent: `${what} · ${state}${hook.description ? ` · ${hook.description}` : ""}`,
  });
  const deliveries = Object.assign(document.createElement("ol"), { className: "history-events hook-deliveries", hidden: true });
  const button = (label, action, danger = false) => {
    const control = Object.assign(document.createElement("button"), { type: "button", textContent: label });
    if (danger) control.className = "danger";
    control.setAttribute("aria-label", `${label}: ${hook.url}`);
    control.onclick = action;
    return control;
  };
  const path = `hooks/${encodeURIComponent(hook.id)}`;
  const actions = document.createElement("div");
  actions.className = "buttons hook-actions";
  const toggle = button("Deliveries", async () => {
    deliveries.hidden = !deliveries.hidden;
    toggle.setAttribute("aria-expanded", String(!deliveries.hidden));
    if (!deliveries.hidden) await showDeliveries(path, deliveries, onChange);
  });
  toggle.setAttribute("aria-expanded", "false");
  actions.append(
    toggle,
    button(hook.enabled ? "Stop" : "Start", async () => {
      await request(path, { method: "PATCH", body: { enabled: !hook.enabled } });
      await showHooks(onChange);
      onChange();
    }),
    button("Remove", async () => {
      await request(path, { method: "DELETE" });
      await showHooks(onChange);
      onChange();
    }, true),
  );
  item.append(url, detail, actions, deliveries);
  return item;
}

/** A hook's latest deliveries, each with its answer, and Retry. */
async function showDeliveries(path, list, onChange) {
  const deliveries = await (await request(`${path}/deliveries?limit=20`)).json();
  if (!deliveries.length) {
    list.replaceChildren(Object.assign(document.createElement("li"), { textContent: "Nothing sent yet." }));
    return;
  }
  list.replaceChildren(
    ...deliveries.map((delivery) => {
      const item = document.createElement("li");
      const answer = delivery.status ? `answered ${delivery.status}` : "no answer";
      item.textContent = `${dateTime(delivery.at)} · ${delivery.type} · try ${delivery.attempt} · ${answer} in ${delivery.ms} ms${delivery.error ? ` · ${delivery.error}` : ""} `;
      const retry = Object.assign(document.createElement("button"), { type: "button", textContent: "Retry" });
      retry.setAttribute("aria-label", `Retry delivery ${delivery.id}`);
      retry.onclick = async () => {
        await request(`${path}/deliveries/${delivery.id}/retry`, { method: "POST" });
        retry.disabled = true;
        retry.textContent = "Sent again";
        onChange();
      };
      item.append(retry);
      return item;
    }),
  );
}
