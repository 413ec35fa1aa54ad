// The viewer in headless Chromium: every format the page is built with is
// opened, downloaded untouched (same bytes), edited and downloaded again,
// and compared with what the serval command writes for the same edit.
// Nothing may leave the page: every request of the run is checked.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  CLI, ROOT, SAMPLES, TMP, cli, cliEdit, download, foreignRequests, launch, openFile, openViewer,
  recordRequests, VIEWER, waitFor,
} from './helpers.mjs';

let context;
let requests;
let page;
const GODOT_SAVE = path.join(TMP, 'save.godot4.bin');

before(async () => {
  cli(['conv', '--from', 'json', '--to', 'godot4', '-o', GODOT_SAVE,
    path.join(ROOT, 'web/test/fixtures/godot-save.json')]);
  context = await launch();
  requests = recordRequests(context);
  page = await openViewer(context);
});

after(async () => {
  if (context) await context.close();
  fs.rmSync(TMP, { recursive: true, force: true });
});

// Expands the first rows (up to 60 toggles), then picks the last number
// shown (a value deep in the data rather than a header field), else the last
// string or bool; returns its type, pointer and value.
async function pickEditable() {
  for (let round = 0; round < 60; round++) {
    const opened = await page.evaluate(() => {
      const closed = [...document.querySelectorAll('#tree .toggle')].find((t) => t.textContent === '▸' && t.offsetParent);
      if (closed) closed.click();
      return !!closed;
    });
    if (!opened) break;
    await page.waitForTimeout(30);
  }
  return page.evaluate(() => {
    const numeric = new Set(['int', 'float', 'i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64', 'f32', 'f64']);
    const inputs = [...document.querySelectorAll('#tree input.edit')].filter((el) => el.offsetParent &&
      !(el.dataset.type.startsWith('f') && /nan|inf/.test(el.value)));
    const pick = inputs.filter((el) => numeric.has(el.dataset.type)).pop() ||
      inputs.filter((el) => ['string', 'bool'].includes(el.dataset.type)).pop();
    if (!pick) return null;
    pick.dataset.testTarget = '1';
    return { type: pick.dataset.type, pointer: pick.dataset.pointer, value: pick.value };
  });
}

// The formats the page was built with.
async function pageFormats() {
  return page.locator('#format-select option').evaluateAll((els) => els.map((e) => e.value));
}

// Expands rows until the editor of pointer shows; marks it as the target.
async function findEditable({ pointer, type }) {
  for (let round = 0; round < 60; round++) {
    const found = await page.evaluate((p) => {
      const el = document.querySelector(`#tree input.edit[data-pointer="${p}"]`);
      if (el) {
        el.dataset.testTarget = '1';
        return { type: el.dataset.type, pointer: p, value: el.value };
      }
      const closed = [...document.querySelectorAll('#tree .toggle')].find((t) => t.textContent === '▸' && t.offsetParent);
      if (closed) closed.click();
      return closed ? null : false;
    }, pointer);
    if (found) {
      assert.equal(found.type, type);
      return found;
    }
    if (found === false) break;
    await page.waitForTimeout(30);
  }
  return null;
}

// A new value of the same type, different from the old one, as JSON.
function newLiteral(type, old) {
  if (type === 'bool') return old === 'true' ? 'false' : 'true';
  if (type === 'string') return JSON.stringify(old === 'edited' ? 'edited again' : 'edited');
  if (type === 'int' || type[0] === 'i' || type[0] === 'u') {
    const v = BigInt(old);
    return String(v > 0n ? v - 1n : v + 1n);
  }
  return old === '2.5' ? '3.5' : '2.5';
}

async function editTarget(literal, type) {
  const quoted = type === 'string' || type === 'bytes';
  const text = quoted ? JSON.parse(literal) : literal;
  const input = page.locator('input[data-test-target="1"]');
  await input.fill(text);
  await input.press('Enter');
  await waitFor(page, () => {
    const el = document.querySelector('input[data-test-target="1"]');
    return el.classList.contains('edited') || el.classList.contains('invalid');
  });
  assert.equal(await input.getAttribute('class'), 'edit' + (quoted ? ' wide' : '') + ' edited',
    await page.textContent('#message'));
  await page.evaluate(() => { delete document.querySelector('input[data-test-target="1"]').dataset.testTarget; });
}

function samples() {
  const list = [
    { file: GODOT_SAVE, format: 'godot4' },
    { file: 'tests/vectors/godot/oracle/array_all_types.bin', format: 'godot3' },
    { file: 'tests/vectors/godot/oracle/dict_nested.bin', format: 'godot3' },
    { file: 'tests/vectors/bson/all_types.bson', format: 'bson' },
    { file: 'tests/vectors/bson/nesting.bson', format: 'bson' },
    { file: 'tests/vectors/noesis/all-commands.le.v5.nsb', format: 'noesis' },
    { file: 'tests/vectors/noesis/all-commands.unicode.be.v4.nsb', format: 'noesis' },
    { file: 'tests/vectors/json/tags.json', format: 'json' },
    { file: 'tests/vectors/json/math.json', format: 'json' },
    { file: 'examples/item.brson', format: 'resonite' },
    // every container: Brotli, LZMA and LZ4, with the FrDT header and without
    ...['tiny.brson', 'tiny.7zbson', 'tiny.lz4bson', 'tiny-legacy.brson', 'tiny-legacy.7zbson', 'tiny-legacy.lz4bson']
      .map((f) => ({ file: `tests/vectors/resonite/${f}`, format: 'resonite' })),
    { file: 'tests/vectors/kingsisle/tiny.xml', format: 'kingsisle-xml' },
    // Raw KingsIsle properties (no type list): the edit replaces the bytes
    // of a 32-bit property, 7 -> 8.
    { file: 'examples/tiny.bind', format: 'kingsisle', edit: { pointer: '/2301988666/data/$bytes', type: 'bytes', text: 'CAAAAA==' } },
  ];
  const brson = path.join(SAMPLES, 'brson');
  if (fs.existsSync(brson)) {
    for (const f of fs.readdirSync(brson).filter((n) => n.endsWith('.brson')).sort()) {
      list.push({ file: path.join(brson, f), format: 'resonite', shared: true });
    }
  }
  const nsb = path.join(SAMPLES, 'noesis-nsb');
  if (fs.existsSync(nsb)) {
    for (const f of fs.readdirSync(nsb).filter((n) => n.endsWith('.nsb')).sort()) {
      list.push({ file: path.join(nsb, f), format: 'noesis', shared: true });
    }
  }
  return list.map((s) => ({ ...s, file: path.resolve(ROOT, s.file) }));
}

