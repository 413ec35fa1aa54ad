// The worker's search index (web/src/search.js) and the edit checks of raw
// bools and $str strings (web/src/model.js), on small trees whose rows are
// counted by hand: no browser needed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { test } from 'node:test';
import { ROOT } from './helpers.mjs';

const sandbox = { performance, setTimeout };
vm.createContext(sandbox);
vm.runInContext(['tjson.js', 'model.js', 'search.js'].map((f) => fs.readFileSync(path.join(ROOT, 'web/src', f), 'utf8')).join('\n') +
  '\nthis.parseTyped = parseTyped; this.writeTyped = writeTyped; this.SearchIndex = SearchIndex; this.parseEdit = parseEdit;' +
  ' this.EditError = EditError; this.JObj = JObj; this.editText = editText; this.describe = describe;', sandbox);
const { parseTyped, writeTyped, SearchIndex, parseEdit, EditError, JObj, editText, describe } = sandbox;

// Rows in tree order (the root is not one): a 0, b 1, c 2, list 3, its
// items 4, 5 and the Vector3 6 (a tuple is one row), Hello 7.
const TEXT = '{"a": {"b": 1, "c": "hello"}, "list": [10, 20, {"$vector3": [1.5, 2.0, 3.0]}], "Hello": null}';

async function indexOf(tree) {
  const index = new SearchIndex();
  assert.equal(await index.build(tree, () => true, () => {}), true);
  return index;
}

async function find(index, q, max = 100) {
  const hits = [];
  const status = await index.search(q, max, () => true, (e) => hits.push(...e));
  return { status, hits };
}

test('the index has a row per value shown, and finds rows by child numbers', async () => {
  const index = await indexOf(parseTyped(TEXT));
  assert.equal(index.count, 8);
  assert.deepEqual(Array.from(index.size.a.subarray(0, 8)), [3, 1, 1, 4, 1, 1, 1, 1]);
  assert.equal(index.entryAt([1, 2]), 6);
  assert.equal(index.entryAt([2]), 7);
  assert.deepEqual(Array.from(index.viewPath(6)), [1, 2]);
  assert.deepEqual(Array.from(index.viewPath(2)), [0, 1]);
});

test('a search finds keys and values, case-insensitive, in tree order, up to max', async () => {
  const index = await indexOf(parseTyped(TEXT));
  assert.deepEqual(await find(index, 'hello'), { status: 'done', hits: [2, 7] });
  assert.deepEqual(await find(index, '(1.5, 2.0'), { status: 'done', hits: [6] });
  assert.deepEqual(await find(index, 'l', 2), { status: 'max', hits: [2, 3] });
  assert.deepEqual(await find(index, 'nothing'), { status: 'done', hits: [] });
  // a query never spans a label and its value
  assert.deepEqual(await find(index, 'chello'), { status: 'done', hits: [] });
});

test('an edited row is found by its new text only, without a new index', async () => {
  const tree = parseTyped(TEXT);
  const index = await indexOf(tree);
  tree.vals[0].vals[1] = 'bye';
  index.update(tree, [0, 1]);
  assert.deepEqual(await find(index, 'hello'), { status: 'done', hits: [7] });
  assert.deepEqual(await find(index, 'bye'), { status: 'done', hits: [2] });
});

test('a build that is no longer wanted stops', async () => {
  // 70,000 rows: the build yields after its first slice of 40 ms at the latest
  const tree = parseTyped(`[${Array.from({ length: 70000 }, (_, i) => i).join(',')}]`);
  const index = new SearchIndex();
  let asked = 0;
  const slow = () => { const end = performance.now() + 50; while (performance.now() < end); };
  const ok = await index.build(tree, () => (asked++, false), slow);
  assert.equal(ok, false);
  assert.equal(asked, 1);
});

test('a raw bool takes true, false or its stored value', () => {
  assert.equal(parseEdit('rawbool', '0'), false);
  assert.equal(parseEdit('rawbool', '1'), true);
  assert.equal(parseEdit('rawbool', 'false'), false);
  const seven = parseEdit('rawbool', '7');
  assert.deepEqual(JSON.parse(JSON.stringify([seven.keys, seven.vals])), [['$bool', '$raw'], [true, 7]]); // (another realm's arrays)
  assert.equal(writeTyped(seven).join(''), '{"$bool":true,"$raw":7}');
  assert.equal(editText(seven), '7');
  assert.equal(writeTyped(parseEdit('rawbool', '4294967295')).join(''), '{"$bool":true,"$raw":4294967295}');
  for (const bad of ['4294967296', '-1', '1.0', 'yes', '']) {
    assert.throws(() => parseEdit('rawbool', bad), EditError, bad);
  }
});

