// The filters that find things: the search box, the date (a preset, a month, a day or a range applied when it is
// whole), the type, the link's state and the sort. On a phone they open as a sheet over the list with "Show N
// shares", and what is active stays in sight as chips that each clear with one tap. "Go to" starts the list at a month.

import { changeFromFields, dateFilterCount, fieldValues, isPlausible, noDates } from "./dates.js";
import { count } from "./format.js";
import { descending, unfiltered } from "./state.js";

const byId = (id) => document.getElementById(id);
const controls = { q: byId("q"), type: byId("type"), state: byId("state"), sort: byId("sort"), from: byId("from"), to: byId("to"), month: byId("month") };
const orderLabels = { createdAt: ["Oldest first", "Newest first"], name: ["A to Z", "Z to A"], size: ["Smallest first", "Largest first"],
  downloads: ["Least downloaded first", "Most downloaded first"] };
const presetNames = { today: "Today", "7d": "Last 7 days", month: "This month", year: "This year" };
const panel = byId("filter-panel");
const toggle = byId("filter-toggle");
let page;
let searchTimer = 0;

/** `view.state()`, `view.change(changes, options)`, `view.matching()`. */
export function connectFilters(view) {
  page = view;
}

/** The month (`2021-03`) a from–to range is exactly, if it is one. */
function monthOf({ from, to }) {
  if (!from || !to || !from.endsWith("-01") || from.slice(0, 7) !== to.slice(0, 7)) return "";
  const [year, month] = from.split("-").map(Number);
  return to === lastDay(year, month) ? from.slice(0, 7) : "";
}

const lastDay = (year, month) => {
  const day = new Date(year, month, 0).getDate();
  return `${year}-${String(month).padStart(2, "0")}-${day}`;
};

/** The first and last day of a month field's value (`2021-03`), or null while it is not a whole month. */
function monthDays(month) {
  if (!isPlausible(`${month}-01`)) return null;
  const [year, number] = month.split("-").map(Number);
  return [`${month}-01`, lastDay(year, number)];
}

const monthName = (month) => new Date(`${month}-01T12:00:00`).toLocaleDateString(undefined, { month: "long", year: "numeric" });

/** Words for the date filter of `state`, for its chip. */
function dateWords(state) {
  if (state.when) return presetNames[state.when];
  if (state.date) return `On ${state.date}`;
  const month = monthOf(state);
  if (month) return monthName(month);
  if (state.from && state.to) return `${state.from} to ${state.to}`;
  return state.from ? `From ${state.from}` : `Until ${state.to}`;
}

/** The controls as `state` has them. */
export function showFilters(state) {
  controls.type.value = state.type;
  controls.state.value = state.state;
  // The search being typed is left alone; Back to another search shows that one.
  if (document.activeElement !== controls.q || controls.q.value.trim() !== state.q) controls.q.value = state.q;
  controls.sort.value = state.sort || "createdAt";
  [controls.from.value, controls.to.value] = fieldValues(state);
  controls.month.value = monthOf(state);
  byId("date-error").hidden = true;
  for (const chip of byId("presets").children) chip.setAttribute("aria-pressed", String(chip.dataset.when === state.when));
  const order = byId("order");
  order.textContent = orderLabels[controls.sort.value][descending(state) ? 1 : 0];
  order.setAttribute("aria-label", `Order: ${order.textContent}`);
  const active = (state.type ? 1 : 0) + (state.state ? 1 : 0) + dateFilterCount(state) + (state.sort || state.order ? 1 : 0);
  toggle.textContent = active ? `Filters (${active})` : "Filters";
  byId("jump-label").hidden = Boolean(state.sort);
  showChips(state);
}

/** The number of shares the filters match, on the sheet's button. */
export function showMatching(matching) {
  byId("show-results").textContent = `Show ${count(matching, "share")}`;
}

