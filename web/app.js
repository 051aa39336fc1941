// The share history screen: a list that grows as you scroll (drawn only near the screen), the filters that find
// things, the folders to browse, a selection to act on many, and the storage in sight. Everything it shows comes
// from the API; the view is the page's URL.

import { actFor, forgetToken, keepToken, nextPage, request, token } from "./api.js";
import { connectFilters, showFilters, showMatching } from "./filters.js";
import { fetchFolders, showFolders } from "./folders.js";
import { count, zone } from "./format.js";
import { reached, say, unreachable } from "./notice.js";
import { RowWindow } from "./rowwindow.js";
import { row } from "./rows.js";
import { choose, clearSelection, connectSelection, deselect, isSelected } from "./selection.js";
import { apiParameters, isFiltered, pageURL, readState, unfiltered } from "./state.js";
import { fetchStorage, showStorage } from "./storage.js";
import { releasePictures } from "./thumbnails.js";
import { connect, emptyTrash, shareMenu, trashMenu } from "./tidy.js";
import { onUndoFailure } from "./toast.js";
import { searchWords } from "./words.js";

const byId = (id) => document.getElementById(id);
const list = byId("list");
const more = byId("more");

let state = readState();
let next = null;
let loading = null;
/** How many shares the view matches (from its statistics). */
let matching = 0;
/** What `GET /me` said: who is signed in, the link pattern, the trash's days. */
let me = null;
/** Words of the search, marked in the rows. */
let words = [];

history.scrollRestoration = "manual";

// MARK: - Messages

function showStatus(text) {
  byId("status").textContent = text;
}

function emptyText() {
  if (state.trashed) return "The trash is empty.";
  if (!isFiltered(state) && !state.folder) return "Nothing has been shared yet. Share a file with share add FILE on the command line, and it shows here.";
  return "No shares match.";
}

// MARK: - The view

function showView() {
  showFilters(state);
  const trash = byId("trash-toggle");
  trash.setAttribute("aria-pressed", String(Boolean(state.trashed)));
  trash.textContent = state.trashed ? "Back to shares" : "Trash";
  document.body.classList.toggle("trash", Boolean(state.trashed));
  byId("trash-note").hidden = !state.trashed;
  showTrashDays();
  byId("user-picker").value = state.user;
  byId("viewing").hidden = !state.user;
  byId("viewing-user").textContent = state.user;
  showCrumbs();
}

/** What the trash keeps, once `/me` has said (until then, nothing rather than a guess). */
function showTrashDays() {
  const days = me?.trashDays;
  const words = days > 0 ? `Shares in the trash are deleted for good ${count(days, "day")} after they were deleted.` : "Shares stay in the trash until you empty it.";
  byId("trash-days").textContent = days === undefined ? "" : words;
}

/** A folder's page: the filters and the sort stay, as they do in a file manager's search. */
const folderURL = (folder) => pageURL({ ...state, folder, trashed: "" });

/** Follows a link to `folder` in this tab, unless the person asked for another tab or window. */
function openFolder(folder, event) {
  if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey || event.button !== 0) return;
  event.preventDefault();
  change({ folder, trashed: "" });
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
  showView();
  scrollTo(0, 0);
  load();
}

const rowActions = {
  onFolder: openFolder,
  onMenu: (record, button) => (state.trashed ? trashMenu(record, button) : shareMenu(record, button)),
  onSelect: choose,
};

const rows = new RowWindow(
  list, (record) => row(record, { folder: state.folder, folderURL, words, selected: isSelected(record.id) }, rowActions), releasePictures);

// MARK: - Loading

/**
 * Loads the first page of the view with its folders and totals, and draws them in one frame (nothing arrives late
 * to push the rows down); a load still running for an older view is aborted. Back to a view, the pages that were
 * loaded are loaded again and the row that was at the top is brought back.
 */
