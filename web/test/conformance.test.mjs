// The viewer in the conformance suite: every test vector the command reads
// back byte for byte (the list of tests/conformance/run.sh), and the real
// samples when ../shared/samples is beside the checkout, opened in the page
// and downloaded untouched must be the input itself.
//
// One page load. Each file goes through the page's own steps
// (window.servalViewer.steps: what the Open button, the format choice, the
// Type list buttons and the Download button do, without the file dialogs
// and the save): the worker decodes it, the page shows its tree, the worker
// writes the tree back. A file the page detects as another format is read
// as the vector's format through the format choice, as a user would.
//
// A vector that needs a reader option the page has no control for is
// listed as skipped with that option, not dropped.
//
// KIWAD archives (tests/vectors/kiwad/, the samples' kiwad/) are not read
// as one format: the page lists their members, which must be the command's
// list (or the archive refused with the command's reason), and every member
// is opened from the list.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { CLI, ROOT, SAMPLES, TMP, launch, openViewer } from './helpers.mjs';

const V = path.join(ROOT, 'tests/vectors');

// Bytes the engine ignores after a value: refused without trailing=allow,
// which drops them, so no path gives them back.
const TRAILING = new Set(['dec_rid_extra', 'dec_int_trailing', 'v3_dec_rid_extra', 'v3_dec_trailing', 'dec4_rid_trailing']);

// The page reads every file with the format's default options: it has a
// format choice and a KingsIsle type list, and no control for the rest.
const NO_CONTROL = 'the page has no control for the reader option';

function tsvRows(file) {
  return fs.readFileSync(file, 'utf8').split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split('\t'));
}

// Options "a=b,c=d" (or "-") as [[a, b], ...].
function splitOpts(s) {
  return s === '-' ? [] : s.split(',').map((kv) => kv.split('='));
}

function skipFor(opts) {
  return opts.length ? `${NO_CONTROL}${opts.length > 1 ? 's' : ''} ${opts.map(([k, v]) => `${k}=${v}`).join(', ')}` : null;
}

