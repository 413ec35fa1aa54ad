"""The wrappers serval._native makes without calling their class (I32, F32,
Ref, StringName, ...: native_wrap.c) against the same wrappers made by the
class call: each must be of the same class and compare, print, hash, pickle
and read back (int(), float(), .value) the same, through loads of every
path, and be what the ctypes path's loads gives. Skipped when the extension
is not in use."""
import contextlib
import math
import pickle
import struct
import sys
import unittest

import serval

INF, NAN = float("inf"), float("nan")


def wrapped_values():
    s = serval
    ints = [0, 1, -1, 5, 127, -128, 255, 256, 1000, -32768, 65535, 2**29, 2**30 - 1, -2**30 + 1,
            2**30, -2**30, 2**31 - 1, -2**31, 2**32 - 1, 2**40, 2**63 - 1, -2**63]
    out = []
    for cls, lo, hi in ((s.I8, -2**7, 2**7), (s.I16, -2**15, 2**15), (s.I32, -2**31, 2**31),
                        (s.I64, -2**63, 2**63), (s.U8, 0, 2**8), (s.U16, 0, 2**16),
                        (s.U32, 0, 2**32), (s.U64, 0, 2**64)):
        out += [cls(i) for i in ints + [hi - 1] if lo <= i < hi]
    out.append(s.U64(2**64 - 1))
    for x in (0.0, -0.0, 0.5, -2.25, 2.0**-149, 3.4028234663852886e38, INF, -INF, NAN):
        out.append(s.F32(x))
    for x in (0.0, -0.0, 0.1, 1e308, 5e-324, INF, -INF, NAN):
        out.append(s.F64(x))
    out += [s.Ref(None), s.Ref(0), s.Ref(2**64 - 1), s.StringName("jump"), s.StringName(""),
            s.NodePath("A/B"), s.RID(13), s.DateTime(-1), s.BsonObjectId(b"\x01" * 12),
            s.Enum(s.U8(3)), s.URL("http://x"), s.Char(s.U16(65)), s.UUID(b"\x00" * 16)]
    return out


def bits(v):
    return struct.pack("<d", v) if isinstance(v, float) else None


@contextlib.contextmanager
def ctypes_path():
    native = serval._native
    serval._native = None
    try:
        yield
    finally:
        serval._native = native


@unittest.skipIf(serval._native is None, "serval._native is not in use")
class FastWrappers(unittest.TestCase):
    def test_the_fast_path_is_taken(self):
        # every CPython 3.10 to 3.13 build with 30-bit digits lays these out
        # as native_wrap.c expects; a layout it does not know keeps the class
        # call, which this test would then report
        if sys.implementation.name != "cpython" or sys.int_info.bits_per_digit != 30:
            self.skipTest("not CPython with 30-bit digits")
        fast = set(serval._native.fast_wrappers())
        for name in ("I8", "I32", "I64", "U8", "U64", "F32", "F64", "Ref", "StringName",
                     "BsonObjectId", "UUID"):
            self.assertIn(name, fast)

    def check_same(self, got, want):
        self.assertIs(type(got), type(want))
        self.assertEqual(repr(got), repr(want))
        if isinstance(want, float):
            self.assertEqual(bits(got), bits(want))
            self.assertEqual(bits(float(got)), bits(float(want)))
        else:
            self.assertEqual(got, want)
            self.assertEqual(hash(got), hash(want))
        if isinstance(want, int):
            self.assertEqual(int(got), int(want))
            self.assertEqual(got + 0, want + 0)
        if hasattr(want, "value"):
            self.assertIs(type(got.value), type(want.value))
            self.assertEqual(got.value, want.value)
        back = pickle.loads(pickle.dumps(got))
        self.assertIs(type(back), type(want))
        self.assertEqual(repr(back), repr(want))

    def test_loads_makes_what_the_class_call_makes(self):
        values = wrapped_values()
        text = serval.dumps(values, "json")
        got = serval.loads(text, "json")
        with ctypes_path():
            by_ctypes = serval.loads(text, "json")
        self.assertEqual(len(got), len(values))
        for g, c, want in zip(got, by_ctypes, values):
            with self.subTest(value=repr(want)):
                self.check_same(g, want)
                self.check_same(c, want)
                if isinstance(want, float) and math.isnan(want):
                    continue
                self.assertEqual(serval.dumps(g, "json"), serval.dumps(want, "json"))

    def test_bson_values(self):
        doc = {"i": serval.I32(-7), "n": serval.I32(2**31 - 1), "f": serval.F64(0.0),
               "id": serval.BsonObjectId("0102030405060708090a0b0c"),
               "t": serval.DateTime(1700000000000)}
        data = serval.dumps(doc, "bson")
        got = serval.loads(data, "bson")
        with ctypes_path():
            by_ctypes = serval.loads(data, "bson")
        for k in doc:
            with self.subTest(key=k):
                self.check_same(got[k], by_ctypes[k])
        self.assertEqual(serval.dumps(got, "bson"), data)


if __name__ == "__main__":
    unittest.main()
