// The share history screen: a list that grows as you scroll, the filters that find things, the menu that
// tidies them, and a storage bar. Everything it shows comes from the API; the view is the page's URL.

import { actFor, forgetToken, keepToken, nextPage, request, RequestError, shareURL, token } from "./api.js";
import { askFor, showMenu } from "./dialogs.js";
import { shown, size, typeNames, zone } from "./format.js";
import { typeColour } from "./icons.js";
import { row } from "./rows.js";
import { apiParameters, descending, pageURL, readState } from "./state.js";

const byId = (id) => document.getElementById(id);
const list = byId("list");
const controls = { q: byId("q"), date: byId("date"), from: byId("from"), to: byId("to"), type: byId("type"), sort: byId("sort") };
const orderLabels = { createdAt: ["Oldest first", "Newest first"], name: ["A to Z", "Z to A"], size: ["Smallest first", "Largest first"] };

let state = readState();
let next = null;
let loading = null;
let searchTimer = 0;

/** The message line: a problem the server named, with the list left as it was. */
function showProblem(text) {
  const message = byId("message");
  message.textContent = text;
  message.hidden = !text;
}

function showStatus(text) {
  byId("status").textContent = text;
}

function showControls() {
  for (const [field, control] of Object.entries(controls)) control.value = state[field];
  if (!controls.sort.value) controls.sort.value = "createdAt";
  const order = byId("order");
  order.textContent = orderLabels[controls.sort.value][descending(state) ? 1 : 0];
  order.setAttribute("aria-label", `Order: ${order.textContent}`);
  const trash = byId("trash-toggle");
  trash.setAttribute("aria-pressed", String(Boolean(state.trashed)));
  trash.textContent = state.trashed ? "Back to shares" : "Trash";
  document.body.classList.toggle("trash", Boolean(state.trashed));
  byId("user-picker").value = state.user;
  showCrumbs();
}

function showCrumbs() {
  const crumbs = byId("crumbs");
  const parts = state.folder ? state.folder.split("/").filter(Boolean) : [];
  const links = [["All folders", ""], ...parts.map((part, index) => [part, `/${parts.slice(0, index + 1).join("/")}`])];
  crumbs.replaceChildren(
    ...links.map(([label, folder], index) => {
      const last = index === links.length - 1;
      const node = document.createElement(last ? "span" : "a");
      node.textContent = label;
      if (last) node.setAttribute("aria-current", "location");
      else {
        node.href = pageURL({ ...state, folder });
        node.addEventListener("click", (event) => {
          event.preventDefault();
          change({ folder });
        });
      }
      return node;
    }),
  );
}

/** Shows `changes` applied to the view: a new entry in the history, unless `replace` (typing). */
function change(changes, { replace = false } = {}) {
  state = { ...state, ...changes };
  const url = pageURL(state);
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  showControls();
  load();
}

