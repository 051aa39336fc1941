// Files shared from the page: chosen with the Upload button or dropped anywhere on it, sent one after another in tus
// 1.0 (as `share add` sends them; several at once, under one link or one each, as the owner chooses), each with its progress (percent, rate, time left) and a Cancel. A connection that
// breaks off, a server that goes away or a browser gone offline is waited for (2, 4, 8… seconds, counted down) and
// the upload resumes from what the server holds; each upload's address is kept on this device by the file's folder,
// name, size and modification time, so that a reload or picking the file again resumes it too. The last byte makes
// the share, and the Share dialog of the last one opens. Leaving the page while bytes are in flight asks first.
// Loaded with the first file (uploadstart.js).

import { RequestError, historyURL, problemDetail, signedIn } from "./api.js";
import { size } from "./format.js";
import { nextWait, waitBeforeRetry } from "./waits.js";

const byId = (id) => document.getElementById(id);
const list = byId("upload-list");
const queue = [];
let running = false;
/** How many files the uploads under way were asked for, and how many of them have begun. */
const batch = { total: 0, begun: 0 };
let view;

/** `view.folder()` (where new shares go), `view.uploaded(record)`, `view.share(record, returnTo)`. */
export function connectUploads(connected) {
  view = connected;
}

/** Queues `files` for upload into the folder shown now; several are first asked about: one share of them all, or
 *  one share each. */
export function upload(files) {
  const folder = view.folder() || "/";
  byId("uploads").hidden = false;
  if (files.length < 2) return enqueue(files.map(single), folder);
  chooseHow(files, (together) => enqueue(together ? [bundle(files)] : files.map(single), folder));
}

function enqueue(parcels, folder) {
  if (!running) Object.assign(batch, { total: 0, begun: 0 });
  for (const parcel of parcels) queue.push({ parcel, folder, item: progressItem(parcel) });
  batch.total += parcels.length;
  if (!running) drain();
}

/** What one upload sends: a file, or several files' bytes one after the other (`files`, one share under one link). */
const single = (file) => ({ name: file.name, size: file.size, body: file, files: null, stamp: `${file.lastModified} ${file.name}` });
function bundle(files) {
  return {
    name: `${files.length} files`, size: files.reduce((sum, file) => sum + file.size, 0), body: new Blob(files), files,
    stamp: files.map((file) => `${file.size} ${file.lastModified} ${file.name}`).join("/"),
  };
}

/** Asks, in the list of uploads, whether `files` go as one share or one share each; `chosen(together)`. */
function chooseHow(files, chosen) {
  const item = Object.assign(document.createElement("li"), { className: "upload upload-choice" });
  const words = Object.assign(document.createElement("span"), { className: "upload-name", textContent: `${files.length} files` });
  const question = Object.assign(document.createElement("span"), { className: "upload-state", textContent: "Share them under one link, or each under its own?" });
  const choice = (text, together) => {
    const button = Object.assign(document.createElement("button"), { type: "button", textContent: text });
    button.addEventListener("click", () => {
      item.remove();
      chosen(together);
    });
    return button;
  };
  const cancelButton = Object.assign(document.createElement("button"), { type: "button", className: "upload-cancel", textContent: "Cancel" });
  cancelButton.setAttribute("aria-label", `Cancel the upload of ${files.length} files`);
  cancelButton.addEventListener("click", () => dismiss(item));
  const together = choice("One link", true);
  item.append(words, question, together, choice("A link each", false), cancelButton);
  list.append(item);
  together.focus();
}

async function drain() {
  running = true;
  let last = null;
  while (queue.length) {
    const next = queue.shift();
    batch.begun += 1;
    const record = await send(next, batch.total > 1 ? `File ${batch.begun} of ${batch.total} · ` : "");
    if (record) {
      last = { record, item: next.item };
      view.uploaded(record);
    }
  }
  running = false;
  if (last) view.share(last.record, last.item.querySelector(".upload-share"));
}

