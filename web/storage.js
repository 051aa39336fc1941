// The storage bar: the bytes of the shares the view's filters match, per type, with a legend of the colours; with a
// quota the bar is the quota, filled as far as it is used.

import { request, RequestError } from "./api.js";
import { count, size, typeNames } from "./format.js";
import { typeColour } from "./icons.js";

const byId = (id) => document.getElementById(id);

/** Loads the totals of the listing `parameters` into the bar, its legend and its line of text; returns how many
 *  shares they match (undefined when they could not be had). */
export async function loadStorage(parameters) {
  // Totals only: no counts per period, which the page does not draw and which would cost the server more.
  const query = new URLSearchParams(parameters);
  query.set("by", "none");
  let stats;
  try {
    stats = await (await request(`share/stats?${query}`)).json();
  } catch (error) {
    if (!(error instanceof RequestError) || error.status !== 401) byId("storage-text").textContent = "";
    return;
  }
  const total = Number(stats.bytes) || 0;
  const quota = Number(stats.quotaBytes) || 0;
  const whole = Math.max(quota, total);
  const types = Object.entries(stats.types).sort((a, b) => Number(b[1].bytes) - Number(a[1].bytes));
  const words = ([type, totals]) => `${typeNames[type] ?? type} ${size(Number(totals.bytes))}`;
  byId("storage-bar").replaceChildren(
    ...types.map(([type, totals]) => {
      const part = document.createElement("span");
      part.style.width = `${whole ? (Number(totals.bytes) / whole) * 100 : 0}%`;
      part.style.background = typeColour(type);
      return part;
    }),
  );
  byId("storage-legend").replaceChildren(
    ...types.map((entry) => {
      const item = document.createElement("li");
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = typeColour(entry[0]);
      item.append(swatch, words(entry));
      return item;
    }),
  );
  const ofQuota = quota ? ` of ${size(quota)}` : "";
  byId("storage-bar").setAttribute("aria-label", `Storage used: ${size(total)}${ofQuota}`);
  byId("storage-text").textContent = `${size(total)}${ofQuota} in ${count(stats.count, "share")}`;
  return stats.count;
}
