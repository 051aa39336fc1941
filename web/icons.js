// One inline SVG per icon category: a page with a coloured band and a short label. A picture with a thumbnail
// shows the thumbnail instead, once loaded (thumbnails.js).

const svg = "http://www.w3.org/2000/svg";

const looks = {
  image: ["#2e7d32", "IMG"], pdf: ["#c62828", "PDF"], doc: ["#1565c0", "DOC"], txt: ["#546e7a", "TXT"],
  ppt: ["#d84315", "PPT"], xls: ["#00796b", "XLS"], zip: ["#6d4c41", "ZIP"], audio: ["#6a1b9a", "AUD"],
  video: ["#ad1457", "VID"], other: ["#616161", "FILE"],
};

function element(name, attributes) {
  const node = document.createElementNS(svg, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

/** The icon of `type`, hidden from screen readers (the row names the type in words). */
export function icon(type) {
  const [colour, label] = looks[type] ?? looks.other;
  const root = element("svg", { viewBox: "0 0 32 40", width: "32", height: "40", "aria-hidden": "true", class: "icon" });
  root.append(
    element("path", { d: "M2 2h20l8 8v28H2z", fill: "none", stroke: "currentColor", "stroke-width": "2" }),
    element("path", { d: "M22 2v8h8", fill: "none", stroke: "currentColor", "stroke-width": "2" }),
    element("rect", { x: "0", y: "20", width: "32", height: "12", rx: "2", fill: colour }),
  );
  const text = element("text", { x: "16", y: "29.5", "text-anchor": "middle", "font-size": "9", "font-weight": "700", fill: "#fff" });
  text.textContent = label;
  root.append(text);
  return root;
}

export const typeColour = (type) => (looks[type] ?? looks.other)[0];
