// One list row per share, like the app's: type icon (or the picture's thumbnail), name, size, local date and time, share id, folder, and a
// menu button. Every text goes in as text, never as HTML: a name is shown exactly as it is.

import { dateTime, shown, size, typeNames } from "./format.js";
import { icon } from "./icons.js";
import { pictureBox } from "./thumbnails.js";

function span(className, text) {
  const node = document.createElement("span");
  node.className = className;
  node.textContent = text;
  return node;
}

/** The row of `record`; `onMenu(record, button)` opens its actions, `onFolder(folder)` shows a folder. */
export function row(record, { onMenu, onFolder }) {
  const item = document.createElement("li");
  item.className = "row";
  item.dataset.id = record.id;
  const text = document.createElement("div");
  text.className = "text";
  const name = span("name", shown(record.name));
  // A name written right to left stays within its own box.
  name.dir = "auto";
  const meta = document.createElement("div");
  meta.className = "meta";
  meta.append(
    span("type", typeNames[record.type] ?? "File"),
    span("size", size(record.size)),
    span("time", dateTime(record.createdAt)),
    span("id", `Share id: ${record.id}`),
  );
  if (record.folder && record.folder !== "/") {
    const folder = document.createElement("a");
    folder.className = "folder";
    folder.href = "#";
    folder.textContent = shown(record.folder);
    folder.addEventListener("click", (event) => {
      event.preventDefault();
      onFolder(record.folder);
    });
    meta.append(folder);
  }
  text.append(name, meta);
  const menu = document.createElement("button");
  menu.type = "button";
  menu.className = "menu-button";
  menu.textContent = "⋯";
  menu.setAttribute("aria-label", `Actions for ${shown(record.name)}`);
  menu.addEventListener("click", () => onMenu(record, menu));
  item.append(pictureBox(record, icon(record.type)), text, menu);
  return item;
}
