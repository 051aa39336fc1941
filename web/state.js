// The whole view lives in the page's URL (its query string), so that reload, back and a shared link give the
// same view. The same names are the API's listing parameters.

// `user`: an admin's view of another user's history (the API's `user`, which every request carries: api.js).
const fields = ["q", "date", "from", "to", "type", "folder", "sort", "order", "trashed", "user"];

export function readState() {
  const query = new URLSearchParams(location.search);
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

/** The API parameters of `state`, with the browser's zone for its days and per-day counts. */
export function apiParameters(state, zone) {
  const query = new URLSearchParams();
  for (const field of ["q", "date", "from", "to", "type", "sort", "order"]) if (state[field]) query.set(field, state[field]);
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
