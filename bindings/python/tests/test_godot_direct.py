"""serval._native.loads of godot3 and godot4 read by the extension itself
(path 3, native_godot.c) against loads through the library's tree (path 1).

Where the direct reader takes an input, its objects must be the tree's
(class, value, float bits and attributes, recursively); where the tree path
fails, the direct reader must decline (NotImplemented), so that the default
path raises the tree's error. Checked on every Godot vector and sample, on
the benchmark's shapes, on hand-made inputs for each rule that makes it
decline, and on many corrupted copies of those inputs. Skipped when the
extension is not in use."""
import os
import random
import struct
import unittest

import serval

from .test_stream_loads import ANY, TOP, TREE, inputs, native_loads, same, sample_inputs, workload

DIRECT = 3


def godot_only(items):
    return [(n, f, d) for n, f, d in items if f in ("godot3", "godot4")]


def u32(*xs):
    return b"".join(struct.pack("<I", x & 0xFFFFFFFF) for x in xs)


def gstr(text, pad=b""):
    """A Godot String item: header 4, length, bytes, padding."""
    raw = text if isinstance(text, bytes) else text.encode()
    return u32(4, len(raw)) + raw + (pad or b"\0" * ((4 - len(raw) % 4) % 4))


@unittest.skipUnless(serval.BACKEND == "native", "serval._native is not in use")
class GodotDirect(unittest.TestCase):
    def check(self, name, fmt, data, **options):
        """Compares path 3 with path 1; returns whether path 3 took the input."""
        with self.subTest(name=name, fmt=fmt, options=options):
            direct = native_loads(data, fmt, DIRECT, **options)
            try:
                tree = native_loads(data, fmt, TREE, **options)
            except serval.Error:
                self.assertIs(direct, NotImplemented, "the tree fails, the direct path gives a value")
                return False
            if direct is NotImplemented:
                self.assertIsNone(same(native_loads(data, fmt, ANY, **options), tree))
                return False
            self.assertIsNone(same(direct, tree))
            return True

    def test_vectors(self):
        items = godot_only(inputs())
        taken = sum(self.check(os.path.relpath(n, TOP), f, d) for n, f, d in items)
        # most vectors are plain values: the direct path must take many
        self.assertGreater(taken, len(items) // 3, "took %d of %d" % (taken, len(items)))

    def test_samples(self):
        items = godot_only(sample_inputs())
        if not items:
            self.skipTest("no Godot samples")
        for n, f, d in items:
            self.check(os.path.relpath(n, TOP), f, d)

    def test_workload(self):
        # the benchmark's shapes (bench/bench_loads.py's mixed_dicts) it is for
        value = [{"id": i, "name": "entity_%d" % i, "hp": i * 0.1 if i % 2 else (i % 1000) / 8.0,
                  "pos": serval.Vector3([float(i), i * 0.5, float(-i)]), "tags": ["a", "bb", i]}
                 for i in range(300)]
        for fmt in ("godot3", "godot4"):
            data = serval.dumps(value, fmt)
            self.assertTrue(self.check("workload", fmt, data), fmt)
        # and those of the streaming path's test, some of which it declines
        for fmt in ("godot3", "godot4"):
            self.check("stream workload", fmt, serval.dumps(workload(50), fmt))

    def test_values_by_hand(self):
        # Godot 3: [1, -2, 2**40, 7 as int64, 0.5 as f32, 2.0 as f32, 0.1 as
        # f64, 0.5 as f64, inf as f64, true, null, "hé", Vector3(1, 2.5, -0)]
        items = [u32(2, 1), u32(2, -2), u32(2 | 1 << 16) + struct.pack("<q", 2 ** 40),
                 u32(2 | 1 << 16) + struct.pack("<q", 7), u32(3) + struct.pack("<f", 0.5),
                 u32(3) + struct.pack("<f", 2.0), u32(3 | 1 << 16) + struct.pack("<d", 0.1),
                 u32(3 | 1 << 16) + struct.pack("<d", 0.5),
                 u32(3 | 1 << 16) + struct.pack("<d", float("inf")), u32(1, 1), u32(0),
                 gstr("h\u00e9"), u32(7) + struct.pack("<3f", 1.0, 2.5, -0.0)]
        data = u32(19, len(items)) + b"".join(items)
        self.assertTrue(self.check("by hand", "godot3", data))
        got = native_loads(data, "godot3", DIRECT)
        self.assertEqual(got[:3], [1, -2, 2 ** 40])
        self.assertIs(type(got[2]), int)
        self.assertIs(type(got[3]), serval.I64)    # int32 written as int64: width kept
        self.assertIs(type(got[4]), float)         # 0.5 as f32 reads back as f32
        self.assertIs(type(got[5]), serval.F32)    # whole: explicit
        self.assertIs(type(got[6]), float)
        self.assertIs(type(got[7]), serval.F64)    # 0.5 would be written as f32
        self.assertIs(type(got[8]), serval.F64)
        self.assertEqual(got[9:12], [True, None, "h\u00e9"])
        self.assertIs(type(got[12]), serval.Vector3)
        self.assertEqual(list(got[12]), [1.0, 2.5, -0.0])
        # Godot 4: {"k": Vector2i(3, -4), "c": Color(0, 0.5, 1, 1)}
        data = (u32(27, 2) + gstr("k") + u32(6, 3, -4) + gstr("c") +
                u32(20) + struct.pack("<4f", 0, 0.5, 1, 1))
        self.assertTrue(self.check("by hand", "godot4", data))
        # Godot 4: [PackedByteArray 010203, PackedInt64Array [5, -6],
        # PackedVector2Array [(1, 2)], PackedFloat64Array [0.5]]; Godot 3:
        # [PackedColorArray [(0, 0.5, 1, 1)], PackedInt32Array []]
        data = (u32(28, 4) + u32(29, 3) + b"\1\2\3\0" + u32(31, 2) + struct.pack("<2q", 5, -6) +
                u32(35, 1) + struct.pack("<2f", 1, 2) + u32(33, 1) + struct.pack("<d", 0.5))
        self.assertTrue(self.check("packed by hand", "godot4", data))
        got = native_loads(data, "godot4", DIRECT)
        self.assertEqual(got[0], b"\1\2\3")
        self.assertIs(type(got[1]), serval.I64s)
        self.assertEqual(list(got[1]), [5, -6])
        self.assertIs(type(got[2]), serval.PackedVector2)
        self.assertEqual([list(x) for x in got[2]], [[1.0, 2.0]])
        self.assertEqual(list(got[3]), [0.5])
        data = u32(19, 2) + u32(26, 1) + struct.pack("<4f", 0, 0.5, 1, 1) + u32(21, 0)
        self.assertTrue(self.check("packed by hand", "godot3", data))

    def test_declined(self):
        """Each input the direct reader must leave to the paths behind."""
        s = gstr("a")
        cases = {
            "a key twice": u32(27, 2) + s + u32(2, 1) + s + u32(2, 2),
            "an int key": u32(27, 1) + u32(2, 1) + u32(2, 2),
            "padding not zero": u32(28, 1) + gstr("a", b"\0\1\0"),
            "a NUL in the text": u32(28, 1) + gstr(b"a\0b"),
            "a BOM": u32(28, 1) + gstr(b"\xef\xbb\xbfab"),
            "not UTF-8": u32(28, 1) + gstr(b"\xff\xfe"),
            "a bool of 2": u32(28, 1) + u32(1, 2),
            "flag bits on a Vector2": u32(28, 1) + u32(5 | 1 << 16) + struct.pack("<2d", 1, 2),
            "a typed Array": u32(28 | 1 << 16, 0),
            "the shared bit": u32(28, 0x80000000),
            "a StringName": u32(28, 1) + u32(21, 1) + b"a\0\0\0",
            "a PackedStringArray": u32(28, 1) + u32(34, 1) + gstr("ab"),
            "a NUL in a key": u32(27, 1) + gstr(b"k\0") + u32(2, 1),
            "a NUL in a text, not last": u32(28, 2) + gstr(b"a\0b") + u32(2, 1),
            "byte padding not zero": u32(28, 1) + u32(29, 1) + b"\1\0\1\0",
            "byte padding missing": u32(28, 1) + u32(29, 5) + b"\1\2\3\4\5",
            "a packed count past the end": u32(28, 1) + u32(36, 2) + struct.pack("<3f", 1, 2, 3),
            "bytes after the value": u32(28, 0, 0),
            "store_var frames": u32(8, 2, 7),
        }
        for why, data in cases.items():
            with self.subTest(why=why):
                self.assertIs(native_loads(data, "godot4", DIRECT), NotImplemented)
                self.check(why, "godot4", data)
        # Godot 3: a Transform2D that fills the input, which is also two
        # store_var frames (int 5, float 0.5): the tree takes it for frames
        data = u32(8, 2, 5, 12, 3 | 1 << 16) + struct.pack("<d", 0.5)
        self.assertIs(native_loads(data, "godot3", DIRECT), NotImplemented)
        self.check("raw and frames", "godot3", data)
        deep = serval.dumps([[[[1]]]], "godot4")
        self.assertIs(native_loads(deep, "godot4", DIRECT, max_depth=3), NotImplemented)
        self.check("deep", "godot4", deep, max_depth=3)
        self.assertIs(native_loads(serval.dumps(["abcd"], "godot4"), "godot4", DIRECT,
                                   max_string=3), NotImplemented)

    def test_corrupted(self):
        """Bytes changed at random in the inputs above: never a value where the
        tree fails, never another value than the tree's."""
        rng = random.Random(12)
        seeds = [d for _, _, d in godot_only(inputs()) if len(d) <= 4096]
        seeds.append(serval.dumps(workload(6), "godot3"))
        seeds.append(serval.dumps(workload(6), "godot4"))
        taken = 0
        for i in range(3000):
            data = bytearray(rng.choice(seeds))
            for _ in range(rng.randint(1, 3)):
                at = rng.randrange(len(data))
                data[at] = rng.choice((0, 1, 2, 3, 4, 0x80, 0xFF, rng.randrange(256)))
            for fmt in ("godot3", "godot4"):
                taken += self.check("corrupted %d" % i, fmt, bytes(data))
        self.assertGreater(taken, 100)


if __name__ == "__main__":
    unittest.main()
