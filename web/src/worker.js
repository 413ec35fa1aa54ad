// The viewer's Web Worker: it owns the file's bytes, the WebAssembly library
// and the typed JSON tree, so decoding, searching and encoding a big file
// never block the page. The page asks for what it shows, a page of children
// at a time. Messages: {id, op, ...} in; {id, ok, result | error} out, and
// {progress: {stage, fraction}} while working.

'use strict';

let wasm = null;
let formats = [];
let bytes = null; // the opened file, kept to decode it again as another format
let tree = null;
// An opened archive, a .resonitepackage, a KIWAD .wad or a Godot .pck:
// {data, members, read(data, index) -> member bytes, archive}
let pkg = null;
let edited = false; // the tree differs from the bytes it was read from
// The KingsIsle type list files in use, in load order ({name, data}); the
// library keeps them merged (svw_types_load), this copy lets a failed
// change be undone.
let typeFiles = [];
let typeInfo = null; // {classes, kinds} of the merged list
const KINGSISLE = new Set(['kingsisle', 'kingsisle-xml']);

const PAGE = 100;

function progress(stage, fraction) {
  postMessage({ progress: { stage, fraction } });
}

function cstr(s) {
  const n = wasm.lengthBytesUTF8(s) + 1;
  const p = wasm._malloc(n);
  wasm.stringToUTF8(s, p, n);
  return p;
}

function lastError() {
  return wasm.UTF8ToString(wasm._svw_error());
}

// Copies the library's output buffer out of its memory and releases it.
function takeOutput() {
  const p = wasm._svw_out_ptr();
  const n = wasm._svw_out_len();
  const out = wasm.HEAPU8.slice(p, p + n);
  wasm._svw_out_free();
  return out;
}

function withBytes(data, fn) {
  const p = wasm._malloc(Math.max(1, data.length));
  if (!p) throw new Error('out of memory for the input');
  wasm.HEAPU8.set(data, p);
  try {
    return fn(p, data.length);
  } finally {
    wasm._free(p);
  }
}

function callOk(rc) {
  if (rc !== 0) throw new Error(lastError());
}

function detect(data, filename) {
  const fname = cstr(filename || '');
  try {
    withBytes(data, (p, n) => callOk(wasm._svw_detect(p, n, fname)));
  } finally {
    wasm._free(fname);
  }
  return JSON.parse(new TextDecoder().decode(takeOutput()));
}

// Bytes of a format -> typed JSON text (a string).
function decodeToText(format, data) {
  const f = cstr(format);
  try {
    withBytes(data, (p, n) => callOk(wasm._svw_decode(f, p, n)));
  } finally {
    wasm._free(f);
  }
  const p = wasm._svw_out_ptr();
  const n = wasm._svw_out_len();
  const text = new TextDecoder().decode(wasm.HEAPU8.subarray(p, p + n));
  wasm._svw_out_free();
  return text;
}

// Typed JSON (string pieces or bytes) -> bytes of a format.
function encodeFromPieces(format, pieces, indent) {
  const enc = new TextEncoder();
  let parts = pieces.map((s) => (typeof s === 'string' ? enc.encode(s) : s));
  const total = parts.reduce((a, b) => a + b.length, 0);
  const buf = new Uint8Array(total);
  let o = 0;
  for (const part of parts) {
    buf.set(part, o);
    o += part.length;
  }
  parts = null;
  const f = cstr(format);
  try {
    withBytes(buf, (p, n) => callOk(wasm._svw_encode(f, p, n, indent)));
  } finally {
    wasm._free(f);
  }
  return takeOutput();
}

// A zip (a .resonitepackage) whose members the library lists, or null.
function packageMembers(data) {
  if (!wasm._svw_package_list || data.length < 4 || data[0] !== 0x50 || data[1] !== 0x4b ||
      data[2] !== 3 || data[3] !== 4) return null;
  let rc;
  withBytes(data, (p, n) => { rc = wasm._svw_package_list(p, n); });
  if (rc !== 0) return null;
  return JSON.parse(new TextDecoder().decode(takeOutput()));
}

function packageMember(data, index) {
  withBytes(data, (p, n) => callOk(wasm._svw_package_read(p, n, index)));
  return takeOutput();
}

// A KIWAD archive (.wad) as {archive: {kind, version, flags}, members}, or
// null when data is not one. An archive whose table the library refuses
// (a bad name, a range past the end) is an error, not some other format:
// nothing else starts with "KIWAD".
function wadMembers(data) {
  if (!wasm._svw_wad_list || data.length < 5 || new TextDecoder().decode(data.subarray(0, 5)) !== 'KIWAD') return null;
  withBytes(data, (p, n) => callOk(wasm._svw_wad_list(p, n)));
  const r = JSON.parse(new TextDecoder().decode(takeOutput()));
  return {
    archive: { kind: 'kiwad', version: r.version, flags: r.flags },
    members: r.members.map((m) => ({ name: m.name, size: m.size, tree: false, unpatched: m.unpatched })),
  };
}

