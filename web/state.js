// The whole view lives in the page's URL (its query string), so that reload, back and a shared link give the
// same view. The same names are the API's listing parameters, but for `when`: a date preset (dates.js).

import { dateParameters } from "./dates.js";

// `user`: an admin's view of another user's history (the API's `user`, which every request carries: api.js).
const fields = ["q", "when", "date", "from", "to", "type", "state", "folder", "sort", "order", "trashed", "user"];

export function readState(search = location.search) {
  const query = new URLSearchParams(search);
  const state = {};
  for (const field of fields) state[field] = query.get(field) ?? "";
  return state;
}

/** The page URL of `state`: only what differs from the defaults. */
export function pageURL(state) {
  const query = new URLSearchParams();
  for (const field of fields) if (state[field]) query.set(field, state[field]);
  const text = query.toString();
  return text ? `./?${text}` : "./";
}

/** The API parameters of `state`, with the browser's zone for its days. */
export function apiParameters(state, zone) {
  const query = new URLSearchParams();
  for (const field of ["q", "type", "state", "sort", "order"]) if (state[field]) query.set(field, state[field]);
  for (const [field, value] of Object.entries(dateParameters(state))) if (value) query.set(field, value);
  if (state.folder) {
    query.set("folder", state.folder);
    query.set("recursive", "true");
  }
  if (state.trashed) query.set("trashed", "true");
  query.set("tz", zone);
  return query;
}

/** Whether the list is newest (or largest, or Z) first. */
export const descending = (state) => state.order !== "asc";

/** The view's filters, none of them set: what Clear and the title give. */
export const unfiltered = { q: "", when: "", date: "", from: "", to: "", type: "", state: "" };

/** Whether any filter narrows the view (the folder aside). */
export const isFiltered = (state) => Object.keys(unfiltered).some((field) => state[field]);