/** Sends one parcel, showing how far it got; its record, or null when it was cancelled or refused. */
async function send({ parcel, folder, item }, position) {
  const task = { location: null, xhr: null, cancelled: false, key: resumeKey(parcel, folder) };
  const meter = progressMeter(item, parcel.size, position);
  item.querySelector(".upload-cancel").onclick = () => cancel(task, item);
  try {
    let offset = await resume(task);
    if (offset === null) {
      task.location = await create(parcel, folder, task);
      localStorage.setItem(task.key, task.location);
      offset = 0;
    } else if (offset > 0) {
      meter.resumedFrom(offset);
    }
    const record = await withThumbnail(await sendBytes(parcel.body, task, offset, meter), parcel);
    localStorage.removeItem(task.key);
    finished(item, record);
    return record;
  } catch (error) {
    if (task.cancelled) return null;
    // A refusal (too large, over the quota, a file that changed) will not pass by waiting: its address goes too.
    localStorage.removeItem(task.key);
    byId("upload-said").textContent = `${parcel.name} not shared: ${error.message}`;
    item.querySelector(".upload-state").textContent = `Not shared: ${error.message}`;
    item.classList.add("failed");
    item.querySelector(".upload-cancel").textContent = "Dismiss";
    item.querySelector(".upload-cancel").onclick = () => dismiss(item);
    return null;
  }
}

/** The largest picture the server makes a thumbnail from (`[server] max_picture_bytes`, by default). */
const maxPictureBytes = 20 * 1024 * 1024;

/** A picture's share with its thumbnail, made by the server from the file, as `share add` does; the share as it
 *  is when the server cannot make one (a format it does not read, too large): the thumbnail is a nicety. */
async function withThumbnail(record, { body: file, files }) {
  if (files || record.type !== "image" || file.size > maxPictureBytes) return record;
  try {
    const response = await fetch(historyURL(`share/${encodeURIComponent(record.id)}/thumbnail`), {
      method: "PUT", body: file, headers: signedIn({ "Content-Type": file.type || "application/octet-stream", Accept: "application/json" }),
    });
    return response.ok ? await response.json() : record;
  } catch {
    return record;
  }
}

/** Where this device keeps the address of an upload of `parcel` into `folder`, in the history shown. */
const resumeKey = (parcel, folder) => `share-upload ${historyURL("share/uploads")} ${folder} ${parcel.size} ${parcel.stamp}`;

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

/** Makes the upload on the server: its URL. Several files are listed in JSON, in the order of their bytes. */
async function create({ name, size, files }, folder, task) {
  const sender = rememberedSender();
  let xhr;
  if (files) {
    const manifest = { files: files.map((file) => ({ name: file.name, size: file.size })), folder, ...(sender ? { sender } : {}) };
    xhr = await tus(task, "share/bundles", "POST", { "Content-Type": "application/json" }, JSON.stringify(manifest));
  } else {
    const metadata = [`filename ${base64(name)}`, `folder ${base64(folder)}`, ...(sender ? [`sender ${base64(sender)}`] : [])].join(",");
    xhr = await tus(task, "share/uploads", "POST", { "Upload-Length": String(size), "Upload-Metadata": metadata });
  }
  return new URL(xhr.getResponseHeader("Location"), document.baseURI).href;
}

/** Answers that pass with time: no answer at all, an offset that moved, a busy or restarting server. */
const passing = (error) => [0, 408, 409, 423, 429, 500, 502, 503, 504].includes(error.status);

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
    xhr.open(method, historyURL(url));
    for (const [name, value] of Object.entries(signedIn({ "Tus-Resumable": "1.0.0", ...headers }))) xhr.setRequestHeader(name, value);
    if (progress) xhr.upload.onprogress = (event) => progress(event.loaded);
    xhr.onload = () =>
      xhr.status < 300 ? resolve(xhr) : reject(new RequestError(problemDetail(xhr.status, xhr.statusText, xhr.responseText), xhr.status));
    xhr.onerror = () => reject(new RequestError("the connection broke off", 0));
    xhr.onabort = () => reject(new RequestError("cancelled", 0));
    xhr.send(body);
  });
}

