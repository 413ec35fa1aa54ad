"""serval._native.loads straight from the bytes (path 2) against loads
through the library's tree (path 1), for godot3, godot4 and bson: on every
vector of tests/vectors/ and every sample of ../shared/samples/ the format
reads, both must give the same objects (class, value, float bits, meta and
the other attributes, recursively); where the streaming path declines, the
default path (0) must still give the tree's objects; where the tree path
fails, the default path must raise serval.Error with the same fields.
Skipped when the extension is not in use."""
import ctypes
import glob
import math
import os
import struct
import unittest

import serval
from serval import _options

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
VECTORS = os.path.join(TOP, "tests", "vectors")
SAMPLES = os.path.normpath(os.path.join(TOP, "..", "shared", "samples"))

ANY, TREE, STREAM = 0, 1, 2


def native_loads(data, fmt, path, **options):
    f = serval._find(fmt)
    opts = _options.Options(f, options, "loads", serval._schema_of)
    return serval._native.loads(data, fmt, ctypes.addressof(opts.struct), path)


def same(a, b, where="$"):
    """None when a and b are the same objects, else where they differ."""
    if type(a) is not type(b):
        return "%s: %s against %s" % (where, type(a).__name__, type(b).__name__)
    for name in ("meta", "elem", "cls", "value"):
        if hasattr(a, name) or hasattr(b, name):
            why = same(getattr(a, name, None), getattr(b, name, None), where + "." + name)
            if why:
                return why
    if isinstance(a, float):
        if struct.pack("<d", a) != struct.pack("<d", b):
            return "%s: %r against %r" % (where, a, b)
        return None
    if isinstance(a, dict):
        if [(type(k), k) for k in a] != [(type(k), k) for k in b]:
            return "%s: keys %r against %r" % (where, list(a)[:5], list(b)[:5])
        for k in a:
            why = same(a[k], b[k], "%s/%s" % (where, k))
            if why:
                return why
        return None
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return "%s: %d items against %d" % (where, len(a), len(b))
        for i, (x, y) in enumerate(zip(a, b)):
            why = same(x, y, "%s/%d" % (where, i))
            if why:
                return why
        return None
    if a != b:
        return "%s: %r against %r" % (where, a, b)
    return None


def error_fields(exc):
    return (exc.status, exc.message, exc.format, exc.offset, exc.bit_offset, exc.path, str(exc))


def inputs():
    """(name, format, bytes) of every Godot Variant and BSON file here."""
    out = []
    for fmt, folder in (("godot3", "godot/oracle"), ("godot4", "godot/oracle4")):
        for p in sorted(glob.glob(os.path.join(VECTORS, folder, "*.bin"))):
            out.append((p, fmt, open(p, "rb").read()))
    for p in sorted(glob.glob(os.path.join(VECTORS, "bson", "*.bson"))):
        out.append((p, "bson", open(p, "rb").read()))
    for fmt, p in (("godot3", "player.godot3"), ("godot4", "player.godot4"),
                   ("bson", "players.bson")):
        p = os.path.join(TOP, "examples", p)
        out.append((p, fmt, open(p, "rb").read()))
    return out


def sample_inputs():
    out = []
    for p in sorted(glob.glob(os.path.join(SAMPLES, "**", "*"), recursive=True)):
        if not os.path.isfile(p):
            continue
        data = open(p, "rb").read()
        fmt = serval.detect(data)
        if fmt in ("godot3", "godot4", "bson"):
            out.append((p, fmt, data))
    return out


def workload(count):
    """The shapes of the benchmark (bindings/python/bench/bench_loads.py)."""
    out = []
    for i in range(count):
        out.append({"id": i, "name": "entity_%d" % i, "hp": i * 0.1 if i % 2 else (i % 1000) / 8.0,
                    "pos": serval.Vector3([float(i), i * 0.5, float(-i)]),
                    "tags": ["a", "bb", i, None, True, serval.I8(-3), b"\x00\x01"]})
    return out


@unittest.skipUnless(serval.BACKEND == "native", "serval._native is not in use")
class StreamLoads(unittest.TestCase):
    def compare(self, items):
        streamed = 0
        for name, fmt, data in items:
            with self.subTest(name=os.path.relpath(name, TOP)):
                try:
                    tree = native_loads(data, fmt, TREE)
                except serval.Error as exc:
                    self.assertIs(native_loads(data, fmt, STREAM), NotImplemented)
                    with self.assertRaises(serval.Error) as got:
                        native_loads(data, fmt, ANY)
                    self.assertEqual(error_fields(got.exception), error_fields(exc))
                    continue
                stream = native_loads(data, fmt, STREAM)
                if stream is NotImplemented:
                    self.assertIsNone(same(native_loads(data, fmt, ANY), tree))
                    continue
                streamed += 1
                self.assertIsNone(same(stream, tree))
                self.assertIsNone(same(native_loads(data, fmt, ANY), tree))
        return streamed

    def test_vectors(self):
        items = inputs()
        streamed = self.compare(items)
        # most vectors are plain values: the streaming path must take them
        self.assertGreater(streamed, len(items) // 2, "streamed %d of %d" % (streamed, len(items)))

    def test_samples(self):
        if not os.path.isdir(SAMPLES):
            self.skipTest("no sample folder at %s" % SAMPLES)
        self.compare(sample_inputs())

    def test_workload(self):
        value = workload(300)
        for fmt in ("godot3", "godot4"):
            data = serval.dumps(value, fmt)
            stream = native_loads(data, fmt, STREAM)
            self.assertIsNot(stream, NotImplemented, fmt)
            self.assertIsNone(same(stream, native_loads(data, fmt, TREE)))

    def test_errors(self):
        data = serval.dumps([{"k": [1, 2, "three"]}] * 3, "godot4")
        cases = [(data[:-4], {}), (data[:17], {}), (data, {"max_depth": 2}),
                 (data, {"max_string": 3})]
        for cut, options in cases:
            with self.subTest(length=len(cut), options=options):
                with self.assertRaises(serval.Error) as tree:
                    native_loads(cut, "godot4", TREE, **options)
                with self.assertRaises(serval.Error) as got:
                    native_loads(cut, "godot4", ANY, **options)
                self.assertEqual(error_fields(got.exception), error_fields(tree.exception))
                self.assertTrue(tree.exception.path or tree.exception.offset)

    def test_repeated_key_declined(self):
        # {"a": 1, "a": 2} as Godot 4 writes a Dictionary: the tree keeps the
        # repeat (a Map), the dict the stream would make cannot
        s = b"\x04\x00\x00\x00\x01\x00\x00\x00a\x00\x00\x00"
        data = (b"\x1b\x00\x00\x00\x02\x00\x00\x00" + s + b"\x02\x00\x00\x00\x01\x00\x00\x00" +
                s + b"\x02\x00\x00\x00\x02\x00\x00\x00")
        tree = native_loads(data, "godot4", TREE)
        self.assertIs(native_loads(data, "godot4", STREAM), NotImplemented)
        self.assertIsNone(same(native_loads(data, "godot4", ANY), tree))


if __name__ == "__main__":
    unittest.main()
