// One list row per share, like the app's: a checkbox to select it, type icon (or the picture's thumbnail), name,
// size, local date and time, share id, folder, and a menu button. Every text goes in as text, never as HTML: a
// name is shown exactly as it is.

import { dateTime, linkWords, shown, size, typeNames } from "./format.js";
import { icon } from "./icons.js";
import { pictureBox } from "./thumbnails.js";
import { marked } from "./words.js";

function span(className, text) {
  const node = document.createElement("span");
  node.className = className;
  node.textContent = text;
  return node;
}

/**
 * The row of `record`. `view.folder` is the folder shown (its rows do not repeat it); `view.words` the search's
 * words, marked in the name; `view.folderURL(folder)` is a folder's page; `actions.onFolder(folder, event)` follows a folder link, `actions.onMenu(record, button)` opens the
 * row's actions, `actions.onSelect(record, checked, event)` follows its checkbox.
 */
export function row(record, view, actions) {
  const item = document.createElement("li");
  item.className = "row";
  item.dataset.id = record.id;
  const label = shown(record.name);
  const check = document.createElement("input");
  check.type = "checkbox";
  check.className = "select";
  check.checked = view.selected;
  check.setAttribute("aria-label", `Select ${label}`);
  // Shift with a click selects the range from the last row clicked: the event goes along.
  check.addEventListener("click", (event) => actions.onSelect(record, check.checked, event));
  const pick = document.createElement("label");
  pick.className = "pick";
  pick.append(check);
  const text = document.createElement("div");
  text.className = "text";
  const name = span("name", "");
  name.append(...marked(label, view.words ?? []));
  // A long name is cut to two lines; the whole of it is its title, and the menu's.
  name.title = label;
  // A name written right to left stays within its own box.
  name.dir = "auto";
  const meta = document.createElement("div");
  meta.className = "meta";
  meta.append(span("type", typeNames[record.type] ?? "File"), span("size", size(record.size)));
  if (record.files) meta.append(span("files", record.files.length === 1 ? "1 file" : `${record.files.length} files`));
  meta.append(span("time", dateTime(record.createdAt)));
  if (record.trashedAt) meta.append(span("trashed", `Deleted ${dateTime(record.trashedAt)}`));
  const link = linkWords(record);
  if (link) meta.append(span(record.state === "active" ? "link" : "link closed", link));
  // On a phone the words "Share id:" make way for the id itself; screen readers still hear them.
  const id = span("id", record.id);
  id.prepend(span("id-label", "Share id: "));
  meta.append(id);
  if (record.folder && record.folder !== "/" && record.folder !== view.folder) {
    const folder = document.createElement("a");
    folder.className = "folder";
    folder.href = view.folderURL(record.folder);
    folder.textContent = shown(record.folder);
    folder.addEventListener("click", (event) => actions.onFolder(record.folder, event));
    meta.append(folder);
  }
  text.append(name, meta);
  const menu = document.createElement("button");
  menu.type = "button";
  menu.className = "menu-button";
  menu.textContent = "⋯";
  menu.setAttribute("aria-label", `Actions for ${label}`);
  menu.addEventListener("click", () => actions.onMenu(record, menu));
  item.classList.toggle("selected", view.selected);
  item.append(pick, pictureBox(record, icon(record.type)), text, menu);
  return item;
}
