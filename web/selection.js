// Selecting shares to act on many at once: a row's checkbox, shift-click for the range from the last row clicked,
// and "Select all N matching" for every page of the view. The bar at the bottom says how many and offers what can
// be done to them; one request does it, all or none.

import { askFor } from "./dialogs.js";
import { count, number } from "./format.js";
import { toast } from "./toast.js";
import { askFolder, batch, everyId, move, purge, restore, trash } from "./tidy.js";

const bar = document.getElementById("selection");
const selectAll = document.getElementById("select-all");
/** The selected records by id, in the order they were selected. */
const selected = new Map();
/** Every share of the view (all its pages), by its listing filter, instead of `selected`. */
let everyMatch = null;
let anchor = null;
let view;

/**
 * Connects the selection to the page: `page.rows()` are the records shown, in order; `page.matching()` is how many
 * the view matches; `page.filter()` its listing filter; `page.trashed()` whether it is the trash; `page.load()`.
 */
export function connectSelection(page) {
  view = page;
}

export const isSelected = (id) => everyMatch !== null || selected.has(id);

/** A row's checkbox was clicked (`event.shiftKey`: the range from the last one clicked). */
export function choose(record, checked, event) {
  everyMatch = null;
  const rows = view.rows();
  const from = event.shiftKey && anchor ? rows.findIndex((row) => row.id === anchor) : -1;
  const to = rows.findIndex((row) => row.id === record.id);
  const range = from >= 0 && to >= 0 ? rows.slice(Math.min(from, to), Math.max(from, to) + 1) : [record];
  for (const each of range) {
    if (checked) selected.set(each.id, each);
    else selected.delete(each.id);
  }
  anchor = record.id;
  show();
}

/** Forgets the selection (a new view, or the action is done). */
export function clearSelection() {
  selected.clear();
  everyMatch = null;
  anchor = null;
  show();
}

/** Drops records that are no longer shown (deleted, restored, moved out of the view). */
export function deselect(ids) {
  for (const id of ids) selected.delete(id);
  show();
}

function show() {
  const chosen = everyMatch ? view.matching() : selected.size;
  bar.hidden = chosen === 0;
  document.body.classList.toggle("selecting", chosen > 0);
  document.getElementById("selection-count").textContent = `${count(chosen, "share")} selected`;
  const matching = view.matching();
  selectAll.hidden = everyMatch !== null || matching <= selected.size;
  selectAll.textContent = `Select all ${count(matching, "matching share")}`;
  // Each button says how many it acts on.
  const how = chosen > 1 ? ` ${number(chosen)}` : "";
  const actions = view.trashed()
    ? [[`Restore${how}`, () => act("restore")], [`Delete${how} for good`, (button) => act("purge", button)]]
    : [[`Move${how}…`, (button) => act("move", button)], [`Delete${how}`, () => act("trash")]];
  document.getElementById("selection-actions").replaceChildren(
    ...actions.map(([label, handler]) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = label;
      if (label.endsWith("for good")) button.className = "danger";
      if (label.startsWith("Delete")) button.setAttribute("aria-keyshortcuts", "Delete");
      button.addEventListener("click", () => handler(button));
      return button;
    }),
  );
  for (const check of document.querySelectorAll("#list .select")) {
    const id = check.closest("li").dataset.id;
    check.checked = isSelected(id);
    check.closest("li").classList.toggle("selected", check.checked);
  }
}

async function act(action, button) {
  if (!everyMatch) {
    const perform = { move, trash, restore, purge }[action];
    if (await perform([...selected.values()], button)) clearSelection();
    return;
  }
  await actOnEveryMatch(action, button);
}

/**
 * Every share of the view, every page of it: their ids are read first, so that the action takes exactly the shares
 * counted, in steps when they are many, and one Undo brings them back (a purge is asked for first).
 */
async function actOnEveryMatch(action, button) {
  const many = count(view.matching(), "share");
  const words = { move: "Move", trash: "Delete", restore: "Restore", purge: "Delete for good" }[action];
  let ids = [];
  let done = null;
  try {
    ids = await everyId(everyMatch);
    if (action === "move") {
      await askFolder(many, "/", button, async (folder) => (done = await batch("move", ids, { folder })));
    } else if (action === "purge") {
      const text = `${many} will be gone for good, with their history. This cannot be undone.`;
      await askFor({ title: "Delete for good?", danger: true, ok: "Delete for good", returnTo: button, text, submit: async () => (done = await batch("purge", ids)) });
    } else {
      done = await batch(action, ids);
    }
  } catch (error) {
    view.failed(error, () => actOnEveryMatch(action, button), words);
  }
  if (done === null) return;
  const said = { move: "Moved", trash: "Deleted", restore: "Restored", purge: "Deleted for good" }[action];
  const opposite = { trash: "restore", restore: "trash" }[action];
  const undo = opposite ? async () => {
    await batch(opposite, ids);
    await view.load();
  } : undefined;
  toast(`${said} ${count(done, "share")}${action === "trash" ? ": they are in the trash" : ""}`, { ids, undo });
  clearSelection();
  await view.load();
}

selectAll.addEventListener("click", () => {
  everyMatch = view.filter();
  show();
});
document.getElementById("select-none").addEventListener("click", clearSelection);
// Escape forgets the selection; Delete deletes it (from a row deep in the list the bar's buttons are far away by Tab).
addEventListener("keydown", (event) => {
  if (bar.hidden || document.querySelector("dialog[open]") || event.target.closest?.("input:not([type=checkbox]), select")) return;
  if (event.key === "Escape") clearSelection();
  if (event.key === "Delete") {
    event.preventDefault();
    [...document.querySelectorAll("#selection-actions button")].find((button) => button.hasAttribute("aria-keyshortcuts"))?.click();
  }
});