const rowActions = {
  onFolder: (folder) => change({ folder }),
  onMenu: (record, button) => (state.trashed ? trashMenu(record, button) : shareMenu(record, button)),
};

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
  try {
    const response = await request(`share?${parameters}`, { signal: controller.signal });
    const records = await response.json();
    if (controller.signal.aborted) return;
    list.replaceChildren(...records.map((record) => row(record, rowActions)));
    next = nextPage(response);
    showProblem("");
    showStatus(records.length ? "" : state.trashed ? "The trash is empty." : "No shares match.");
    loadStorage(parameters);
    if (!signedIn) showUser();
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
    list.append(...records.map((record) => row(record, rowActions)));
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

/** The storage line again after a change: what it counts has just changed. */
function refreshStorage() {
  loadStorage(apiParameters(state, zone()));
}

async function loadStorage(parameters) {
  // The storage line shows totals only: no counts per period, which would cost the server more.
  const query = new URLSearchParams(parameters);
  query.set("by", "none");
  try {
    const stats = await (await request(`share/stats?${query}`)).json();
    const bar = byId("storage-bar");
    const total = Number(stats.bytes) || 0;
    // With a quota the bar is the quota, filled as far as it is used; without, the bar is what is used.
    const quota = Number(stats.quotaBytes) || 0;
    const whole = Math.max(quota, total);
    const types = Object.entries(stats.types).sort((a, b) => Number(b[1].bytes) - Number(a[1].bytes));
    bar.replaceChildren(
      ...types.map(([type, totals]) => {
        const part = document.createElement("span");
        part.style.width = `${whole ? (Number(totals.bytes) / whole) * 100 : 0}%`;
        part.style.background = typeColour(type);
        part.title = `${typeNames[type] ?? type}: ${size(Number(totals.bytes))}`;
        return part;
      }),
    );
    const words = types.map(([type, totals]) => `${typeNames[type] ?? type} ${size(Number(totals.bytes))}`).join(", ");
    const ofQuota = quota ? ` of ${size(quota)}` : "";
    bar.setAttribute("aria-label", `Storage used: ${size(total)}${ofQuota}${words ? `; ${words}` : ""}`);
    byId("storage-text").textContent = `${size(total)}${ofQuota} in ${stats.count} share${stats.count === 1 ? "" : "s"}`;
  } catch (error) {
    if (!(error instanceof RequestError) || error.status !== 401) byId("storage-text").textContent = "";
  }
}

/** Who the server takes this page to be, shown once a view has loaded (the sign-in it needed is done). */
let signedIn = null;

async function showUser() {
  try {
    signedIn = await (await request("me")).json();
  } catch {
    return; // The name is a courtesy: the history shows without it.
  }
  const who = byId("who");
  who.textContent = signedIn.user ?? "";
  who.hidden = !signedIn.user || signedIn.user === "local";
  if (signedIn.admin) who.textContent += " (admin)";
  if (signedIn.admin && signedIn.histories === "per-user") showUserPicker(signedIn.user);
  const signOut = byId("sign-out");
  signOut.hidden = !(signedIn.signedInWith === "token" || signedIn.signOutUrl);
  signOut.onclick = () => {
    if (signedIn.signOutUrl) {
      location.href = signedIn.signOutUrl;
      return;
    }
    forgetToken();
    location.reload();
  };
}

/** An admin's choice of whose history the page shows: their own, or any user's with shares. */
async function showUserPicker(me) {
  let users;
  try {
    users = await (await request("users")).json();
  } catch {
    return; // Without the list the admin still has their own history.
  }
  const picker = byId("user-picker");
  const others = users.map((entry) => entry.user).filter((user) => user !== me);
  if (state.user && !others.includes(state.user)) others.push(state.user);
  const option = (value, label) => Object.assign(document.createElement("option"), { value, textContent: label });
  picker.replaceChildren(option("", `${me} (you)`), ...others.map((user) => option(user, user)));
  picker.value = state.user;
  picker.onchange = () => change({ user: picker.value, folder: "", trashed: "" });
  byId("user-picker-label").hidden = false;
}

/** A request failed: a 401 brings the sign-in back and then `retry`; anything else is shown as it is. */
function failed(error, retry) {
  if (error.status === 401) signIn(retry);
  else showProblem(error.message);
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

// MARK: - Tidying

function replaceRow(record) {
  const old = list.querySelector(`li[data-id="${CSS.escape(record.id)}"]`);
  old?.replaceWith(row(record, rowActions));
  return list.querySelector(`li[data-id="${CSS.escape(record.id)}"] .menu-button`);
}

function removeRow(id) {
  const old = list.querySelector(`li[data-id="${CSS.escape(id)}"]`);
  const focus = old?.nextElementSibling ?? old?.previousElementSibling;
  old?.remove();
  focus?.querySelector(".menu-button")?.focus();
  if (!list.children.length) showStatus(state.trashed ? "The trash is empty." : "No shares match.");
  fillScreen();
}

function shareMenu(record, button) {
  showMenu(shown(record.name), [
    ["Rename", (opener) => rename(record, opener ?? button)],
    ["Move to a folder", (opener) => move(record, opener ?? button)],
    ["Copy share id", () => copyID(record, button)],
    ["Delete", () => trash(record)],
  ]);
}

function trashMenu(record, button) {
  showMenu(shown(record.name), [
    ["Restore", () => restore(record)],
    ["Delete for good", () => purge(record, button)],
  ]);
}

async function patch(record, body) {
  const response = await request(shareURL(record.id), { method: "PATCH", body });
  return response.json();
}

async function rename(record, button) {
  let updated = null;
  await askFor({
    title: "Rename", label: "New name", value: record.name, ok: "Rename", returnTo: button,
    submit: async (name) => (updated = await patch(record, { name })),
  });
  if (updated) {
    replaceRow(updated)?.focus();
    refreshStorage();
  }
}

async function move(record, button) {
  let updated = null;
  await askFor({
    title: `Move ${shown(record.name)}`, label: "Folder", value: record.folder ?? "/", ok: "Move", returnTo: button,
    submit: async (folder) => (updated = await patch(record, { folder })),
  });
  if (updated) {
    replaceRow(updated)?.focus();
    refreshStorage();
  }
}

async function copyID(record, button) {
  try {
    await navigator.clipboard.writeText(record.id);
    toast(`Copied ${record.id}`);
  } catch {
    // No clipboard (a page not served over HTTPS): show the id, selected, to copy by hand.
    await askFor({ title: "Share id", label: "Share id", value: record.id, ok: "Done", returnTo: button });
  }
}

async function trash(record) {
  try {
    await request(shareURL(record.id), { method: "DELETE" });
    removeRow(record.id);
    refreshStorage();
    toast(`Deleted ${shown(record.name)}`, async () => {
      await request(shareURL(record.id, "/restore"), { method: "POST" });
      await load();
      list.querySelector(`li[data-id="${CSS.escape(record.id)}"] .menu-button`)?.focus();
    });
  } catch (error) {
    failed(error, () => trash(record));
  }
}

async function restore(record) {
  try {
    await request(shareURL(record.id, "/restore"), { method: "POST" });
    removeRow(record.id);
    refreshStorage();
    toast(`Restored ${shown(record.name)}`);
  } catch (error) {
    failed(error, () => restore(record));
  }
}

async function purge(record, button) {
  const sure = await askFor({
    title: "Delete for good?", text: `${shown(record.name)} will be gone for good, with its history. This cannot be undone.`,
    ok: "Delete for good", returnTo: button,
    submit: () => request(`${shareURL(record.id)}?purge=true`, { method: "DELETE" }),
  });
  if (sure) {
    removeRow(record.id);
    refreshStorage();
  }
}

let toastTimer = 0;

/** A short message at the bottom; with `undo`, an Undo button that runs it, and Ctrl+Z (⌘Z) while it shows. */
function toast(text, undo) {
  const box = byId("toast");
  const button = byId("toast-undo");
  byId("toast-text").textContent = text;
  button.hidden = !undo;
  button.onclick = async () => {
    box.hidden = true;
    try {
      await undo();
    } catch (error) {
      failed(error, undo);
    }
  };
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), 10000);
}

