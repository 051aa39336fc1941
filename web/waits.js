// Waiting before trying again: 2, 4, 8… seconds up to a ceiling, cut short when the browser comes back online.

/** The wait after `previous` seconds (0: the first). */
export const nextWait = (previous, ceiling = 60) => Math.min(ceiling, previous ? previous * 2 : 2);

/**
 * Waits `seconds`, calling `tick(left)` each second; resolves early when the browser comes back online or
 * `stopped()` says so.
 */
export function waitBeforeRetry(seconds, { tick = () => {}, stopped = () => false } = {}) {
  return new Promise((resolve) => {
    let left = seconds;
    const done = () => {
      clearInterval(timer);
      removeEventListener("online", done);
      resolve();
    };
    const timer = setInterval(() => {
      left -= 1;
      if (left <= 0 || stopped()) done();
      else tick(left);
    }, 1000);
    addEventListener("online", done);
    tick(left);
  });
}
