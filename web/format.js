// How values are shown: sizes in 1000-based units with one decimal, counts with the reader's thousands separators,
// times in the browser's zone.

const units = ["kB", "MB", "GB", "TB", "PB", "EB"];
const numbers = new Intl.NumberFormat();

export function size(bytes) {
  if (bytes < 1000) return `${numbers.format(bytes)} B`;
  let value = bytes;
  let unit = -1;
  while (value >= 999.95 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** `1,234`: a number in the reader's way of writing numbers. */
export const number = (value) => numbers.format(value);

/** `1,234 shares`, `1 share`: a count and its noun, in the reader's way of writing numbers. */
export const count = (value, noun) => `${number(value)} ${noun}${value === 1 ? "" : "s"}`;

const two = (number) => String(number).padStart(2, "0");

/** `2021-01-17` of `date` in the browser's zone. */
export const isoDay = (date) => `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;

/** `2021-01-17 20:40` in the browser's zone. */
export function dateTime(text) {
  const date = new Date(text);
  return `${isoDay(date)} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** Joiners that shape what stands on both sides of them (Persian words, family emoji): kept between two such. */
const joiners = new Set(["\u200C", "\u200D"]);
const visible = /[^\p{Cf}\p{Z}\p{Cc}]/u;

/**
 * `text` with every invisible formatting character that can deceive (bidirectional controls such as U+202E,
 * zero-width spaces, the BOM) shown as `\u{202E}`, as the command line shows them: `invoice\u{202E}fdp.exe` can then
 * never pass for "invoiceexe.pdf". A joiner between two visible characters stays, and so do the tags of a flag.
 */
export function shown(text) {
  const characters = [...text];
  return characters
    .map((character, index) => {
      if (!/\p{Cf}/u.test(character)) return character;
      const between = visible.test(characters[index - 1] ?? "") && visible.test(characters[index + 1] ?? "");
      if (joiners.has(character) && between) return character;
      const tag = character.codePointAt(0) >= 0xe0020 && character.codePointAt(0) <= 0xe007f;
      if (tag && /[\u{1F3F4}\u{E0020}-\u{E007F}]/u.test(characters[index - 1] ?? "")) return character;
      return `\\u{${character.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}}`;
    })
    .join("");
}

export const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

export const typeNames = {
  image: "Picture", pdf: "PDF", doc: "Document", txt: "Text", ppt: "Slides", xls: "Spreadsheet", zip: "Archive",
  audio: "Audio", video: "Video", other: "File",
};

/** What a share's link says at a glance, at `now` (milliseconds): `expires in 3 days · 12 downloads`, what closed
 *  it (its downloads used up, its time past), `Sharing stopped`; empty for a share without a link. */
export function linkWords(record, now = Date.now()) {
  if (!record.state) return "";
  if (record.state === "revoked") return "Sharing stopped";
  if (record.state === "expired") return closedWords(record);
  const words = [];
  if (record.expiresAt) {
    const hours = (Date.parse(record.expiresAt) - now) / 3600000;
    words.push(hours < 1 ? "expires within the hour" : hours < 48 ? `expires in ${count(Math.floor(hours), "hour")}`
      : `expires in ${count(Math.floor(hours / 24), "day")}`);
  }
  const downloads = record.maxDownloads ? `${number(record.downloads)} of ${count(record.maxDownloads, "download")}`
    : count(record.downloads, "download");
  words.push(downloads);
  return words.join(" · ");
}

/** Which limit closed a link: its downloads all used, or its time past. */
function closedWords(record) {
  if (record.maxDownloads && record.downloads >= record.maxDownloads) {
    return record.maxDownloads === 1 ? "Closed: its one download used" : `Closed: all ${number(record.maxDownloads)} downloads used`;
  }
  return record.expiresAt ? `Closed: expired ${dateTime(record.expiresAt)}` : "Closed: expired";
}

/** A download of the share's log in words: `2021-01-17 20:40 · 203.0.113.0/24 · Firefox · whole`. */
export function downloadWords(download) {
  const sent = download.complete ? "whole" : download.bytes == null ? "stopped" : `stopped after ${size(download.bytes)}`;
  // The log keeps a network, never an address: its /24 (IPv4) or /48 (IPv6); "-" over the unix socket.
  const network = download.address === "-" ? "this machine" : `${download.address}/${download.address.includes(":") ? 48 : 24}`;
  return `${dateTime(download.at)} · ${network} · ${download.agent} · ${sent}`;
}