describe('each format: open, download untouched, edit, download', () => {
  for (const s of samples()) {
    test(`${s.format}: ${path.basename(s.file)}`, async (t) => {
      const original = fs.readFileSync(s.file);
      const expectedFormat = cli(['detect', s.file]).toString().trim().split(': ')[1].split(' ')[0];
      assert.equal(expectedFormat, s.format, 'the command detects the sample as expected');

      if (!(await pageFormats()).includes(s.format)) {
        t.skip(`the page was built without ${s.format} (scripts/install-web-deps.sh builds its libraries)`);
        return;
      }
      const r = await openFile(page, s.file);
      assert.equal(r.message, '', `opened without error: ${r.message}`);
      assert.equal(await page.inputValue('#format-select'), s.format);
      assert.deepEqual(await download(page), original, 'an untouched download is the file itself');

      const target = s.edit ? await findEditable(s.edit) : await pickEditable();
      assert.ok(target, 'the tree has an editable value');
      const literal = s.edit ? JSON.stringify(s.edit.text) : newLiteral(target.type, target.value);
      await editTarget(literal, target.type);
      const edited = await download(page);
      const expected = cliEdit(s.file, s.format, target.pointer, literal);
      assert.notDeepEqual(expected, original, `the edit of ${target.pointer} changes the file`);
      assert.deepEqual(edited, expected, `edit ${target.pointer} = ${literal} matches the command`);
      t.diagnostic(`edited ${target.pointer} (${target.type}) = ${literal}`);
    });
  }
  if (!fs.existsSync(path.join(SAMPLES, 'brson'))) test('shared resonite samples', { skip: 'no ../shared/samples/brson' }, () => {});
});

describe('a .resonitepackage', () => {
  const dir = path.join(SAMPLES, 'resonitepackage');
  const packages = fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.resonitepackage')).sort() : [];
  if (packages.length === 0) test('shared packages', { skip: 'no ../shared/samples/resonitepackage' }, () => {});
  for (const name of packages) {
    test(`${name}: its data tree member opens, downloads and edits as the command writes it`, async (t) => {
      if (!(await pageFormats()).includes('resonite')) {
        t.skip('the page was built without resonite (scripts/install-web-deps.sh builds its libraries)');
        return;
      }
      const pkg = path.join(dir, name);
      // The command's list: size, stored size, kind, name; the first data tree is shown.
      const lines = cli(['resonite', 'package', 'list', pkg]).toString('utf8').trim().split('\n');
      const members = lines.map((l) => l.trim().split(/\s+/)).filter((w) => w.length >= 4);
      const r = await openFile(page, pkg);
      assert.equal(r.message, '', `opened without error: ${r.message}`);
      const buttons = await page.locator('#members button').evaluateAll((els) => els.map((e) => ({ text: e.textContent, disabled: e.disabled })));
      assert.equal(buttons.length, members.length, 'a button per member');
      const shownIdx = buttons.findIndex((b) => b.disabled);
      const member = members[shownIdx].slice(3).join(' ');
      assert.ok(buttons[shownIdx].text.startsWith(member + ' ('), `${buttons[shownIdx].text} is ${member}`);
      assert.equal(await page.inputValue('#format-select'), 'resonite');

      const out = path.join(TMP, 'extract-' + name);
      cli(['resonite', 'package', 'extract', pkg, '-o', out, member]);
      const extracted = path.join(out, member);
      const original = fs.readFileSync(extracted);
      assert.deepEqual(await download(page), original, 'the untouched member is the bytes the command extracts');
      const target = await pickEditable();
      assert.ok(target, 'the member has an editable value');
      const literal = newLiteral(target.type, target.value);
      await editTarget(literal, target.type);
      const expected = cliEdit(extracted, 'resonite', target.pointer, literal);
      assert.notDeepEqual(expected, original);
      assert.deepEqual(await download(page), expected, `edit ${target.pointer} = ${literal} matches the command`);
      t.diagnostic(`${member}: edited ${target.pointer} (${target.type}) = ${literal}`);
    });
  }
});

