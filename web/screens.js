// What the screens loaded when first opened (Account, Request files) share: their dialog, made once from fixed
// markup with their styles (screens.css, off the first load), and actions whose failure they say in a line of their
// own.

let styled = null;

/** The screens' styles, loaded with the first of them; a screen shows once they are there (or failed to load). */
function screenStyles() {
  styled ??= new Promise((resolve) => {
    const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: "screens.css" });
    link.onload = link.onerror = resolve;
    document.head.append(link);
  });
  return styled;
}

/** The dialog `id`, made from `markup` the first time (labelled by its `${id}-title`, its `.close` button closing it). */
export async function screenDialog(id, markup) {
  await screenStyles();
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
