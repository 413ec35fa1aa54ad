// Search of the open tree, in the worker. The first search of a tree builds
// an index once: every value shown in the tree (every row, in tree order) is
// an entry, whose lower-cased text ("label \x01 value \x00") lies in a big
// block string. A search is then the engine's indexOf over those strings,
// which scans a 50 MB file's index in a fraction of a second. Both the
// building and the scan work in slices and yield between them, so that the
// worker still answers the page (expanding rows, a new search, a cancel)
// and hits are sent as they are found.
//
// An entry is found again from its parent and its view index (the child
// number the page shows), and a subtree's size gives the next sibling, so no
// path is stored. An edit changes one entry's text: the new text is kept
// beside the blocks (edited), and the block's copy is ignored.

'use strict';

const SEARCH_BLOCK = 1 << 16; // entries per block string
const SEARCH_SLICE_MS = 40; // work between two yields

// A growable Int32Array.
class IntList {
  constructor() {
    this.a = new Int32Array(1 << 16);
    this.n = 0;
  }
  push(x) {
    if (this.n === this.a.length) {
      const b = new Int32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = x;
    return this.n - 1;
  }
}

// The text of one row for search: its label, and its value when it is a
// leaf as the page shows it (a tuple is a leaf: "(x, y, z)"; an empty
// object shows its summary).
function searchText(label, child) {
  const tuple = child instanceof JObj && SHAPES[formOf(child)] !== undefined;
  const leaf = tuple || (!(child instanceof JObj) && !Array.isArray(child));
  let text = '';
  if (tuple) text = summary(child);
  else if (leaf) text = numText(child);
  else if (child instanceof JObj && kids(child).count === 0) text = summary(child, 200);
  return { leaf, text: (label + '\x01' + text).toLowerCase() + '\x00' };
}

const yieldNow = () => new Promise((r) => setTimeout(r, 0));

class SearchIndex {
  constructor() {
    this.parent = new IntList(); // entry of the parent row, -1 for the root's children
    this.view = new IntList(); // child number under the parent
    this.size = new IntList(); // entries in the subtree, this one included
    this.blocks = []; // {text, offsets: Int32Array (one more than entries)}
    this.edited = new Map(); // entry -> its text after an edit
    this.count = 0;
  }

  // Builds the index of root; stops (returning false) when stillWanted()
  // turns false between two slices.
  async build(root, stillWanted, onProgress) {
    let pieces = [];
    let offsets = [0];
    let length = 0;
    const flush = () => {
      this.blocks.push({ text: pieces.join(''), offsets: Int32Array.from(offsets) });
      pieces = [];
      offsets = [0];
      length = 0;
    };
    // The depth-first walk, with an explicit stack of open containers.
    const stack = [{ v: root, k: kids(root), i: 0, entry: -1 }];
    let slice = performance.now();
    while (stack.length) {
      const top = stack[stack.length - 1];
      if (top.i >= top.k.count) {
        stack.pop();
        if (top.entry >= 0) this.size.a[top.entry] = this.count - top.entry;
        continue;
      }
      const i = top.i++;
      const c = top.k.child(i);
      const child = at(top.v, c.rel);
      const { leaf, text } = searchText(c.label, child);
      const e = this.count++;
      this.parent.push(top.entry);
      this.view.push(i);
      this.size.push(1);
      pieces.push(text);
      length += text.length;
      offsets.push(length);
      if (pieces.length === SEARCH_BLOCK) flush();
      if (!leaf) stack.push({ v: child, k: kids(child), i: 0, entry: e });
      if ((e & 0x3fff) === 0 && performance.now() - slice > SEARCH_SLICE_MS) {
        onProgress(this.count);
        await yieldNow();
        if (!stillWanted()) return false;
        slice = performance.now();
      }
    }
    if (pieces.length) flush();
    return true;
  }

  // The child numbers from the root down to entry e.
  viewPath(e) {
    const out = [];
    for (let x = e; x >= 0; x = this.parent.a[x]) out.push(this.view.a[x]);
    return out.reverse();
  }

  // The entry of the row at the child numbers viewIdx (not the root).
  entryAt(viewIdx) {
    let first = 0; // first entry among the current siblings
    let e = -1;
    for (const i of viewIdx) {
      e = first;
      for (let k = 0; k < i; k++) e += this.size.a[e];
      first = e + 1;
    }
    return e;
  }

  // After an edit of the row at viewIdx: its new text.
  update(root, viewIdx) {
    const { label, value } = resolveView(root, viewIdx);
    this.edited.set(this.entryAt(viewIdx), searchText(label, value).text);
  }

  // Entries whose text holds q (lower case), in tree order, handed to
  // onHits(entries) a slice at a time, up to max. Returns 'done', 'max' or
  // 'cancelled' (when stillWanted() turns false).
  async search(q, max, stillWanted, onHits) {
    let found = 0;
    let slice = performance.now();
    let first = 0;
    for (const block of this.blocks) {
      const n = block.offsets.length - 1;
      const hits = [];
      let pos = 0;
      for (;;) {
        const at = block.text.indexOf(q, pos);
        if (at < 0) break;
        // the entry whose text holds position at
        let lo = 0;
        let hi = n - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (block.offsets[mid] <= at) lo = mid;
          else hi = mid - 1;
        }
        if (!this.edited.has(first + lo)) hits.push(first + lo);
        pos = block.offsets[lo + 1];
      }
      for (const [e, text] of this.edited) {
        if (e >= first && e < first + n && text.includes(q)) hits.push(e);
      }
      hits.sort((a, b) => a - b);
      const take = hits.slice(0, max - found);
      found += take.length;
      if (take.length) onHits(take);
      if (found >= max) return 'max';
      first += n;
      if (performance.now() - slice > SEARCH_SLICE_MS) {
        await yieldNow();
        if (!stillWanted()) return 'cancelled';
        slice = performance.now();
      }
    }
    return 'done';
  }
}

// The raw path, label and value of the row at the child numbers viewIdx.
function resolveView(root, viewIdx) {
  let v = root;
  let path = [];
  let label = '';
  for (const i of viewIdx) {
    const c = kids(v).child(i);
    path = path.concat(c.rel);
    label = c.label;
    v = at(v, c.rel);
  }
  return { path, label, value: v };
}