// Every case: {label, name (the file name the page is given), format,
// bytes, types (a type list file or null), skip}.
function cases() {
  const out = [];
  const add = (label, format, bytes, opts = [], types = null) => {
    const file = label.replace(/ \(.*\)$/, '').replace(/^.*\//, '');
    const name = format.startsWith('godot') && format !== 'godot-res' ? `${file}.bin` : file;
    out.push({ label, name, format, bytes, types, skip: skipFor(opts) });
  };
  // Godot resources (as tests/conformance/run.sh walks them). Compressed ones
  // (RSCC) need zlib and zstd in WebAssembly (scripts/install-web-deps.sh;
  // run.sh sets SERVAL_WEB_RSCC=1 when the page was built with them): without
  // them they are listed as skipped.
  const RSCC = process.env.SERVAL_WEB_RSCC === '1' ? null
    : 'the page is built without compressed resources (RSCC: no zlib and zstd for WebAssembly; scripts/install-web-deps.sh builds them)';
  const resDirs = [path.join(V, 'godot-res/v3'), path.join(V, 'godot-res/v4'), path.join(V, 'godot-res/brotli4'),
    path.join(SAMPLES, 'godot-res')];
  for (const d of resDirs.filter((x) => fs.existsSync(x))) {
    for (const f of fs.readdirSync(d).filter((n) => /\.(res|scn)$/.test(n)).sort()) {
      const bytes = fs.readFileSync(path.join(d, f));
      const label = `${d.startsWith(SAMPLES) ? 'samples/' : ''}godot-res/${path.basename(d) === 'godot-res' ? '' : path.basename(d) + '/'}${f}`;
      out.push({ label, name: f, format: 'godot-res', bytes, types: null,
        skip: bytes.subarray(0, 4).toString('latin1') === 'RSCC' ? RSCC : null });
    }
  }

  // Godot oracle vectors: written by the engine (enc), engine bytes with
  // NodePath pad garbage (encnp), bytes the engine reads (dec).
  for (const [dir, format] of [['oracle', 'godot3'], ['oracle4', 'godot4']]) {
    for (const [name, kind, opts] of tsvRows(path.join(V, 'godot', dir, 'index.tsv'))) {
      if (!['enc', 'encnp', 'dec'].includes(kind) || TRAILING.has(name)) continue;
      add(`${dir}/${name}`, format, fs.readFileSync(path.join(V, 'godot', dir, `${name}.bin`)), splitOpts(opts));
    }
  }
  // Published and layout-rule rows, and @gd-com/utils': the bytes are the hex column.
  for (const dir of ['spec', 'gdcom']) {
    for (const [name, format, opts, , kind, hex] of tsvRows(path.join(V, 'godot', dir, 'index.tsv'))) {
      if (!['enc', 'dec'].includes(kind) || TRAILING.has(name)) continue;
      add(`${dir}/${name}`, format, Buffer.from(hex.replace(/ /g, ''), 'hex'), splitOpts(opts));
    }
  }
  const filesOf = (dir, re) => fs.readdirSync(dir).filter((n) => re.test(n)).sort();
  for (const f of filesOf(path.join(V, 'bson'), /\.bson$/)) add(`bson/${f}`, 'bson', fs.readFileSync(path.join(V, 'bson', f)));
  for (const f of filesOf(path.join(V, 'resonite'), /\.(brson|7zbson|lz4bson)$/)) add(`resonite/${f}`, 'resonite', fs.readFileSync(path.join(V, 'resonite', f)));
  for (const f of filesOf(path.join(V, 'noesis'), /\.nsb$/)) add(`noesis/${f}`, 'noesis', fs.readFileSync(path.join(V, 'noesis', f)));

  const kv = (f) => fs.readFileSync(path.join(V, 'kingsisle', f));
  const KT = path.join(V, 'kingsisle/tiny-types.json');
  add('kingsisle/tiny-shallow.bin', 'kingsisle', kv('tiny-shallow.bin'), [['shallow', 'true'], ['flags', '1'], ['property_mask', '7']], KT);
  add('kingsisle/tiny-deep.bin', 'kingsisle', kv('tiny-deep.bin'), [['flags', '1'], ['property_mask', '7']], KT);
  add('kingsisle/tiny-deep.bin (no type list)', 'kingsisle', kv('tiny-deep.bin'), [['flags', '1']]);
  add('kingsisle/tiny-deep-flags0.bin', 'kingsisle', kv('tiny-deep-flags0.bin'), [], KT);
  add('kingsisle/tiny-deep-flags0.bin (no type list)', 'kingsisle', kv('tiny-deep-flags0.bin'));
  add('kingsisle/tiny.bind', 'kingsisle', kv('tiny.bind'), [], KT);
  add('kingsisle/tiny.bind (no type list)', 'kingsisle', kv('tiny.bind'));
  add('kingsisle/tiny.xml', 'kingsisle-xml', kv('tiny.xml'), [], KT);
  add('kingsisle/tiny.xml (no type list)', 'kingsisle-xml', kv('tiny.xml'));

  if (fs.existsSync(SAMPLES)) {
    const s = (dir, re, format) => {
      const d = path.join(SAMPLES, dir);
      if (!fs.existsSync(d)) return;
      for (const f of filesOf(d, re)) add(`samples/${dir}/${f}`, format, fs.readFileSync(path.join(d, f)));
    };
    s('brson', /\.brson$/, 'resonite');
    s('noesis-nsb', /\.nsb$/, 'noesis');
    // katsuba's fixtures, each with its serializer options and katsuba's
    // type list; the options that differ from the reader's defaults are
    // the ones the page cannot give.
    const ks = path.join(SAMPLES, 'kingsisle');
    if (fs.existsSync(ks)) {
      const defaults = { shallow: false, compress: false, flags: 0, property_mask: 24 };
      for (const cfg of filesOf(ks, /\.config\.json$/)) {
        const bin = path.join(ks, cfg.replace(/\.config\.json$/, '.bin'));
        if (!fs.existsSync(bin)) continue;
        const opts = Object.entries(JSON.parse(fs.readFileSync(path.join(ks, cfg), 'utf8')))
          .filter(([k, v]) => defaults[k] !== v).map(([k, v]) => [k, String(v)]);
        add(`samples/kingsisle/${path.basename(bin)}`, 'kingsisle', fs.readFileSync(bin), opts, path.join(ks, 'types.json'));
      }
    }
  }
  return out;
}

// Runs cases in the page, in order; the type list is loaded (or removed)
// when a case needs another one than the page has. Gives per case
// {ok: true} or {ok: false, why}.
async function runInPage(page, batch) {
  return page.evaluate(async (list) => {
    const steps = window.servalViewer.steps;
    const bytesOf = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const results = [];
    for (const c of list) {
      const fail = (why) => results.push({ ok: false, why });
      if (c.typesName !== (window.conformanceTypes || null)) {
        if (window.conformanceTypes) await steps.removeTypes();
        if (c.typesName) await steps.addTypes([new File([bytesOf(c.typesB64)], c.typesName)]);
        if (steps.message()) {
          fail(`type list ${c.typesName}: ${steps.message()}`);
          window.conformanceTypes = undefined;
          continue;
        }
        window.conformanceTypes = c.typesName;
      }
      const input = bytesOf(c.b64);
      await steps.open(new File([input], c.name));
      if (steps.message()) { fail(`open: ${steps.message()}`); continue; }
      if (steps.format() !== c.format) {
        const detected = steps.format();
        await steps.readAs(c.format);
        if (steps.message()) { fail(`read as ${c.format} (detected: ${detected}): ${steps.message()}`); continue; }
      }
      const out = await steps.download();
      if (!out) { fail(`download refused: ${steps.message()}`); continue; }
      if (out.length === input.length && out.every((b, i) => b === input[i])) {
        results.push({ ok: true });
        continue;
      }
      let at = 0;
      while (at < out.length && at < input.length && out[at] === input[at]) at++;
      fail(`download differs from byte ${at} (${out.length} bytes, the input ${input.length})`);
    }
    return results;
  }, batch);
}

let context;
let page;

before(async () => {
  context = await launch();
  page = await openViewer(context);
});

after(async () => {
  if (context) await context.close();
  fs.rmSync(TMP, { recursive: true, force: true });
});

test('every vector and sample, opened in the page and downloaded untouched, is the input itself', { timeout: 600000 }, async (t) => {
  if (!fs.existsSync(SAMPLES)) t.diagnostic(`no ${SAMPLES}: the real samples are skipped`);
  const all = cases();
  const formats = await page.locator('#format-select option').evaluateAll((els) => els.map((e) => e.value));
  const counts = new Map();
  const tally = (format, what) => {
    if (!counts.has(format)) counts.set(format, { passed: 0, failed: 0, skipped: 0 });
    counts.get(format)[what]++;
  };
  const skipped = [];
  const failures = [];
  const run = [];
  for (const c of all) {
    const skip = c.skip || (formats.includes(c.format) ? null
      : `the page was built without ${c.format} (scripts/install-web-deps.sh builds its libraries)`);
    if (skip) {
      tally(c.format, 'skipped');
      skipped.push(`${c.label} (${c.format}): ${skip}`);
    } else {
      run.push(c);
    }
  }
  // Type lists change rarely: the cases without one first, then each list's.
  const typesKey = (c) => c.types || '';
  run.sort((a, b) => (typesKey(a) < typesKey(b) ? -1 : typesKey(a) > typesKey(b) ? 1 : 0));

  const t0 = Date.now();
  const BATCH = 100;
  for (let i = 0; i < run.length; i += BATCH) {
    const batch = run.slice(i, i + BATCH);
    const results = await runInPage(page, batch.map((c) => ({
      name: c.name,
      format: c.format,
      b64: Buffer.from(c.bytes).toString('base64'),
      typesName: c.types ? path.basename(c.types) : null,
      typesB64: c.types ? fs.readFileSync(c.types).toString('base64') : null,
    })));
    results.forEach((r, k) => {
      const c = batch[k];
      tally(c.format, r.ok ? 'passed' : 'failed');
      if (!r.ok) failures.push(`${c.label} (${c.format}): ${r.why}`);
    });
  }
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);

  t.diagnostic('format          passed  failed  skipped');
  for (const [format, n] of [...counts].sort()) {
    t.diagnostic(`${format.padEnd(14)} ${String(n.passed).padStart(7)} ${String(n.failed).padStart(7)} ${String(n.skipped).padStart(8)}`);
  }
  t.diagnostic(`${run.length} files through the page in ${seconds} s`);
  for (const s of skipped) t.diagnostic(`skipped: ${s}`);
  assert.deepEqual(page.errors, [], 'no script error in the page');
  assert.deepEqual(failures, [], `${failures.length} of ${run.length} files do not come back byte for byte`);
  assert.ok(run.length > 1000, `${run.length} files run`);
});

