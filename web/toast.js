// A short message at the bottom; with an undo, an Undo button that runs it, and Ctrl+Z (⌘Z) anywhere but in a
// field while it shows. It stays while focus or the pointer is in it, and goes when what it speaks of is deleted
// for good (nothing is left to undo).

const box = document.getElementById("toast");
const undoButton = document.getElementById("toast-undo");
const seconds = 10;
let timer = 0;
let holding = false;
/** The ids of the shares the toast speaks of. */
let about = new Set();
let onFailure = () => {};

function hide() {
  clearTimeout(timer);
  box.hidden = true;
  about = new Set();
}

function countDown() {
  clearTimeout(timer);
  if (!holding) timer = setTimeout(hide, seconds * 1000);
}

/** Shows `text`; `undo` (async) is offered when given; `ids` are the shares it is about. */
export function toast(text, { undo, ids = [] } = {}) {
  document.getElementById("toast-text").textContent = text;
  undoButton.hidden = !undo;
  undoButton.onclick = async () => {
    hide();
    try {
      await undo();
    } catch (error) {
      onFailure(error, undo);
    }
  };
  about = new Set(ids);
  box.hidden = false;
  countDown();
}

/** Hides the toast if it is about one of `ids`, which are gone for good. */
export function forget(ids) {
  if (!box.hidden && ids.some((id) => about.has(id))) hide();
}

/** What to do when an undo fails: `handler(error, retry)`. */
export function onUndoFailure(handler) {
  onFailure = handler;
}

for (const [start, end] of [["focusin", "focusout"], ["pointerenter", "pointerleave"]]) {
  box.addEventListener(start, () => {
    holding = true;
    clearTimeout(timer);
  });
  box.addEventListener(end, () => {
    holding = box.contains(document.activeElement);
    countDown();
  });
}
document.getElementById("toast-close").addEventListener("click", hide);

addEventListener("keydown", (event) => {
  if (event.key.toLowerCase() !== "z" || !(event.ctrlKey || event.metaKey) || event.shiftKey) return;
  if (box.hidden || undoButton.hidden || event.target.closest?.("input:not([type=checkbox]), textarea, select")) return;
  event.preventDefault();
  undoButton.click();
});
