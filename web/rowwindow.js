// The rows of a long history, in the page only near the screen: every record loaded is kept (they are small), in
// blocks of a page each; a block's rows are made when it comes within two screens and taken away when it is
// further, a spacer keeping its height. A history of thousands of shares stays a few hundred rows in the page.

const margin = () => 2 * innerHeight;
/** Before a block has been drawn: about a row's height (rows are two lines, and as tall as their 44 px targets). */
const rowEstimate = 62;

function spacer() {
  const item = document.createElement("li");
  item.className = "spacer";
  item.setAttribute("aria-hidden", "true");
  return item;
}

export class RowWindow {
  /** `list` is the <ul>; `makeRow(record)` its row for a record; `onCleared()` after rows were taken away. */
  constructor(list, makeRow, onCleared) {
    this.list = list;
    this.makeRow = makeRow;
    this.onCleared = onCleared;
    this.blocks = [];
    this.top = spacer();
    this.bottom = spacer();
    let pending = false;
    const update = () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        this.update();
      });
    };
    addEventListener("scroll", update, { passive: true });
    addEventListener("resize", update);
  }

  /** Every record loaded, in order. */
  get records() {
    return this.blocks.flatMap((block) => block.records);
  }

  /** A new list: `records` from the top. */
  reset(records) {
    this.blocks = [];
    this.list.replaceChildren(this.top, this.bottom);
    this.append(records);
  }

  /** The next page's records, at the end. */
  append(records) {
    if (records.length) this.blocks.push({ records, rows: null, height: undefined });
    this.update();
  }

  /** The row of `id` in the page, if it is drawn. */
  row(id) {
    return this.list.querySelector(`li[data-id="${CSS.escape(id)}"]`);
  }

  /** Draws the block holding `id`, wherever it is. */
  reveal(id) {
    const index = this.blocks.findIndex((block) => block.records.some((record) => record.id === id));
    if (index < 0 || this.blocks[index].rows) return;
    this.draw(index);
    this.spacers();
  }

  /** Where the reader is: how many records are loaded, and which row is at the top of the screen and where. */
  place() {
    const top = [...this.list.querySelectorAll("li.row")].find((item) => item.getBoundingClientRect().bottom > 0);
    return top ? { rows: this.records.length, anchor: top.dataset.id, top: top.getBoundingClientRect().top } : null;
  }

  /** Scrolls the row that was at the top of the screen (`place`) back to where it was. */
  bringBack(place) {
    this.reveal(place.anchor);
    const item = this.row(place.anchor);
    if (item) scrollBy(0, item.getBoundingClientRect().top - place.top);
  }

  /** Draws `record` again in place of its row. */
  replace(record) {
    for (const block of this.blocks) {
      const index = block.records.findIndex((each) => each.id === record.id);
      if (index < 0) continue;
      block.records[index] = record;
      if (!block.rows) return;
      const fresh = this.makeRow(record);
      block.rows[index].replaceWith(fresh);
      block.rows[index] = fresh;
      return;
    }
  }

  /** Puts `record` after the record of `afterId` (null: first), with its row when that place is drawn. */
  insert(record, afterId) {
    if (!this.blocks.length) return this.append([record]);
    const index = afterId === null ? -1 : this.blocks.findIndex((block) => block.records.some((each) => each.id === afterId));
    const block = this.blocks[Math.max(index, 0)];
    const position = index < 0 ? 0 : block.records.findIndex((each) => each.id === afterId) + 1;
    block.records.splice(position, 0, record);
    block.height = undefined;
    if (block.rows) {
      const fresh = this.makeRow(record);
      (block.rows[position] ?? block.rows[position - 1].nextSibling).before(fresh);
      block.rows.splice(position, 0, fresh);
    }
    this.update();
  }

  /** Takes the records of `ids` away, with their rows. */
  remove(ids) {
    const gone = new Set(ids);
    for (const block of this.blocks) {
      const kept = block.records.map((record, index) => [record, block.rows?.[index]]).filter(([record]) => !gone.has(record.id));
      for (const [index, record] of block.records.entries()) if (gone.has(record.id)) block.rows?.[index].remove();
      block.records = kept.map(([record]) => record);
      if (block.rows) block.rows = kept.map(([, row]) => row);
      block.height = undefined;
    }
    this.blocks = this.blocks.filter((block) => block.records.length);
    this.update();
  }

  /** Draws the blocks near the screen and takes the others away. */
  update() {
    const start = this.list.getBoundingClientRect().top + scrollY;
    const [low, high] = [scrollY - margin(), scrollY + innerHeight + margin()];
    const focused = this.blocks.findIndex((block) => block.rows?.some((row) => row.contains(document.activeElement)));
    let offset = start;
    for (const [index, block] of this.blocks.entries()) {
      if (block.rows) block.height = this.measure(block);
      const height = block.height ?? block.records.length * rowEstimate;
      const near = (offset + height > low && offset < high) || index === focused;
      if (near && !block.rows) this.draw(index);
      else if (!near && block.rows) this.clear(block);
      offset += block.rows ? this.measure(block) : height;
    }
    this.spacers();
  }

  measure(block) {
    const first = block.rows[0]?.getBoundingClientRect();
    const last = block.rows.at(-1)?.getBoundingClientRect();
    return first && last ? last.bottom - first.top : 0;
  }

  draw(index) {
    const block = this.blocks[index];
    block.rows = block.records.map(this.makeRow);
    const after = this.blocks.slice(index + 1).find((each) => each.rows)?.rows[0] ?? this.bottom;
    after.before(...block.rows);
  }

  clear(block) {
    block.height = this.measure(block);
    for (const row of block.rows) row.remove();
    block.rows = null;
    this.onCleared();
  }

  /** The spacers stand for the blocks not drawn before and after the drawn ones. */
  spacers() {
    const drawn = this.blocks.map((block) => Boolean(block.rows));
    const first = drawn.indexOf(true);
    const last = drawn.lastIndexOf(true);
    const height = (blocks) => blocks.reduce((sum, block) => sum + (block.height ?? block.records.length * rowEstimate), 0);
    this.top.style.height = `${first < 0 ? 0 : height(this.blocks.slice(0, first))}px`;
    this.bottom.style.height = `${first < 0 ? height(this.blocks) : height(this.blocks.slice(last + 1))}px`;
    // A block between two drawn ones is drawn too: the window is one run of blocks.
    for (let index = first + 1; index < last; index += 1) if (!this.blocks[index].rows) this.draw(index);
  }
}