/** Stops the upload and drops what the server holds of it. */
async function cancel(task, item) {
  task.cancelled = true;
  task.xhr?.abort();
  localStorage.removeItem(task.key);
  dismiss(item);
  if (task.location) await tus({}, task.location, "DELETE").catch(() => {});
}

function dismiss(item) {
  item.remove();
  if (!list.children.length) byId("uploads").hidden = true;
}

const base64 = (text) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

function progressItem(parcel) {
  const item = document.createElement("li");
  item.className = "upload";
  const name = Object.assign(document.createElement("span"), { className: "upload-name", textContent: parcel.name });
  const bar = Object.assign(document.createElement("progress"), { max: Math.max(parcel.size, 1), value: 0 });
  bar.setAttribute("aria-label", `Upload of ${parcel.name}`);
  const state = Object.assign(document.createElement("span"), { className: "upload-state", textContent: "Waiting" });
  const cancelButton = Object.assign(document.createElement("button"), { type: "button", className: "upload-cancel", textContent: "Cancel" });
  cancelButton.setAttribute("aria-label", `Cancel the upload of ${parcel.name}`);
  item.append(name, bar, state, cancelButton);
  list.append(item);
  return item;
}

/** What an upload's line says as it goes: `File 2 of 3 · 5.6 MB of 25.0 MB · 22% · 1.2 MB/s · 16 s left`. */
function progressMeter(item, total, position) {
  const bar = item.querySelector("progress");
  const state = item.querySelector(".upload-state");
  // The rate over the last few seconds: the bytes sent then and now.
  let samples = [];
  let resumed = "";
  const percent = (bytes) => `${Math.floor((bytes / Math.max(total, 1)) * 100)}%`;
  return {
    resumedFrom(offset) {
      resumed = `Resumed from ${percent(offset)} · `;
      bar.value = offset;
    },
    progress(sent) {
      const now = performance.now();
      samples = [...samples.filter((sample) => now - sample.at < 5000), { at: now, sent }];
      const [first] = samples;
      const rate = now - first.at > 500 ? ((sent - first.sent) * 1000) / (now - first.at) : 0;
      const words = [`${size(sent)} of ${size(total)}`, percent(sent)];
      if (rate > 0) words.push(`${size(rate)}/s`, `${duration((total - sent) / rate)} left`);
      bar.value = sent;
      state.textContent = position + resumed + words.join(" · ");
    },
    waiting(words) {
      samples = [];
      state.textContent = position + words;
    },
  };
}

/** `45 s`, `3 min`, `2 h 5 min`. */
function duration(seconds) {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}

function finished(item, record) {
  item.querySelector("progress").value = item.querySelector("progress").max;
  item.querySelector(".upload-state").textContent = "Shared";
  byId("upload-said").textContent = `${record.name} shared`;
  item.classList.add("done");
  const share = Object.assign(document.createElement("button"), { type: "button", className: "upload-share", textContent: "Share…" });
  share.addEventListener("click", () => view.share(record, share));
  const dismissButton = item.querySelector(".upload-cancel");
  dismissButton.textContent = "Dismiss";
  dismissButton.setAttribute("aria-label", `Dismiss ${record.name}`);
  dismissButton.onclick = () => dismiss(item);
  dismissButton.before(share);
}

// Leaving (or reloading) the page while bytes are in flight asks first; what was sent is resumed on return.
addEventListener("beforeunload", (event) => {
  if (!running) return;
  event.preventDefault();
  event.returnValue = "";
});

const senderKey = "share-sender";

/** The name the owner last gave as a share's sender on this device, which the page's next uploads carry. */
const rememberedSender = () => localStorage.getItem(senderKey) ?? "";

/** Remembers `name` for the next uploads; an empty one forgets it. */
export function rememberSender(name) {
  if (name) localStorage.setItem(senderKey, name);
  else localStorage.removeItem(senderKey);
}
