"""serval._native against the ctypes path, which it replaces under loads
and dumps: for each value (every wrapper class, edge numbers, non-finite
floats, keys a dict cannot hold, meta data), both must give the same typed
JSON bytes from dumps, the same objects from loads, and the same error
(exception class and status) where the value cannot be written. Also: the
errors the extension raises itself carry their JSON Pointer, and 10,000
calls of loads and dumps leak neither references nor memory.

The ctypes path is typed JSON text read by the library (dumps) and a pickle
stream written by it (loads), two independent routes to the same tree, so
agreeing with it checks the extension against the library's own reader
and writer. Skipped when the extension is not in use (SERVAL_PYTHON_BACKEND
=ctypes, or not built)."""
import contextlib
import ctypes
import gc
import math
import os
import sys
import tracemalloc
import unittest

import serval
from serval import _options

INF, NAN = float("inf"), float("nan")


class UserDict(dict):
    pass


def values():
    s = serval
    return [
        None, True, False, 0, -1, 2**63 - 1, 2**63, 2**64 - 1, -2**63, 1.5, -0.0, NAN, -INF,
        "text", "", "\u00fcn\u00efc\u00f6de \U0001f600", b"\x00\xff", bytearray(b"ab"),
        [1, [2, [3, []]]], (1, "2"), {"a": 1, "$x": 2, "": None}, {1: "a", "b": 2},
        UserDict(k=[1]),
        s.I8(-128), s.I16(300), s.I32(-5), s.I64(7), s.U8(255), s.U16(1), s.U32(2**32 - 1),
        s.U64(2**64 - 1), s.U64(0),
        s.F32(0.1), s.F32(1.5), s.F32(NAN), s.F32(-INF), s.F64(1.0), s.F64(NAN),
        s.Bool(127), s.Bool(1), s.UTF16("a\ud800b"), s.UTF16("plain"), s.Str(b"\xff\xfe"),
        s.Ref(3), s.Ref(None),
        s.Array([1, 2], meta={"type": "int"}), s.Array([]), s.Dict({"k": 1}, meta={"m": 1}),
        s.Dict({2: 1}, meta="x"),
        s.Map([(1, "a"), ("k", 2), ("k", 3)]), s.Map([], meta=[1]),
        s.Object("Node", {"name": "n", "$odd": 1}, meta={"x": 1}), s.Object(12345, {}),
        s.ObjectPairs("C", [("a", 1), ("a", s.I8(2))]),
        s.StringName("jump"), s.NodePath("A/B"), s.RID(13), s.DateTime(1700000000000),
        s.BsonObjectId(b"\x01" * 12), s.Enum(s.U8(3)), s.URL("http://x"),
        s.Vector3([1, 2, 3]), s.Vector3([1, 2.5, -3], elem="f64"), s.Vector2i([1, -2]),
        s.Color([0.1, 0.2, 0.3, 1.0]), s.Transform3D(range(12)),
        s.PackedVector3([[1, 2, 3], [4, 5, 6]]), s.PackedColor([], elem="f64"),
        s.F32s([1.5, INF, NAN]), s.F64s([]), s.I32s([-1, 2]), s.U8s([0, 255]),
        s.U64s([2**64 - 1]), s.I8s([-128, 127]), s.U16s([65535]),
        {"deep": [{"a": s.Array([s.Vector2([1, 2])], meta={"t": s.StringName("x")})}]},
        # values the tree cannot hold: both paths refuse them alike
        s.I8(200), s.U8(-1), s.I32(2**40), s.U64(2**64), s.Bool(0), s.Vector3([1, 2]),
        s.Vector2i([2**40, 0]), s.U8s([256]), s.StringName(5), s.StringName(s.StringName("x")),
        s.PackedVector2([[1, 2, 3]]), s.Ref(-1), 2**64, -2**63 - 1, object(), {"a": {1j}},
        s.Object(None, {}), s.F32(1e300), s.F32s([1e300]),
    ]


@contextlib.contextmanager
def ctypes_path():
    native = serval._native
    serval._native = None
    try:
        yield
    finally:
        serval._native = native


def outcome(fn):
    try:
        return ("ok", fn())
    except serval.Error as e:
        return ("Error", e.status)
    except (TypeError, OverflowError, ValueError) as e:
        return (type(e).__name__, None)


def shape(v):
    """v with every float as its bits (NaN equals NaN) and every class named."""
    if isinstance(v, float):
        return (type(v).__name__, v.hex() if not math.isnan(v) else "nan")
    if isinstance(v, dict):
        return (type(v).__name__, sorted((k, shape(x)) for k, x in v.items()),
                shape(getattr(v, "meta", None)), getattr(v, "cls", None))
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, [shape(x) for x in v], shape(getattr(v, "meta", None)),
                getattr(v, "elem", None))
    if hasattr(v, "value") and type(v).__module__ == "serval._types":
        return (type(v).__name__, shape(v.value))
    return (type(v).__name__, v)