// Every .wad of tests/vectors/kiwad/ and of the samples (subfolders too).
function wadFiles() {
  const out = [];
  const walk = (dir, label) => {
    if (!fs.existsSync(dir)) return;
    for (const n of fs.readdirSync(dir).sort()) {
      const p = path.join(dir, n);
      if (fs.statSync(p).isDirectory()) walk(p, `${label}/${n}`);
      else if (n.endsWith('.wad')) out.push({ label: `${label}/${n}`, file: p });
    }
  };
  walk(path.join(V, 'kiwad'), 'kiwad');
  walk(path.join(SAMPLES, 'kiwad'), 'samples/kiwad');
  return out;
}

// What the command says after "serval: FILE: ".
const reasonOf = (run) => run.stderr.toString('utf8').trim().split('\n').pop().replace(/^serval: [^:]*: /, '');

test('every .wad vector and sample: the members the command lists; each ObjectProperty member downloads as serval writes the bytes wad cat gives', { timeout: 600000 }, async (t) => {
  const formats = await page.locator('#format-select option').evaluateAll((els) => els.map((e) => e.value));
  if (!formats.includes('kingsisle')) return t.skip('the page was built without kingsisle (scripts/install-web-deps.sh builds its libraries)');
  if (!fs.existsSync(path.join(SAMPLES, 'kiwad'))) t.diagnostic(`no ${SAMPLES}/kiwad: the real archives are skipped`);
  await page.evaluate(async () => {
    if (window.conformanceTypes) await window.servalViewer.steps.removeTypes();
    window.conformanceTypes = undefined;
  });
  const failures = [];
  let archives = 0;
  let listed = 0;
  let compared = 0;
  for (const { label, file } of wadFiles()) {
    archives++;
    const list = spawnSync(CLI, ['kingsisle', 'wad', 'list', file]);
    const r = await page.evaluate(async ({ b64, name }) => {
      const s = window.servalViewer.steps;
      await s.open(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name));
      return { message: s.message(), members: s.members() };
    }, { b64: fs.readFileSync(file).toString('base64'), name: path.basename(file) });
    if (list.status !== 0) {
      if (r.message !== reasonOf(list)) failures.push(`${label}: the command refuses it (${reasonOf(list)}); the page says '${r.message}'`);
      continue;
    }
    const names = list.stdout.toString('utf8').split('\n').filter(Boolean).map((l) => l.split('\t')[0]);
    const shown = (r.members || []).map((b) => b.replace(/ \([^()]*\)$/, ''));
    if (r.message || JSON.stringify(shown) !== JSON.stringify(names)) {
      failures.push(`${label}: the page lists [${shown.join(', ')}] (${r.message}), the command [${names.join(', ')}]`);
      continue;
    }
    for (let i = 0; i < names.length; i++) {
      listed++;
      const m = await page.evaluate(async (index) => {
        const s = window.servalViewer.steps;
        await s.openMember(index);
        const message = s.message();
        const format = s.format();
        if (message || !['kingsisle', 'kingsisle-xml'].includes(format)) return { message, format };
        const out = await s.download();
        return { format, b64: out ? btoa(Array.from(out, (b) => String.fromCharCode(b)).join('')) : null, message: s.message() };
      }, i);
      const cat = spawnSync(CLI, ['kingsisle', 'wad', 'cat', file, names[i]], { maxBuffer: 1 << 30 });
      if (cat.status !== 0) {
        if (m.message !== reasonOf(cat)) failures.push(`${label} ${names[i]}: wad cat refuses it (${reasonOf(cat)}); the page says '${m.message}'`);
        continue;
      }
      if (m.message) failures.push(`${label} ${names[i]}: ${m.message}`);
      if (!m.b64) continue;
      compared++;
      // The page writes what the command writes from the same bytes, and
      // that is the member itself, byte for byte.
      const conv = spawnSync(CLI, ['conv', '--from', m.format, '--to', m.format, '-o', '-', '-'], { input: cat.stdout, maxBuffer: 1 << 30 });
      if (!conv.stdout.equals(cat.stdout)) failures.push(`${label} ${names[i]} (${m.format}): serval conv does not write the member back byte for byte`);
      if (!Buffer.from(m.b64, 'base64').equals(conv.stdout)) failures.push(`${label} ${names[i]}: the download (${m.format}) is not what serval conv writes from the bytes wad cat gives`);
    }
  }
  t.diagnostic(`${archives} archives, ${listed} members opened, ${compared} ObjectProperty members downloaded`);
  assert.deepEqual(page.errors, [], 'no script error in the page');
  assert.deepEqual(failures, []);
  assert.ok(compared >= 1 || !fs.existsSync(path.join(SAMPLES, 'kiwad')), 'the BINd member of the samples was downloaded');
});

