// The viewer page: file opening and dropping, the format choice, the tree
// (rows made only when their parent is expanded, a page of children at a
// time), search, the JSON Pointer of the selected row, leaf editing, and
// the downloads. All the work on the file happens in the Web Worker.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const PAGE = 100;

  const workerUrl = URL.createObjectURL(new Blob([$('worker-src').textContent], { type: 'text/javascript' }));
  const worker = new Worker(workerUrl);
  let nextId = 1;
  const pending = new Map();
  worker.onmessage = (e) => {
    const m = e.data;
    if (m.progress) {
      showProgress(m.progress);
      return;
    }
    if (m.searchHits) {
      searchHits(m.searchHits);
      return;
    }
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.ok) p.resolve(m.result);
    else p.reject(Object.assign(new Error(m.error), { edit: m.edit }));
  };
  // A request to the worker: its id and the promise of its answer.
  function request(op, args = {}) {
    const id = nextId++;
    const promise = new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, op, ...args });
    });
    return { id, promise };
  }
  function call(op, args = {}) {
    return request(op, args).promise;
  }

  const state = {
    formats: [],
    name: null,
    format: null, // read as, and written as
    fromBytes: false, // a file (not typed JSON import) is open: a format change decodes it again
    selected: null,
    root: null,
    busy: false,
    ready: false, // the library has started in the worker
  };
  // For tests and measurements: the last load's time in ms, a counter of
  // finished operations, and of finished type list changes (done or refused).
  window.servalViewer = { loadMs: null, loads: 0, progressSeen: 0, lastSearch: null, searchUpdates: 0, typeChanges: 0 };

  function showProgress({ stage, fraction }) {
    $('progress-box').hidden = false;
    $('stage').textContent = stage;
    $('progress').value = fraction;
    window.servalViewer.progressSeen++;
  }
  function hideProgress() {
    $('progress-box').hidden = true;
  }
  function message(text) {
    $('message').textContent = text || '';
    $('message').hidden = !text;
  }
  function status(text) {
    $('status').textContent = text;
  }
  function sizeText(n) {
    return n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} bytes`;
  }

  async function busy(fn) {
    state.busy = true;
    document.body.classList.add('busy');
    try {
      return await fn();
    } catch (e) {
      message(e.message);
      return undefined;
    } finally {
      state.busy = false;
      document.body.classList.remove('busy');
      hideProgress();
    }
  }

  // ---- formats ---------------------------------------------------------------
  function fillFormats(candidates) {
    const sel = $('format-select');
    sel.textContent = '';
    const score = new Map((candidates || []).map((c) => [c.name, c.score]));
    for (const f of state.formats) {
      const o = document.createElement('option');
      o.value = f.name;
      o.textContent = f.name + (score.has(f.name) ? ` (detected, ${score.get(f.name)})` : '') + (f.writes ? '' : ' (read only)');
      o.title = f.description;
      sel.appendChild(o);
    }
    sel.value = state.format || '';
    sel.disabled = false;
  }

  function showCandidates(candidates, chosen) {
    const box = $('candidates');
    box.textContent = '';
    const others = candidates.filter((c) => c.name !== chosen);
    if (chosen && others.length === 0) {
      box.hidden = true;
      return;
    }
    const text = document.createElement('span');
    if (!chosen) {
      text.textContent = 'No format recognised this file. Read it as:';
    } else {
      const list = candidates.map((c) => `${c.name} (score ${c.score})`).join(', ');
      text.textContent = `This file fits several formats: ${list}. Shown as ${chosen}; read it as:`;
    }
    box.appendChild(text);
    const names = chosen ? others.map((c) => c.name) : state.formats.map((f) => f.name);
    for (const name of names) {
      const b = document.createElement('button');
      b.textContent = name;
      b.dataset.format = name;
      b.onclick = () => reopen(name);
      box.appendChild(b);
    }
    box.hidden = false;
  }

  function writable() {
    const f = state.formats.find((x) => x.name === state.format);
    return !!(f && f.writes);
  }

  function enableTools(on) {
    $('download').disabled = !(on && writable());
    $('export-json').disabled = !on;
    $('search').disabled = !on;
  }

  // ---- opening ------------------------------------------------------------------
  // The worker starts the WebAssembly library (init, libraryReady below) while
  // the page already takes files: one chosen or dropped before the library
  // runs waits for it, "loading…" meanwhile, and only the last one chosen
  // opens. False when the library did not start (the message says why) or a
  // later file was chosen.
  let picks = 0;
  async function whenReady(name) {
    const pick = ++picks;
    if (!state.ready) status(`loading… ${name} opens once the library has started.`);
    const ok = await libraryReady;
    return ok && pick === picks;
  }

  async function openFile(file) {
    message('');
    if (!(await whenReady(file.name))) return;
    const t0 = performance.now();
    const r = await busy(() => call('open', { file }));
    if (!r) return;
    showMembers(file.name, r.members, r.member, r.archive);
    await shown(r, t0);
  }

  // What open and openMember give: the file (or member) read, or its
  // candidates when no format recognised it.
  async function shown(r, t0) {
    state.name = r.name.replace(/^.*\//, '');
    state.format = r.format;
    state.fromBytes = true;
    fillFormats(r.candidates);
    showCandidates(r.candidates, r.format);
    if (!r.format && r.members && r.member === undefined) {
      clearTree();
      enableTools(false);
      status(`${r.name}, ${sizeText(r.size)}: choose a member to open`);
      return;
    }
    if (!r.format) {
      clearTree();
      enableTools(false);
      status(r.failed ? `${r.name}, ${sizeText(r.size)}: not read as ${r.failed}; choose a format`
        : `${r.name}, ${sizeText(r.size)}: format not recognised`);
      return;
    }
    await showRoot(r.root);
    loaded(t0, `${r.name}, ${sizeText(r.size)}, read as ${r.format}`);
  }

  // A .resonitepackage, a KIWAD .wad or a Godot .pck: a button per member; the one shown
  // is disabled. A .wad whose version is above the known 1 and 2 is read as
  // version 2, and the line says so.
  function showMembers(pkgName, members, current, archive) {
    const box = $('members');
    box.textContent = '';
    box.hidden = !members;
    state.archiveName = members ? pkgName : null;
    if (!members) return;
    const count = `${members.length} member${members.length === 1 ? '' : 's'}`;
    const wad = archive && archive.kind === 'kiwad';
    const pck = archive && archive.kind === 'godot-pck';
    const what = wad
      ? `a KIWAD archive (version ${archive.version}${archive.version > 2 ? ', not one of the known 1 and 2: read as version 2' : ''}) of ${count}`
      : pck ? `a Godot ${archive.godot} pack (format ${archive.version}${archive.embedded ? ', appended to an executable' : ''}) of ${count}`
        : `a package of ${count}`;
    box.appendChild(span('', `${pkgName} is ${what}; open:`));
    members.forEach((m, i) => {
      const b = document.createElement('button');
      b.textContent = `${m.name} (${sizeText(m.size)}${m.tree ? ', data tree' : ''}${m.unpatched ? ', unpatched: not downloaded' : ''}` +
        `${m.encrypted ? ', encrypted: needs a key' : ''}${m.removal ? ', removal entry' : ''})`;
      b.dataset.member = String(i);
      b.disabled = i === current;
      b.onclick = () => openMember(pkgName, i);
      box.appendChild(b);
    });
  }

  async function openMember(pkgName, index) {
    message('');
    const t0 = performance.now();
    const r = await busy(() => call('openMember', { index }));
    if (!r) return;
    showMembers(pkgName, r.members, r.member, r.archive);
    await shown(r, t0);
  }

  async function reopen(format) {
    message('');
    const t0 = performance.now();
    const r = await busy(() => call('reopen', { format }));
    if (!r) {
      $('format-select').value = state.format || '';
      return;
    }
    state.format = format;
    $('format-select').value = format;
    const prev = [...$('candidates').querySelectorAll('button')];
    if (prev.length) prev.forEach((b) => { b.disabled = b.dataset.format === format; });
    await showRoot(r.root);
    loaded(t0, `${state.name}, read as ${format}`);
  }

  async function importJson(file) {
    message('');
    if (!(await whenReady(file.name))) return;
    const t0 = performance.now();
    const r = await busy(() => call('importJson', { file }));
    if (!r) return;
    state.name = r.name.replace(/\.json$/i, '');
    state.fromBytes = false;
    if (!state.format) state.format = 'json';
    fillFormats([]);
    $('candidates').hidden = true;
    $('members').hidden = true;
    await showRoot(r.root);
    loaded(t0, `${r.name}, ${sizeText(r.size)}, typed JSON; written as ${state.format}`);
  }

  function loaded(t0, text) {
    const ms = performance.now() - t0;
    window.servalViewer.loadMs = ms;
    window.servalViewer.loads++;
    enableTools(true);
    status(`${text} (${Math.round(ms)} ms)`);
  }

  // ---- KingsIsle type lists ----------------------------------------------------------
  // The worker keeps the type list; a change reads the open kingsisle or
  // kingsisle-xml file again with it (edits kept). Refused: the list and the
  // tree before stay, and the message says why.
  const KINGSISLE = new Set(['kingsisle', 'kingsisle-xml']);

  function showTypes(types) {
    $('types').hidden = !types;
    if (!types) return;
    const classes = `${types.classes} class${types.classes === 1 ? '' : 'es'}`;
    $('types-text').textContent = `KingsIsle type list in use: ${types.names.join(' + ')} (${types.kinds.join(', ')}; ${classes})`;
  }

  async function changeTypes(op, args) {
    message('');
    const t0 = performance.now();
    const format = state.format;
    const r = await busy(() => call(op, { ...args, format }));
    if (r) {
      showTypes(r.types);
      const what = r.types ? `with the type list ${r.types.names.join(' + ')}` : 'without a type list';
      if (r.root) {
        await showRoot(r.root);
        loaded(t0, `${state.name}, read as ${format} ${what}`);
      } else {
        status(r.types ? `Type list ${r.types.names.join(' + ')} loaded: KingsIsle files are read and written with it.`
          : 'Type list removed: KingsIsle files are read without one.');
      }
    }
    window.servalViewer.typeChanges++;
  }

  // ---- the tree ---------------------------------------------------------------------
  function clearTree() {
    $('tree').textContent = '';
    $('pointer').textContent = '';
    $('search-results').hidden = true;
    if (activeSearch) stopSearch();
    state.selected = null;
  }

  async function showRoot(rootRow) {
    clearTree();
    const node = makeNode(rootRow, 0);
    state.root = node;
    $('tree').appendChild(node.el);
    if (node.row.count) await expand(node);
  }

  // A node: its row element, and a box for its children once expanded.
  function makeNode(row, depth) {
    const node = { row, depth, expanded: false, shown: 0, total: 0, children: [] };
    const el = document.createElement('div');
    const line = document.createElement('div');
    line.className = 'row' + (row.meta ? ' meta' : '');
    line.style.paddingLeft = `${14 + depth * 18}px`;
    line.dataset.pointer = row.pointer;
    const toggle = document.createElement('span');
    toggle.className = 'toggle';
    toggle.textContent = row.count ? '▸' : '';
    toggle.onclick = (e) => {
      e.stopPropagation();
      if (row.count) (node.expanded ? collapse(node) : expand(node));
    };
    line.appendChild(toggle);
    line.appendChild(span('label', row.label));
    line.appendChild(span('type', row.type));
    if (row.swatch) {
      const sw = span('swatch', '');
      const inner = span('', '');
      inner.style.background = row.swatch;
      sw.appendChild(inner);
      line.appendChild(sw);
    }
    if (row.fields) {
      for (const f of row.fields) {
        line.appendChild(span('field', f.label));
        line.appendChild(editor(row.path.concat(f.rel), f.edit, f.value, node, f.pointer));
      }
    } else if (row.edit) {
      line.appendChild(editor(row.path.concat(row.editRel), row.edit, row.value, node, row.editPointer));
    } else if (row.value !== undefined) {
      line.appendChild(span('value', row.value));
    }
    if (row.count !== undefined && !row.fields) line.appendChild(span('count', `${row.count} item${row.count === 1 ? '' : 's'}`));
    line.onclick = () => select(node);
    line.ondblclick = () => { if (row.count) (node.expanded ? collapse(node) : expand(node)); };
    el.appendChild(line);
    const box = document.createElement('div');
    box.hidden = true;
    el.appendChild(box);
    node.el = el;
    node.line = line;
    node.toggle = toggle;
    node.box = box;
    return node;
  }

  function span(cls, text) {
    const s = document.createElement('span');
    if (cls) s.className = cls;
    s.textContent = text;
    return s;
  }

  // An input for one scalar: checked by the worker against its type.
  function editor(path, type, value, node, pointer) {
    const input = document.createElement('input');
    input.className = 'edit' + (type === 'string' || type === 'bytes' || type === 'str' ? ' wide' : '');
    input.value = value;
    input.dataset.type = type;
    input.dataset.pointer = pointer;
    input.title = `type: ${type}`;
    let committed = value;
    input.onclick = (e) => { e.stopPropagation(); select(node); };
    input.onkeydown = (e) => {
      if (e.key === 'Enter') input.blur();
      if (e.key === 'Escape') { input.value = committed; input.blur(); }
    };
    input.onchange = async () => {
      try {
        const r = await call('edit', { path, type, text: input.value, view: viewOf(node) });
        committed = type === 'string' ? input.value : r.value;
        input.value = committed;
        input.classList.remove('invalid');
        input.classList.add('edited');
        message('');
        status(`Edited ${node.row.pointer || '/'}; download to save the file.`);
      } catch (e) {
        input.classList.add('invalid');
        message(`Not changed: ${e.message}`);
      }
    };
    return input;
  }

  async function expand(node) {
    node.expanded = true;
    node.toggle.textContent = '▾';
    node.box.hidden = false;
    if (node.shown === 0) await more(node);
  }

  function collapse(node) {
    node.expanded = false;
    node.toggle.textContent = '▸';
    node.box.hidden = true;
  }

  // The next page of children.
  async function more(node, count = PAGE) {
    const r = await call('children', { path: node.row.path, offset: node.shown, count });
    node.total = r.total;
    if (node.moreEl) node.moreEl.remove();
    for (const row of r.rows) {
      const child = makeNode(row, node.depth + 1);
      child.parent = node;
      node.children.push(child);
      node.box.appendChild(child.el);
    }
    node.shown += r.rows.length;
    if (node.shown < node.total) {
      const div = document.createElement('div');
      div.className = 'more';
      div.style.paddingLeft = `${32 + node.depth * 18}px`;
      const b = document.createElement('button');
      b.textContent = `show ${Math.min(PAGE, node.total - node.shown)} more (${node.shown} of ${node.total})`;
      b.onclick = () => more(node);
      div.appendChild(b);
      node.box.appendChild(div);
      node.moreEl = div;
    }
  }

  function select(node) {
    if (state.selected) state.selected.line.classList.remove('selected');
    state.selected = node;
    node.line.classList.add('selected');
    $('pointer').textContent = node.row.pointer === '' ? '(root: empty pointer)' : node.row.pointer;
  }

  // The child numbers from the root down to node.
  function viewOf(node) {
    const out = [];
    for (let n = node; n.parent; n = n.parent) out.push(n.row.index);
    return out.reverse();
  }

  // Expands the tree down a search result's view indices and selects it.
  async function reveal(viewIdx) {
    let node = state.root;
    for (const i of viewIdx) {
      if (!node.expanded) await expand(node);
      // the pages up to the child, in one request
      if (node.shown <= i && node.shown < node.total) await more(node, Math.ceil((i + 1 - node.shown) / PAGE) * PAGE);
      node = node.children[i];
    }
    select(node);
    node.line.scrollIntoView({ block: 'center' });
  }

  // ---- search ---------------------------------------------------------------------------
  // The worker sends hits as it finds them (searchHits); a new search, the
  // stop button or Escape stops the one running.
  let activeSearch = null;

  function searchHeadText(s, status) {
    const n = `${s.count}${status === 'max' ? '+' : ''} match${s.count === 1 ? '' : 'es'}`;
    if (status === undefined) return `Searching… ${n} so far`;
    if (status === 'cancelled') return `${n}; the search was stopped`;
    if (s.count === 0) return `No key or value contains "${s.query}".`;
    return n;
  }

  async function search(query) {
    const box = $('search-results');
    box.textContent = '';
    if (activeSearch) stopSearch();
    if (!query) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const head = document.createElement('div');
    head.className = 'search-head';
    box.appendChild(head);
    const { id, promise } = request('search', { query, max: 200 });
    const s = { id, query, head, count: 0 };
    activeSearch = s;
    head.textContent = searchHeadText(s);
    $('search-stop').hidden = false;
    let r = null;
    try {
      r = await promise;
    } catch (e) {
      message(e.message);
    }
    if (activeSearch === s) {
      activeSearch = null;
      $('search-stop').hidden = true;
    }
    hideProgress();
    if (!r) return;
    head.textContent = searchHeadText(s, r.status);
    window.servalViewer.lastSearch = { query, ...r };
  }

  function searchHits({ id, hits }) {
    const s = activeSearch;
    if (!s || s.id !== id) return;
    const box = $('search-results');
    for (const hit of hits) {
      const d = document.createElement('div');
      d.className = 'hit';
      d.textContent = `${hit.pointer}  ${hit.value}`;
      d.onclick = () => reveal(hit.viewIdx);
      box.appendChild(d);
    }
    s.count += hits.length;
    s.head.textContent = searchHeadText(s);
    window.servalViewer.searchUpdates++;
  }

  function stopSearch() {
    activeSearch = null;
    $('search-stop').hidden = true;
    call('cancelSearch');
  }

  // ---- downloads --------------------------------------------------------------------------
  function save(bytes, name) {
    const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  function outName() {
    const f = state.formats.find((x) => x.name === state.format);
    const ext = f && f.extensions.length ? f.extensions[0] : null;
    if (!state.fromBytes && ext) return `${state.name}.${ext}`;
    return state.name;
  }

  // The bytes the Download button saves: the tree written as the format
  // shown (undefined when the library refuses it; the message says why).
  function encodeShown() {
    message('');
    return busy(() => call('encode', { format: state.format }));
  }

  async function download() {
    const out = await encodeShown();
    if (out) {
      save(out, outName());
      status(`Wrote ${outName()} as ${state.format}, ${sizeText(out.length)}.`);
    }
  }

  async function exportJson() {
    message('');
    const out = await busy(() => call('exportJson'));
    if (out) save(out, `${state.name}.json`);
  }

  // ---- wiring ------------------------------------------------------------------------------
  $('file-input').onchange = (e) => {
    if (e.target.files[0]) openFile(e.target.files[0]);
    e.target.value = '';
  };
  $('import-input').onchange = (e) => {
    if (e.target.files[0]) importJson(e.target.files[0]);
    e.target.value = '';
  };
  $('types-input').onchange = (e) => {
    const files = [...e.target.files];
    if (files.length) changeTypes('typesAdd', { files });
    e.target.value = '';
  };
  $('types-remove').onclick = () => changeTypes('typesClear');
  $('format-select').onchange = (e) => {
    const name = e.target.value;
    if (state.fromBytes) {
      reopen(name);
    } else {
      state.format = name;
      enableTools(true);
    }
  };
  $('download').onclick = download;
  $('export-json').onclick = exportJson;
  $('search').onkeydown = (e) => {
    if (e.key === 'Enter') search(e.target.value);
    if (e.key === 'Escape' && activeSearch) stopSearch();
  };
  $('search-stop').onclick = stopSearch;
  document.addEventListener('dragover', (e) => {
    e.preventDefault();
    document.body.classList.add('dragging');
  });
  document.addEventListener('dragleave', () => document.body.classList.remove('dragging'));
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    document.body.classList.remove('dragging');
    const f = e.dataTransfer.files[0];
    if (f) openFile(f);
  });

  // For tests: the steps the Open button, the format choice, the Type list
  // buttons and the Download button take, without the file dialogs and the
  // save, so a test can pass thousands of files through them in one page
  // load. Each resolves when the page shows the result; refusals show in
  // #message as they do for a user.
  window.servalViewer.steps = {
    open: (file) => openFile(file),
    readAs: (format) => reopen(format),
    addTypes: (files) => changeTypes('typesAdd', { files }),
    removeTypes: () => changeTypes('typesClear'),
    format: () => state.format,
    message: () => ($('message').hidden ? '' : $('message').textContent),
    download: () => encodeShown(),
    // An archive's members as their buttons say them; opening member index.
    members: () => ($('members').hidden ? null : [...$('members').querySelectorAll('button')].map((b) => b.textContent)),
    openMember: (index) => openMember(state.archiveName, index),
    // The bytes of member index as the library reads them from the archive.
    memberBytes: (index) => call('memberBytes', { index }),
  };

  const libraryReady = call('init').then((r) => {
    state.formats = r.formats;
    state.ready = true;
    fillFormats([]);
    $('format-select').disabled = true;
    $('types-button').hidden = !r.formats.some((f) => KINGSISLE.has(f.name));
    document.body.dataset.ready = '1';
    return true;
  }, (e) => {
    message(`The library did not start: ${e.message}`);
    return false;
  });
})();
