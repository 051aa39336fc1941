// The share history screen: a list that grows as you scroll, the filters that find things, the folders to browse,
// a selection to act on many, and a storage bar. Everything it shows comes from the API; the view is the page's URL.

import { actFor, forgetToken, keepToken, nextPage, request, RequestError, token } from "./api.js";
import { changeFromFields, dateFilterCount, fieldValues } from "./dates.js";
import { hideFolders, loadFolders } from "./folders.js";
import { count, zone } from "./format.js";
import { row } from "./rows.js";
import { choose, clearSelection, connectSelection, deselect, isSelected } from "./selection.js";
import { apiParameters, descending, pageURL, readState } from "./state.js";
import { loadStorage } from "./storage.js";
import { releasePictures } from "./thumbnails.js";
import { connect, emptyTrash, shareMenu, trashMenu } from "./tidy.js";
import { onUndoFailure } from "./toast.js";

const byId = (id) => document.getElementById(id);
const list = byId("list");
const controls = { q: byId("q"), type: byId("type"), sort: byId("sort"), from: byId("from"), to: byId("to") };
const orderLabels = { createdAt: ["Oldest first", "Newest first"], name: ["A to Z", "Z to A"], size: ["Smallest first", "Largest first"] };

let state = readState();
let next = null;
let loading = null;
let searchTimer = 0;
let dateTimer = 0;
/** The records shown, in order. */
let shown = [];
/** How many shares the view matches (from its statistics). */
let matching = 0;
/** What `GET /me` said: who is signed in, the link pattern, the trash's days. */
let me = null;

// MARK: - Messages

/** The message line: what went wrong, in words for people, with Try again when trying again can help. */
function showProblem(text, retry) {
  byId("message-text").textContent = text;
  byId("message").hidden = !text;
  const button = byId("retry");
  button.hidden = !retry;
  button.onclick = retry ?? null;
}

function showStatus(text) {
  byId("status").textContent = text;
}

const emptyText = () => (state.trashed ? "The trash is empty." : "No shares match.");

// MARK: - The view

function showControls() {
  for (const field of ["q", "type"]) controls[field].value = state[field];
  controls.sort.value = state.sort || "createdAt";
  [controls.from.value, controls.to.value] = fieldValues(state);
  byId("date-error").hidden = true;
  for (const chip of byId("presets").children) chip.setAttribute("aria-pressed", String(chip.dataset.when === state.when));
  const order = byId("order");
  order.textContent = orderLabels[controls.sort.value][descending(state) ? 1 : 0];
  order.setAttribute("aria-label", `Order: ${order.textContent}`);
  const active = (state.type ? 1 : 0) + dateFilterCount(state);
  byId("filter-toggle").textContent = active ? `Filters (${active})` : "Filters";
  const trash = byId("trash-toggle");
  trash.setAttribute("aria-pressed", String(Boolean(state.trashed)));
  trash.textContent = state.trashed ? "Back to shares" : "Trash";
  document.body.classList.toggle("trash", Boolean(state.trashed));
  byId("trash-note").hidden = !state.trashed;
  showTrashDays();
  byId("user-picker").value = state.user;
  showCrumbs();
}

/** What the trash keeps, once `/me` has said (until then, nothing rather than a guess). */
function showTrashDays() {
  const days = me?.trashDays;
  const words = days > 0 ? `Shares in the trash are deleted for good ${count(days, "day")} after they were deleted.` : "Shares stay in the trash until you empty it.";
  byId("trash-days").textContent = days === undefined ? "" : words;
}

/** The view's filters, none of them set: what Clear, a folder's link and the title give. */
const unfiltered = { q: "", when: "", date: "", from: "", to: "", type: "" };

const folderURL = (folder) => pageURL({ ...state, ...unfiltered, folder, trashed: "" });

/** Follows a link to `folder` in this tab, unless the person asked for another tab or window. */
function openFolder(folder, event) {
  if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey || event.button !== 0) return;
  event.preventDefault();
  change({ ...unfiltered, folder, trashed: "" });
}

function showCrumbs() {
  const crumbs = byId("crumbs");
  const parts = state.folder ? state.folder.split("/").filter(Boolean) : [];
  crumbs.hidden = parts.length === 0;
  const links = [["All folders", ""], ...parts.map((part, index) => [part, `/${parts.slice(0, index + 1).join("/")}`])];
  crumbs.replaceChildren(
    ...links.map(([label, folder], index) => {
      const last = index === links.length - 1;
      const node = document.createElement(last ? "span" : "a");
      node.textContent = label;
      if (last) node.setAttribute("aria-current", "location");
      else {
        node.href = folderURL(folder);
        node.addEventListener("click", (event) => openFolder(folder, event));
      }
      return node;
    }),
  );
}

/** Shows `changes` applied to the view, from its top: a new entry in the history, unless `replace` (typing). */
function change(changes, { replace = false } = {}) {
  state = { ...state, ...changes };
  const url = pageURL(state);
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  clearSelection();
  showControls();
  scrollTo(0, 0);
  load();
}

