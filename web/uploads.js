// Files shared from the page: chosen with the Upload button or dropped anywhere on it, sent one after another in tus
// 1.0 (as `share add` sends them; several at once, under one link or one each, as the owner chooses), each with its progress (percent, rate, time left) and a Cancel. A connection that
// breaks off, a server that goes away or a browser gone offline is waited for (2, 4, 8… seconds, counted down) and
// the upload resumes from what the server holds; each upload's address is kept on this device by the file's folder,
// name, size and modification time, so that a reload or picking the file again resumes it too. The last byte makes
// the share, and the Share dialog of the last one opens. Leaving the page while bytes are in flight asks first.
// Loaded with the first file (uploadstart.js).

import { historyURL, signedIn } from "./api.js";
import { progressMeter } from "./progress.js";
import { base64, tusClient } from "./tus.js";

const byId = (id) => document.getElementById(id);
const { tus, resume, sendBytes } = tusClient({ address: historyURL, sign: signedIn });
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
