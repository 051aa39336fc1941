// tus 1.0 as the pages speak it (the owner's uploads, a file request's page): an upload's requests, its bytes sent
// from where the server's copy ends, and after a break (a connection cut, a server restarting, the browser offline)
// growing waits, counted down, until the server says where to go on from.

import { RequestError, problemDetail } from "./api.js";
import { nextWait, waitBeforeRetry } from "./waits.js";

/** Answers that pass with time: no answer at all, an offset that moved, a busy or restarting server. */
const passing = (error) => [0, 408, 409, 423, 429, 500, 502, 503, 504].includes(error.status);

/** A value of `Upload-Metadata`: UTF-8 in base64. */
export const base64 = (text) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

/** The requests of uploads whose addresses `address` makes absolute and whose headers `sign` completes. A task is
 *  `{location, xhr, cancelled, key}`: its upload's address, the request under way, whether it was cancelled, and where
 *  this device keeps its address to resume it. */
export function tusClient({ address = (url) => url, sign = (headers) => headers } = {}) {
  /** The offset the server holds of an upload this device began before (a reload, the file picked again), its address
   *  in `task.location`; null when there is none to resume. */
  async function resume(task) {
    const location = localStorage.getItem(task.key);
    if (!location) return null;
    try {
      const offset = Number((await tus(task, location, "HEAD")).getResponseHeader("Upload-Offset"));
      task.location = location;
      return offset;
    } catch (error) {
      if (task.cancelled) throw error;
      // Finished, dropped or expired on the server: begun again.
      localStorage.removeItem(task.key);
      return null;
    }
  }

  /** Sends the file from `offset` until the last byte made the share: its record. After a break, waits and asks the
   *  server where its copy ends, as long as it takes. */
  async function sendBytes(file, task, offset, meter) {
    for (;;) {
      try {
        const headers = { "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" };
        const xhr = await tus(task, task.location, "PATCH", headers, file.slice(offset), (loaded) => meter.progress(offset + loaded));
        if (xhr.status === 200) return JSON.parse(xhr.responseText);
        offset = Number(xhr.getResponseHeader("Upload-Offset"));
      } catch (error) {
        if (task.cancelled || !passing(error)) throw error;
        offset = await offsetHeld(task, meter, error);
      }
    }
  }

  /** Where the server's copy ends, asked after growing waits (at most 30 seconds) until it answers. */
  async function offsetHeld(task, meter, broke) {
    let error = broke;
    for (let wait = 0; ; ) {
      wait = nextWait(wait, 30);
      const why = navigator.onLine === false ? "You are offline" : "The server does not answer";
      await waitBeforeRetry(wait, { tick: (left) => meter.waiting(`${why}: trying again in ${left} s`), stopped: () => task.cancelled });
      if (task.cancelled) throw error;
      meter.waiting("Reconnecting…");
      try {
        return Number((await tus(task, task.location, "HEAD")).getResponseHeader("Upload-Offset"));
      } catch (next) {
        if (task.cancelled || !passing(next)) throw next;
        error = next;
      }
    }
  }

  /** One tus request; resolves with the finished XMLHttpRequest (which alone reports an upload's progress). */
  function tus(task, url, method, headers = {}, body = null, progress = null) {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      task.xhr = xhr;
      xhr.open(method, address(url));
      for (const [name, value] of Object.entries(sign({ "Tus-Resumable": "1.0.0", ...headers }))) xhr.setRequestHeader(name, value);
      if (progress) xhr.upload.onprogress = (event) => progress(event.loaded);
      xhr.onload = () =>
        xhr.status < 300 ? resolve(xhr) : reject(new RequestError(problemDetail(xhr.status, xhr.statusText, xhr.responseText), xhr.status));
      xhr.onerror = () => reject(new RequestError("the connection broke off", 0));
      xhr.onabort = () => reject(new RequestError("cancelled", 0));
      xhr.send(body);
    });
  }

  return { tus, resume, sendBytes };
}