// Every Godot PCK vector (tests/vectors/godot-pck/, subfolders too) and a
// pack of the uncompressed godot-res vectors made with the command.
function pckFiles() {
  const out = [];
  const walk = (dir, label) => {
    if (!fs.existsSync(dir)) return;
    for (const n of fs.readdirSync(dir).sort()) {
      const p = path.join(dir, n);
      // members/ holds the spec vectors' member files, not packs.
      if (fs.statSync(p).isDirectory()) { if (n !== 'members') walk(p, `${label}/${n}`); }
      else if (/\.(pck|bin)$/.test(n)) out.push({ label: `${label}/${n}`, file: p });
    }
  };
  walk(path.join(V, 'godot-pck'), 'godot-pck');
  const src = path.join(TMP, 'pck-src');
  fs.mkdirSync(src, { recursive: true });
  fs.writeFileSync(path.join(src, 'a-readme.txt'), 'not a resource\n');
  for (const v of ['v3', 'v4']) {
    const d = path.join(V, 'godot-res', v);
    fs.mkdirSync(path.join(src, v), { recursive: true });
    for (const f of fs.readdirSync(d).filter((n) => /\.(res|scn)$/.test(n))) {
      const b = fs.readFileSync(path.join(d, f));
      if (b.subarray(0, 4).toString('latin1') === 'RSRC') fs.writeFileSync(path.join(src, v, f), b);
    }
  }
  const made = path.join(TMP, 'resources.pck');
  const pack = spawnSync(CLI, ['godot', 'pck', 'pack', src, '-o', made, '--format-version', '2', '--godot', '4.3.0']);
  assert.equal(pack.status, 0, pack.stderr.toString());
  out.push({ label: 'resources.pck (serval godot pck pack of godot-res/v3, v4)', file: made });
  return out;
}

