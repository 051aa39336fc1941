// The folders of the folder shown, above its rows: real links (to open in a new tab or copy), each with how many
// shares it holds and their size, everything below it included (whatever the filters: the list says so).

import { request } from "./api.js";
import { count, shown, size } from "./format.js";

const list = document.getElementById("folders");

const svg = "http://www.w3.org/2000/svg";

/** A folder's outline, hidden from screen readers (the list is named "Folders"). */
function folderIcon() {
  const root = document.createElementNS(svg, "svg");
  for (const [key, value] of Object.entries({ viewBox: "0 0 20 16", width: "20", height: "16", "aria-hidden": "true" })) root.setAttribute(key, value);
  const path = document.createElementNS(svg, "path");
  for (const [key, value] of Object.entries({ d: "M1 2h6l2 2h10v11H1z", fill: "none", stroke: "currentColor", "stroke-width": "1.5" })) path.setAttribute(key, value);
  root.append(path);
  return root;
}

/** The subfolders of `parent`; none when they cannot be had (the rows still show). */
export async function fetchFolders(parent) {
  try {
    return await (await request(`share/folders?${new URLSearchParams({ parent: parent || "/" })}`)).json();
  } catch {
    return [];
  }
}

/** Shows `folders`; `link(folder)` is a folder's page, `onOpen(folder, event)` follows a link; `filtered`: the
 *  counts are of every share, not of the filters'. */
export function showFolders(folders, { link, onOpen, filtered }) {
  list.replaceChildren(
    ...folders.map((folder) => {
      const item = document.createElement("li");
      const anchor = document.createElement("a");
      anchor.href = link(folder.folder);
      anchor.addEventListener("click", (event) => onOpen(folder.folder, event));
      const name = document.createElement("span");
      name.className = "folder-name";
      const label = document.createElement("span");
      label.textContent = shown(folder.name);
      label.dir = "auto";
      name.append(folderIcon(), label);
      const totals = document.createElement("span");
      totals.className = "folder-totals";
      totals.textContent = `${count(folder.count, "share")} · ${size(Number(folder.bytes))}${filtered ? " in all" : ""}`;
      anchor.append(name, totals);
      item.append(anchor);
      return item;
    }),
  );
  list.hidden = folders.length === 0;
  list.setAttribute("aria-label", filtered ? "Folders (counts of all their shares, not only matches)" : "Folders");
}

/** The breadcrumbs of `folder`, from "All folders" down; `link` and `onOpen` as for `showFolders`. */
export function showCrumbs(folder, { link, onOpen }) {
  const crumbs = document.getElementById("crumbs");
  const parts = folder ? folder.split("/").filter(Boolean) : [];
  crumbs.hidden = parts.length === 0;
  const links = [["All folders", ""], ...parts.map((part, index) => [part, `/${parts.slice(0, index + 1).join("/")}`])];
  crumbs.replaceChildren(
    ...links.map(([label, path], index) => {
      const last = index === links.length - 1;
      const node = document.createElement(last ? "span" : "a");
      node.textContent = label;
      if (last) node.setAttribute("aria-current", "location");
      else {
        node.href = link(path);
        node.addEventListener("click", (event) => onOpen(path, event));
      }
      return node;
    }),
  );
}