test('a $str takes strings, characters up to 2147483647 and bytes', () => {
  const v = parseEdit('str', '["a", "\\ud800", 1114112, {"$u8s": [255, 0]}]');
  assert.ok(v instanceof JObj);
  assert.equal(writeTyped(v).join(''), '{"$str":["a","\\ud800",1114112,{"$u8s":[255,0]}]}');
  assert.equal(editText(v), '["a","\\ud800",1114112,{"$u8s":[255,0]}]');
  assert.equal(writeTyped(parseEdit('str', '[2147483647]')).join(''), '{"$str":[2147483647]}');
  for (const bad of ['[2147483648]', '[-1]', '[1.5]', '[{"$u8s": [256]}]', '[{"$u8s": [1], "x": 2}]',
    '{"a": 1}', '"text"', '[null]', '[']) {
    assert.throws(() => parseEdit('str', bad), EditError, bad);
  }
});

// A UTF-16 string with a lone surrogate is {"$utf16": {"$str": [pieces]}},
// each surrogate an integer piece (docs/json.md, "Strings and bytes"): jq 1.6
// refuses a lone \udXXX escape, which older serval wrote and the page still
// takes.
test('a UTF-16 string with a lone surrogate is edited as its pieces', () => {
  const tree = parseTyped('{"s": {"$utf16": {"$str": ["a", 55296]}}, "t": {"$node_path": {"$utf16": {"$str": [56320]}}}, ' +
    '"old": {"$utf16": "a\\ud800"}}');
  const s = describe(tree.vals[0]);
  assert.equal(s.type, 'String (UTF-16)');
  assert.equal(s.value, '["a",55296]');
  assert.equal(s.edit, 'str');
  assert.deepEqual([...s.editRel], [0]);
  const t = describe(tree.vals[1]);
  assert.equal(t.value, '[56320]');
  assert.equal(t.edit, 'str');
  assert.deepEqual([...t.editRel], [0, 0]);
  const old = describe(tree.vals[2]);
  assert.equal(old.value, 'a\ud800');
  assert.equal(old.edit, 'string');
  const edited = parseEdit('str', '["b", 56319, "c"]');
  assert.equal(writeTyped(edited).join(''), '{"$str":["b",56319,"c"]}');
  assert.equal(writeTyped(tree).join(''), '{"s":{"$utf16":{"$str":["a",55296]}},"t":{"$node_path":{"$utf16":{"$str":[56320]}}},' +
    '"old":{"$utf16":"a\\ud800"}}');
});

// Integers beyond 2^53 are strings in serval's typed JSON (docs/json.md,
// "Integers beyond 2^53"): shown as numbers, and an edit writes the same form.
test('integers beyond 2^53 are shown and edited in their string forms', () => {
  const tree = parseTyped('[{"$int":"-9007199254740993"},{"$uint":"18446744073709551615"},' +
    '{"$i64":"9223372036854775807"},{"$u64s":[1,"18446744073709551615"]},' +
    '{"$rid":{"$u64":"9007199254740993"}},{"$class":{"$uint":"18446744073709551615"},"x":1}]');
  const d = (i) => describe(tree[i]);
  assert.deepEqual([d(0).type, d(0).value, d(0).edit, d(0).editRel.length], ['int', '-9007199254740993', 'int', 0]);
  assert.deepEqual([d(1).type, d(1).value], ['int', '18446744073709551615']);
  assert.deepEqual([d(2).type, d(2).value, d(2).edit], ['i64', '9223372036854775807', 'i64']);
  assert.equal(describe(tree[3].vals[0][1], 'u64').value, '18446744073709551615');
  assert.deepEqual([d(4).type, d(4).value, d(4).edit], ['RID', '9007199254740993', 'u64']);
  assert.equal(d(5).type, '18446744073709551615');
  assert.equal(editText(tree[0]), '-9007199254740993');
  // a plain int: bare within ±2^53, else its $int or $uint form
  assert.equal(writeTyped(parseEdit('int', '9007199254740992')).join(''), '9007199254740992');
  assert.equal(writeTyped(parseEdit('int', '-9007199254740993')).join(''), '{"$int":"-9007199254740993"}');
  assert.equal(writeTyped(parseEdit('int', '9223372036854775807')).join(''), '{"$int":"9223372036854775807"}');
  assert.equal(writeTyped(parseEdit('int', '9223372036854775808')).join(''), '{"$uint":"9223372036854775808"}');
  // the payload of a $i64 or $u64 form, or a packed element: the string
  assert.equal(writeTyped(parseEdit('u64', '18446744073709551615')).join(''), '"18446744073709551615"');
  assert.equal(writeTyped(parseEdit('i64', '-9007199254740992')).join(''), '-9007199254740992');
  assert.equal(writeTyped(parseEdit('i64', '-9007199254740993')).join(''), '"-9007199254740993"');
  assert.throws(() => parseEdit('u64', '18446744073709551616'), EditError);
});