describe('KingsIsle files with a type list', () => {
  const BIND = path.join(ROOT, 'examples/tiny.bind');
  const TYPES = path.join(ROOT, 'examples/kingsisle-types.json');
  const SCHEMA = ['--schema', TYPES];
  // What the command reads with the type list: the values the tree must show.
  const typedDump = () => JSON.parse(cli(['dump', '--compact', ...SCHEMA, BIND]).toString('utf8'));
  const rawDump = (file) => JSON.parse(cli(['dump', '--compact', '--from', 'kingsisle', file]).toString('utf8'));

  // Loads type list files (or removes the list: null) and waits until the
  // page has done it or refused.
  async function changeTypes(files) {
    const before = await page.evaluate(() => window.servalViewer.typeChanges);
    if (files) await page.setInputFiles('#types-input', files);
    else await page.click('#types-remove');
    await waitFor(page, (n) => window.servalViewer.typeChanges > n, before, 60000);
    return (await page.isVisible('#message')) ? await page.textContent('#message') : '';
  }
  const inputAt = (pointer) => page.locator(`#tree input.edit[data-pointer="${pointer}"]`);
  // The raw bits of a property without a type list: its row expanded.
  async function rawBits(hash) {
    await page.click(`#tree .row[data-pointer="/${hash}"] .toggle`);
    return inputAt(`/${hash}/data/$bytes`).inputValue();
  }
  const rowValues = (pointer) => page.locator(`#tree .row[data-pointer="${pointer}"] input`).evaluateAll((els) => els.map((e) => e.value));

  let skip = null;
  before(async () => {
    if (!(await pageFormats()).includes('kingsisle')) skip = 'the page was built without kingsisle (scripts/install-web-deps.sh builds its libraries)';
  });

  test('the type list turns raw bits into typed values, as the command reads them; untouched, the same bytes', async (t) => {
    if (skip) return t.skip(skip);
    assert.equal(await page.isVisible('#types-button'), true, 'the Type list button is there');
    const r = await openFile(page, BIND);
    assert.equal(r.message, '');
    assert.equal(await page.inputValue('#format-select'), 'kingsisle');
    // Without a type list: hashes and raw bits, as `serval dump` without one.
    const raw = rawDump(BIND);
    assert.equal(await page.locator('#tree .row[data-pointer=""] .type').textContent(), String(raw.$class));
    assert.equal(await rawBits(2301988666), raw['2301988666'].data.$bytes);

    assert.equal(await changeTypes(TYPES), '');
    assert.match(await page.textContent('#types'), /kingsisle-types\.json \(wiztype-v2; 1 class\)/);
    const d = typedDump();
    assert.equal(d.$class, 'class Tiny');
    assert.equal(await page.locator('#tree .row[data-pointer="/2301988666"]').count(), 0, 'the raw property is gone');
    // the root row's type is the class, named by the list (a hash without it)
    assert.equal(await page.locator('#tree .row[data-pointer=""] .type').textContent(), d.$class);
    assert.equal(await inputAt('/m_id/$u32').inputValue(), String(d.m_id.$u32));
    assert.equal(await inputAt('/m_id/$u32').getAttribute('data-type'), 'u32');
    assert.equal(await inputAt('/m_on').inputValue(), String(d.m_on));
    assert.equal(await inputAt('/m_name').inputValue(), d.m_name);
    assert.deepEqual((await rowValues('/m_pos')).map(Number), d.m_pos.$vector3);
    assert.deepEqual(await download(page), fs.readFileSync(BIND), 'an untouched download is the file itself');
  });

  test('a bad type list, or one the file does not fit, is refused with the reason; the list, the tree and the file stay', async (t) => {
    if (skip) return t.skip(skip);
    const bad = path.join(TMP, 'bad-types.json');
    // wiztype JSON cut short inside a class
    fs.writeFileSync(bad, '{"version": 2, "classes": {"1": {"name": 5');
    const typesBefore = await page.textContent('#types');
    const rows = await page.locator('#tree .row').count();
    const msg = await changeTypes(bad);
    t.diagnostic(msg);
    assert.match(msg, /^type list bad-types\.json: .*json.*byte \d+/);
    assert.equal(await page.textContent('#types'), typesBefore);
    assert.equal(await page.locator('#tree .row').count(), rows);
    assert.equal(await inputAt('/m_id/$u32').inputValue(), String(typedDump().m_id.$u32));
    assert.deepEqual(await download(page), fs.readFileSync(BIND));

    // A list that loads but does not fit the file: m_id as a 64-bit integer,
    // where the file has 32 bits. The reason is the command's.
    const wrong = path.join(TMP, 'wrong-types.json');
    fs.writeFileSync(wrong, fs.readFileSync(TYPES, 'utf8').replace('"type": "unsigned int"', '"type": "unsigned __int64"'));
    const run = spawnSync(CLI, ['dump', '--schema', wrong, BIND]);
    assert.equal(run.status, 1);
    const reason = run.stderr.toString('utf8').trim().replace(/^serval: [^:]*: /, '');
    assert.match(reason, /^kingsisle: .*byte 16.* at \/m_id: /, 'the command refuses it');
    assert.equal(await changeTypes(wrong), `${reason} (the type list before stays in use)`);
    assert.equal(await page.textContent('#types'), typesBefore);
    assert.equal(await inputAt('/m_id/$u32').inputValue(), String(typedDump().m_id.$u32));
    assert.deepEqual(await download(page), fs.readFileSync(BIND));
  });

  test('an edited typed leaf is written as the command writes it with the type list; removing the list keeps the edit', async (t) => {
    if (skip) return t.skip(skip);
    const d = typedDump();
    const literal = String(d.m_id.$u32 + 1);
    const id = inputAt('/m_id/$u32');
    await id.evaluate((el) => { el.dataset.testTarget = '1'; });
    await editTarget(literal, 'u32');
    const edited = await download(page);
    const expected = cliEdit(BIND, 'kingsisle', '/m_id/$u32', literal, SCHEMA);
    assert.notDeepEqual(expected, fs.readFileSync(BIND));
    assert.deepEqual(edited, expected, `m_id = ${literal} matches the command`);

    // Without the list the file is read again as it is now (the edit in it):
    // raw bits, as the command reads the edited bytes.
    const file = path.join(TMP, 'tiny-edited.bind');
    fs.writeFileSync(file, expected);
    assert.equal(await changeTypes(null), '');
    assert.equal(await page.isVisible('#types'), false);
    assert.equal(await rawBits(2301988666), rawDump(file)['2301988666'].data.$bytes);
    assert.deepEqual(await download(page), expected);
  });

  test('kingsisle-xml: typed values with the type list, and an edit written as the command does', async (t) => {
    if (skip) return t.skip(skip);
    const xml = path.join(ROOT, 'tests/vectors/kingsisle/tiny.xml');
    const types = path.join(ROOT, 'tests/vectors/kingsisle/tiny-types.json');
    await openFile(page, xml);
    assert.equal(await page.inputValue('#format-select'), 'kingsisle-xml');
    assert.equal(await inputAt('/m_id').getAttribute('data-type'), 'string', 'text without a type list');
    assert.equal(await changeTypes(types), '');
    const d = JSON.parse(cli(['dump', '--compact', '--schema', types, xml]).toString('utf8'));
    assert.equal(await inputAt('/m_id/$u32').inputValue(), String(d.m_id.$u32));
    assert.deepEqual((await rowValues('/m_pos')).map(Number), d.m_pos.$vector3);
    assert.deepEqual(await download(page), fs.readFileSync(xml));
    const id = inputAt('/m_id/$u32');
    await id.evaluate((el) => { el.dataset.testTarget = '1'; });
    const literal = String(d.m_id.$u32 + 5);
    await editTarget(literal, 'u32');
    assert.deepEqual(await download(page), cliEdit(xml, 'kingsisle-xml', '/m_id/$u32', literal, ['--schema', types]));
    assert.equal(await changeTypes(null), '');
  });

  test('a type list loaded while another format is shown applies to the KingsIsle file opened next', async (t) => {
    if (skip) return t.skip(skip);
    await openFile(page, GODOT_SAVE);
    const rows = await page.locator('#tree .row').count();
    assert.equal(await changeTypes(TYPES), '');
    assert.equal(await page.inputValue('#format-select'), 'godot4');
    assert.equal(await page.locator('#tree .row').count(), rows, 'the Godot file is not read again');
    assert.match(await page.textContent('#status'), /kingsisle-types\.json loaded/);
    await openFile(page, BIND);
    assert.equal(await inputAt('/m_id/$u32').inputValue(), String(typedDump().m_id.$u32));
    assert.equal(await changeTypes(null), '');
    assert.equal(await inputAt('/m_id/$u32').count(), 0);
  });
});