function wadMember(data, index) {
  withBytes(data, (p, n) => callOk(wasm._svw_wad_read(p, n, index)));
  return takeOutput();
}

// A Godot PCK archive (a .pck, or an executable with a pack appended: its
// last 4 bytes are "GDPC") as {archive: {kind, version, godot, embedded},
// members}, or null when data is not one. The viewer takes no key and its
// library is built without AES: a pack whose directory is encrypted is an
// error that says so.
function pckMembers(data) {
  if (!wasm._svw_pck_list || data.length < 4) return null;
  const magic = (at) => data[at] === 0x47 && data[at + 1] === 0x44 && data[at + 2] === 0x50 && data[at + 3] === 0x43;
  if (!magic(0) && !magic(data.length - 4)) return null;
  let rc;
  withBytes(data, (p, n) => { rc = wasm._svw_pck_list(p, n); });
  if (rc !== 0) {
    const msg = lastError();
    // An executable that merely ends in "GDPC" is some other file.
    if (!magic(0) && !/key is needed/.test(msg)) return null;
    throw new Error(/key is needed/.test(msg) ? `${msg}. ${PCK_NO_KEY}` : msg);
  }
  const r = JSON.parse(new TextDecoder().decode(takeOutput()));
  return {
    archive: { kind: 'godot-pck', version: r.version, godot: r.godot, embedded: r.embedded },
    members: r.members.map((m) => ({ name: m.name, size: m.size, tree: false, encrypted: m.encrypted, removal: m.removal })),
  };
}

const PCK_NO_KEY = 'The viewer takes no key and is built without decryption (no OpenSSL in WebAssembly): ' +
  'serval godot pck list --key HEX (or cat, extract) reads an encrypted pack';

function pckMember(data, index) {
  let rc;
  withBytes(data, (p, n) => { rc = wasm._svw_pck_read(p, n, index); });
  if (rc !== 0) {
    const msg = lastError();
    throw new Error(/key/.test(msg) ? `${msg}. ${PCK_NO_KEY}` : msg);
  }
  return takeOutput();
}

// The first member of an archive that detection reads as one of formats
// (a .wad: an ObjectProperty member, BINd or an XML object file; a .pck: a
// Godot resource or Variant data), among the first few members and within
// a bounded amount of reading, so a big archive opens at once; -1 when none
// is found there (a click opens any member).
const SCAN_MEMBERS = 32;
const SCAN_BYTES = 64 << 20;
const GODOT_TREES = new Set(['godot-res', 'godot4', 'godot3']);
function firstMemberOf(data, members, read, formats) {
  let budget = SCAN_BYTES;
  for (let i = 0; i < members.length && i < SCAN_MEMBERS; i++) {
    const m = members[i];
    if (m.unpatched || m.encrypted || m.removal || m.size > budget) continue;
    budget -= m.size;
    try {
      const c = detect(read(data, i), m.name);
      if (c[0] && formats.has(c[0].name)) return i;
    } catch (e) {
      // A member that does not read (a CRC or MD5 mismatch) is reported when opened.
    }
  }
  return -1;
}

// The tree is replaced only once the new one is whole: a file that fails
// to decode leaves the one shown as it was.
function loadTree(text) {
  progress('reading the tree', 0);
  const t = parseTyped(text, (f) => progress('reading the tree', f));
  tree = t;
  index = null;
  edited = false;
  treeVersion++;
  progress('done', 1);
}

function row(path, label, v, parent, extra) {
  const d = parent === undefined ? describe(v) : describeChild(parent, v);
  // The pointers of the scalars an edit replaces, as the typed JSON has them.
  if (d.editRel) d.editPointer = pointerOf(tree, path.concat(d.editRel));
  if (d.fields) for (const f of d.fields) f.pointer = pointerOf(tree, path.concat(f.rel));
  return { label, path, pointer: pointerOf(tree, path), ...d, ...extra };
}

function rootRow() {
  return row([], '(root)', tree);
}

function children(path, offset, count) {
  const v = at(tree, path);
  const k = kids(v);
  const out = [];
  const end = Math.min(k.count, offset + count);
  for (let i = offset; i < end; i++) {
    const c = k.child(i);
    const p = path.concat(c.rel);
    out.push(row(p, c.label, at(v, c.rel), v, { index: i, meta: !!c.meta }));
  }
  return { total: k.count, rows: out };
}

