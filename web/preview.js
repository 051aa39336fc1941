// A share's file seen from the owner's page: a picture or a PDF's first page as its link's page shows it, or a
// text's first 64 KiB as text, in a dialog. Loaded when first asked for.

import { request, shareURL } from "./api.js";
import { shown, size } from "./format.js";

const byId = (id) => document.getElementById(id);
const textBytes = 65_536;
const isText = (name) => /\.(txt|md|markdown|log)$/i.test(name);
let shownURL = null;

function dialog() {
  let element = byId("preview");
  if (element) return element;
  element = Object.assign(document.createElement("dialog"), {
    id: "preview",
    // Fixed markup only: the name and the file go in as text.
    innerHTML: `<h2 id="preview-title"></h2><div id="preview-body" class="preview-body"></div>
      <div class="buttons"><button type="button" class="close">Close</button></div>`,
  });
  element.setAttribute("aria-labelledby", "preview-title");
  element.querySelector("button.close").onclick = () => element.close();
  document.body.append(element);
  return element;
}

/** Opens the preview of `record`; focus goes back to `returnTo` when it closes. */
export async function showPreview(record, returnTo) {
  const element = dialog();
  const name = shown(record.name);
  byId("preview-title").textContent = name;
  const body = byId("preview-body");
  body.replaceChildren(Object.assign(document.createElement("p"), { textContent: "Loading…" }));
  element.onclose = () => {
    if (shownURL) URL.revokeObjectURL(shownURL);
    shownURL = null;
    returnTo?.focus?.();
  };
  element.showModal();
  element.querySelector("button.close").focus();
  try {
    body.replaceChildren(...(isText(record.name) ? await text(record) : await picture(record, name)));
  } catch (problem) {
    body.replaceChildren(Object.assign(document.createElement("p"), { className: "message", textContent: `No preview: ${problem.message}` }));
  }
}

async function picture(record, name) {
  const blob = await (await request(shareURL(record.id, "/preview"))).blob();
  shownURL = URL.createObjectURL(blob);
  return [Object.assign(document.createElement("img"), { src: shownURL, alt: `A preview of ${name}` })];
}

async function text(record) {
  const response = await request(shareURL(record.id, "/file"), { headers: { Range: `bytes=0-${textBytes - 1}` } });
  // A character the limit cut in two is left out, not shown broken.
  const words = (await response.text()).replace(/\uFFFD$/, "");
  const shownText = Object.assign(document.createElement("pre"), { className: "text", textContent: words, tabIndex: 0 });
  shownText.setAttribute("aria-label", "The beginning of the file");
  if (record.size <= textBytes) return [shownText];
  return [shownText, Object.assign(document.createElement("p"), { textContent: `The first ${size(textBytes)} of ${size(record.size)}.` })];
}
