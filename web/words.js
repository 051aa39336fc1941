// A search's words as the server reads `q`: split at white space and _ - . , outside double quotes, a quoted phrase
// one piece. The page marks where each word is in a name.

const separator = /[\s_\-.,]/u;

export function searchWords(text) {
  const pieces = [];
  let piece = "";
  let quoted = false;
  const finish = () => {
    if (piece) pieces.push(piece.normalize("NFC"));
    piece = "";
  };
  for (const character of text) {
    if (character === '"') {
      finish();
      quoted = !quoted;
    } else if (quoted || !separator.test(character)) piece += character;
    else finish();
  }
  finish();
  if (pieces.length) return pieces;
  const literal = text.replaceAll('"', "").trim();
  return literal ? [literal.normalize("NFC")] : [];
}

const escaped = (word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `label`'s text nodes, with each part a word of `words` matches (any case) in a <mark>. */
export function marked(label, words) {
  const ranges = [];
  for (const word of words) {
    for (const match of label.matchAll(new RegExp(escaped(word), "giu"))) ranges.push([match.index, match.index + match[0].length]);
  }
  if (!ranges.length) return [label];
  ranges.sort((a, b) => a[0] - b[0]);
  const nodes = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (end <= at) continue;
    const from = Math.max(start, at);
    if (from > at) nodes.push(label.slice(at, from));
    nodes.push(Object.assign(document.createElement("mark"), { textContent: label.slice(from, end) }));
    at = end;
  }
  if (at < label.length) nodes.push(label.slice(at));
  return nodes;
}
