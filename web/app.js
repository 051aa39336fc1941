// The share history screen: a list that grows as you scroll (drawn only near the screen), the filters that find
// things, the folders to browse, a selection to act on many, and the storage in sight. Everything it shows comes
// from the API; the view is the page's URL.

import { showAccount, showStoppedHooks, signIn } from "./account.js";
import { actFor, nextPage, request, shareURL } from "./api.js";
import { followEvents } from "./events.js";
import { connectFilters, showFilters, showMatching } from "./filters.js";
import { fetchFolders, showCrumbs, showFolders } from "./folders.js";
import { zone } from "./format.js";
import { reached, say, unreachable } from "./notice.js";
import { RowWindow } from "./rowwindow.js";
import { row } from "./rows.js";
import { choose, clearSelection, connectSelection, deselect, isSelected } from "./selection.js";
import { apiParameters, isFiltered, pageURL, readState, unfiltered } from "./state.js";
import { fetchStorage, showStorage } from "./storage.js";
import { releasePictures } from "./thumbnails.js";
import { connect, emptyTrash, shareDialog, shareMenu, trashMenu } from "./tidy.js";
import { showTrashNote } from "./trash.js";
import { onUndoFailure } from "./toast.js";
import { connectUploads } from "./uploadstart.js";
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
  if (!isFiltered(state) && !state.folder) return "Nothing has been shared yet. Upload a file (or drop one here), or share add FILE on the command line.";
  return "No shares match.";
}

// MARK: - The view

function showView() {
  showFilters(state);
  const trash = byId("trash-toggle");
  trash.setAttribute("aria-pressed", String(Boolean(state.trashed)));
  trash.textContent = state.trashed ? "Back to shares" : "Trash";
  byId("upload-button").hidden = Boolean(state.trashed);
  document.body.classList.toggle("trash", Boolean(state.trashed));
  showTrash();
  byId("user-picker").value = state.user;
  byId("viewing").hidden = !state.user;
  byId("viewing-user").textContent = state.user;
  showCrumbs(state.folder, { link: folderURL, onOpen: openFolder });
}

const showTrash = () => showTrashNote(state, me, matching, isFiltered(state));

/** A folder's page: the filters and the sort stay, as they do in a file manager's search. */
const folderURL = (folder) => pageURL({ ...state, folder, trashed: "" });