async function load() {
  loading?.abort();
  const controller = new AbortController();
  loading = controller;
  next = null;
  actFor(state.user);
  list.setAttribute("aria-busy", "true");
  showStatus("Loading…");
  const parameters = apiParameters(state, zone());
  const back = history.state;
  try {
    const [response, folders, storage, who] = await Promise.all([
      request(`share?${parameters}`, { signal: controller.signal }),
      state.trashed ? [] : fetchFolders(state.folder),
      fetchStorage(parameters, narrowed()),
      me ? me : request("me").then((answer) => answer.json()).catch(() => null),
    ]);
    let records = await response.json();
    let following = nextPage(response);
    while (back?.rows > records.length && following && !controller.signal.aborted) {
      const page = await request(following, { signal: controller.signal });
      records = records.concat(await page.json());
      following = nextPage(page);
    }
    if (controller.signal.aborted) return;
    words = searchWords(state.q);
    if (!me && who) showUser(who);
    showFolders(folders, { link: folderURL, onOpen: openFolder, filtered: isFiltered(state) });
    drawStorage(storage);
    rows.reset(records);
    releasePictures();
    list.classList.remove("stale");
    next = following;
    reached();
    showStatus(records.length ? "" : emptyText());
    if (back?.anchor) bringBack(back);
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

/** Appends the next page, following the `Link` header of the last one; "Loading more" shows where it will come. */
async function loadMore() {
  if (!next || loading) return;
  const controller = new AbortController();
  loading = controller;
  more.textContent = "Loading more…";
  try {
    const response = await request(next, { signal: controller.signal });
    const records = await response.json();
    // A new view began while this page arrived: its rows belong to the old list.
    if (controller.signal.aborted) return;
    rows.append(records);
    next = nextPage(response);
    list.classList.remove("stale");
    reached();
  } catch (error) {
    if (error.name !== "AbortError") failed(error, loadMore);
  } finally {
    if (loading === controller) {
      loading = null;
      more.textContent = "";
      fillScreen();
    }
  }
}

/** Loads pages while the end of the list is on screen (a tall window, or rows removed). */
function fillScreen() {
  if (next && more.getBoundingClientRect().top < innerHeight + 400) loadMore();
}

/** Whether the view shows less than the whole live history: a filter, a folder, or the trash. */
const narrowed = () => isFiltered(state) || Boolean(state.folder) || Boolean(state.trashed);

/** The totals again (and the count "Select all" offers): after every change, what they count has changed. */
async function refreshStorage() {
  drawStorage(await fetchStorage(apiParameters(state, zone()), narrowed()));
}

/** Draws the totals `fetchStorage` found, and what depends on how many the view matches. */
function drawStorage(storage) {
  matching = showStorage(storage, { filtered: narrowed(), trash: Boolean(state.trashed) }) ?? matching;
  showMatching(matching);
  showEmptyTrash();
}

/** The trash's one destructive button says what it deletes: all of the trash, or the shares the filters show. */
function showEmptyTrash() {
  const button = byId("empty-trash");
  button.hidden = !state.trashed || matching === 0;
  button.textContent = isFiltered(state) ? `Delete ${count(matching, "share")} for good` : `Empty trash (${count(matching, "share")})`;
}

// MARK: - Where one was

/** Remembers, in the page's history entry, how many rows are loaded and which row is at the top of the screen. */
function rememberPlace() {
  const top = [...list.querySelectorAll("li.row")].find((item) => item.getBoundingClientRect().bottom > 0);
  if (!top || loading) return;
  history.replaceState({ rows: rows.records.length, anchor: top.dataset.id, top: top.getBoundingClientRect().top }, "");
}

/** Scrolls the row that was at the top of the screen back to where it was. */
function bringBack(place) {
  rows.reveal(place.anchor);
  const item = rows.row(place.anchor);
  if (item) scrollBy(0, item.getBoundingClientRect().top - place.top);
}

let placeTimer = 0;
addEventListener(
  "scroll",
  () => {
    clearTimeout(placeTimer);
    placeTimer = setTimeout(rememberPlace, 150);
  },
  { passive: true },
);

// MARK: - Who is asking

/** Who the server takes this page to be, shown with the first view (the sign-in it needed is done). */
function showUser(answer) {
  me = answer;
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
 * A request failed: a 401 brings the sign-in back and then `retry`. An action (`what`: "Undo", "Rename"…) that
 * failed is said to be not done, with Try again. A load without an answer marks the list as out of date and is
 * tried again by itself; anything else is said.
 */
function failed(error, retry, what) {
  if (error.status === 401) signIn(retry);
  else if (what) say(`${what} was not done. ${error.message}`, retry);
  else if (error.status === 0 || error.status >= 500) {
    list.classList.add("stale");
    unreachable(error, retry);
  } else say(error.message);
}

function signIn(retry) {
  const dialog = byId("signin");
  if (dialog.open) return;
  const error = byId("signin-error");
  error.textContent = "The server did not accept that token: check it and try again.";
  const refused = token();
  error.hidden = !refused;
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
  // A refused token stays in the field, to mend rather than type again.
  byId("token").value = refused;
  dialog.showModal();
  byId("token").focus();
  byId("token").select();
}

// MARK: - Rows after a change

function replaceRow(record) {
  rows.replace(record);
  releasePictures();
  return rows.row(record.id)?.querySelector(".menu-button");
}

/** Takes the rows of `ids` away; focus goes to the row after the first (or before it). */
function removeRows(ids) {
  const gone = new Set(ids);
  const records = rows.records;
  const first = records.findIndex((record) => gone.has(record.id));
  const after = records.slice(first + 1).find((record) => !gone.has(record.id));
  const before = records.slice(0, Math.max(first, 0)).findLast((record) => !gone.has(record.id));
  const hadFocus = ids.some((id) => rows.row(id)?.contains(document.activeElement));
  rows.remove(ids);
  releasePictures();
  deselect(ids);
  if (hadFocus || document.activeElement === document.body) focusRow((after ?? before)?.id);
  if (!rows.records.length) showStatus(emptyText());
  fillScreen();
}

function focusRow(id) {
  if (!id) return;
  rows.reveal(id);
  rows.row(id)?.querySelector(".menu-button")?.focus();
}

connect({ state: () => state, load, refreshStorage, failed, replaceRow, removeRows, focusRow, me: () => me });
connectSelection({
  rows: () => rows.records, matching: () => matching, trashed: () => Boolean(state.trashed), load, failed,
  filter: () => selectionFilter(),
});
connectFilters({ state: () => state, change, matching: () => matching });
onUndoFailure((error, retry) => failed(error, retry, "Undo"));

// MARK: - Controls

byId("trash-toggle").addEventListener("click", () => change({ trashed: state.trashed ? "" : "1", folder: "" }));
byId("empty-trash").addEventListener("click", (event) => emptyTrash(event.currentTarget, { filter: selectionFilter(), count: matching, filtered: isFiltered(state) }));
byId("home").addEventListener("click", (event) => {
  event.preventDefault();
  change({ ...unfiltered, folder: "", sort: "", order: "", trashed: "" });
});
byId("stop-viewing").addEventListener("click", () => change({ user: "", folder: "", trashed: "" }));
addEventListener("popstate", () => {
  state = readState();
  clearSelection();
  showView();
  load();
});

/** The view's listing filter, without its order: what the selection and the trash's button act on. */
function selectionFilter() {
  const query = apiParameters(state, zone());
  query.delete("sort");
  query.delete("order");
  return query.toString();
}

// An observer's entry can arrive after the list it measured was filled: where the end of the list is now decides.
new IntersectionObserver(() => fillScreen(), { rootMargin: "400px" }).observe(more);

byId("zone").textContent = zone();
showView();
load();
