// Turns what gen4.gd printed into the committed vector files
// (tests/godot/regen4.sh calls this):
//
//   node godot4_vectors.mjs STDOUT_TXT OUT_DIR
//
// OUT_DIR/index.tsv has one line per vector (name, kind, options, type,
// expected, re-encoded hex, det, var_to_str, expression; see gen4.gd) and
// OUT_DIR/<name>.bin holds its input bytes.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

const [stdoutPath, outDir] = process.argv.slice(2);
const lines = readFileSync(stdoutPath, 'utf8').split('\n');
const info = {};
const rows = [];
let end = null;
for (const line of lines) {
  const f = line.split('\t');
  if (f[0] === 'I') info[f[1]] = f.slice(2).join(' ');
  else if (f[0] === 'END') end = f;
  else if (f[0] === 'V') {
    if (f.length !== 11) throw new Error(`vector line with ${f.length} fields: ${line.slice(0, 80)}`);
    rows.push(f.slice(1));
  }
}
if (!end || end[2] !== 'ok' || Number(end[1]) !== rows.length)
  throw new Error(`the generator did not end cleanly (${end ? end.join(' ') : 'no END line'})`);
mkdirSync(outDir, { recursive: true });
const out = [
  `# Godot 4 oracle vectors, written by tests/godot/regen4.sh from gen4.gd; do not edit.`,
  `# engine: Godot ${info.engine}; seed ${info.seed}`,
  '# name\tkind\toptions\ttype\texpected\tre-encoded hex\tdet\tvar_to_str\texpression (the input is <name>.bin)',
];
for (const [name, kind, opts, hex, type, expected, reenc, det, varstr, expr] of rows) {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bad vector name ${name}`);
  writeFileSync(path.join(outDir, `${name}.bin`), Buffer.from(hex, 'hex'));
  out.push([name, kind, opts, type, expected, reenc, det, varstr, expr].join('\t'));
}
writeFileSync(path.join(outDir, 'index.tsv'), out.join('\n') + '\n');
console.log(`${rows.length} vectors from Godot ${info.engine}`);
