// Modal dialogs: focus moves into them when they open and back to what opened them when they close; Escape
// closes them (the browser's own <dialog> behaviour).

const ask = document.getElementById("ask");

/** Asks for a value (or, without `label`, a confirmation); resolves with the value, or null when cancelled.
 *  `submit` may throw: its message is shown in the dialog, which stays open. `selectTo`: how much of the value is
 *  selected (a name without its extension); `options`: values to offer as one types; `danger`: what cannot be
 *  undone, so the dialog starts on Cancel and its button is red. */
export function askFor({ title, label, value = "", text = "", ok = "OK", submit, returnTo, selectTo, options = [], danger = false }) {
  const opener = returnTo ?? document.activeElement;
  const input = document.getElementById("ask-input");
  const error = document.getElementById("ask-error");
  document.getElementById("ask-title").textContent = title;
  document.getElementById("ask-label").textContent = label ?? "";
  document.getElementById("ask-field").hidden = !label;
  document.getElementById("ask-text").textContent = text;
  const okButton = document.getElementById("ask-ok");
  okButton.textContent = ok;
  okButton.classList.toggle("danger", danger);
  document.getElementById("ask-options").replaceChildren(
    ...options.map((option) => Object.assign(document.createElement("option"), { value: option })),
  );
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
    (label ? input : document.getElementById(danger ? "ask-cancel" : "ask-ok")).focus();
    if (label) input.setSelectionRange(0, selectTo ?? value.length);
  });
}

/** A menu of actions in a dialog; each action is `[label, handler]`. */
export function showMenu(title, actions) {
  const menu = document.getElementById("menu");
  const opener = document.activeElement;
  document.getElementById("menu-title").textContent = title;
  document.getElementById("menu-title").title = title;
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

/** A dialog listing `lines` (a share's history), closed by Close or Escape; focus goes back to what opened it. */
export function showList(title, lines, returnTo) {
  const dialog = document.getElementById("history");
  document.getElementById("history-title").textContent = title;
  document.getElementById("history-events").replaceChildren(
    ...lines.map((line) => Object.assign(document.createElement("li"), { textContent: line })),
  );
  dialog.onclose = () => returnTo?.focus?.();
  dialog.showModal();
  dialog.querySelector("button.close").focus();
}
