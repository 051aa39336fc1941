// Pictures show themselves, as in the app: a row whose record has a thumbnail shows it in place of its type icon.
// The thumbnail is asked for when its row comes near the screen, with the token (so as a blob), into a box of the
// icon's size, so that nothing moves when it arrives; the icon stays when it cannot be had.

import { request, shareURL } from "./api.js";

const waiting = new Map();
const observer = new IntersectionObserver(
  (entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      const load = waiting.get(entry.target);
      waiting.delete(entry.target);
      load?.();
    }
  },
  { rootMargin: "200px" },
);

/** Stops waiting for the pictures of rows that are gone (the list was replaced before they came into view). */
export function releasePictures() {
  for (const box of waiting.keys()) {
    if (box.isConnected) continue;
    observer.unobserve(box);
    waiting.delete(box);
  }
}

/** The box of `record`'s row holding `icon`, and its thumbnail in place of it once loaded when it has one. */
export function pictureBox(record, icon) {
  const box = document.createElement("span");
  box.className = "picture";
  box.append(icon);
  if (!record.thumbnail) return box;
  waiting.set(box, async () => {
    try {
      const response = await request(shareURL(record.id, "/thumbnail"));
      const image = document.createElement("img");
      image.alt = "";
      image.src = URL.createObjectURL(await response.blob());
      image.addEventListener("load", () => URL.revokeObjectURL(image.src), { once: true });
      box.replaceChildren(image);
    } catch {
      // The icon stays.
    }
  });
  observer.observe(box);
  return box;
}