describe('a KIWAD .wad', () => {
  const BIND = path.join(ROOT, 'examples/tiny.bind');
  const XML = path.join(ROOT, 'tests/vectors/kingsisle/tiny.xml');
  const TYPES = path.join(ROOT, 'examples/kingsisle-types.json');
  const inputAt = (pointer) => page.locator(`#tree input.edit[data-pointer="${pointer}"]`);
  const buttons = () => page.locator('#members button').evaluateAll((els) => els.map((e) => ({ text: e.textContent, disabled: e.disabled })));
  let wad;
  let skip = null;

  // An archive the command packs: a text file first (not ObjectProperty, so
  // the page passes over it), a BINd file, an XML object file and a stored
  // .mp3, in the table in that (name) order.
  before(async () => {
    if (!(await pageFormats()).includes('kingsisle')) {
      skip = 'the page was built without kingsisle (scripts/install-web-deps.sh builds its libraries)';
      return;
    }
    const dir = path.join(TMP, 'wad-src');
    fs.mkdirSync(path.join(dir, 'obj'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'sound'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'a-readme.txt'), 'not an object\n');
    fs.copyFileSync(BIND, path.join(dir, 'obj/tiny.bind'));
    fs.copyFileSync(XML, path.join(dir, 'obj/tiny.xml'));
    fs.writeFileSync(path.join(dir, 'sound/click.mp3'), 'ID3 demo');
    wad = path.join(TMP, 'demo.wad');
    cli(['kingsisle', 'wad', 'pack', dir, '-o', wad]);
  });

  async function changeTypes(files) {
    const before = await page.evaluate(() => window.servalViewer.typeChanges);
    if (files) await page.setInputFiles('#types-input', files);
    else await page.click('#types-remove');
    await waitFor(page, (n) => window.servalViewer.typeChanges > n, before, 60000);
    return (await page.isVisible('#message')) ? await page.textContent('#message') : '';
  }

  async function clickMember(name) {
    const before = await page.evaluate(() => window.servalViewer.loads);
    await page.locator('#members button', { hasText: name + ' (' }).click();
    await waitFor(page, (n) => window.servalViewer.loads > n || !document.getElementById('message').hidden, before);
  }

  test('lists its members as the command does and opens the first ObjectProperty member; untouched, the bytes wad cat gives', async (t) => {
    if (skip) return t.skip(skip);
    const r = await openFile(page, wad);
    assert.equal(r.message, '', `opened without error: ${r.message}`);
    const names = cli(['kingsisle', 'wad', 'list', wad]).toString('utf8').trim().split('\n').map((l) => l.split('\t')[0]);
    assert.deepEqual(names, ['a-readme.txt', 'obj/tiny.bind', 'obj/tiny.xml', 'sound/click.mp3']);
    assert.match(await page.textContent('#members > span'), /^demo\.wad is a KIWAD archive \(version 2\) of 4 members; open:$/);
    const b = await buttons();
    assert.deepEqual(b.map((x) => x.text.replace(/ \(.*$/, '')), names, 'a button per member, in table order');
    assert.deepEqual(b.map((x) => x.disabled), [false, true, false, false], 'the BINd member is shown');
    assert.equal(await page.inputValue('#format-select'), 'kingsisle');
    assert.deepEqual(await download(page), cli(['kingsisle', 'wad', 'cat', wad, 'obj/tiny.bind']));
  });

  test('its ObjectProperty members open with the type list loaded, as the command reads them', async (t) => {
    if (skip) return t.skip(skip);
    assert.equal(await changeTypes(TYPES), '');
    const bind = JSON.parse(cli(['dump', '--compact', '--schema', TYPES, BIND]).toString('utf8'));
    assert.equal(bind.$class, 'class Tiny');
    assert.equal(await page.locator('#tree .row[data-pointer=""] .type').textContent(), bind.$class);
    assert.equal(await inputAt('/m_id/$u32').inputValue(), String(bind.m_id.$u32));

    await clickMember('obj/tiny.xml');
    assert.equal(await page.isVisible('#message'), false);
    assert.equal(await page.inputValue('#format-select'), 'kingsisle-xml');
    assert.deepEqual((await buttons()).map((x) => x.disabled), [false, false, true, false]);
    const xml = JSON.parse(cli(['dump', '--compact', '--schema', TYPES, XML]).toString('utf8'));
    assert.equal(await inputAt('/m_id/$u32').getAttribute('data-type'), 'u32', 'typed, not text');
    assert.equal(await inputAt('/m_id/$u32').inputValue(), String(xml.m_id.$u32));
    assert.deepEqual(await download(page), fs.readFileSync(XML));
    const id = inputAt('/m_id/$u32');
    await id.evaluate((el) => { el.dataset.testTarget = '1'; });
    const literal = String(xml.m_id.$u32 + 3);
    await editTarget(literal, 'u32');
    assert.deepEqual(await download(page), cliEdit(XML, 'kingsisle-xml', '/m_id/$u32', literal, ['--schema', TYPES]));
    assert.equal(await changeTypes(null), '');
  });

  test('a member that is no ObjectProperty file opens as its format or asks for one', async (t) => {
    if (skip) return t.skip(skip);
    await page.locator('#members button', { hasText: 'sound/click.mp3 (' }).click();
    await waitFor(page, () => /click\.mp3/.test(document.getElementById('status').textContent));
    assert.equal(await page.isVisible('#message'), false);
    assert.deepEqual((await buttons()).map((x) => x.disabled), [false, false, false, true]);
  });

  test('a version above 2 is read as version 2, and the page says so', async (t) => {
    if (skip) return t.skip(skip);
    // Version 2's layout with the version field 3 (the header's bytes 5..8).
    const v3 = Buffer.from(fs.readFileSync(wad));
    assert.equal(v3.readUInt32LE(5), 2);
    v3.writeUInt32LE(3, 5);
    const file = path.join(TMP, 'demo-v3.wad');
    fs.writeFileSync(file, v3);
    const run = spawnSync(CLI, ['kingsisle', 'wad', 'list', file]);
    assert.equal(run.status, 0);
    assert.match(run.stderr.toString('utf8'), /warning: .*KIWAD version 3 .*read as version 2/);
    const r = await openFile(page, file);
    assert.equal(r.message, '');
    assert.match(await page.textContent('#members > span'),
      /^demo-v3\.wad is a KIWAD archive \(version 3, not one of the known 1 and 2: read as version 2\) of 4 members; open:$/);
    assert.deepEqual(await download(page), fs.readFileSync(BIND));
  });

  test('an archive the library refuses shows the reason the command gives; the file shown stays', async (t) => {
    if (skip) return t.skip(skip);
    await openFile(page, wad);
    const rows = await page.locator('#tree .row').count();
    // The first entry's data offset (bytes 14..17) far past the end.
    const bad = Buffer.from(fs.readFileSync(wad));
    bad.writeUInt32LE(9999999, 14);
    const file = path.join(TMP, 'bad.wad');
    fs.writeFileSync(file, bad);
    const run = spawnSync(CLI, ['kingsisle', 'wad', 'list', file]);
    assert.equal(run.status, 1);
    const reason = run.stderr.toString('utf8').trim().replace(/^serval: [^:]*: /, '');
    assert.match(reason, /^kiwad: .*byte 14.*'a-readme\.txt'.*past the end/);
    const r = await openFile(page, file);
    assert.equal(r.message, reason);
    assert.equal(await page.locator('#tree .row').count(), rows);
  });
});

describe('the Godot save', () => {
  before(async () => {
    await openFile(page, GODOT_SAVE);
  });

  async function revealPointer(query, pointer) {
    await page.fill('#search', query);
    await page.press('#search', 'Enter');
    const hit = page.locator('.hit', { hasText: pointer + ' ' }).first();
    await hit.click();
    await waitFor(page, (p) => document.getElementById('pointer').textContent === p, pointer);
    return page.locator(`#tree .row[data-pointer="${pointer}"]`);
  }

  test('engine types: a Vector3 as three fields, a colour as a swatch', async () => {
    const pos = await revealPointer('position', '/player/position');
    assert.equal(await pos.locator('.type').textContent(), 'Vector3');
    assert.deepEqual(await pos.locator('.field').allTextContents(), ['x', 'y', 'z']);
    assert.deepEqual(await pos.locator('input').evaluateAll((els) => els.map((e) => e.value)), ['12.5', '0.0', '-4.25']);
    const tint = await revealPointer('tint', '/player/tint');
    // 0.9, 0.35, 0.2 of 255, rounded: 230, 89, 51.
    assert.equal(await tint.locator('.swatch > span').evaluate((e) => e.style.background), 'rgb(230, 89, 51)');
    assert.equal(await page.locator('#tree .row[data-pointer="/player/class"] .type').textContent(), 'StringName');
  });

  test('search by key and by value, and the JSON Pointer of the selection', async () => {
    await revealPointer('arrows', '/player/inventory/$map/arrows');
    await revealPointer('Harbor', '/world/visited/$array/2');
    assert.equal(await page.textContent('#pointer'), '/world/visited/$array/2');
  });

  test('a value of the wrong type is refused, and the file stays as it was', async () => {
    await revealPointer('level', '/player/level');
    const level = page.locator('input[data-pointer="/player/level"]');
    await level.fill('12.5');
    await level.press('Enter');
    await page.waitForSelector('input[data-pointer="/player/level"].invalid');
    assert.match(await page.textContent('#message'), /whole number/);
    await revealPointer('chest_ids', '/world/chest_ids');
    await page.click('#tree .row[data-pointer="/world/chest_ids"] .toggle');
    const id = page.locator('input[data-pointer="/world/chest_ids/$i32s/0"]');
    await id.fill('3000000000');
    await id.press('Enter');
    await page.waitForSelector('input[data-pointer="/world/chest_ids/$i32s/0"].invalid');
    assert.match(await page.textContent('#message'), /i32 holds -2147483648 to 2147483647/);
    assert.deepEqual(await download(page), fs.readFileSync(GODOT_SAVE));
  });

  test('export typed JSON gives what serval dump prints', async () => {
    await openFile(page, GODOT_SAVE);
    const exported = (await download(page, '#export-json')).toString('utf8');
    assert.equal(exported.trimEnd(), cli(['dump', '--from', 'godot4', GODOT_SAVE]).toString('utf8').trimEnd());
  });

  test('import typed JSON, write it as godot4: the same bytes', async () => {
    const json = path.join(TMP, 'save-import.json');
    fs.writeFileSync(json, cli(['dump', '--from', 'godot4', GODOT_SAVE]));
    await openFile(page, json, '#import-input');
    await page.selectOption('#format-select', 'godot4');
    assert.deepEqual(await download(page), fs.readFileSync(GODOT_SAVE));
  });
});

test('a bool stored as 2 and strings that are not UTF-8 are edited, and written as Godot 3 stores them', async () => {
  // Godot 3 Variant bytes (docs/formats/godot.md), built here from the
  // layout: a Dictionary (type 18, count) of String keys (type 4, byte
  // length, bytes padded to 4) and a bool (type 1, u32 value).
  const u32 = (n) => { const b = Buffer.alloc(4); b.writeUInt32LE(n); return b; };
  const str = (bytes) => Buffer.concat([u32(4), u32(bytes.length), bytes, Buffer.alloc((4 - (bytes.length % 4)) % 4)]);
  const text = (s) => str(Buffer.from(s, 'latin1'));
  const save = (flag, name, lone) => Buffer.concat([u32(18), u32(3), text('flag'), u32(1), u32(flag),
    text('name'), str(name), text('lone'), str(lone)]);
  const json = path.join(TMP, 'raw.json');
  fs.writeFileSync(json, '{"flag": {"$bool": true, "$raw": 2}, "name": {"$str": ["ab", 1114112, "c"]}, "lone": {"$str": ["x\\ud800"]}}');
  const file = path.join(TMP, 'raw.godot3.bin');
  cli(['conv', '--from', 'json', '--to', 'godot3', '-o', file, json]);
  // 1114112 (U+110000) is F4 90 80 80 in the UTF-8 of RFC 2279; a lone
  // U+D800 is ED A0 80.
  const original = save(2, Buffer.from('6162f490808063', 'hex'), Buffer.from('78eda080', 'hex'));
  assert.deepEqual(fs.readFileSync(file), original, 'the command wrote the layout above');

  await openFile(page, file);
  assert.equal(await page.inputValue('#format-select'), 'godot3');
  const flag = page.locator('input[data-pointer="/flag"]');
  const name = page.locator('input[data-pointer="/name"]');
  const lone = page.locator('input[data-pointer="/lone"]');
  assert.equal(await flag.getAttribute('data-type'), 'rawbool');
  assert.equal(await flag.inputValue(), '2');
  assert.equal(await page.locator('#tree .row[data-pointer="/flag"] .type').textContent(), 'bool (true, stored)');
  assert.equal(await name.getAttribute('data-type'), 'str');
  assert.equal(await name.inputValue(), '["ab",1114112,"c"]');
  // the lone surrogate is an integer piece, as the command writes it (jq 1.6
  // refuses a "\\ud800" escape); the edit below still uses the escape
  assert.equal(await lone.inputValue(), '["x",55296]');

  const edit = async (input, value) => {
    await input.evaluate((el) => el.classList.remove('edited', 'invalid'));
    await input.fill(value);
    await input.press('Enter');
    await input.evaluate((el) => new Promise((resolve) => {
      const check = () => (el.classList.contains('edited') || el.classList.contains('invalid') ? resolve() : setTimeout(check, 20));
      check();
    }));
  };
  await edit(flag, 'maybe');
  assert.match(await flag.getAttribute('class'), /invalid/);
  assert.match(await page.textContent('#message'), /true, false or a whole number 0 to 4294967295/);
  await edit(name, '["ab", {"$u8s": [256]}]');
  assert.match(await name.getAttribute('class'), /invalid/);
  assert.match(await page.textContent('#message'), /a piece is a string/);
  assert.deepEqual(await download(page), original, 'refused edits leave the file as it was');

  await edit(flag, '5');
  // (a raw byte such as {"$u8s": [255]} is a valid piece, but Godot 3 stores
  // only what its reader takes back: the download would be refused)
  await edit(name, '["ab", 1114113, "d"]');
  await edit(lone, '["y\\udbff"]');
  for (const input of [flag, name, lone]) assert.match(await input.getAttribute('class'), /edited/);
  assert.equal(await name.inputValue(), '["ab",1114113,"d"]');
  assert.deepEqual(await download(page),
    save(5, Buffer.from('6162f490808164', 'hex'), Buffer.from('79edafbf', 'hex')));
  await edit(flag, 'false');
  assert.equal(await flag.inputValue(), 'false');
  assert.deepEqual(await download(page),
    save(0, Buffer.from('6162f490808164', 'hex'), Buffer.from('79edafbf', 'hex')));
});

test('packed arrays are paged', async () => {
  const json = path.join(TMP, 'packed.json');
  const items = Array.from({ length: 250 }, (_, i) => `${i}.5`).join(',');
  fs.writeFileSync(json, `{"samples": {"$f32s": [${items}]}}`);
  const bin = path.join(TMP, 'packed.bin');
  cli(['conv', '--from', 'json', '--to', 'godot4', '-o', bin, json]);
  await openFile(page, bin);
  await page.click('#tree .row[data-pointer="/samples"] .toggle');
  const more = page.locator('.more button');
  assert.equal(await more.textContent(), 'show 100 more (100 of 250)');
  assert.equal(await page.locator('input[data-pointer^="/samples/$f32s/"]').count(), 100);
  await more.click();
  await page.waitForSelector('input[data-pointer="/samples/$f32s/199"]');
  assert.equal(await page.inputValue('input[data-pointer="/samples/$f32s/199"]'), '199.5');
});

test('a file that fits two formats shows both, and reads as the one chosen', async () => {
  // 20 bytes that are both a Godot 4 Color (type 20, four floats) and a BSON
  // document of 20 bytes: {a: true, b: 5 (int32), c: true}.
  const bytes = Buffer.from('14000000' + '08610001' + '10620005000000' + '08630001' + '00', 'hex');
  assert.equal(bytes.length, 20);
  const file = path.join(TMP, 'ambiguous.bin');
  fs.writeFileSync(file, bytes);
  cli(['dump', '--from', 'godot4', file]); // both decode: the ambiguity is real
  assert.match(cli(['dump', '--from', 'bson', file]).toString(), /"b": \{"\$i32": 5\}/);
  await openFile(page, file);
  const box = await page.textContent('#candidates');
  assert.match(box, /godot4/);
  assert.match(box, /bson/);
  const other = (await page.inputValue('#format-select')) === 'godot4' ? 'bson' : 'godot4';
  const before = await page.evaluate(() => window.servalViewer.loads);
  await page.click(`#candidates button[data-format="${other}"]`);
  await waitFor(page, (n) => window.servalViewer.loads > n, before);
  assert.equal(await page.inputValue('#format-select'), other);
  if (other === 'bson') assert.equal(await page.locator('#tree .row[data-pointer="/b"]').count(), 1);
});

test('a dropped file opens; reading it as a format it is not is refused with the reason', async () => {
  const file = path.join(ROOT, 'tests/vectors/bson/all_types.bson');
  const before = await page.evaluate(() => window.servalViewer.loads);
  await page.evaluate(({ b64, name }) => {
    const bin = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bin], name));
    document.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, { b64: fs.readFileSync(file).toString('base64'), name: 'all_types.bson' });
  await waitFor(page, (n) => window.servalViewer.loads > n, before);
  assert.equal(await page.inputValue('#format-select'), 'bson');
  const rows = await page.locator('#tree .row').count();
  await page.selectOption('#format-select', 'noesis');
  await waitFor(page, () => !document.getElementById('message').hidden, null);
  // The library's error names the format and the byte offset.
  assert.match(await page.textContent('#message'), /^noesis: .*at byte 0/);
  assert.equal(await page.inputValue('#format-select'), 'bson');
  assert.equal(await page.locator('#tree .row').count(), rows, 'the tree shown stays');
  assert.deepEqual(await download(page), fs.readFileSync(file));
});

