// Modal dialogs: focus moves into them when they open and back to what opened them when they close; Escape
// closes them (the browser's own <dialog> behaviour).

const ask = document.getElementById("ask");

/** Asks for a value (or, without `label`, a confirmation); resolves with the value, or null when cancelled.
 *  `submit` may throw: its message is shown in the dialog, which stays open. */
export function askFor({ title, label, value = "", text = "", ok = "OK", submit, returnTo }) {
  const opener = returnTo ?? document.activeElement;
  const input = document.getElementById("ask-input");
  const error = document.getElementById("ask-error");
  document.getElementById("ask-title").textContent = title;
  document.getElementById("ask-label").textContent = label ?? "";
  document.getElementById("ask-field").hidden = !label;
  document.getElementById("ask-text").textContent = text;
  document.getElementById("ask-ok").textContent = ok;
  input.value = value;
  error.hidden = true;
  return new Promise((resolve) => {
    const form = document.getElementById("ask-form");
    const finish = (result) => {
      form.onsubmit = null;
      ask.onclose = null;
      if (ask.open) ask.close();
      opener?.focus?.();
      resolve(result);
    };
    form.onsubmit = async (event) => {
      event.preventDefault();
      try {
        const result = label ? input.value : true;
        await submit?.(result);
        finish(result);
      } catch (problem) {
        error.textContent = problem.message;
        error.hidden = false;
      }
    };
    ask.onclose = () => finish(null);
    ask.showModal();
    (label ? input : document.getElementById("ask-ok")).focus();
    if (label) input.select();
  });
}

/** A menu of actions in a dialog; each action is `[label, handler]`. */
export function showMenu(title, actions) {
  const menu = document.getElementById("menu");
  const opener = document.activeElement;
  document.getElementById("menu-title").textContent = title;
  const list = document.getElementById("menu-actions");
  list.replaceChildren(
    ...actions.map(([label, handler]) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = label;
      button.addEventListener("click", () => {
        menu.close();
        handler(opener);
      });
      return button;
    }),
  );
  menu.onclose = () => {
    if (document.activeElement === document.body || menu.contains(document.activeElement)) opener?.focus?.();
  };
  menu.showModal();
  list.firstElementChild?.focus();
}

for (const dialog of document.querySelectorAll("dialog")) {
  for (const button of dialog.querySelectorAll("button.close")) button.addEventListener("click", () => dialog.close());
}