/** Follows a link to `folder` in this tab, unless the person asked for another tab or window. */
function openFolder(folder, event) {
  if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey || event.button !== 0) return;
  event.preventDefault();
  change({ folder, trashed: "" });
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
  // An admin turning to another user's history follows that one's events.
  if (me && followed !== state.user) follow();
  list.setAttribute("aria-busy", "true");
  showStatus("Loading…");
  const parameters = apiParameters(state, zone());
  const back = history.state;
  try {
    const [response, folders, storage] = await Promise.all([
      request(`share?${parameters}`, { signal: controller.signal }),
      state.trashed ? [] : fetchFolders(state.folder),
      fetchStorage(parameters, narrowed()),
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
    if (!me && storage.me) showUser(storage.me);
    showFolders(folders, { link: folderURL, onOpen: openFolder, filtered: isFiltered(state) });
    drawStorage(storage);
    rows.reset(records);
    releasePictures();
    list.classList.remove("stale");
    next = following;
    reached();
    showStatus(records.length ? "" : emptyText());
    if (back?.anchor) rows.bringBack(back);
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
  showTrash();
}

// The page's history entry keeps where the reader is (`RowWindow.place`), for Back and reload to bring them there.
let placeTimer = 0;
addEventListener(
  "scroll",
  () => {
    clearTimeout(placeTimer);
    placeTimer = setTimeout(() => {
      const place = rows.place();
      if (place && !loading) history.replaceState(place, "");
    }, 150);
  },
  { passive: true },
);

// MARK: - Who is asking

/** Who the server takes this page to be, shown with the first view (the sign-in it needed is done). */
function showUser(answer) {
  me = answer;
  showTrash();
  showAccount(me, { viewed: state.user, pick: (user) => change({ user, folder: "", trashed: "" }) });
  if (me.user) follow();
}

// MARK: - Events as they happen

/** The user whose history's events the page follows ("": the signed-in user's own). */
let followed = null;
let eventTimer = 0;
const happened = new Set();

function follow() {
  followed = state.user;
  followEvents((event) => {
    const id = event.message?.data?.share?.id;
    if (id) happened.add(id);
    clearTimeout(eventTimer);
    eventTimer = setTimeout(showHappened, 250);
  });
}

/**
 * Shows shares changed elsewhere (another tab or device, a download through a link) where they are, never reloading
 * the view under the reader: a row whose share changed is drawn again (keeping the focus), one that left the view
 * goes, a new share in the view's first page takes its place there. Events coming together are taken together.
 */
async function showHappened() {
  if (loading) {
    eventTimer = setTimeout(showHappened, 250);
    return;
  }
  const ids = [...happened];
  happened.clear();
  const shown = new Map(rows.records.map((record) => [record.id, record]));
  try {
    await Promise.all(ids.filter((id) => shown.has(id)).map((id) => showAgain(shown.get(id))));
    const unseen = new Set(ids.filter((id) => !shown.has(id)));
    if (unseen.size) await showNew(unseen);
    await refreshStorage();
  } catch {
    // Out of reach now: the next event or view shows it.
  }
}

/** Draws the row of `record` again as the server has it now, or takes it away when it left the view. */
async function showAgain(record) {
  let fresh;
  try {
    fresh = await (await request(shareURL(record.id, "?trashed=true"))).json();
  } catch (error) {
    if (error.status === 404) return removeRows([record.id]);
    throw error;
  }
  const folder = state.folder;
  const inView = Boolean(fresh.trashedAt) === Boolean(state.trashed) && (!folder || fresh.folder === folder || fresh.folder.startsWith(`${folder}/`));
  if (!inView) return removeRows([record.id]);
  if (JSON.stringify(fresh) === JSON.stringify(record)) return;
  const focused = rows.row(record.id)?.contains(document.activeElement) ? document.activeElement.classList[0] : null;
  replaceRow(fresh);
  if (focused) rows.row(fresh.id)?.querySelector(`.${focused}`)?.focus();
}

/** Puts the shares of `ids` that the view's first page holds where that page has them. */
async function showNew(ids) {
  const parameters = apiParameters(state, zone());
  parameters.set("limit", "20");
  const page = await (await request(`share?${parameters}`)).json();
  const shown = new Set(rows.records.map((record) => record.id));
  let previous = null;
  for (const record of page) {
    if (ids.has(record.id) && !shown.has(record.id)) {
      rows.insert(record, previous);
      shown.add(record.id);
    }
    if (shown.has(record.id)) previous = record.id;
  }
  showStatus(rows.records.length ? "" : emptyText());
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
connectSelection({ rows: () => rows.records, matching: () => matching, trashed: () => Boolean(state.trashed), load, failed, filter: selectionFilter });
connectFilters({ state: () => state, change, matching: () => matching });
onUndoFailure((error, retry) => failed(error, retry, "Undo"));
connectUploads({
  folder: () => state.folder,
  uploaded: () => load(),
  share: (record, returnTo) => shareDialog(record, { returnTo, onChange: replaceRow }),
});

// MARK: - Controls

byId("trash-toggle").addEventListener("click", () => change({ trashed: state.trashed ? "" : "1", folder: "" }));
byId("empty-trash").addEventListener("click", (event) => emptyTrash(event.currentTarget, { filter: selectionFilter(), count: matching, filtered: isFiltered(state) }));
byId("home").addEventListener("click", (event) => {
  event.preventDefault();
  change({ ...unfiltered, folder: "", sort: "", order: "", trashed: "" });
});
byId("stop-viewing").addEventListener("click", () => change({ user: "", folder: "", trashed: "" }));
byId("account-button").addEventListener("click", openAccount);
addEventListener("popstate", () => {
  state = readState();
  clearSelection();
  showView();
  load();
});

/** The personal screen, its code loaded the first time: the first load stays light. */
async function openAccount() {
  try {
    const { openPersonal } = await import("./personal.js");
    await openPersonal(showStoppedHooks, state.folder || "/");
  } catch (error) {
    if (error.status === 401) signIn(openAccount);
    else say(`Account could not be opened. ${error.message}`, openAccount);
  }
}

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
