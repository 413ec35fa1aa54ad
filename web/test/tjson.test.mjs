// The page's typed JSON tree (web/src/tjson.js) writes back exactly the text
// it read: key order, duplicate keys, number literals (1.0 stays a float,
// big integers keep every digit), escapes and lone surrogates. Checked on
// serval dump's output for every test vector the command reads.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { test } from 'node:test';
import { ROOT, cli } from './helpers.mjs';

const sandbox = {};
vm.createContext(sandbox);
vm.runInContext(`${fs.readFileSync(path.join(ROOT, 'web/src/tjson.js'), 'utf8')}
this.parseTyped = parseTyped; this.writeTyped = writeTyped;`, sandbox);

function vectors() {
  const out = [];
  for (const dir of ['godot/oracle', 'json', 'bson', 'noesis']) {
    const d = path.join(ROOT, 'tests/vectors', dir);
    for (const f of fs.readdirSync(d).sort()) {
      if (/\.(bin|json|bson|nsb)$/.test(f) && !f.startsWith('err_')) out.push(path.join(d, f));
    }
  }
  return out;
}

test('typed JSON read and written by the page is the same text', () => {
  let checked = 0;
  for (const file of vectors()) {
    let dump;
    // detected, or, where Godot 3 and 4 both fit the bytes, read as either
    for (const from of [[], ['--from', 'godot4'], ['--from', 'godot3']]) {
      try {
        dump = cli(['dump', '--compact', ...from, file]).toString('utf8').replace(/\n$/, '');
        break;
      } catch {
        // a vector the command refuses this way (a decoder error case)
      }
    }
    if (dump === undefined) continue;
    assert.equal(sandbox.writeTyped(sandbox.parseTyped(dump)).join(''), dump, file);
    checked++;
  }
  assert.ok(checked > 300, `${checked} vectors`);
});

test('numbers keep their kind and every digit', () => {
  const text = '[1.0,-0.0,-0,18446744073709551615,9007199254740993,1e+21,0.1,{"$f32":1.5e-7},{"b":1,"1":2,"b":3}]';
  const tree = sandbox.parseTyped(text);
  assert.equal(sandbox.writeTyped(tree).join(''), text);
});