// Replaces the scalar at path (inside the row at the child numbers view)
// with the value the text gives; the search index learns the row's new text.
function edit(path, type, text, view) {
  if (path.length === 0) throw new EditError('the root is not a leaf');
  const value = parseEdit(type, text);
  const parent = at(tree, path.slice(0, -1));
  const last = path[path.length - 1];
  if (Array.isArray(parent)) parent[last] = value;
  else parent.vals[last] = value;
  edited = true;
  treeVersion++;
  if (index && view && view.length) index.update(tree, view);
  return { value: editText(value) };
}

// Search (search.js): the index of the tree, built by the first search and
// kept until the tree is replaced. A new search, a cancel, an edit or a new
// tree stops the one running (searchToken, treeVersion).
let index = null;
let searchToken = 0;
let treeVersion = 0;

async function search(id, query, max) {
  const mine = ++searchToken;
  const version = treeVersion;
  const wanted = () => searchToken === mine && treeVersion === version;
  // \x00 and \x01 separate the entries' texts: a query cannot hold them.
  const q = query.toLowerCase().replace(/[\x00\x01]/g, '');
  const t0 = performance.now();
  let buildMs = null;
  if (!index) {
    const built = new SearchIndex();
    progress('indexing for search', 0);
    const ok = await built.build(tree, wanted, (n) => progress(`indexing for search: ${n.toLocaleString('en')} values`, 0));
    progress('done', 1);
    if (!ok) return { count: 0, status: 'cancelled' };
    index = built;
    buildMs = performance.now() - t0;
  }
  const t1 = performance.now();
  let count = 0;
  const status = q === '' ? 'done' : await index.search(q, max, wanted, (entries) => {
    const hits = entries.map((e) => {
      const viewIdx = index.viewPath(e);
      const { path, label, value } = resolveView(tree, viewIdx);
      return { path, viewIdx, pointer: pointerOf(tree, path), label, value: summary(value, 60) };
    });
    count += hits.length;
    postMessage({ searchHits: { id, hits } });
  });
  return { count, status, entries: index.count, buildMs, scanMs: performance.now() - t1 };
}

// Detects and decodes the bytes of a file (or of a package member).
function openBytes(data, name, format) {
  progress('detecting the format', 0);
  const candidates = detect(data, name);
  const chosen = format || (candidates[0] && candidates[0].name);
  if (!chosen) {
    bytes = data; // kept for the format the user picks
    tree = null;
    return { name, size: data.length, candidates, format: null };
  }
  progress(`decoding as ${chosen}`, 0);
  let text;
  try {
    text = decodeToText(chosen, data);
  } catch (e) {
    if (format) throw e; // the user's choice: the file shown stays
    // The detected format's guess failed (a prefix of one format can be a
    // whole file of another): the bytes are kept for the format the user
    // picks next.
    bytes = data;
    tree = null;
    return { name, size: data.length, candidates, format: null, failed: `${chosen}: ${e.message}` };
  }
  loadTree(text);
  bytes = data;
  return { name, size: data.length, candidates, format: chosen, root: rootRow() };
}

// ---- KingsIsle type lists ---------------------------------------------------
// The library keeps one merged type list for every kingsisle and
// kingsisle-xml decode and encode. Changing it reads the open KingsIsle file
// again: its bytes as they are now (with the edits made, written with the
// list they were read with), decoded with the new list. If that fails, the
// list before comes back and the tree stays as it was.

// Gives the library the files as its type list (none: schema-less).
function useTypes(files) {
  if (files.length === 0) {
    wasm._svw_types_clear();
    return null;
  }
  const ptrs = [];
  try {
    for (const f of files) {
      const p = wasm._malloc(Math.max(1, f.data.length));
      if (!p) throw new Error('out of memory for the type list');
      ptrs.push(p);
      wasm.HEAPU8.set(f.data, p);
      ptrs.push(cstr(f.name));
    }
    const n = files.length;
    const table = wasm._malloc(12 * n);
    ptrs.push(table);
    const u32 = new Uint32Array(wasm.HEAPU8.buffer, table, 3 * n);
    files.forEach((f, i) => {
      u32[i] = ptrs[2 * i];
      u32[n + i] = f.data.length;
      u32[2 * n + i] = ptrs[2 * i + 1];
    });
    callOk(wasm._svw_types_load(table, table + 4 * n, table + 8 * n, n));
  } finally {
    for (const p of ptrs) wasm._free(p);
  }
  return JSON.parse(new TextDecoder().decode(takeOutput()));
}

