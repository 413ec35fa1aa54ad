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
