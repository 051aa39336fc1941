// Storage in sight: the whole history's use against the quota in the header, its bytes per type in a bar with a
// legend and the part its kept files take, and what the view's filters match said as such ("40 shares · 38.0 MB
// match").

import { request } from "./api.js";
import { count, size, typeNames } from "./format.js";
import { typeColour } from "./icons.js";

const byId = (id) => document.getElementById(id);

/** Totals only: no counts per period, which the page does not draw and which would cost the server more. */
async function totals(parameters) {
  const query = new URLSearchParams(parameters);
  query.set("by", "none");
  return (await request(`share/stats?${query}`)).json();
}

/**
 * The totals of the whole history and, when `filtered`, of the listing `parameters` (the trash's, in the trash):
 * `{ whole, match, me }` (`me`: what `GET /me` says, with the bytes the files take), each null when it could not
 * be had.
 */
export async function fetchStorage(parameters, filtered) {
  const zone = parameters.get("tz");
  const [whole, match, me] = await Promise.allSettled([
    totals({ tz: zone }), filtered ? totals(parameters) : null, request("me").then((answer) => answer.json()),
  ]);
  const value = (result) => (result.status === "fulfilled" ? result.value : null);
  const held = value(me);
  const files = Number(held?.filesBytes) || 0;
  // What the quota counts: the live records, the files the trash still holds and the uploads under way.
  const counted = held ? Number(held.usedBytes) || 0 : null;
  const trashed = Number(held?.trashedFilesBytes) || 0;
  const uploading = Number(held?.uploadingBytes) || 0;
  const wholeStats = value(whole) && { ...value(whole), files, counted, trashed, uploading };
  return { whole: wholeStats, match: filtered ? value(match) : value(whole), me: held };
}

/** Draws what `fetchStorage` found; `trash`: the match is the trash's. Returns how many shares the view matches. */
export function showStorage({ whole, match }, { filtered, trash }) {
  if (whole) showWhole(whole);
  const line = byId("match");
  if (!match) {
    line.textContent = "";
    return undefined;
  }
  const what = `${count(match.count, "share")} · ${size(Number(match.bytes) || 0)}`;
  line.textContent = trash ? `${what} in the trash` : filtered ? `${what} match` : what;
  return match.count;
}

function showWhole(stats) {
  const total = Number(stats.bytes) || 0;
  const counted = stats.counted ?? total;
  const quota = Number(stats.quotaBytes) || 0;
  const whole = Math.max(quota, counted);
  const types = Object.entries(stats.types).sort((a, b) => Number(b[1].bytes) - Number(a[1].bytes));
  const parts = types.map(([type, totals]) => {
    const part = document.createElement("span");
    part.style.width = `${whole ? (Number(totals.bytes) / whole) * 100 : 0}%`;
    part.style.background = typeColour(type);
    return part;
  });
  byId("storage-bar").replaceChildren(...parts);
  byId("storage-legend").replaceChildren(
    ...types.map(([type, totals]) => {
      const item = document.createElement("li");
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = typeColour(type);
      item.append(swatch, `${typeNames[type] ?? type} ${size(Number(totals.bytes))}`);
      return item;
    }),
  );
  const used = quota ? `${size(counted)} of ${size(quota)}` : `${size(counted)} used`;
  byId("storage-bar").setAttribute("aria-label", `Storage used: ${used}`);
  const files = stats.files ? ` · ${size(stats.files)} of files kept` : "";
  const trashed = stats.trashed ? ` · ${size(stats.trashed)} of files in the trash` : "";
  const uploading = stats.uploading ? ` · ${size(stats.uploading)} uploading` : "";
  byId("storage-text").textContent = `${used} in ${count(stats.count, "share")}${files}${trashed}${uploading}`;
  byId("usage-text").textContent = used;
  const meter = byId("usage-meter");
  meter.hidden = !quota;
  meter.value = quota ? Math.min(counted, quota) / quota : 0;
  byId("usage").classList.toggle("full", quota > 0 && counted >= quota * 0.9);
}
