// A file request's page (`/r/{token}`): files picked or dropped are sent one after another in tus 1.0, each with
// its bar, the rate and the time left, and a Cancel. A break is waited out and the upload resumes from what the
// server holds; its address is kept on this device by the file's name, size and time, so that a reload, or the
// file picked again, resumes it too. Nothing of what others sent is shown: only this device's own files.

import { progressMeter } from "./progress.js";
import { base64, tusClient } from "./tus.js";
import { size } from "./format.js";

const form = document.getElementById("drop");
const picker = document.getElementById("pick");
const said = document.getElementById("said");
const list = document.getElementById("sent");
const link = form.dataset.link;
const query = form.dataset.query;
const maxBytes = Number(form.dataset.maxBytes) || Infinity;
const { tus, resume, sendBytes } = tusClient({ address: (url) => new URL(url + query, location.href).href });
const queue = [];
let running = false;

picker.addEventListener("change", () => {
  enqueue([...picker.files]);
  picker.value = "";
});
form.addEventListener("submit", (event) => event.preventDefault());
for (const type of ["dragenter", "dragover"]) {
  addEventListener(type, (event) => {
    event.preventDefault();
    form.classList.add("over");
  });
}
addEventListener("dragleave", (event) => {
  if (!event.relatedTarget) form.classList.remove("over");
});
addEventListener("drop", (event) => {
  event.preventDefault();
  form.classList.remove("over");
  enqueue([...event.dataTransfer.files]);
});
// Leaving while bytes are in flight asks first; what was sent is resumed on return.
addEventListener("beforeunload", (event) => {
  if (running) event.preventDefault();
});

function enqueue(files) {
  for (const file of files) {
    const item = listItem(file);
    if (file.size > maxBytes) failed(item, `larger than the ${size(maxBytes)} this request takes`);
    else queue.push({ file, item });
  }
  if (!running) drain();
}

async function drain() {
  running = true;
  while (queue.length) await send(queue.shift());
  running = false;
}

/** Sends one file, showing how far it got. */
async function send({ file, item }) {
  const task = { location: null, xhr: null, cancelled: false, key: `share-request ${link} ${file.size} ${file.lastModified} ${file.name}` };
  const meter = progressMeter(item, file.size, "");
  const button = item.querySelector("button");
  button.onclick = () => cancel(task, item);
  try {
    let offset = await resume(task);
    let sent = null;
    if (offset === null) {
      const metadata = `filename ${base64(file.name)}`;
      const created = await tus(task, `${link}/uploads`, "POST", { "Upload-Length": String(file.size), "Upload-Metadata": metadata });
      task.location = new URL(created.getResponseHeader("Location"), location.href).pathname;
      // An empty file arrives as its upload is made.
      if (created.responseText) sent = JSON.parse(created.responseText);
      else localStorage.setItem(task.key, task.location);
      offset = 0;
    } else if (offset > 0) {
      meter.resumedFrom(offset);
    }
    sent ??= await sendBytes(file, task, offset, meter);
    localStorage.removeItem(task.key);
    arrived(item, sent);
  } catch (error) {
    if (task.cancelled) return;
    localStorage.removeItem(task.key);
    failed(item, error.message);
  }
}

async function cancel(task, item) {
  task.cancelled = true;
  task.xhr?.abort();
  localStorage.removeItem(task.key);
  item.remove();
  if (task.location) await tus({}, task.location, "DELETE").catch(() => {});
}

function listItem(file) {
  const item = document.createElement("li");
  const name = Object.assign(document.createElement("span"), { className: "name", textContent: file.name });
  const bar = Object.assign(document.createElement("progress"), { max: Math.max(file.size, 1), value: 0 });
  bar.setAttribute("aria-label", `Sending ${file.name}`);
  const state = Object.assign(document.createElement("span"), { className: "state upload-state", textContent: "Waiting" });
  const button = Object.assign(document.createElement("button"), { type: "button", textContent: "Cancel" });
  button.setAttribute("aria-label", `Cancel sending ${file.name}`);
  item.append(name, button, bar, state);
  list.append(item);
  return item;
}

function arrived(item, sent) {
  item.querySelector("progress").value = item.querySelector("progress").max;
  item.querySelector(".state").textContent = `Sent · ${size(sent.size)}`;
  item.classList.add("done");
  item.querySelector("button").remove();
  said.textContent = `${sent.name} was sent`;
}

function failed(item, why) {
  item.querySelector(".state").textContent = `Not sent: ${why}`;
  item.classList.add("failed");
  const button = item.querySelector("button");
  button.textContent = "Dismiss";
  button.onclick = () => item.remove();
  said.textContent = `${item.querySelector(".name").textContent} was not sent: ${why}`;
}

