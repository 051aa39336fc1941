// The history's events as they happen: the page reads `GET /events` (server-sent events, with the token, which
// EventSource cannot send) and comes back from the last event it saw after a break.

import { historyURL, signedIn } from "./api.js";

let following = null;
let onEvent = null;
let url = null;
let last = null;

/** Follows the events of the history shown now, calling `handle({id, type, message})` for each (`message` is the
 *  JSON a webhook posts: `{type, timestamp, data}`); a new call follows from now on, for the history shown then. */
export function followEvents(handle) {
  onEvent = handle;
  url = historyURL("events");
  last = null;
  start();
}

// A tab out of sight holds no connection (a browser opens six at most to a server over HTTP/1.1, and a stream keeps
// one): it lets go when hidden or left, and takes up from its last event when seen again.
document.addEventListener("visibilitychange", () => (document.hidden ? stop() : start()));
addEventListener("pagehide", () => stop());
addEventListener("pageshow", (event) => event.persisted && start());

function stop() {
  following?.abort();
  following = null;
}

function start() {
  stop();
  if (!onEvent || document.hidden) return;
  const controller = new AbortController();
  following = controller;
  let failures = 0;
  (async () => {
    while (!controller.signal.aborted) {
      try {
        const headers = signedIn({ Accept: "text/event-stream", ...(last ? { "Last-Event-ID": last } : {}) });
        // The token is read again each time: a refused one (401) is tried again once the page has signed in anew.
        const response = await fetch(url, { headers, signal: controller.signal, cache: "no-store" });
        if (response.ok) {
          failures = 0;
          await readEvents(response.body, (event) => {
            last = event.id;
            onEvent(event);
          });
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      failures += 1;
      await new Promise((resolve) => setTimeout(resolve, Math.min(failures, 10) * 1000));
    }
  })();
}

/** Reads server-sent events from `body` until it ends: each event's `id`, `event` and parsed `data`. */
async function readEvents(body, handle) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replaceAll("\r\n", "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const fields = {};
      for (const line of buffer.slice(0, end).split("\n")) {
        if (!line || line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const name = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        fields[name] = name === "data" && fields.data !== undefined ? `${fields.data}\n${text}` : text;
      }
      buffer = buffer.slice(end + 2);
      if (fields.data === undefined) continue;
      try {
        handle({ id: fields.id, type: fields.event, message: JSON.parse(fields.data) });
      } catch {
        // Not JSON: not an event of ours.
      }
    }
  }
}
