// Tidying: the row menu's actions on one share and the selection's on many (one request, all or none), each
// undoable where it can be, the storage line and the list brought up to date after every change.

import { nextPage, request, shareURL } from "./api.js";
import { askFor, showList, showMenu } from "./dialogs.js";
import { count, dateTime, downloadWords, shown } from "./format.js";
import { forget, toast } from "./toast.js";

let page;

/**
 * Connects the actions to the page: `view.state()`, `view.load()`, `view.refreshStorage()`, `view.failed(error,
 * retry)`, `view.replaceRow(record)` (returns the row's menu button), `view.removeRows(ids)`, `view.focusRow(id)`,
 * `view.me()` (what `/me` said: the link pattern and the trash's days).
 */
export function connect(view) {
  page = view;
}

const json = async (response) => response.json();

// MARK: - One share

export function shareMenu(record, button) {
  showMenu(shown(record.name), [
    ["Rename", (opener) => rename(record, opener ?? button)],
    ["Move to a folder", (opener) => move([record], opener ?? button)],
    ...(record.link && record.state !== "revoked"
      ? [["Share…", (opener) => shareDialog(record, { returnTo: opener ?? button, onChange: page.replaceRow })]]
      : []),
    ...(record.state === "revoked" ? [["Share again", () => shareAgain(record)]] : []),
    [record.link && record.state !== "revoked" ? "Copy link" : "Copy share id", () => copy(record, button)],
    ...(record.stored && previewed.test(record.name) ? [["Preview", (opener) => preview(record, opener ?? button)]] : []),
    ["History", (opener) => history(record, opener ?? button)],
    ["Delete", () => trash([record])],
  ]);
}

/** The files the page previews, by their name: pictures, PDFs and texts. */
const previewed = /\.(jpe?g|png|webp|gif|bmp|heic|heif|pdf|txt|md|markdown|log)$/i;

/** A share's file in a dialog, its code loaded when first asked for. */
async function preview(record, returnTo) {
  try {
    const { showPreview } = await import("./preview.js");
    await showPreview(record, returnTo);
  } catch (error) {
    page.failed(error, () => preview(record, returnTo), "Preview");
  }
}

export function trashMenu(record, button) {
  showMenu(shown(record.name), [
    ["Restore", () => restore([record])],
    ["History", (opener) => history(record, opener ?? button)],
    ["Delete for good", (opener) => purge([record], opener ?? button)],
  ]);
}

async function rename(record, button) {
  let updated = null;
  const dot = record.name.lastIndexOf(".");
  await askFor({
    title: "Rename", label: "New name", value: record.name, ok: "Rename", returnTo: button,
    // The name without its extension, as a file manager selects it: typing keeps ".pdf".
    selectTo: dot > 0 ? dot : record.name.length,
    submit: async (name) => (updated = await json(await request(shareURL(record.id), { method: "PATCH", body: { name } }))),
  });
  if (updated) {
    page.replaceRow(updated)?.focus();
    page.refreshStorage();
  }
}

/** Opens the Share dialog of `record` (`openShareDialog`), its code fetched on first use: the first load stays light. */
export async function shareDialog(record, options) {
  (await import("./sharedialog.js")).openShareDialog(record, options);
}

/** Opens a link whose sharing was stopped again, at the same address. */
async function shareAgain(record) {
  try {
    const updated = await json(await request(shareURL(record.id), { method: "PATCH", body: { revoked: false } }));
    page.replaceRow(updated)?.focus();
    toast(`Sharing ${shown(record.name)} again`);
  } catch (error) {
    page.failed(error, () => shareAgain(record));
  }
}

async function copy(record, button) {
  // A link on this service is a path under it: completed with the address the page was reached at.
  const link = record.state !== "revoked" && record.link && new URL(record.link, location.href).href;
  const text = link || record.id;
  try {
    await navigator.clipboard.writeText(text);
    toast(`Copied ${text}`);
  } catch {
    // No clipboard (a page not served over HTTPS): show it, selected, to copy by hand.
    await askFor({ title: link ? "Link" : "Share id", label: link ? "Link" : "Share id", value: text, ok: "Done", returnTo: button });
  }
}

const eventWords = {
  created: "Shared", uploaded: "Uploaded", imported: "Imported", renamed: "Renamed", moved: "Moved", trashed: "Deleted", restored: "Restored",
  "expiry-changed": "Link's limits changed", revoked: "Sharing stopped",
};

/** A link's limits as an event states them (`until 2021-01-24T00:00:00.000Z, 10 downloads`), times in the reader's
 *  zone and way. */
const limitTimes = (text) => text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, (time) => dateTime(time));

async function history(record, button) {
  try {
    const [events, downloads] = await Promise.all([
      request(`${shareURL(record.id, "/events")}?limit=100`).then(json),
      record.link ? request(`${shareURL(record.id, "/downloads")}?limit=100`).then(json) : [],
    ]);
    const lines = events.map((event) => {
      const change = event.from !== undefined ? `: ${limitTimes(shown(event.from))} → ${limitTimes(shown(event.to))}` : "";
      // Nobody signs in to a service with no sign-in: its events are by "local", which says nothing.
      const by = event.by === "local" ? "" : ` · by ${event.by}`;
      return { at: event.at, text: `${dateTime(event.at)} · ${eventWords[event.action] ?? event.action}${change}${by}` };
    });
    // Downloads come newest first; the history reads oldest first, with them in their place.
    lines.push(...downloads.map((download) => ({ at: download.at, text: downloadWords(download).replace(" · ", " · Downloaded · ") })));
    lines.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    showList(`History of ${shown(record.name)}`, lines.map((line) => line.text), button);
  } catch (error) {
    page.failed(error, () => history(record, button));
  }
}