test('every .pck vector: the members godot pck list gives, each member the bytes godot pck cat gives; resources download byte for byte', { timeout: 600000 }, async (t) => {
  const formats = await page.locator('#format-select option').evaluateAll((els) => els.map((e) => e.value));
  if (!formats.includes('godot-res')) return t.skip('the page was built without Godot');
  await page.evaluate(async () => {
    if (window.conformanceTypes) await window.servalViewer.steps.removeTypes();
    window.conformanceTypes = undefined;
  });
  const failures = [];
  let archives = 0;
  let members = 0;
  let trees = 0;
  for (const { label, file } of pckFiles()) {
    archives++;
    const list = spawnSync(CLI, ['godot', 'pck', 'list', file]);
    const r = await page.evaluate(async ({ b64, name }) => {
      const s = window.servalViewer.steps;
      await s.open(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name));
      return { message: s.message(), members: s.members() };
    }, { b64: fs.readFileSync(file).toString('base64'), name: path.basename(file) });
    if (list.status !== 0) {
      // An encrypted directory: the command's reason, and the page says it has no key.
      if (!r.message.startsWith(reasonOf(list)) || !/no key/.test(r.message)) {
        failures.push(`${label}: the command refuses it (${reasonOf(list)}); the page says '${r.message}'`);
      }
      continue;
    }
    const names = list.stdout.toString('utf8').split('\n').filter(Boolean).map((l) => l.split('\t')[0]);
    const shown = (r.members || []).map((b) => b.replace(/ \([^()]*\)$/, ''));
    if (JSON.stringify(shown) !== JSON.stringify(names)) {
      failures.push(`${label}: the page lists [${shown.join(', ')}] (${r.message}), the command [${names.join(', ')}]`);
      continue;
    }
    for (let i = 0; i < names.length; i++) {
      members++;
      const cat = spawnSync(CLI, ['godot', 'pck', 'cat', file, names[i]], { maxBuffer: 1 << 30 });
      const m = await page.evaluate(async (index) => {
        const s = window.servalViewer.steps;
        const b64 = (u) => btoa(Array.from(u, (b) => String.fromCharCode(b)).join(''));
        let raw;
        try {
          raw = b64(await s.memberBytes(index));
        } catch (e) {
          return { error: e.message };
        }
        await s.openMember(index);
        const format = s.format();
        const message = s.message();
        if (message || !['godot-res', 'godot4', 'godot3'].includes(format)) return { raw, format, message };
        const out = await s.download();
        return { raw, format, out: out ? b64(out) : null, message: s.message() };
      }, i);
      if (cat.status !== 0) {
        if (!m.error || !m.error.startsWith(reasonOf(cat))) failures.push(`${label} ${names[i]}: pck cat refuses it (${reasonOf(cat)}); the page says '${m.error}'`);
        continue;
      }
      if (m.error) { failures.push(`${label} ${names[i]}: ${m.error}`); continue; }
      if (!Buffer.from(m.raw, 'base64').equals(cat.stdout)) failures.push(`${label} ${names[i]}: the member's bytes are not what pck cat gives`);
      if (m.format === 'godot-res' || m.out) {
        trees++;
        if (!m.out || !Buffer.from(m.out, 'base64').equals(cat.stdout)) failures.push(`${label} ${names[i]} (${m.format}): the download is not the member (${m.message})`);
      }
    }
  }
  t.diagnostic(`${archives} packs, ${members} members read, ${trees} resources downloaded`);
  assert.deepEqual(page.errors, [], 'no script error in the page');
  assert.deepEqual(failures, []);
  assert.ok(trees >= 10, `${trees} resources downloaded from the packs`);
});