const rowActions = {
  onFolder: openFolder,
  onMenu: (record, button) => (state.trashed ? trashMenu(record, button) : shareMenu(record, button)),
  onSelect: choose,
};

const rowOf = (record) => row(record, { folder: state.folder, folderURL, selected: isSelected(record.id) }, rowActions);

// MARK: - Loading

/** Loads the first page of the view, replacing the list; a load still running for an older view is aborted. */
async function load() {
  loading?.abort();
  const controller = new AbortController();
  loading = controller;
  next = null;
  actFor(state.user);
  list.setAttribute("aria-busy", "true");
  showStatus("Loading…");
  const parameters = apiParameters(state, zone());
  if (state.trashed) hideFolders();
  else loadFolders(state.folder, { link: folderURL, onOpen: openFolder });
  try {
    const response = await request(`share?${parameters}`, { signal: controller.signal });
    const records = await response.json();
    if (controller.signal.aborted) return;
    shown = records;
    list.replaceChildren(...records.map(rowOf));
    releasePictures();
    list.classList.remove("stale");
    next = nextPage(response);
    showProblem("");
    showStatus(records.length ? "" : emptyText());
    refreshStorage();
    if (!me) showUser();
  } catch (error) {
    if (error.name === "AbortError") return;
    failed(error, load);
    showStatus("");
  } finally {
    if (loading === controller) {
      loading = null;
      list.removeAttribute("aria-busy");
      fillScreen();
    }
  }
}

/** Appends the next page, following the `Link` header of the last one. */
async function loadMore() {
  if (!next || loading) return;
  const controller = new AbortController();
  loading = controller;
  showStatus("Loading more…");
  try {
    const response = await request(next, { signal: controller.signal });
    const records = await response.json();
    // A new view began while this page arrived: its rows belong to the old list.
    if (controller.signal.aborted) return;
    shown = shown.concat(records);
    list.append(...records.map(rowOf));
    next = nextPage(response);
    showStatus("");
  } catch (error) {
    if (error.name !== "AbortError") failed(error, loadMore);
  } finally {
    if (loading === controller) {
      loading = null;
      fillScreen();
    }
  }
}

/** Loads pages while the end of the list is on screen (a tall window, or rows removed). */
function fillScreen() {
  if (next && byId("more").getBoundingClientRect().top < innerHeight + 400) loadMore();
}

/** The storage line (and the count "Select all" offers) again: after every change, what it counts has changed. */
async function refreshStorage() {
  matching = (await loadStorage(apiParameters(state, zone()))) ?? matching;
}

/** Who the server takes this page to be, shown once a view has loaded (the sign-in it needed is done). */
async function showUser() {
  try {
    me = await (await request("me")).json();
  } catch {
    return; // The name is a courtesy: the history shows without it.
  }
  showTrashDays();
  const who = byId("who");
  who.textContent = me.user ?? "";
  who.hidden = !me.user || me.user === "local";
  if (me.admin) who.textContent += " (admin)";
  if (me.admin && me.histories === "per-user") showUserPicker(me.user);
  const signOut = byId("sign-out");
  signOut.hidden = !(me.signedInWith === "token" || me.signOutUrl);
  signOut.onclick = () => {
    if (me.signOutUrl) {
      location.href = me.signOutUrl;
      return;
    }
    forgetToken();
    location.reload();
  };
}

/** An admin's choice of whose history the page shows: their own, or any user's with shares. */
async function showUserPicker(myself) {
  let users;
  try {
    users = await (await request("users")).json();
  } catch {
    return; // Without the list the admin still has their own history.
  }
  const picker = byId("user-picker");
  const others = users.map((entry) => entry.user).filter((user) => user !== myself);
  if (state.user && !others.includes(state.user)) others.push(state.user);
  const option = (value, label) => Object.assign(document.createElement("option"), { value, textContent: label });
  picker.replaceChildren(option("", `${myself} (you)`), ...others.map((user) => option(user, user)));
  picker.value = state.user;
  picker.onchange = () => change({ user: picker.value, folder: "", trashed: "" });
  byId("user-picker-label").hidden = false;
}

/**
 * A request failed: a 401 brings the sign-in back and then `retry`; no answer or a server in trouble marks the list
 * as out of date, with Try again (and again by itself when the browser is back online); anything else is said.
 */
function failed(error, retry) {
  if (error.status === 401) signIn(retry);
  else if (error.status === 0 || error.status >= 500) {
    list.classList.add("stale");
    showProblem(error.message, () => load());
  } else showProblem(error.message);
}

