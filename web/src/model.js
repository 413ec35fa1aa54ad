// The viewer's model of a typed JSON tree (docs/json.md): what a value is
// (engine type, summary, whether and how it can be edited) and which values
// are shown as its children. The tree itself is the JObj/Raw/array tree of
// tjson.js; the page addresses a value by its "raw path", the child indices
// in that tree (array index or key position), which stays exact with
// duplicate keys, and shows its JSON Pointer in the typed JSON.

'use strict';

// Shapes: scalars per value (per item for packed_*), default element type,
// names of the scalars.
const SHAPES = {
  vector2: [2, 'f32', 'xy'], vector2i: [2, 'i32', 'xy'], rect2: [4, 'f32', ['x', 'y', 'w', 'h']],
  rect2i: [4, 'i32', ['x', 'y', 'w', 'h']], vector3: [3, 'f32', 'xyz'], vector3i: [3, 'i32', 'xyz'],
  transform2d: [6, 'f32', null], vector4: [4, 'f32', 'xyzw'], vector4i: [4, 'i32', 'xyzw'],
  plane: [4, 'f32', ['x', 'y', 'z', 'd']], quaternion: [4, 'f32', 'xyzw'], aabb: [6, 'f32', null],
  transform: [8, 'f32', null], basis: [9, 'f32', null], transform3d: [12, 'f32', null],
  projection: [16, 'f32', null], color: [4, 'f32', 'rgba'], matrix3x3: [9, 'f32', null],
  matrix3x4: [12, 'f32', null], matrix4x4: [16, 'f32', null], euler: [3, 'f32', 'xyz'],
};
const PACKED_SHAPES = {
  packed_vector2: 'vector2', packed_vector3: 'vector3', packed_color: 'color', packed_vector4: 'vector4',
};
const NUMERIC = ['u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'u64', 'i64', 'f32', 'f64'];
const INT_RANGE = {
  i8: [-128n, 127n], u8: [0n, 255n], i16: [-32768n, 32767n], u16: [0n, 65535n],
  i32: [-2147483648n, 2147483647n], u32: [0n, 4294967295n],
  i64: [-9223372036854775808n, 9223372036854775807n], u64: [0n, 18446744073709551615n],
  int: [-9223372036854775808n, 18446744073709551615n],
};
const TWO_53 = 9007199254740992n;
const TYPE_NAMES = {
  vector2: 'Vector2', vector2i: 'Vector2i', rect2: 'Rect2', rect2i: 'Rect2i', vector3: 'Vector3',
  vector3i: 'Vector3i', transform2d: 'Transform2D', vector4: 'Vector4', vector4i: 'Vector4i',
  plane: 'Plane', quaternion: 'Quaternion', aabb: 'AABB', transform: 'Transform', basis: 'Basis',
  transform3d: 'Transform3D', projection: 'Projection', color: 'Color', matrix3x3: 'Matrix3x3',
  matrix3x4: 'Matrix3x4', matrix4x4: 'Matrix4x4', euler: 'Euler', string_name: 'StringName',
  node_path: 'NodePath', rid: 'RID', callable: 'Callable', signal: 'Signal', object_id: 'ObjectID',
};

// The form of an object: its first key when that starts with a single '$'.
function formOf(v) {
  if (!(v instanceof JObj) || v.keys.length === 0) return null;
  const k = v.keys[0];
  return k.charCodeAt(0) === 36 && k.charCodeAt(1) !== 36 ? k.slice(1) : null;
}

// A literal key of a plain map or of an object's fields ("$$x" is "$x").
function keyLabel(k) {
  return k.startsWith('$$') ? k.slice(1) : k;
}

function pointerToken(k) {
  return String(k).replace(/~/g, '~0').replace(/\//g, '~1');
}

// JSON Pointer of a raw path.
function pointerOf(root, path) {
  let v = root;
  let p = '';
  for (const i of path) {
    if (Array.isArray(v)) {
      p += '/' + i;
      v = v[i];
    } else {
      p += '/' + pointerToken(v.keys[i]);
      v = v.vals[i];
    }
  }
  return p;
}

function at(root, path) {
  let v = root;
  for (const i of path) v = Array.isArray(v) ? v[i] : v.vals[i];
  return v;
}

function numText(v) {
  if (v instanceof Raw) return v.text;
  if (typeof v === 'number') return String(v);
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function shorten(s, max) {
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}

// A one-line text for a value, for summaries and search.
function summary(v, max = 80) {
  if (v === null) return 'null';
  if (typeof v === 'boolean' || typeof v === 'number' || v instanceof Raw) return numText(v);
  if (typeof v === 'string') return shorten(JSON.stringify(v), max);
  if (Array.isArray(v)) return `[${v.length}]`;
  const d = describe(v);
  return d.value !== undefined ? shorten(d.value, max) : d.type + (d.count !== undefined ? ` (${d.count})` : '');
}

// Children of a value: {count, child(i) -> {label, rel: raw path from the value}}.
function kids(v) {
  const none = { count: 0, child: null };
  if (Array.isArray(v)) return { count: v.length, child: (i) => ({ label: String(i), rel: [i] }) };
  if (!(v instanceof JObj)) return none;
  const form = formOf(v);
  if (form === null) {
    return { count: v.keys.length, child: (i) => ({ label: keyLabel(v.keys[i]), rel: [i] }) };
  }
  if (form === 'class') {
    // Fields follow "$class" (and "$meta"); the meta is shown as a child too.
    const first = 1;
    return { count: v.keys.length - first, child: (i) => ({ label: keyLabel(v.keys[first + i]), rel: [first + i], meta: v.keys[first + i] === '$meta' }) };
  }
  if (form === 'array' || form === 'map') {
    const payload = v.vals[0];
    const hasMeta = v.keys[1] === '$meta';
    const extra = hasMeta ? 1 : 0;
    let inner;
    if (form === 'map' && Array.isArray(payload)) {
      // [[key, value], ...]: each pair shows its value under its key's summary.
      inner = { count: payload.length, child: (i) => ({ label: summary(payload[i][0], 40), rel: [0, i, 1], keyRel: [0, i, 0] }) };
    } else {
      const k = kids(payload);
      inner = { count: k.count, child: (i) => { const c = k.child(i); return { label: c.label, rel: [0, ...c.rel] }; } };
    }
    return {
      count: inner.count + extra,
      child: (i) => (i < inner.count ? inner.child(i) : { label: '$meta', rel: [1], meta: true }),
    };
  }
  if (SHAPES[form]) {
    const names = SHAPES[form][2];
    return { count: v.vals[0].length, child: (i) => ({ label: names ? names[i] : String(i), rel: [0, i] }) };
  }
  if (form.endsWith('s') && NUMERIC.includes(form.slice(0, -1))) {
    return { count: v.vals[0].length, child: (i) => ({ label: String(i), rel: [0, i] }) };
  }
  if (PACKED_SHAPES[form]) {
    return { count: v.vals[0].length, child: (i) => ({ label: String(i), rel: [0, i] }) };
  }
  if (isTagForm(form, v)) return kids(v.vals[0]).count ? prefixKids(kids(v.vals[0])) : none;
  return none;
}

function prefixKids(k) {
  return { count: k.count, child: (i) => { const c = k.child(i); return { ...c, rel: [0, ...c.rel] }; } };
}

const SCALAR_FORMS = new Set(['i8', 'i16', 'i32', 'i64', 'u8', 'u16', 'u32', 'u64', 'f32', 'f64', 'bool',
  'bytes', 'str', 'utf16', 'ref', 'ext', 'sub', 'int', 'uint']);

function isTagForm(form, v) {
  return !SCALAR_FORMS.has(form) && !SHAPES[form] && !PACKED_SHAPES[form] && v.keys.length === 1 &&
    !['class', 'array', 'map'].includes(form) && !(form.endsWith('s') && NUMERIC.includes(form.slice(0, -1)));
}

// What a value is. Fields: type (shown), value (text for leaves), count
// (children), edit (the edit type, when it can be edited), editRel (raw
// path from the value to the scalar an edit replaces), swatch (CSS colour),
// fields (inline fields of a tuple: [{label, value, edit, rel}]).
function describe(v, elemHint) {
  if (v === null) return { type: 'null', value: 'null' };
  if (typeof v === 'boolean') return { type: 'bool', value: String(v), edit: 'bool', editRel: [] };
  if (typeof v === 'number' || v instanceof Raw) {
    const isFloat = v instanceof Raw ? v.isFloat() : !Number.isInteger(v);
    if (elemHint) return { type: elemHint, value: numText(v), edit: elemHint, editRel: [] };
    return isFloat ? { type: 'float', value: numText(v), edit: 'float', editRel: [] }
      : { type: 'int', value: numText(v), edit: 'int', editRel: [] };
  }
  if (typeof v === 'string') {
    if (elemHint) return { type: elemHint, value: v, edit: elemHint, editRel: [] };
    return { type: 'String', value: v, edit: 'string', editRel: [] };
  }
  if (Array.isArray(v)) return { type: 'Array', count: v.length };
  const form = formOf(v);
  if (form === null) return { type: 'Dictionary', count: v.keys.length };
  const payload = v.vals[0];
  if (form === 'class') {
    // a class hash beyond 2^53 is {"$uint": "..."}
    const cls = payload instanceof JObj ? numText(payload.vals[0]) : payload;
    return { type: `${cls}`, count: v.keys.length - 1, isClass: true };
  }
  // A 64-bit integer beyond 2^53 without an explicit width: {"$int": "..."},
  // {"$uint": "..."}; an edit replaces the whole form (see parseEdit).
  if (form === 'int' || form === 'uint') return { type: 'int', value: numText(payload), edit: 'int', editRel: [] };
  // The count is of the items; the meta, if any, is one more child.
  const items = () => kids(v).count - (v.keys[1] === '$meta' ? 1 : 0);
  if (form === 'array') return { type: metaType('Array', v), count: items() };
  if (form === 'map') return { type: metaType('Dictionary', v), count: items() };
  if (INT_RANGE[form] || form === 'f32' || form === 'f64') {
    return { type: form, value: numText(payload), edit: form, editRel: [0] };
  }
  if (form === 'bool') {
    // A bool stored as neither 0 nor 1 (a Noesis padding byte 7F, a Godot 2):
    // its stored value is edited, or true/false for an ordinary bool.
    const raw = v.get('$raw');
    if (raw === undefined) return { type: 'bool', value: String(payload), edit: 'bool', editRel: [0] };
    return { type: `bool (${payload}, stored)`, value: numText(raw), edit: 'rawbool', editRel: [] };
  }
  if (form === 'bytes') {
    const len = Math.floor((payload.length * 3) / 4) - (payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0);
    return { type: `bytes[${len}]`, value: payload, edit: 'bytes', editRel: [0] };
  }
  if (form === 'utf16') {
    // A UTF-16 string with a lone surrogate is {"$utf16": {"$str": [pieces]}}
    // (each surrogate an integer piece): its pieces are edited as for $str.
    if (payload instanceof JObj && formOf(payload) === 'str') {
      return { type: 'String (UTF-16)', value: editText(payload), edit: 'str', editRel: [0] };
    }
    return { type: 'String (UTF-16)', value: payload, edit: 'string', editRel: [0] };
  }
  if (form === 'str') return { type: 'String (not UTF-8)', value: editText(v), edit: 'str', editRel: [] };
  if (form === 'ref') return { type: 'reference', value: numText(payload) };
  // A Godot resource's references (godot-res): {"$ext": N} is external
  // resource N, {"$sub": N} internal resource N; the old by-path form is
  // {"$ext": {"type", "path"}}. Shown, not edited: another number would
  // point at another resource or at none.
  if (form === 'ext' || form === 'sub') {
    const type = form === 'ext' ? 'ExtResource' : 'SubResource';
    if (payload instanceof JObj) {
      const field = (k) => { const x = payload.get(k); return typeof x === 'string' ? x : summary(x, 40); };
      return { type, value: `${field('type')} ${field('path')}` };
    }
    return { type, value: `${form === 'ext' ? 'external' : 'internal'} resource ${numText(payload)}` };
  }
  if (SHAPES[form]) {
    const elem = elemOf(v, SHAPES[form][1]);
    return describeTuple(form, payload, elem);
  }
  if (form.endsWith('s') && NUMERIC.includes(form.slice(0, -1))) {
    return { type: `Packed ${form.slice(0, -1)}[${payload.length}]`, count: payload.length, elem: form.slice(0, -1) };
  }
  if (PACKED_SHAPES[form]) {
    const shape = PACKED_SHAPES[form];
    return { type: `Packed ${TYPE_NAMES[shape]}[${payload.length}]`, count: payload.length, elem: elemOf(v, SHAPES[shape][1]), shape };
  }
  if (isTagForm(form, v)) {
    const inner = describe(payload);
    const d = { ...inner, type: `${TYPE_NAMES[form] || form}` };
    if (inner.editRel) d.editRel = [0, ...inner.editRel];
    return d;
  }
  return { type: `$${form}`, value: summary(payload) };
}

// A container's type with its meta: a Godot PackedStringArray names itself;
// typed containers carry {"type": T} or {"key": K, "value": V}.
function metaType(base, v) {
  const meta = v.get('$meta');
  if (meta === undefined) return base;
  if (typeof meta === 'string') return meta;
  const text = (x) => (typeof x === 'string' ? x : summary(x, 30));
  if (meta instanceof JObj && meta.get('type') !== undefined) return `${base}[${text(meta.get('type'))}]`;
  // A typed Dictionary: the key or the value type may be absent (untyped,
  // as Godot shows it: Variant).
  const key = meta instanceof JObj ? meta.get('key') : undefined;
  const value = meta instanceof JObj ? meta.get('value') : undefined;
  if (key !== undefined || value !== undefined) {
    const either = (x) => (x === undefined ? 'Variant' : text(x));
    return `${base}[${either(key)}, ${either(value)}]`;
  }
  return `${base} ${summary(meta, 60)}`;
}

function elemOf(v, def) {
  const e = v.get('$elem');
  return typeof e === 'string' ? e : def;
}

// A tuple (or one item of a packed shaped array): inline fields, and a
// swatch for colours.
function describeTuple(shape, nums, elem) {
  const names = SHAPES[shape][2];
  const fields = nums.map((x, i) => ({ label: names ? names[i] : String(i), value: numText(x), edit: elem, rel: [0, i] }));
  const d = { type: TYPE_NAMES[shape] || shape, value: '(' + nums.map(numText).join(', ') + ')', fields };
  if (shape === 'color') d.swatch = cssColor(nums);
  return d;
}

function cssColor(nums) {
  const c = nums.map((x) => {
    const f = x instanceof Raw ? x.toNumber() : Number(x);
    return Number.isFinite(f) ? Math.min(1, Math.max(0, f)) : 0;
  });
  const to = (f) => Math.round(f * 255);
  return `rgba(${to(c[0])}, ${to(c[1])}, ${to(c[2])}, ${c.length > 3 ? c[3].toFixed(3) : 1})`;
}

// Children as the page shows them: packed and tuple elements know their
// element type, packed shaped items are tuples.
function describeChild(parent, child) {
  const v = child;
  const pd = parent && describe(parent);
  if (pd && pd.elem && pd.shape && Array.isArray(v)) {
    const d = describeTuple(pd.shape, v, pd.elem);
    d.fields.forEach((f) => { f.rel = [f.rel[1]]; });
    return d;
  }
  if (pd && pd.elem) return describe(v, pd.elem);
  if (pd && pd.fields && !(v instanceof JObj)) {
    return describe(v, pd.fields[0].edit);
  }
  return describe(v);
}

class EditError extends Error {}

// The text an editor shows for a value an edit made: a raw bool's stored
// value, a $str's pieces as typed JSON.
function editText(v) {
  if (v instanceof JObj && formOf(v) === 'bool') return numText(v.get('$raw'));
  if (v instanceof JObj && formOf(v) === 'str') return writeTyped(v.vals[0]).join('');
  if (v instanceof JObj && (formOf(v) === 'int' || formOf(v) === 'uint')) return numText(v.vals[0]);
  return numText(v);
}

// A bool with its stored value: true, false, or a whole number 0 to
// 4294967295 (0 is false, anything else true; 0 and 1 are ordinary bools).
function parseRawBool(t) {
  if (t === 'true' || t === 'false') return t === 'true';
  if (!/^[0-9]+$/.test(t) || BigInt(t) > 4294967295n) {
    throw new EditError('a stored bool is true, false or a whole number 0 to 4294967295');
  }
  const n = Number(t);
  return n <= 1 ? n === 1 : new JObj(['$bool', '$raw'], [true, n]);
}

// The pieces of a string that is not UTF-8, as typed JSON (docs/json.md):
// ["text", 55296, 1114112, {"$u8s": [255]}] -- strings, characters 0 to
// 2147483647 (a lone surrogate is one: 55296 is U+D800) and raw bytes. Lone
// surrogate escapes ("\ud800"), as older files hold, are still taken.
function parseStrPieces(text) {
  let pieces;
  try {
    pieces = parseTyped(text);
  } catch (e) {
    throw new EditError(`${e.message}; the pieces are a JSON array such as ["text", {"$u8s": [255]}]`);
  }
  if (!Array.isArray(pieces)) throw new EditError('the pieces are a JSON array such as ["text", {"$u8s": [255]}]');
  const whole = (x, max) => (typeof x === 'number' || (x instanceof Raw && !x.isFloat())) &&
    /^[0-9]+$/.test(numText(x)) && BigInt(numText(x)) <= max;
  for (const p of pieces) {
    if (typeof p === 'string' || whole(p, 2147483647n)) continue;
    if (p instanceof JObj && p.keys.length === 1 && p.keys[0] === '$u8s' && Array.isArray(p.vals[0]) &&
        p.vals[0].every((b) => whole(b, 255n))) continue;
    throw new EditError('a piece is a string, a character 0 to 2147483647 or {"$u8s": [bytes 0 to 255]}');
  }
  return new JObj(['$str'], [pieces]);
}

// Checks the text typed for an edit of type `type` and gives the tree value
// that replaces the old one.
function parseEdit(type, text) {
  const t = text.trim();
  if (type === 'string') return text;
  if (type === 'rawbool') return parseRawBool(t);
  if (type === 'str') return parseStrPieces(t);
  if (type === 'bool') {
    if (t === 'true') return true;
    if (t === 'false') return false;
    throw new EditError('a bool is true or false');
  }
  if (type === 'bytes') {
    if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(t)) {
      throw new EditError('bytes are written in base64 (RFC 4648, with padding)');
    }
    return t;
  }
  if (INT_RANGE[type]) {
    if (!/^-?[0-9]+$/.test(t)) throw new EditError(`${type === 'int' ? 'an integer' : 'a ' + type} is a whole number`);
    const b = BigInt(t);
    const [lo, hi] = INT_RANGE[type];
    if (b < lo || b > hi) throw new EditError(`${type} holds ${lo} to ${hi}`);
    // Beyond 2^53 an integer is a string, as serval writes it (docs/json.md,
    // "Integers beyond 2^53"): a plain int becomes its $int or $uint form,
    // the payload of a $i64/$u64 form or a packed element the string.
    if (b > TWO_53 || b < -TWO_53) {
      if (type !== 'int') return b.toString();
      return new JObj([b > 9223372036854775807n ? '$uint' : '$int'], [b.toString()]);
    }
    return makeInt(b);
  }
  if (type === 'float' || type === 'f32' || type === 'f64') {
    const special = ['nan', 'inf', '-inf'];
    if (special.includes(t)) {
      if (type === 'float') throw new EditError('a plain float is finite (nan and inf need an f64 value)');
      return t;
    }
    if (!/^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/.test(t)) {
      throw new EditError('a float is a decimal number such as 1.5 or -2e-3' + (type === 'float' ? '' : ', or nan, inf, -inf'));
    }
    const n = Number(t);
    if (!Number.isFinite(n)) throw new EditError('the number is beyond float64 range');
    if (type === 'f32' && !Number.isFinite(Math.fround(n))) {
      throw new EditError('the number is beyond float32 range');
    }
    return makeFloat(n);
  }
  throw new EditError(`values of type ${type} cannot be edited here`);
}
