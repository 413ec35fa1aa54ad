// godot-doc vectors from the npm package @gd-com/utils 5.x, which writes the
// numbering of the outdated docs page (spec §3.4). Run by gdcom.sh:
//   node gdcom_gen.js > ../vectors/godot/gdcom/index.tsv
// Each line: name, profile, options, source, kind, hex (putVar output),
// expected value in serval's typed JSON. The expected value is built here
// from the JavaScript value (gd-com writes every number as int32 or f32:
// Math.fround gives the f32 value it wrote).
'use strict';
const gd = require('@gd-com/utils');
const { TYPE } = gd;

const f = (x) => {
  const v = Math.fround(x);
  if (Number.isInteger(v) && Math.abs(v) < 1e21) return v.toFixed(1);
  return String(v);
};
const tuple = (tag, xs) => `{"$${tag}":[${xs.map(f).join(',')}]}`;

const cases = [
  ['null', null, undefined, 'null'],
  ['true', true, undefined, 'true'],
  ['false', false, undefined, 'false'],
  ['int_0', 0, undefined, '0'],
  ['int_42', 42, undefined, '42'],
  ['int_m1', -1, undefined, '-1'],
  ['int_max32', 2147483647, undefined, '2147483647'],
  ['int_min32', -2147483648, undefined, '-2147483648'],
  ['float_1_5', 1.5, undefined, f(1.5)],
  ['float_0_1', 0.1, undefined, f(0.1)],
  ['float_m2_25', -2.25, undefined, f(-2.25)],
  ['string_empty', '', undefined, '""'],
  ['string_hi', 'hi', undefined, '"hi"'],
  ['string_abcd', 'abcd', undefined, '"abcd"'],
  ['string_utf8', 'hé€😀', undefined, '"hé€😀"'],
  ['vector2', { x: 1, y: -2.5 }, TYPE.VECTOR2, tuple('vector2', [1, -2.5])],
  ['rect2', { x: 1, y: 2, width: 3, height: 4 }, TYPE.RECT2, null],
  ['vector3', { x: 0.1, y: 0.2, z: 0.3 }, TYPE.VECTOR3, tuple('vector3', [0.1, 0.2, 0.3])],
  ['color', { r: 1, g: 0.5, b: 0.25, a: 1 }, TYPE.COLOR, tuple('color', [1, 0.5, 0.25, 1])],
  ['raw_array', Buffer.from([1, 2, 3]), undefined, '{"$bytes":"AQID"}'],
  ['raw_array_4', Buffer.from([1, 2, 3, 4]), undefined, '{"$bytes":"AQIDBA=="}'],
  ['array', [1, 'a', null, true], undefined, '[1,"a",null,true]'],
  ['array_nested', [[1, [2]], []], undefined, '[[1,[2]],[]]'],
  ['dict', { b: 1, a: 'x' }, undefined, '{"b":1,"a":"x"}'],
  ['dict_nested', { k: { v: [1.5] } }, undefined, `{"k":{"v":[${f(1.5)}]}}`],
  ['dict_empty', {}, undefined, '{}'],
];

console.log('# godot-doc vectors written by @gd-com/utils ' + require('@gd-com/utils/package.json').version +
  ' (tests/godot/gdcom.sh); do not edit.');
console.log('# name\tprofile\toptions\tsource\tkind\thex\texpected');
for (const [name, value, type, expected] of cases) {
  let buf;
  try {
    buf = gd.putVar(value, type);
  } catch (e) {
    continue;
  }
  if (expected === null) continue;
  console.log(`gdcom_${name}\tgodot-doc\t-\t@gd-com/utils putVar\tenc\t${buf.toString('hex')}\t${expected}`);
}