// MARK: - One share or many

/** `POST /share/batch` with `body` (its action, and its ids or filter); returns how many it changed. */
export async function sendBatch(body) {
  return (await json(await request("share/batch", { method: "POST", body }))).count;
}

/** The most records one batch acts on: more are sent in steps. */
const batchLimit = 10000;

/** A batch of `ids`, in steps of `batchLimit`; returns how many were changed. (Each action below returns whether it
 *  was done.) */
export async function batch(action, ids, extra = {}) {
  let done = 0;
  for (let start = 0; start < ids.length; start += batchLimit) {
    done += await sendBatch({ action, ids: ids.slice(start, start + batchLimit), ...extra });
  }
  return done;
}

/** The ids of every share the listing `filter` matches, every page of it: what a destructive button acts on is what
 *  was counted, never more. */
export async function everyId(filter) {
  const ids = [];
  let url = `share?${filter}&limit=1000`;
  while (url) {
    const response = await request(url);
    ids.push(...(await json(response)).map((record) => record.id));
    url = nextPage(response);
  }
  return ids;
}

const about = (records) => (records.length === 1 ? shown(records[0].name) : count(records.length, "share"));

/** The folders people have, for Move to offer as they type: the subfolders of the folder typed so far. */
async function folderOptions(typed) {
  const parent = typed.lastIndexOf("/") > 0 ? typed.slice(0, typed.lastIndexOf("/")) : "/";
  try {
    return (await json(await request(`share/folders?${new URLSearchParams({ parent })}`))).map((folder) => folder.folder);
  } catch {
    return [];
  }
}

/**
 * Asks which folder to move `what` to and hands it to `send` (whose error the dialog shows): the folders one has are
 * offered as one types, and a folder that does not exist yet is taken only when chosen twice (a typo is not a new
 * folder made silently). Resolves with the folder, or null when cancelled.
 */
export async function askFolder(what, first, button, send) {
  const input = document.getElementById("ask-input");
  const offer = async () => {
    const options = await folderOptions(input.value);
    document.getElementById("ask-options").replaceChildren(...options.map((value) => Object.assign(document.createElement("option"), { value })));
  };
  input.addEventListener("input", offer);
  let confirmedNew = "";
  let chosen = null;
  try {
    await askFor({
      title: `Move ${what}`, label: "Folder", value: first, ok: "Move", returnTo: button,
      options: await folderOptions(first),
      submit: async (folder) => {
        const path = `/${folder.split("/").filter(Boolean).join("/")}`;
        const known = path === "/" || (await folderOptions(path)).includes(path);
        if (!known && confirmedNew !== path) {
          confirmedNew = path;
          throw new Error(`${shown(path)} is a new folder: choose Move again to make it, or pick one of yours.`);
        }
        await send(path);
        chosen = path;
      },
    });
  } finally {
    input.removeEventListener("input", offer);
  }
  return chosen;
}

export async function move(records, button) {
  const ids = records.map((record) => record.id);
  const folder = await askFolder(about(records), records[0].folder ?? "/", button, (path) => batch("move", ids, { folder: path }));
  if (folder === null) return false;
  toast(`Moved ${about(records)} to ${shown(folder)}`, { ids, undo: () => moveBack(records) });
  await page.load();
  return true;
}

/** Puts each of `records` back in the folder it was in: one request per folder. */
async function moveBack(records) {
  const byFolder = Map.groupBy(records, (record) => record.folder ?? "/");
  for (const [folder, group] of byFolder) await batch("move", group.map((record) => record.id), { folder });
  await page.load();
  page.focusRow(records[0].id);
}

/** Sends `action` for `records` (to the trash, or back from it), takes their rows away, and offers `opposite` as Undo. */
async function across(action, opposite, done, records) {
  const ids = records.map((record) => record.id);
  try {
    await batch(action, ids);
    page.removeRows(ids);
    page.refreshStorage();
    toast(`${done} ${about(records)}`, {
      ids,
      undo: async () => {
        await batch(opposite, ids);
        await page.load();
        page.focusRow(ids[0]);
      },
    });
    return true;
  } catch (error) {
    page.failed(error, () => across(action, opposite, done, records), action === "trash" ? "Delete" : "Restore");
    return false;
  }
}

export const trash = (records) => across("trash", "restore", "Deleted", records);
export const restore = (records) => across("restore", "trash", "Restored", records);

export async function purge(records, button) {
  const ids = records.map((record) => record.id);
  const sure = await askFor({
    title: "Delete for good?", danger: true, returnTo: button, ok: "Delete for good",
    text: `${about(records)} will be gone for good, with ${records.length === 1 ? "its" : "their"} history. This cannot be undone.`,
    submit: () => batch("purge", ids),
  });
  if (sure) {
    forget(ids);
    page.removeRows(ids);
    page.refreshStorage();
  }
  return Boolean(sure);
}

/**
 * Deletes for good, after asking, what the trash's button says: the whole trash, or (`filtered`) the `count`
 * shares the view's `filter` shows, and nothing it does not show.
 */
export async function emptyTrash(button, { filter, count: shown, filtered }) {
  const many = count(shown, "share");
  let done = 0;
  const sure = await askFor({
    title: filtered ? `Delete ${many} for good?` : "Empty the trash?", danger: true, returnTo: button,
    ok: filtered ? `Delete ${many} for good` : "Empty trash",
    text: `${filtered ? `The ${many} shown` : `All ${many} in the trash`} will be gone for good, with their history. This cannot be undone.`,
    submit: async () => {
      const ids = await everyId(filter);
      forget(ids);
      done = await batch("purge", ids);
    },
  });
  if (sure) {
    toast(filtered ? `Deleted ${count(done, "share")} for good` : "The trash is empty");
    await page.load();
  }
}