// MARK: - Controls

// Undo from the keyboard, wherever focus is, except in a field (where Ctrl+Z undoes typing).
addEventListener("keydown", (event) => {
  const undo = byId("toast-undo");
  if (event.key.toLowerCase() !== "z" || !(event.ctrlKey || event.metaKey) || event.shiftKey) return;
  if (byId("toast").hidden || undo.hidden || event.target.closest?.("input, textarea, select")) return;
  event.preventDefault();
  undo.click();
});

controls.q.addEventListener("input", () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => change({ q: controls.q.value.trim() }, { replace: true }), 250);
});
controls.date.addEventListener("change", () => change({ date: controls.date.value, from: "", to: "" }));
for (const field of ["from", "to"]) {
  controls[field].addEventListener("change", () => change({ [field]: controls[field].value, date: "" }));
}
controls.type.addEventListener("change", () => change({ type: controls.type.value }));
// Each sort starts where people look first: the newest, A to Z, the largest.
controls.sort.addEventListener("change", () => {
  const sort = controls.sort.value;
  change({ sort: sort === "createdAt" ? "" : sort, order: sort === "name" ? "asc" : "" });
});
byId("order").addEventListener("click", () => change({ order: descending(state) ? "asc" : "" }));
byId("clear").addEventListener("click", () => change({ q: "", date: "", from: "", to: "", type: "", folder: "" }));
byId("trash-toggle").addEventListener("click", () => change({ trashed: state.trashed ? "" : "1" }));
byId("filters").addEventListener("submit", (event) => event.preventDefault());
byId("home").addEventListener("click", (event) => {
  event.preventDefault();
  change({ q: "", date: "", from: "", to: "", type: "", folder: "", sort: "", order: "", trashed: "" });
});
addEventListener("popstate", () => {
  state = readState();
  showControls();
  load();
});
// An observer's entry can arrive after the list it measured was filled: where the end of the list is now decides.
new IntersectionObserver(() => fillScreen(), { rootMargin: "400px" }).observe(byId("more"));

byId("zone").textContent = zone();
showControls();
load();
