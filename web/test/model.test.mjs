// The rows the page's tree shows (web/src/model.js) for values whose typed
// JSON the docs allow in several shapes: no browser needed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { test } from 'node:test';
import { ROOT } from './helpers.mjs';

const sandbox = {};
vm.createContext(sandbox);
vm.runInContext(['tjson.js', 'model.js'].map((f) => fs.readFileSync(path.join(ROOT, 'web/src', f), 'utf8')).join('\n') +
  '\nthis.parseTyped = parseTyped; this.describe = describe; this.summary = summary;', sandbox);
const { parseTyped, describe, summary } = sandbox;

// docs/formats/godot.md: a typed Dictionary's meta is {"key": T, "value": T},
// either may be absent (untyped); Godot writes Dictionary[String, Variant]
// with the value's type block empty (oracle4/typed_dict_string_nil).
test('a typed Dictionary with an untyped key or value shows it as Variant', () => {
  const rows = [
    ['{"$map":{"a":1},"$meta":{"key":"String"}}', 'Dictionary[String, Variant]', 1],
    ['{"$map":{},"$meta":{"value":"int"}}', 'Dictionary[Variant, int]', 0],
    ['{"$map":{},"$meta":{"key":"String","value":"int"}}', 'Dictionary[String, int]', 0],
    ['{"$map":[[1,2]],"$meta":{"key":"int"}}', 'Dictionary[int, Variant]', 1],
  ];
  for (const [text, type, count] of rows) {
    const v = parseTyped(text);
    assert.deepEqual({ ...describe(v) }, { type, count }, text);
    assert.equal(summary(v), `${type} (${count})`, text);
  }
});

// docs/formats/godot-resources.md: {"$ext": N} is external resource N,
// {"$sub": N} internal resource N, {"$ext": {"type", "path"}} the old
// by-path form. They are shown by name and not offered for editing.
test('Godot resource references show as ExtResource and SubResource, not editable', () => {
  const rows = [
    ['{"$ext":0}', 'ExtResource', 'external resource 0'],
    ['{"$sub":3}', 'SubResource', 'internal resource 3'],
  ];
  for (const [text, type, value] of rows) {
    const d = describe(parseTyped(text));
    assert.deepEqual({ ...d }, { type, value }, text);
  }
  const old = describe(parseTyped('{"$ext":{"type":"Texture","path":"res://icon.png"}}'));
  assert.equal(old.type, 'ExtResource');
  assert.match(old.value, /res:\/\/icon\.png/);
  assert.equal(old.edit, undefined);
});
