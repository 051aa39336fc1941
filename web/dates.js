// The date filter as one control: a day, a range (either end may be open), or a preset like Drive's chips. Typing a
// date into a date field passes through years such as 0002 and 0202 on its way to 2025: only complete, plausible
// dates are applied, so that each change a person means is one request and one history entry.

import { isoDay } from "./format.js";

/** The presets, each giving its first and last day (both included) from today's date. */
export const presets = {
  today: (now) => [isoDay(now), isoDay(now)],
  "7d": (now) => [isoDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 6)), isoDay(now)],
  month: (now) => [isoDay(new Date(now.getFullYear(), now.getMonth(), 1)), isoDay(new Date(now.getFullYear(), now.getMonth() + 1, 0))],
  year: (now) => [`${now.getFullYear()}-01-01`, `${now.getFullYear()}-12-31`],
};

/** Whether `value` is empty or a whole date a person could mean: a year from 1900 on (not 0002 half-typed). */
export function isPlausible(value) {
  if (!value) return true;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return Boolean(match) && Number(match[1]) >= 1900;
}

/** The days `state` filters on, as the API's `date`, `from` and `to` (a preset is worked out for today). */
export function dateParameters(state, now = new Date()) {
  const preset = presets[state.when];
  if (preset) {
    const [from, to] = preset(now);
    return from === to ? { date: from } : { from, to };
  }
  return { date: state.date, from: state.from, to: state.to };
}

/** What the two fields show for `state`: a day is "on or from" alone. */
export function fieldValues(state) {
  const { date, from, to } = dateParameters(state);
  return date ? [date, ""] : [from ?? "", to ?? ""];
}

/** No date filter: what clearing it, or choosing another kind of date, changes the view's date fields to. */
export const noDates = { when: "", date: "", from: "", to: "" };

/**
 * The change of the view that the two fields ask for, `{ error }` when they make no sense (a backwards range), or
 * null while a field is still being typed.
 */
export function changeFromFields(from, to) {
  if (!isPlausible(from) || !isPlausible(to)) return null;
  if (from && to && from > to) return { error: "The first day is after the last: swap them to see the shares between." };
  if (from && !to) return { ...noDates, date: from };
  return { ...noDates, from, to };
}

/** How many of the date filter's parts are in use (for the Filters button): 0 or 1. */
export const dateFilterCount = (state) => (state.when || state.date || state.from || state.to ? 1 : 0);
