// Typed JSON text <-> a JavaScript tree that writes back to the same text.
//
// JSON.parse cannot be used: it reorders keys that look like array indices,
// drops duplicate keys, turns 1.0 into 1 (which serval then reads as an
// integer) and rounds integers beyond 2^53. So:
//  - an object is a JObj: its keys (as written, "$$x" stays doubled) and its
//    values, in order, duplicates kept;
//  - a number is a JS number only when writing it back gives a literal of the
//    same kind and value (an integer of at most 15 digits, or a float that is
//    not whole); any other number is a Raw holding its text.
// Strings with escapes are read by JSON.parse on their slice, which keeps
// lone surrogates (text written by older serval versions has them in $utf16
// and $str strings; serval now writes each as an integer piece of $str).

'use strict';

class JObj {
  constructor(keys, vals) {
    this.keys = keys;
    this.vals = vals;
  }
  // The value of the first key k, or undefined.
  get(k) {
    const i = this.keys.indexOf(k);
    return i < 0 ? undefined : this.vals[i];
  }
}

class Raw {
  constructor(text) {
    this.text = text;
  }
  isFloat() {
    return /[.eE]/.test(this.text);
  }
  toNumber() {
    return Number(this.text);
  }
}

// The literal serval reads back as a float64 with the value n (finite).
function floatText(n) {
  if (Object.is(n, -0)) return '-0.0';
  const s = String(n);
  return /[.e]/.test(s) ? s : s + '.0';
}

// A float value for the tree: a JS number when it writes back as a float.
function makeFloat(n) {
  return Number.isInteger(n) ? new Raw(floatText(n)) : n;
}

// An integer (BigInt) for the tree.
function makeInt(b) {
  const s = b.toString();
  return s.length <= 15 ? Number(s) : new Raw(s);
}

function numberValue(text) {
  if (/[.eE]/.test(text)) {
    const n = Number(text);
    return Number.isInteger(n) ? new Raw(text) : n;
  }
  return text.length <= 15 && text !== '-0' ? Number(text) : new Raw(text);
}

class ParseError extends Error {}

// Parses typed JSON text. onProgress(fraction) is called now and then.
function parseTyped(text, onProgress) {
  let i = 0;
  const n = text.length;
  let nextReport = 1 << 22;

  function fail(what) {
    throw new ParseError(`typed JSON: ${what} at character ${i}`);
  }
  function ws() {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else return;
    }
  }
  function str() {
    const start = i + 1;
    let j = start;
    let escaped = false;
    for (;;) {
      const c = text.charCodeAt(j);
      if (c === 34) break;
      if (c === 92) {
        escaped = true;
        j += 2;
        continue;
      }
      if (j >= n) fail('unterminated string');
      j++;
    }
    i = j + 1;
    return escaped ? JSON.parse(text.slice(start - 1, j + 1)) : text.slice(start, j);
  }
  // Numbers are the bulk of big files (packed arrays): integers of up to 15
  // digits are summed while scanning, with no substring; the rest go
  // through numberValue.
  function num() {
    const start = i;
    let neg = false;
    if (text.charCodeAt(i) === 45) {
      neg = true;
      i++;
    }
    let v = 0;
    const digits = i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c >= 48 && c <= 57) {
        v = v * 10 + (c - 48);
        i++;
      } else break;
    }
    const c = text.charCodeAt(i);
    if (c !== 46 && c !== 101 && c !== 69 && c !== 43) {
      if (i === digits) fail('unexpected character');
      if (i - digits <= 15 && !(neg && v === 0)) return neg ? -v : v;
      return numberValue(text.slice(start, i));
    }
    for (;;) {
      const d = text.charCodeAt(i);
      if ((d >= 48 && d <= 57) || d === 45 || d === 43 || d === 46 || d === 101 || d === 69) i++;
      else break;
    }
    const t = text.slice(start, i);
    const n = +t;
    // A float literal (it has '.', 'e' or 'E' here) that is not whole stays a
    // number; NaN means a malformed literal, left to the library to report.
    return Number.isInteger(n) || n !== n ? numberValue(t) : n;
  }
  function value() {
    if (i > nextReport && onProgress) {
      onProgress(i / n);
      nextReport = i + (1 << 22);
    }
    ws();
    const c = text.charCodeAt(i);
    if (c === 123) { // {
      i++;
      const keys = [];
      const vals = [];
      ws();
      if (text.charCodeAt(i) === 125) {
        i++;
        return new JObj(keys, vals);
      }
      for (;;) {
        ws();
        if (text.charCodeAt(i) !== 34) fail('expected a key');
        keys.push(str());
        ws();
        if (text.charCodeAt(i) !== 58) fail("expected ':'");
        i++;
        vals.push(value());
        ws();
        const d = text.charCodeAt(i++);
        if (d === 125) return new JObj(keys, vals);
        if (d !== 44) fail("expected ',' or '}'");
      }
    }
    if (c === 91) { // [
      i++;
      const arr = [];
      ws();
      if (text.charCodeAt(i) === 93) {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value());
        ws();
        const d = text.charCodeAt(i++);
        if (d === 93) return arr;
        if (d !== 44) fail("expected ',' or ']'");
      }
    }
    if (c === 34) return str();
    if (text.startsWith('true', i)) { i += 4; return true; }
    if (text.startsWith('false', i)) { i += 5; return false; }
    if (text.startsWith('null', i)) { i += 4; return null; }
    return num();
  }
  const root = value();
  ws();
  if (i !== n) fail('text after the value');
  return root;
}

// Writes the tree back as compact typed JSON, as an array of string pieces
// (one string could pass the engine's length limit on big files).
function writeTyped(root) {
  const pieces = [];
  let cur = '';
  function put(s) {
    cur += s;
    if (cur.length > (1 << 20)) {
      pieces.push(cur);
      cur = '';
    }
  }
  function w(v) {
    if (v === null) put('null');
    else if (typeof v === 'boolean') put(v ? 'true' : 'false');
    else if (typeof v === 'number') put(String(v));
    else if (typeof v === 'string') put(JSON.stringify(v));
    else if (v instanceof Raw) put(v.text);
    else if (Array.isArray(v)) {
      put('[');
      for (let k = 0; k < v.length; k++) {
        if (k) put(',');
        w(v[k]);
      }
      put(']');
    } else if (v instanceof JObj) {
      put('{');
      for (let k = 0; k < v.keys.length; k++) {
        put(k ? ',' : '');
        put(JSON.stringify(v.keys[k]));
        put(':');
        w(v.vals[k]);
      }
      put('}');
    } else {
      throw new Error('writeTyped: not a tree value');
    }
  }
  w(root);
  pieces.push(cur);
  return pieces;
}