function signIn(retry) {
  const dialog = byId("signin");
  if (dialog.open) return;
  const error = byId("signin-error");
  error.textContent = "The server did not accept that token.";
  error.hidden = !token();
  forgetToken();
  const form = byId("signin-form");
  form.onsubmit = (event) => {
    event.preventDefault();
    keepToken(byId("token").value.trim(), byId("remember").checked);
    dialog.close();
    retry();
  };
  // Escape closes the dialog; the page then says why it is empty, with the way back.
  const signedOut = byId("signed-out");
  signedOut.hidden = true;
  dialog.oncancel = () => {
    signedOut.hidden = false;
    byId("sign-in-again").onclick = () => signIn(retry);
    // Once closed: closing gives focus back to what had it before the dialog opened.
    dialog.addEventListener("close", () => byId("sign-in-again").focus(), { once: true });
  };
  byId("token").value = "";
  dialog.showModal();
  byId("token").focus();
}

// MARK: - Rows after a change

function replaceRow(record) {
  const old = list.querySelector(`li[data-id="${CSS.escape(record.id)}"]`);
  shown = shown.map((each) => (each.id === record.id ? record : each));
  old?.replaceWith(rowOf(record));
  releasePictures();
  return list.querySelector(`li[data-id="${CSS.escape(record.id)}"] .menu-button`);
}

/** Takes the rows of `ids` away; focus goes to the row after the first (or before it). */
function removeRows(ids) {
  const gone = new Set(ids);
  const rows = ids.map((id) => list.querySelector(`li[data-id="${CSS.escape(id)}"]`)).filter(Boolean);
  let focus = rows[0]?.nextElementSibling;
  while (focus && gone.has(focus.dataset.id)) focus = focus.nextElementSibling;
  focus ??= rows[0]?.previousElementSibling;
  for (const each of rows) each.remove();
  releasePictures();
  shown = shown.filter((record) => !gone.has(record.id));
  deselect(ids);
  focus?.querySelector(".menu-button")?.focus();
  if (!list.children.length) showStatus(emptyText());
  fillScreen();
}

function focusRow(id) {
  list.querySelector(`li[data-id="${CSS.escape(id)}"] .menu-button`)?.focus();
}

connect({ state: () => state, load, refreshStorage, failed, replaceRow, removeRows, focusRow, me: () => me });
connectSelection({
  rows: () => shown, matching: () => matching, trashed: () => Boolean(state.trashed), load, failed,
  filter: () => {
    const query = apiParameters(state, zone());
    query.delete("sort");
    query.delete("order");
    return query.toString();
  },
});
onUndoFailure(failed);

// MARK: - Controls

controls.q.addEventListener("input", () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => change({ q: controls.q.value.trim() }, { replace: true }), 250);
});
/** The date fields, once what they hold is whole dates (a date being typed passes through years like 0202). */
function applyDates() {
  clearTimeout(dateTimer);
  dateTimer = setTimeout(() => {
    const wanted = changeFromFields(controls.from.value, controls.to.value);
    if (!wanted) return;
    const message = byId("date-error");
    message.textContent = wanted.error ?? "";
    message.hidden = !wanted.error;
    if (wanted.error) return;
    const same = ["when", "date", "from", "to"].every((field) => (wanted[field] ?? "") === state[field]);
    if (!same) change(wanted);
  }, 300);
}
for (const field of ["from", "to"]) {
  controls[field].addEventListener("input", applyDates);
  controls[field].addEventListener("change", applyDates);
}
for (const chip of byId("presets").children) {
  chip.addEventListener("click", () => {
    const when = state.when === chip.dataset.when ? "" : chip.dataset.when;
    change({ when, date: "", from: "", to: "" });
  });
}
controls.type.addEventListener("change", () => change({ type: controls.type.value }));
// Each sort starts where people look first: the newest, A to Z, the largest.
controls.sort.addEventListener("change", () => {
  const sort = controls.sort.value;
  change({ sort: sort === "createdAt" ? "" : sort, order: sort === "name" ? "asc" : "" });
});
byId("order").addEventListener("click", () => change({ order: descending(state) ? "asc" : "" }));
byId("clear").addEventListener("click", () => change({ ...unfiltered, folder: "" }));
byId("filter-toggle").addEventListener("click", (event) => {
  const open = byId("filter-panel").classList.toggle("open");
  event.currentTarget.setAttribute("aria-expanded", String(open));
});
byId("trash-toggle").addEventListener("click", () => change({ trashed: state.trashed ? "" : "1" }));
byId("empty-trash").addEventListener("click", (event) => emptyTrash(event.currentTarget));
byId("filters").addEventListener("submit", (event) => event.preventDefault());
byId("home").addEventListener("click", (event) => {
  event.preventDefault();
  change({ ...unfiltered, folder: "", sort: "", order: "", trashed: "" });
});
addEventListener("popstate", () => {
  state = readState();
  clearSelection();
  showControls();
  load();
});
// Back online: a list that could not be loaded (or is out of date) is loaded again.
addEventListener("online", () => {
  if (list.classList.contains("stale") || !byId("retry").hidden) load();
});
// An observer's entry can arrive after the list it measured was filled: where the end of the list is now decides.
new IntersectionObserver(() => fillScreen(), { rootMargin: "400px" }).observe(byId("more"));

byId("zone").textContent = zone();
showControls();
load();
