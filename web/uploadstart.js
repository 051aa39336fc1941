// Where uploads begin: the Upload button, and files dropped anywhere on the page. The code that sends them
// (uploads.js) is loaded with the first file: the first load stays light.

import { say } from "./notice.js";

const byId = (id) => document.getElementById(id);
let view;
let uploads = null;

/** `view.folder()` (where new shares go), `view.uploaded(record)`, `view.share(record, returnTo)`. */
export function connectUploads(connected) {
  view = connected;
}

async function upload(files) {
  uploads ??= import("./uploads.js").then((module) => {
    module.connectUploads(view);
    return module;
  });
  try {
    (await uploads).upload(files);
  } catch {
    uploads = null;
    say("The files could not be sent: the page could not load its upload code. Try again.");
  }
}

byId("upload-button").addEventListener("click", () => byId("upload-input").click());
byId("upload-input").addEventListener("change", (event) => {
  upload([...event.currentTarget.files]);
  event.currentTarget.value = "";
});
// A drop anywhere on the page; the browser would otherwise open the file in place of the page.
const carriesFiles = (event) => event.dataTransfer?.types.includes("Files");
addEventListener("dragover", (event) => {
  if (!carriesFiles(event)) return;
  event.preventDefault();
  document.body.classList.add("dropping");
});
addEventListener("dragleave", (event) => {
  if (!event.relatedTarget) document.body.classList.remove("dropping");
});
addEventListener("drop", (event) => {
  document.body.classList.remove("dropping");
  if (!carriesFiles(event)) return;
  event.preventDefault();
  if (!document.body.classList.contains("trash")) upload([...event.dataTransfer.files]);
});