test('a 50 MB Godot file loads in the worker with progress', async (t) => {
  // An Array of 150,000 Dictionaries and a PackedFloat32Array of 8,000,000.
  const json = path.join(TMP, 'big.json');
  const out = fs.openSync(json, 'w');
  fs.writeSync(out, '[');
  for (let i = 0; i < 150000; i++) {
    fs.writeSync(out, `{"name":"item_${i}","id":${i},"hp":${i}.25,"pos":{"$vector3":[${i % 97}.5,1.0,-${i % 13}.0]},"ok":${i % 2 ? 'true' : 'false'}},`);
  }
  const floats = [];
  for (let i = 0; i < 8000000; i++) floats.push(`${i % 1000}.5`);
  fs.writeSync(out, `{"$f32s":[${floats.join(',')}]}]`);
  fs.closeSync(out);
  const bin = path.join(TMP, 'big.godot4.bin');
  cli(['conv', '--from', 'json', '--to', 'godot4', '-o', bin, json]);
  const size = fs.statSync(bin).size;
  assert.ok(size > 50e6, `${size} bytes`);

  // The longest gap between animation frames while loading says whether the
  // page froze; it is reported, not asserted (timing is for benchmarks).
  await page.evaluate(() => {
    window.servalViewer.progressSeen = 0;
    window.maxFrameGap = 0;
    let last = performance.now();
    window.frameLoop = true;
    const tick = (now) => {
      window.maxFrameGap = Math.max(window.maxFrameGap, now - last);
      last = now;
      if (window.frameLoop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const r = await openFile(page, bin);
  assert.equal(r.message, '');
  const m = await page.evaluate(() => {
    window.frameLoop = false;
    return { loadMs: window.servalViewer.loadMs, maxFrameGap: window.maxFrameGap, progress: window.servalViewer.progressSeen };
  });
  assert.ok(m.progress >= 3, 'progress was reported while loading');
  assert.equal(await page.locator('#tree .row[data-pointer="/149999/name"]').count(), 0, 'rows are made only when shown');
  assert.equal(await page.locator('#tree .row').count(), 1 + 100, 'the root and its first page');
  const line = `50 MB load: ${(size / 1e6).toFixed(1)} MB godot4 in ${Math.round(m.loadMs)} ms; longest main-thread frame gap ${Math.round(m.maxFrameGap)} ms`;
  t.diagnostic(line);
  console.log(line);
});

// Runs a search from the page and waits for its end: {status, count,
// buildMs, scanMs, entries} and the pointers of the hits shown.
async function searchFor(query) {
  await page.evaluate(() => { window.servalViewer.lastSearch = null; });
  await page.fill('#search', query);
  await page.press('#search', 'Enter');
  await waitFor(page, (q) => window.servalViewer.lastSearch && window.servalViewer.lastSearch.query === q, query, 120000);
  const r = await page.evaluate(() => window.servalViewer.lastSearch);
  r.pointers = await page.locator('#search-results .hit').evaluateAll((els) => els.map((e) => e.textContent.split('  ')[0]));
  return r;
}

test('search in the 50 MB file: stopped, then an index built once, hits in tree order, edits seen', async (t) => {
  // The file of the test before is open: names item_0 .. item_149999, then
  // 8,000,000 floats (i % 1000) + 0.5.
  assert.equal(await page.locator('#tree .row[data-pointer="/149999"]').count(), 0, 'the big file is open');
  // A search stopped at once stops while the index is built (millions of values).
  await page.evaluate(() => { window.servalViewer.lastSearch = null; });
  await page.fill('#search', 'item_14999');
  await page.press('#search', 'Enter');
  await page.click('#search-stop');
  await waitFor(page, () => window.servalViewer.lastSearch !== null, null, 120000);
  assert.equal(await page.evaluate(() => window.servalViewer.lastSearch.status), 'cancelled');

  const first = await searchFor('item_14999');
  const names = [14999, ...Array.from({ length: 10 }, (_, k) => 149990 + k)].map((i) => `/${i}/name`);
  assert.equal(first.status, 'done');
  assert.deepEqual(first.pointers, names);
  assert.equal(first.count, 11);
  assert.ok(first.buildMs !== null, 'the first whole search builds the index');
  // A row per value shown: 150,000 dicts and their 5 values each (pos is one
  // Vector3 row), the float array and its 8,000,000 items.
  assert.equal(first.entries, 150000 * 6 + 1 + 8000000);

  const again = await searchFor('ITEM_149999');
  assert.deepEqual(again.pointers, ['/149999/name'], 'case-insensitive');
  assert.equal(again.buildMs, null, 'the index is built once');

  const floats = await searchFor('999.5');
  assert.equal(floats.status, 'max');
  assert.equal(floats.count, 200);
  assert.equal(floats.pointers[0], '/150000/$f32s/999');
  assert.equal(floats.pointers[1], '/150000/$f32s/1999');

  // An edit is seen by the next search without building the index again.
  await searchFor('item_14999');
  await page.locator('.hit').first().click();
  const name = page.locator('input[data-pointer="/14999/name"]');
  await name.waitFor();
  await name.fill('renamed_zz');
  await name.press('Enter');
  await page.waitForSelector('input[data-pointer="/14999/name"].edited');
  const renamed = await searchFor('renamed_zz');
  assert.deepEqual(renamed.pointers, ['/14999/name']);
  assert.equal(renamed.buildMs, null);
  assert.deepEqual((await searchFor('item_14999')).pointers, names.slice(1));

  const line = `search in 50 MB: index of ${first.entries} rows built in ${Math.round(first.buildMs)} ms; ` +
    `scans: ${Math.round(first.scanMs)} ms (11 hits), ${Math.round(again.scanMs)} ms (1 hit), ` +
    `${Math.round(floats.scanMs)} ms (first 200 hits)`;
  t.diagnostic(line);
  console.log(line);
});

test('a file chosen while the library is still starting waits ("loading…"), then opens with no error', async () => {
  const early = await context.newPage();
  const errors = [];
  early.on('pageerror', (e) => errors.push(e.message));
  // The worker starts the WebAssembly module when the page sends it "init".
  // Held back here until the file has been chosen, the module is still
  // starting when the file comes, however fast this machine is.
  await early.addInitScript(() => {
    const RealWorker = Worker;
    window.Worker = class extends RealWorker {
      postMessage(m, transfer) {
        if (m && m.op === 'init' && !window.releaseInit) {
          window.releaseInit = () => super.postMessage(m, transfer);
          return;
        }
        super.postMessage(m, transfer);
      }
    };
  });
  await early.goto('file://' + VIEWER);
  await waitFor(early, () => typeof window.releaseInit === 'function');
  await early.setInputFiles('#file-input', GODOT_SAVE);
  const shown = () => (document.getElementById('message').hidden ? '' : document.getElementById('message').textContent) ||
    (/loading…/.test(document.getElementById('status').textContent) ? 'loading' : '');
  await waitFor(early, shown);
  assert.equal(await early.evaluate(shown), 'loading', 'the page says it is loading, and shows no error');
  assert.equal(await early.evaluate(() => window.servalViewer.loads), 0);
  await early.evaluate(() => window.releaseInit());
  await waitFor(early, () => window.servalViewer.loads > 0 || !document.getElementById('message').hidden);
  assert.equal(await early.isVisible('#message'), false, 'no error once the library runs');
  assert.match(await early.textContent('#status'), /^save\.godot4\.bin, .* read as godot4/);
  assert.ok(await early.locator('#tree .row').count() > 1, 'the tree is shown');
  assert.deepEqual(errors, []);
  await early.close();
});

test('nothing left the machine: every request was the page or its worker', () => {
  assert.ok(requests.length >= 2, 'requests were recorded');
  assert.deepEqual(foreignRequests(requests), []);
  assert.deepEqual(page.errors, []);
});

describe('a Godot resource and a Godot .pck', () => {
  const LEAF = path.join(ROOT, 'examples/leaf.res');
  const ENC_DIR = path.join(ROOT, 'tests/vectors/godot-pck/spec4/v3_enc_dir.pck');
  const buttons = () => page.locator('#members button').evaluateAll((els) => els.map((e) => ({ text: e.textContent, disabled: e.disabled })));
  let pck;

  // A pack the command writes as Godot 4.5 does: a text file first (no
  // resource, so the page passes over it), then the resource.
  before(() => {
    const dir = path.join(TMP, 'pck-src');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'a-readme.txt'), 'not a resource\n');
    fs.copyFileSync(LEAF, path.join(dir, 'leaf.res'));
    pck = path.join(TMP, 'demo.pck');
    cli(['godot', 'pck', 'pack', dir, '-o', pck, '--format-version', '3', '--godot', '4.5.0']);
  });

  async function reveal(query, pointer) {
    await page.fill('#search', query);
    await page.press('#search', 'Enter');
    await page.locator('.hit', { hasText: pointer + ' ' }).first().click();
    await waitFor(page, (p) => document.getElementById('pointer').textContent === p, pointer);
    return page.locator(`#tree .row[data-pointer="${pointer}"]`);
  }

  test('a .res opens by its magic, references show as ExtResource, and it downloads byte for byte', async () => {
    const r = await openFile(page, LEAF);
    assert.equal(r.message, '');
    assert.equal(await page.inputValue('#format-select'), 'godot-res');
    assert.equal(await page.isVisible('#members'), false, 'a resource is no archive');
    const script = await reveal('script', '/$map/internal/0/script');
    assert.equal(await script.locator('.type').textContent(), 'ExtResource');
    assert.match(await script.textContent(), /external resource 0/);
    assert.equal(await script.locator('input.edit').count(), 0, 'a reference is not edited');
    assert.deepEqual(await download(page), fs.readFileSync(LEAF));
  });

  // Compressed resources (RSCC) when the page was built with zlib and zstd
  // (run.sh: SERVAL_WEB_RSCC=1): one of each block compression opens, and
  // downloads as it came, unchanged blocks kept; without them the page says
  // which compression it lacks.
  const RSCC_FILES = ['v3/all_types_fastlz.res', 'v3/all_types_deflate.res', 'v3/big_zstd.res',
    'v3/all_types_gzip.res', 'v4/scene_compressed.scn', 'brotli4/all_types_brotli_1k.res']
    .map((f) => path.join(ROOT, 'tests/vectors/godot-res', f));
  test('a compressed .res (RSCC: FastLZ, deflate, zstd, gzip, Brotli blocks) opens and downloads byte for byte', async () => {
    for (const file of RSCC_FILES) {
      const r = await openFile(page, file);
      if (process.env.SERVAL_WEB_RSCC !== '1') {
        assert.match(`${r.status} ${r.message}`, /compressed resources \(RSCC\) are not in this build/, path.basename(file));
        continue;
      }
      assert.equal(r.message, '', `${path.basename(file)} opened without error: ${r.message}`);
      assert.equal(await page.inputValue('#format-select'), 'godot-res');
      assert.deepEqual(await download(page), fs.readFileSync(file), `${path.basename(file)} downloads as it came`);
    }
    assert.deepEqual(page.errors, []);
  });

  test('a .pck lists the members godot pck list gives and opens its resource; untouched, the bytes pck cat gives', async () => {
    const r = await openFile(page, pck);
    assert.equal(r.message, '', `opened without error: ${r.message}`);
    const names = cli(['godot', 'pck', 'list', pck]).toString('utf8').trim().split('\n').map((l) => l.split('\t')[0]);
    assert.deepEqual(names, ['a-readme.txt', 'leaf.res']);
    assert.match(await page.textContent('#members > span'), /^demo\.pck is a Godot 4\.5\.0 pack \(format 3\) of 2 members; open:$/);
    const b = await buttons();
    assert.deepEqual(b.map((x) => x.text.replace(/ \(.*$/, '')), names);
    assert.deepEqual(b.map((x) => x.disabled), [false, true], 'the resource is shown');
    assert.equal(await page.inputValue('#format-select'), 'godot-res');
    assert.deepEqual(await download(page), cli(['godot', 'pck', 'cat', pck, 'leaf.res']));
    assert.deepEqual(await download(page), fs.readFileSync(LEAF));
  });

  test('a pack with an encrypted directory says a key is needed and that the viewer takes none', async () => {
    const run = spawnSync(CLI, ['godot', 'pck', 'list', ENC_DIR]);
    assert.notEqual(run.status, 0);
    const r = await openFile(page, ENC_DIR);
    assert.match(r.message, /godot-pck: .*byte 548: the directory is encrypted: a key is needed/);
    assert.match(r.message, /takes no key and is built without decryption/);
  });
});