// Switches to the type list files; format is the open file's (as the page
// reads and writes it).
function changeTypes(files, format) {
  const redecode = tree && bytes && KINGSISLE.has(format);
  // The file as it is now, with the type list it was read with.
  const source = redecode && edited ? encodeFromPieces(format, writeTyped(tree), 0) : bytes;
  progress('reading the type list', 0);
  const info = useTypes(files);
  if (redecode) {
    try {
      progress(`decoding as ${format}`, 0);
      loadTree(decodeToText(format, source));
    } catch (e) {
      useTypes(typeFiles);
      throw new Error(`${e.message} (the type list before stays in use)`);
    }
  }
  typeFiles = files;
  typeInfo = info;
  return { types: typesShown(), root: redecode ? rootRow() : null };
}

function typesShown() {
  return typeFiles.length ? { names: typeFiles.map((f) => f.name), ...typeInfo } : null;
}

const ops = {
  async init() {
    const b = atob(SERVAL_WASM_BASE64);
    const wasmBinary = new Uint8Array(b.length);
    for (let i = 0; i < b.length; i++) wasmBinary[i] = b.charCodeAt(i);
    wasm = await createServal({ wasmBinary });
    callOk(wasm._svw_formats());
    formats = JSON.parse(new TextDecoder().decode(takeOutput()));
    return { formats };
  },
  async open({ file, format }) {
    progress('reading the file', 0);
    const data = new Uint8Array(await file.arrayBuffer());
    const members = format ? null : packageMembers(data);
    const wad = format || members ? null : wadMembers(data);
    const pck = format || members || wad ? null : pckMembers(data);
    if (members || wad || pck) {
      // An archive: its first data tree (a .wad: ObjectProperty member, a
      // .pck: Godot resource or Variant member) is shown, the others are a
      // click away.
      const arc = wad || pck;
      const archive = arc ? arc.archive : { kind: 'resonitepackage' };
      const list = arc ? arc.members : members;
      const read = wad ? wadMember : pck ? pckMember : packageMember;
      const first = wad ? firstMemberOf(data, list, read, KINGSISLE)
        : pck ? firstMemberOf(data, list, read, GODOT_TREES) : list.findIndex((m) => m.tree);
      pkg = { data, members: list, read, archive };
      if (first < 0) {
        bytes = null;
        tree = null;
        return { name: file.name, size: data.length, candidates: [], format: null, members: list, archive };
      }
      return { ...openBytes(pkg.read(data, first), list[first].name), members: list, member: first, archive };
    }
    pkg = null;
    return openBytes(data, file.name, format);
  },
  async openMember({ index }) {
    if (!pkg || !pkg.members[index]) throw new Error('no such archive member');
    const m = pkg.members[index];
    return { ...openBytes(pkg.read(pkg.data, index), m.name), members: pkg.members, member: index, archive: pkg.archive };
  },
  memberBytes({ index }) {
    if (!pkg || !pkg.members[index]) throw new Error('no such archive member');
    return pkg.read(pkg.data, index);
  },
  async reopen({ format }) {
    progress(`decoding as ${format}`, 0);
    loadTree(decodeToText(format, bytes));
    return { format, root: rootRow() };
  },
  async importJson({ file }) {
    progress('reading the file', 0);
    const data = new Uint8Array(await file.arrayBuffer());
    // The library checks the text first: its errors name line and column.
    encodeFromPieces('json', [data], 0);
    loadTree(new TextDecoder().decode(data));
    bytes = null;
    return { name: file.name, size: data.length, root: rootRow() };
  },
  // Adds type list files after the ones in use (a class in a later file
  // replaces one of the same hash).
  async typesAdd({ files, format }) {
    progress('reading the type list', 0);
    const added = [];
    for (const f of files) added.push({ name: f.name, data: new Uint8Array(await f.arrayBuffer()) });
    return changeTypes(typeFiles.concat(added), format);
  },
  typesClear({ format }) {
    return changeTypes([], format);
  },
  children({ path, offset, count }) {
    return children(path, offset || 0, count || PAGE);
  },
  edit({ path, type, text, view }) {
    return edit(path, type, text, view);
  },
  search({ id, query, max }) {
    return search(id, query, max || 200);
  },
  cancelSearch() {
    searchToken++;
    return true;
  },
  encode({ format }) {
    progress(`writing ${format}`, 0);
    const out = encodeFromPieces(format, writeTyped(tree), 0);
    progress('done', 1);
    return out;
  },
  exportJson() {
    progress('writing typed JSON', 0);
    const out = encodeFromPieces('json', writeTyped(tree), 2);
    progress('done', 1);
    return out;
  },
};

onmessage = async (e) => {
  const { id, op } = e.data;
  try {
    const result = await ops[op](e.data);
    const transfer = result instanceof Uint8Array ? [result.buffer] : [];
    postMessage({ id, ok: true, result }, transfer);
  } catch (err) {
    postMessage({ id, ok: false, error: err && err.message ? err.message : String(err), edit: err instanceof EditError });
  }
};