@unittest.skipIf(serval._native is None, "serval._native is not in use (%s)" % (
    serval._native_loader.reason() if hasattr(serval, "_native_loader") else "?"))
class NativeAgainstCtypes(unittest.TestCase):
    def test_dumps_gives_the_bytes_of_the_ctypes_path(self):
        for v in values():
            with self.subTest(value=repr(v)[:80]):
                native = outcome(lambda: serval.dumps(v, "json"))
                with ctypes_path():
                    reference = outcome(lambda: serval.dumps(v, "json"))
                self.assertEqual(native, reference)

    def test_loads_gives_the_objects_of_the_ctypes_path(self):
        for v in values():
            with ctypes_path():
                got = outcome(lambda: serval.dumps(v, "json"))
            if got[0] != "ok":
                continue
            with self.subTest(text=got[1][:80]):
                native = serval.loads(got[1], "json")
                with ctypes_path():
                    reference = serval.loads(got[1], "json")
                self.assertEqual(shape(native), shape(reference))
                self.assertEqual(serval.dumps(native, "json"), got[1])

    def test_engine_bytes_both_ways(self):
        # gdtype_vector3 (tests/vectors/godot/spec): Godot 4's Vector3(11.1, 22.2, 33.3)
        data = bytes.fromhex("090000009a9931419a99b14133330542")
        v = serval.loads(data, "godot4")
        self.assertIs(type(v), serval.Vector3)
        self.assertEqual(serval.dumps(v, "godot4"), data)


@unittest.skipIf(serval._native is None, "serval._native is not in use")
class NativeErrors(unittest.TestCase):
    def test_a_value_out_of_range_names_its_path(self):
        with self.assertRaises(serval.Error) as cm:
            serval.dumps({"a": [1, serval.I8(200)]}, "godot4")
        e = cm.exception
        self.assertEqual((e.status, e.path), ("SV_ERR_RANGE", "/a/1"))
        self.assertIn("I8", e.message)

    def test_a_key_with_a_slash_is_escaped_in_the_path(self):
        with self.assertRaises(serval.Error) as cm:
            serval.dumps({"a/b~": serval.U8(-1)}, "json")
        self.assertEqual(cm.exception.path, "/a~1b~0")

    def test_depth_limit(self):
        v = []
        for _ in range(100):
            v = [v]
        with self.assertRaises(serval.Error) as cm:
            serval.dumps(v, "json", max_depth=50)
        self.assertEqual(cm.exception.status, "SV_ERR_DEPTH")
        self.assertEqual(serval.dumps(v, "json", max_depth=200)[:3], b"[[[")

    def test_a_cycle_is_refused_not_followed(self):
        v = []
        v.append(v)
        with self.assertRaises(serval.Error) as cm:
            serval.dumps(v, "json")
        self.assertEqual(cm.exception.status, "SV_ERR_DEPTH")

    def test_library_errors_keep_their_fields(self):
        with self.assertRaises(serval.Error) as cm:
            serval.loads(bytes.fromhex("0900000000"), "godot4")  # a Vector3 cut short
        e = cm.exception
        self.assertEqual((e.status, e.format), ("SV_ERR_TRUNCATED", "godot4"))
        self.assertIsInstance(e, ValueError)
        with self.assertRaises(serval.Error) as cm:
            serval.dumps({"v": serval.Vector3([1, 2, 3])}, "bson")
        self.assertEqual((cm.exception.status, cm.exception.path), ("SV_ERR_UNSUPPORTED", "/v"))

    def test_no_collection_runs_while_the_objects_are_made(self):
        # With the collector on, as a user runs it, each container made
        # counts towards the next collection (here: every one, threshold 1);
        # loads and dumps pause it while they make objects (which form a
        # tree), on each path, and leave it on afterwards. Once on again,
        # the count the call left starts a collection at the first container
        # made after it (at most three: dumps makes its result list and tuple).
        collections = []

        def hook(phase, info):
            if phase == "start":
                collections.append(info["generation"])

        on_inside = []

        class Slow(list):  # read through its iterator: Python code inside dumps
            def __iter__(self):
                on_inside.append(gc.isenabled())
                return list.__iter__(self)

        value = {"items": [{"k": [i], "v": {"x": [i, 0.5, "s"]}} for i in range(3000)]}
        inputs = [(serval.dumps(value, f), f) for f in ("godot3", "godot4", "bson", "json")]
        def opts(fmt, call):  # the sv_options of no option, as loads and dumps make them
            made = _options.Options(serval._find(fmt), {}, call, serval._schema_of)
            keep.append(made)
            return ctypes.addressof(made.struct)

        keep = []
        native = serval._native  # called directly: no Python code around the call
        calls = [lambda d=d, f=f, o=opts(f, "loads"): native.loads(d, f, o, path)
                 for d, f in inputs for path in (1, 2)]  # through a tree; straight from the bytes
        calls += [lambda o=opts("godot3", "dumps"): native.dumps(value, "godot3", o, False),
                  lambda o=opts("json", "dumps"): native.dumps(Slow([1, 2]), "json", o, False)]
        threshold = gc.get_threshold()
        self.assertTrue(gc.isenabled())
        counts = []
        try:
            gc.callbacks.append(hook)
            for call in calls:
                gc.collect()
                gc.set_threshold(1)
                del collections[:]
                result = call()
                counts.append(len(collections))
                gc.set_threshold(*threshold)
                del result
        finally:
            gc.set_threshold(*threshold)
            gc.callbacks.remove(hook)
        self.assertEqual(on_inside, [False])
        self.assertLessEqual(max(counts), 3, counts)  # the result tuple and list of dumps
        self.assertTrue(gc.isenabled())

    def test_calls_one_after_another_share_no_state(self):
        # dumps keeps its tree's memory and output buffer for the next call:
        # a call after a larger one, after a failed one and after one with a
        # tight max_alloc gives the bytes it gives on its own. The expected
        # bytes: Godot 3's Variant encoding (types 18 Dictionary, 19 Array,
        # 2 int, 4 String; little-endian, strings padded to 4).
        small = {"a": [1, "bc"]}
        expected = bytes.fromhex("12000000 01000000" "04000000 01000000 61000000"
                                 "13000000 02000000" "02000000 01000000"
                                 "04000000 02000000 62630000")
        big = {"k%d" % i: ["x" * 100, i, [i] * 50] for i in range(4000)}
        big_bytes = serval.dumps(big, "godot3")
        for _ in range(3):
            self.assertEqual(serval.dumps(small, "godot3"), expected)
            self.assertEqual(serval.dumps(big, "godot3"), big_bytes)
            with self.assertRaises(serval.Error):
                serval.dumps(big, "godot3", max_alloc=1 << 16)
            with self.assertRaises(serval.Error):
                serval.dumps({"a": [serval.I8(999)]}, "godot3")
            self.assertEqual(serval.dumps(small, "godot3"), expected)
        self.assertEqual(serval.loads(big_bytes, "godot3"), big)

    def test_the_collector_runs_again_after_an_error(self):
        self.assertTrue(gc.isenabled())
        with self.assertRaises(serval.Error):
            serval.dumps([serval.I8(999)], "json")
        with self.assertRaises(serval.Error):
            serval.loads(b"\x09\x00", "godot4")
        self.assertTrue(gc.isenabled())


