// Files shared from the page: chosen with the Upload button or dropped anywhere on it, sent one after another in tus
// 1.0 (as `share add` sends them), each with its progress and a Cancel. A connection that breaks off resumes from
// what the server holds; the last byte makes the share, and the Share dialog of the last one opens.

import { RequestError, historyURL, problemDetail, signedIn } from "./api.js";
import { size } from "./format.js";

const byId = (id) => document.getElementById(id);
const list = byId("upload-list");
const queue = [];
let running = false;
let view;

/** `view.folder()` (where new shares go), `view.uploaded(record)`, `view.share(record, returnTo)`. */
export function connectUploads(connected) {
  view = connected;
}

/** Queues `files` for upload into the folder shown now. */
export function upload(files) {
  const folder = view.folder() || "/";
  for (const file of files) queue.push({ file, folder, item: progressItem(file) });
  byId("uploads").hidden = false;
  if (!running) drain();
}

async function drain() {
  running = true;
  let last = null;
  while (queue.length) {
    const next = queue.shift();
    const record = await send(next);
    if (record) {
      last = { record, item: next.item };
      view.uploaded(record);
    }
  }
  running = false;
  if (last) view.share(last.record, last.item.querySelector(".upload-share"));
}

/** Sends one file, showing how far it got; its record, or null when it was cancelled or refused. */
async function send({ file, folder, item }) {
  const task = { location: null, xhr: null, cancelled: false };
  item.querySelector(".upload-cancel").onclick = () => cancel(task, item);
  try {
    task.location = await create(file, folder, task);
    const record = await sendBytes(file, task, (sent) => showProgress(item, sent, file.size));
    finished(item, record);
    return record;
  } catch (error) {
    if (task.cancelled) return null;
    item.querySelector(".upload-state").textContent = `Not shared: ${error.message}`;
    item.classList.add("failed");
    item.querySelector(".upload-cancel").textContent = "Dismiss";
    item.querySelector(".upload-cancel").onclick = () => item.remove();
    return null;
  }
}

/** Makes the upload on the server: its URL. */
async function create(file, folder, task) {
  const metadata = [`filename ${base64(file.name)}`, `folder ${base64(folder)}`].join(",");
  const xhr = await tus(task, "share/uploads", "POST", { "Upload-Length": String(file.size), "Upload-Metadata": metadata });
  return new URL(xhr.getResponseHeader("Location"), document.baseURI).href;
}

/** Sends the file from where the server's copy ends, again after a broken connection or a busy server (three
 *  times), until the last byte made the share: its record. */
async function sendBytes(file, task, progress) {
  let offset = 0;
  for (let retries = 0; ; ) {
    try {
      const headers = { "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" };
      const xhr = await tus(task, task.location, "PATCH", headers, file.slice(offset), (loaded) => progress(offset + loaded));
      if (xhr.status === 200) return JSON.parse(xhr.responseText);
      offset = Number(xhr.getResponseHeader("Upload-Offset"));
    } catch (error) {
      const again = error.status === 0 || error.status === 409 || error.status === 502 || error.status === 503 || error.status === 504;
      if (task.cancelled || !again || ++retries > 3) throw error;
      offset = Number((await tus(task, task.location, "HEAD")).getResponseHeader("Upload-Offset"));
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
  item.remove();
  if (task.location) await tus({}, task.location, "DELETE").catch(() => {});
  if (!list.children.length) byId("uploads").hidden = true;
}

const base64 = (text) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

function progressItem(file) {
  const item = document.createElement("li");
  item.className = "upload";
  const name = Object.assign(document.createElement("span"), { className: "upload-name", textContent: file.name });
  const bar = Object.assign(document.createElement("progress"), { max: Math.max(file.size, 1), value: 0 });
  bar.setAttribute("aria-label", `Upload of ${file.name}`);
  const state = Object.assign(document.createElement("span"), { className: "upload-state", textContent: "Waiting" });
  const cancelButton = Object.assign(document.createElement("button"), { type: "button", className: "upload-cancel", textContent: "Cancel" });
  cancelButton.setAttribute("aria-label", `Cancel the upload of ${file.name}`);
  item.append(name, bar, state, cancelButton);
  list.append(item);
  return item;
}

function showProgress(item, sent, total) {
  item.querySelector("progress").value = sent;
  item.querySelector(".upload-state").textContent = `${size(sent)} of ${size(total)}`;
}

function finished(item, record) {
  item.querySelector("progress").value = item.querySelector("progress").max;
  item.querySelector(".upload-state").textContent = "Shared";
  item.classList.add("done");
  const share = Object.assign(document.createElement("button"), { type: "button", className: "upload-share", textContent: "Share…" });
  share.addEventListener("click", () => view.share(record, share));
  const dismiss = item.querySelector(".upload-cancel");
  dismiss.textContent = "Dismiss";
  dismiss.setAttribute("aria-label", `Dismiss ${record.name}`);
  dismiss.onclick = () => {
    item.remove();
    if (!list.children.length) byId("uploads").hidden = true;
  };
  dismiss.before(share);
}

byId("upload-button").addEventListener("click", () => byId("upload-input").click());
byId("upload-input").addEventListener("change", (event) => {
  upload([...event.currentTarget.files]);
  event.currentTarget.value = "";
});
// A drop anywhere on the page; the browser would otherwise open the file in place of the page.
const carriesFiles = (event) => event.dataTransfer?.types.includes("Files");
addEventListener("dragover", (event) => {
  if (!carriesFiles(event)) return;
  event.preventDefault();
  document.body.classList.add("dropping");
});
addEventListener("dragleave", (event) => {
  if (!event.relatedTarget) document.body.classList.remove("dropping");
});
addEventListener("drop", (event) => {
  document.body.classList.remove("dropping");
  if (!carriesFiles(event)) return;
  event.preventDefault();
  if (!document.body.classList.contains("trash")) upload([...event.dataTransfer.files]);
});
