// The Share dialog: a share's link to copy or send, whether it asks for a code (drawn by the server), until when
// and for how many downloads it opens, who the recipient's page says sent it and with what message, who downloaded
// it, and Stop sharing (with Undo). Each change is saved as it is made.

import { request, shareURL } from "./api.js";
import { rememberSender } from "./uploads.js";
import { count, dateTime, downloadWords, linkWords, shown } from "./format.js";
import { toast } from "./toast.js";

const byId = (id) => document.getElementById(id);
const dialog = byId("share");
const days = 86_400_000;
let record = null;
let changed = () => {};

/** Opens the dialog of `shared`; `onChange(record)` gets the record after each saved change and returns the element
 *  that now stands for it. Focus goes back to `returnTo`, or, when a change replaced it (a row drawn anew), to what
 *  stands for the share now. */
export function openShareDialog(shared, { returnTo, onChange }) {
  record = shared;
  let replacement = null;
  changed = (updated) => {
    replacement = onChange(updated) ?? replacement;
  };
  byId("share-title").textContent = `Share ${shown(record.name)}`;
  byId("share-error").hidden = true;
  byId("share-both-text").hidden = true;
  show();
  showDownloads();
  // A row drawn anew meanwhile (by this dialog's changes, or by an event from elsewhere): its menu button now.
  const rowMenu = () => document.querySelector(`#list li[data-id="${CSS.escape(record.id)}"] .menu-button`);
  dialog.onclose = () => [returnTo, replacement, rowMenu()].find((element) => element?.isConnected)?.focus?.();
  dialog.showModal();
  byId("share-copy").focus();
}

function show() {
  byId("share-link").value = link();
  byId("share-state").textContent = linkWords(record);
  byId("share-use-code").checked = Boolean(record.code);
  byId("share-code-line").hidden = !record.code;
  byId("share-code").textContent = record.code ?? "";
  byId("share-copy-both").hidden = !record.code;
  byId("share-send").hidden = !navigator.share;
  const expiry = byId("share-expiry");
  const kept = expiry.querySelector("option[data-kept]");
  kept.hidden = !record.expiresAt;
  kept.textContent = record.expiresAt ? `Until ${dateTime(record.expiresAt)}` : "";
  expiry.value = record.expiresAt ? "kept" : "";
  byId("share-max-downloads").value = record.maxDownloads ?? "";
  byId("share-sender").value = record.sender ?? "";
  byId("share-message").value = record.message ?? "";
}

const link = () => new URL(record.link, location.href).href;

async function showDownloads() {
  const list = byId("share-downloads");
  const item = (text) => Object.assign(document.createElement("li"), { textContent: text });
  const asked = record;
  list.replaceChildren(item("Reading…"));
  try {
    const downloads = await (await request(`${shareURL(record.id, "/downloads")}?limit=50`)).json();
    // The dialog may show another share by now.
    if (record.id !== asked.id) return;
    list.replaceChildren(...(downloads.length ? downloads.map((download) => item(downloadWords(download))) : [item("None yet")]));
    list.classList.toggle("empty", !downloads.length);
  } catch (error) {
    if (record.id === asked.id) list.replaceChildren(item(`Not read: ${error.message}`));
  }
}

async function patch(body) {
  return (await request(shareURL(record.id), { method: "PATCH", body })).json();
}

async function save(body, said) {
  byId("share-error").hidden = true;
  try {
    record = await patch(body);
    changed(record);
    if (said) byId("share-copied").textContent = said(record);
  } catch (error) {
    byId("share-error").textContent = `Not saved: ${error.message}`;
    byId("share-error").hidden = false;
  }
  show();
}

const coarse = () => matchMedia("(pointer: coarse)").matches;

/** Copies `text`; where there is no clipboard (a page not served over HTTPS), selects it in `field` to copy by hand. */
async function copy(text, what, field) {
  try {
    await navigator.clipboard.writeText(text);
    byId("share-copied").textContent = `${what} copied`;
  } catch {
    field.hidden = false;
    if (field.select) {
      field.value = text;
      field.select();
    } else {
      getSelection().selectAllChildren(field);
    }
    byId("share-copied").textContent = coarse() ? `${what} selected: copy it from your phone's menu` : `${what} selected: press Ctrl+C to copy`;
  }
}

const linkAndCode = () => `${link()}\nCode: ${record.code}`;

byId("share-copy").addEventListener("click", () => copy(link(), "Link", byId("share-link")));
byId("share-copy-code").addEventListener("click", () => copy(record.code, "Code", byId("share-code")));
byId("share-copy-both").addEventListener("click", () => copy(linkAndCode(), "Link and code", byId("share-both-text")));
byId("share-send").addEventListener("click", async () => {
  try {
    await navigator.share({ title: record.name, text: record.code ? `Code: ${record.code}` : undefined, url: link() });
  } catch (error) {
    // Closing the phone's share sheet is no failure.
    if (error.name !== "AbortError") byId("share-copied").textContent = `Not sent: ${error.message}`;
  }
});
byId("share-use-code").addEventListener("change", (event) =>
  save({ code: event.currentTarget.checked ? true : null }, (saved) => (saved.code ? `New code: ${saved.code}` : "The link asks for no code")));
byId("share-expiry").addEventListener("change", (event) => {
  const value = event.currentTarget.value;
  if (value === "kept") return;
  save({ expiresAt: value ? new Date(Date.now() + Number(value) * days).toISOString() : null });
});
byId("share-max-downloads").addEventListener("change", (event) => {
  const text = event.currentTarget.value.trim();
  const limit = Number(text);
  if (text && !(Number.isInteger(limit) && limit >= 1)) {
    byId("share-error").textContent = "Downloads at most: a whole number from 1, or nothing for no limit";
    byId("share-error").hidden = false;
    return;
  }
  save({ maxDownloads: text ? limit : null }, (saved) => (saved.maxDownloads ? `Opens for ${count(saved.maxDownloads, "download")}` : "No download limit"));
});
byId("share-sender").addEventListener("change", (event) => {
  const name = event.currentTarget.value.trim();
  // Remembered for the next uploads only once the server took it: a refused name would refuse every upload.
  save({ sender: name || null }, (saved) => {
    rememberSender(saved.sender ?? "");
    return saved.sender ? `The page says it is from ${saved.sender}` : "The page names no sender";
  });
});
byId("share-message").addEventListener("change", (event) => {
  const text = event.currentTarget.value.trim();
  save({ message: text || null }, (saved) => (saved.message ? "Message saved" : "No message"));
});
byId("share-stop").addEventListener("click", async () => {
  const name = record.name;
  await save({ revoked: true });
  if (record.state !== "revoked") return;
  dialog.close();
  const stopped = record;
  toast(`Stopped sharing ${shown(name)}`, {
    ids: [stopped.id],
    undo: async () => {
      record = await (await request(shareURL(stopped.id), { method: "PATCH", body: { revoked: false } })).json();
      changed(record);
      toast(`Sharing ${shown(name)} again`);
    },
  });
});
dialog.addEventListener("close", () => (byId("share-copied").textContent = ""));
