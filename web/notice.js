// The notice of a list that could not be loaded: an offline browser told from a server that does not answer, and the
// list loaded again by itself, after 2, 4, 8… seconds (at most a minute), and at once when the browser is back online.

import { nextWait } from "./waits.js";

const box = document.getElementById("message");
const text = document.getElementById("message-text");
const button = document.getElementById("retry");
let timer = 0;
let delay = 0;
let again = null;

/** Says `words`, with Try again running `retry` when given; no retry by itself. */
export function say(words, retry) {
  clearTimeout(timer);
  again = null;
  text.textContent = words;
  box.hidden = !words;
  button.hidden = !retry;
  button.onclick = retry
    ? () => {
        say("");
        retry();
      }
    : null;
}

/** A load failed for want of an answer (`error.status` 0 or 5xx): says why, and runs `retry` by itself later. */
export function unreachable(error, retry) {
  delay = nextWait(delay);
  const offline = error.offline === true;
  const why = offline
    ? "You are offline. The list comes back by itself when you are online."
    : `${error.message} Trying again in ${delay} seconds.`;
  say(why, retry);
  again = retry;
  if (!offline) timer = setTimeout(retry, delay * 1000);
}

/** A load succeeded: the notice goes, and the next trouble starts from the shortest wait. */
export function reached() {
  delay = 0;
  say("");
}

addEventListener("online", () => {
  if (!again) return;
  clearTimeout(timer);
  again();
});
