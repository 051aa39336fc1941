// The Share dialog: a share's link to copy, whether it asks for a code (drawn by the server), and until when it
// opens. Each change is saved as it is made.

import { request, shareURL } from "./api.js";
import { dateTime, linkWords, shown } from "./format.js";

const byId = (id) => document.getElementById(id);
const dialog = byId("share");
const days = 86_400_000;
let record = null;
let changed = () => {};

/** Opens the dialog of `shared`; `onChange(record)` gets the record after each saved change. */
export function openShareDialog(shared, { returnTo, onChange }) {
  record = shared;
  changed = onChange;
  byId("share-title").textContent = `Share ${shown(record.name)}`;
  byId("share-error").hidden = true;
  show();
  dialog.onclose = () => returnTo?.focus?.();
  dialog.showModal();
  byId("share-copy").focus();
}

function show() {
  byId("share-link").value = new URL(record.link, location.href).href;
  byId("share-state").textContent = linkWords(record);
  byId("share-use-code").checked = Boolean(record.code);
  byId("share-code-line").hidden = !record.code;
  byId("share-code").textContent = record.code ?? "";
  const expiry = byId("share-expiry");
  const kept = expiry.querySelector("option[data-kept]");
  kept.hidden = !record.expiresAt;
  kept.textContent = record.expiresAt ? `Until ${dateTime(record.expiresAt)}` : "";
  expiry.value = record.expiresAt ? "kept" : "";
}

async function save(body) {
  byId("share-error").hidden = true;
  try {
    record = await (await request(shareURL(record.id), { method: "PATCH", body })).json();
    changed(record);
  } catch (error) {
    byId("share-error").textContent = `Not saved: ${error.message}`;
    byId("share-error").hidden = false;
  }
  show();
}

async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    byId("share-copied").textContent = `${what} copied`;
  } catch {
    // No clipboard (a page not served over HTTPS): the link is selected, to copy by hand.
    byId("share-link").select();
    byId("share-copied").textContent = "Press Ctrl+C to copy";
  }
}

byId("share-copy").addEventListener("click", () => copy(byId("share-link").value, "Link"));
byId("share-copy-code").addEventListener("click", () => copy(record.code, "Code"));
byId("share-use-code").addEventListener("change", (event) => save({ code: event.currentTarget.checked ? true : null }));
byId("share-expiry").addEventListener("change", (event) => {
  const value = event.currentTarget.value;
  if (value === "kept") return;
  save({ expiresAt: value ? new Date(Date.now() + Number(value) * days).toISOString() : null });
});
dialog.addEventListener("close", () => (byId("share-copied").textContent = ""));