/** What is active, as chips that each clear it. */
function showChips(state) {
  const chips = [];
  const chip = (label, changes) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "chip";
    button.textContent = `${label} ✕`;
    button.setAttribute("aria-label", `${label}: clear`);
    button.addEventListener("click", () => page.change(changes));
    chips.push(button);
  };
  if (state.type) chip(controls.type.selectedOptions[0]?.textContent ?? state.type, { type: "" });
  if (state.state) chip(`Link: ${controls.state.selectedOptions[0]?.textContent ?? state.state}`, { state: "" });
  if (dateFilterCount(state)) chip(dateWords(state), noDates);
  if (state.sort || state.order) chip(`${controls.sort.selectedOptions[0].textContent}: ${byId("order").textContent}`, { sort: "", order: "" });
  const box = byId("active");
  box.replaceChildren(...chips);
  box.hidden = chips.length === 0;
}

function openSheet(open) {
  panel.classList.toggle("open", open);
  toggle.setAttribute("aria-expanded", String(open));
  if (!open) return;
  showMatching(page.matching());
  if (isSheet()) reachable()[0]?.focus();
}

/** Whether the panel is open as a sheet over the list (a narrow screen), which keeps the keyboard inside it. */
function isSheet() {
  return panel.classList.contains("open") && getComputedStyle(panel).position === "fixed";
}

/** The sheet's controls Tab reaches, in order. */
function reachable() {
  return [...panel.querySelectorAll("button, input, select, a[href]")].filter(
    (control) => !control.disabled && control.getClientRects().length > 0 && control.tabIndex >= 0,
  );
}

/** Tab past the sheet's last control comes back to its first, and Shift+Tab before the first to the last. */
function keepFocusInSheet(event) {
  if (event.key !== "Tab" || !isSheet()) return;
  const controls = reachable();
  const [first, last] = [controls[0], controls[controls.length - 1]];
  const edge = event.shiftKey ? first : last;
  if (document.activeElement !== edge) return;
  event.preventDefault();
  (event.shiftKey ? last : first).focus();
}

/** The date fields, applied once both are whole dates (a date being typed passes through years like 0202). */
function applyDates() {
  const from = controls.from.value;
  const to = controls.to.value;
  const message = byId("date-error");
  const wanted = changeFromFields(from, to) ?? { error: "Type whole dates, such as 2021-03-01." };
  message.textContent = wanted.error ?? "";
  message.hidden = !wanted.error;
  if (wanted.error) return;
  const state = page.state();
  const same = ["when", "date", "from", "to"].every((field) => (wanted[field] ?? "") === state[field]);
  if (!same) page.change(wanted);
}

controls.q.addEventListener("input", () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => page.change({ q: controls.q.value.trim() }, { replace: true }), 250);
});
byId("apply-dates").addEventListener("click", applyDates);
for (const field of ["from", "to"]) {
  controls[field].addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      applyDates();
    }
  });
}
controls.month.addEventListener("change", () => {
  const days = monthDays(controls.month.value);
  if (days) page.change({ ...noDates, from: days[0], to: days[1] });
});
byId("jump").addEventListener("change", (event) => {
  const days = monthDays(event.currentTarget.value);
  if (!days) return;
  page.change(descending(page.state()) ? { ...noDates, to: days[1] } : { ...noDates, from: days[0] });
  event.currentTarget.value = "";
});
for (const chip of byId("presets").children) {
  chip.addEventListener("click", () => {
    const state = page.state();
    const when = state.when === chip.dataset.when ? "" : chip.dataset.when;
    page.change({ ...noDates, when });
  });
}
controls.type.addEventListener("change", () => page.change({ type: controls.type.value }));
controls.state.addEventListener("change", () => page.change({ state: controls.state.value }));
// Each sort starts where people look first: the newest, A to Z, the largest, the most downloaded.
controls.sort.addEventListener("change", () => {
  const sort = controls.sort.value;
  page.change({ sort: sort === "createdAt" ? "" : sort, order: sort === "name" ? "asc" : "" });
});
byId("order").addEventListener("click", () => page.change({ order: descending(page.state()) ? "asc" : "" }));
byId("clear").addEventListener("click", () => page.change({ ...unfiltered, sort: "", order: "" }));
toggle.addEventListener("click", () => openSheet(!panel.classList.contains("open")));
byId("show-results").addEventListener("click", () => {
  openSheet(false);
  toggle.focus();
});
panel.addEventListener("keydown", (event) => {
  keepFocusInSheet(event);
  if (event.key === "Escape" && panel.classList.contains("open")) {
    openSheet(false);
    toggle.focus();
  }
});
byId("filters").addEventListener("submit", (event) => event.preventDefault());
