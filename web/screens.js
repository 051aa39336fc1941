// What the screens loaded when first opened (Account, Request files) share: their dialog, made once from fixed
// markup, and actions whose failure the screen says in a line of its own.

/** The dialog `id`, made from `markup` the first time (labelled by its `${id}-title`, its `.close` button closing it). */
export function screenDialog(id, markup) {
  let element = document.getElementById(id);
  if (element) return element;
  element = Object.assign(document.createElement("dialog"), { id, innerHTML: markup });
  element.setAttribute("aria-labelledby", `${id}-title`);
  element.querySelector("button.close").onclick = () => element.close();
  document.body.append(element);
  return element;
}

/** `action`, its failure said in the element `errorId` (hidden while it succeeds). */
export const sayingFailuresIn = (errorId) => (action) => async (...parameters) => {
  const error = document.getElementById(errorId);
  error.hidden = true;
  try {
    await action(...parameters);
  } catch (problem) {
    error.textContent = problem.message;
    error.hidden = false;
  }
};
