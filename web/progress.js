// An upload's line as it goes: its bar, how far it got, the rate and the time left, or why it waits.

import { size } from "./format.js";

/** What an upload's line says as it goes: `File 2 of 3 · 5.6 MB of 25.0 MB · 22% · 1.2 MB/s · 16 s left`. */
export function progressMeter(item, total, position) {
  const bar = item.querySelector("progress");
  const state = item.querySelector(".upload-state");
  // The rate over the last few seconds: the bytes sent then and now.
  let samples = [];
  let resumed = "";
  const percent = (bytes) => `${Math.floor((bytes / Math.max(total, 1)) * 100)}%`;
  return {
    resumedFrom(offset) {
      resumed = `Resumed from ${percent(offset)} · `;
      bar.value = offset;
    },
    progress(sent) {
      const now = performance.now();
      samples = [...samples.filter((sample) => now - sample.at < 5000), { at: now, sent }];
      const [first] = samples;
      const rate = now - first.at > 500 ? ((sent - first.sent) * 1000) / (now - first.at) : 0;
      const words = [`${size(sent)} of ${size(total)}`, percent(sent)];
      if (rate > 0) words.push(`${size(rate)}/s`, `${duration((total - sent) / rate)} left`);
      bar.value = sent;
      state.textContent = position + resumed + words.join(" · ");
    },
    waiting(words) {
      samples = [];
      state.textContent = position + words;
    },
  };
}

/** `45 s`, `3 min`, `2 h 5 min`. */
function duration(seconds) {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}
