"""Python values to serval's typed JSON text (docs/json.md), for dumps().

dumps() hands the library typed JSON, which it reads into a value tree and
encodes in the format asked for. The conversion below turns every wrapper
back into its "$" form, doubles the "$" of literal keys that start with one,
and gives floats that JSON cannot spell (NaN, infinities) their typed forms;
json.dumps (the C encoder) then writes the text.
"""
import base64
import gc
import json
import math
import struct
import sys

from . import _types as T

_INT64_MIN = -(1 << 63)
_UINT64_MAX = (1 << 64) - 1


def _f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def _nonfinite64(x):
    bits = _f64_bits(x)
    if bits & 0x000FFFFFFFFFFFFF == 0:
        return "-inf" if bits >> 63 else "inf"
    if bits == 0x7FF8000000000000:
        return "nan"
    return "nan:0x%016x" % bits


def _nonfinite32(x):
    # the float32 whose sign and payload loads() moved into this double
    bits = _f64_bits(x)
    b32 = (bits >> 63) << 31 | 0x7F800000 | (bits >> 29) & 0x007FFFFF
    if b32 & 0x007FFFFF == 0:
        return "-inf" if b32 >> 31 else "inf"
    if b32 == 0x7FC00000:
        return "nan"
    return "nan:0x%08x" % b32


class _Fields(dict):
    """A JSON object with repeated keys: json.dumps asks a dict subclass for its
    items(), and writes these pairs. (It holds one entry so that it is not
    taken for an empty object.)"""

    def __init__(self, pairs):
        dict.__init__(self, x=None)
        self._pairs = pairs

    def items(self):
        return self._pairs


def _key(k):
    return "$" + k if k[:1] == "$" else k


def _numbers(values, elem):
    """The elements of a tuple or packed array: non-finite floats as strings."""
    if elem == "f32" or elem == "f64":
        values = [float(x) for x in values]
        if not all(map(math.isfinite, values)):
            text = _nonfinite32 if elem == "f32" else _nonfinite64
            values = [x if math.isfinite(x) else text(x) for x in values]
        return values
    return [int(x) for x in values]


def _elem_member(out, v):
    if v.elem != type(v).elem:
        out["$elem"] = v.elem
    return out


def _with_meta(out, v):
    if v.meta is not None:
        out["$meta"] = convert(v.meta)
    return out


def _dict(v):
    if all(type(k) is str for k in v):
        # str values (the commonest leaves) are written as they are, without
        # the call through convert()
        return {("$" + k if k[:1] == "$" else k): x if type(x) is str else convert(x)
                for k, x in v.items()}
    return {"$map": [[convert(k), convert(x)] for k, x in v.items()]}


def _list(v):
    return [x if type(x) is str else convert(x) for x in v]


def _object_head(v):
    cls = v.cls
    if isinstance(cls, int):
        cls = int(cls)
    out = {"$class": cls}
    if v.meta is not None:
        out["$meta"] = convert(v.meta)
    return out


def _object(v):
    out = _object_head(v)
    for k, x in v.items():
        out[_key(k)] = convert(x)
    return out


def _object_pairs(v):
    head = _object_head(v)
    return _Fields(list(head.items()) + [(_key(k), convert(x)) for k, x in v])


def _float(v):
    return v if math.isfinite(v) else {"$f64": _nonfinite64(v)}


def _int(v):
    if not _INT64_MIN <= v <= _UINT64_MAX:
        raise OverflowError("serval: %d is beyond the int64 and uint64 ranges" % v)
    return v


_BY_TYPE = {
    str: lambda v: v,
    int: _int,
    bool: lambda v: v,
    type(None): lambda v: v,
    float: _float,
    dict: _dict,
    list: _list,
    tuple: _list,
    bytes: lambda v: {"$bytes": base64.b64encode(v).decode("ascii")},
    bytearray: lambda v: {"$bytes": base64.b64encode(v).decode("ascii")},
    T.F32: lambda v: {"$f32": float(v) if math.isfinite(v) else _nonfinite32(v)},
    T.F64: lambda v: {"$f64": float(v) if math.isfinite(v) else _nonfinite64(v)},
    T.Bool: lambda v: {"$bool": bool(v), "$raw": int(v)},
    T.UTF16: lambda v: {"$utf16": str(v)},
    T.Str: lambda v: {"$str": [{"$u8s": list(v)}]},
    T.Ref: lambda v: {"$ref": None if v.value is None else int(v.value)},
    T.Array: lambda v: _with_meta({"$array": [convert(x) for x in v]}, v),
    T.Dict: lambda v: _with_meta({"$map": _dict(v)}, v) if all(type(k) is str for k in v)
    else _with_meta(_dict(v), v),
    T.Map: lambda v: _with_meta({"$map": [[convert(k), convert(x)] for k, x in v]}, v),
    T.Object: _object,
    T.ObjectPairs: _object_pairs,
}
for _cls in (T.I8, T.I16, T.I32, T.I64, T.U8, T.U16, T.U32, T.U64):
    _BY_TYPE[_cls] = (lambda form: lambda v: {form: int(v)})(_cls.form)
for _cls in T.BY_TAG.values():
    if issubclass(_cls, T.Tagged):
        _BY_TYPE[_cls] = (lambda form: lambda v: {form: convert(v.value)})("$" + _cls.tag)
    elif issubclass(_cls, T.Tuple):
        _BY_TYPE[_cls] = (lambda form: lambda v: _elem_member({form: _numbers(v, v.elem)}, v))(
            "$" + _cls.tag)
    else:
        _BY_TYPE[_cls] = (lambda form: lambda v: _elem_member(
            {form: [_numbers(item, v.elem) for item in v]}, v))("$" + _cls.tag)
for _cls in T.BY_ELEM.values():
    _BY_TYPE[_cls] = (lambda form, elem: lambda v: {form: _numbers(v, elem)})(
        "$" + _cls.elem + "s", _cls.elem)
del _cls


def convert(v):
    """v as the Python value of its typed JSON."""
    f = _BY_TYPE.get(type(v))
    if f is None:
        f = _fallback(v)
    return f(v)


def _fallback(v):
    # subclasses of plain types made by the caller, taken as those types
    for base in (bool, int, float, str, bytes, bytearray, dict, list, tuple):
        if isinstance(v, base):
            return _BY_TYPE[base]
    raise TypeError("serval: cannot write a %s" % type(v).__name__)


def dumps_text(value):
    """The typed JSON of value, as UTF-8 bytes."""
    limit = sys.getrecursionlimit()
    if limit < 10000:
        sys.setrecursionlimit(10000)  # trees may nest 2048 deep; each level is a few frames
    # The converted tree is new containers only, which cannot form cycles:
    # the cyclic garbage collector is paused while it is made (on a big tree
    # its passes over the caller's objects took three quarters of the time).
    paused = gc.isenabled()
    try:
        if paused:
            gc.disable()
        tree = convert(value)
        text = json.dumps(tree, ensure_ascii=True, separators=(",", ":"), allow_nan=False,
                          check_circular=False)
    finally:
        if paused:
            gc.enable()
        if limit < 10000:
            sys.setrecursionlimit(limit)
    return text.encode("ascii")