@unittest.skipIf(serval._native is None, "serval._native is not in use")
class NativeReferences(unittest.TestCase):
    CALLS = 10000

    def sample(self):
        return {"name": "entity", "pos": serval.Vector3([1, 2, 3]), "hp": serval.F32(0.5),
                "tags": ["a", serval.StringName("b")], "m": serval.Map([(1, 2)]),
                "o": serval.Object("C", {"f": serval.I16(2)}, meta={"k": 1})}

    def test_no_reference_is_kept_on_the_values_given(self):
        v = self.sample()
        key = "a key that is only here"
        v[key] = 1
        data = serval.dumps(v, "json")
        before = sys.getrefcount(key), sys.getrefcount(v), sys.getrefcount(data)
        for _ in range(100):
            serval.loads(serval.dumps(v, "json"), "json")
            serval.loads(data, "json")
        self.assertEqual((sys.getrefcount(key), sys.getrefcount(v), sys.getrefcount(data)), before)

    def test_ten_thousand_calls_do_not_grow(self):
        v = self.sample()
        data = serval.dumps(v, "json")
        bad = [serval.I8(300)]

        def calls(n):
            for _ in range(n):
                serval.loads(data, "json")
                serval.dumps(v, "json")
                try:
                    serval.dumps(bad, "json")
                except serval.Error:
                    pass

        calls(200)  # caches, interned names and the like settle first
        if hasattr(sys, "gettotalrefcount"):  # a debug build of Python
            before = sys.gettotalrefcount()
            calls(self.CALLS)
            self.assertLess(sys.gettotalrefcount() - before, 100)
            return
        gc.collect()
        tracemalloc.start()
        try:
            calls(100)
            gc.collect()
            before = tracemalloc.take_snapshot()
            calls(self.CALLS)
            gc.collect()
            after = tracemalloc.take_snapshot()
        finally:
            tracemalloc.stop()
        # Only what was allocated while serval's code (or this loop) ran:
        # threads that earlier tests of the same run left behind (Dask's
        # workers) allocate at the same time, in frames of their own.
        ours = [tracemalloc.Filter(True, os.path.dirname(serval.__file__) + os.sep + "*"),
                tracemalloc.Filter(True, __file__)]
        grown = sum(d.size_diff for d in after.filter_traces(ours).compare_to(
            before.filter_traces(ours), "filename"))
        # a leaked object per call would be 10,000 objects: hundreds of KB
        self.assertLess(grown, 32 * 1024, "memory grew by %d bytes over %d calls" % (grown, self.CALLS))


if __name__ == "__main__":
    unittest.main()
