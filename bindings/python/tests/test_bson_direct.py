"""serval._native.loads of bson read by the extension itself (path 3,
native_bson.c) against loads through the streaming reader (path 2) and the
library's tree (path 1).

Where the direct reader takes an input, its objects must be the tree's and
the streaming path's (class, value, float bits and attributes, recursively,
and the same repr); where the tree path fails, the direct reader must
decline (NotImplemented), so that the default path raises the tree's error.
Checked on every BSON vector and sample, on the benchmark's shapes, on
values worked by hand, on hand-made inputs for each rule that makes it
decline, and on many corrupted copies of those inputs. Skipped when the
extension is not in use."""
import os
import random
import struct
import unittest

import serval

from .test_stream_loads import (ANY, SAMPLES, STREAM, TOP, TREE, inputs, native_loads, same,
                                sample_inputs)

DIRECT = 3


def bson_only(items):
    return [(n, f, d) for n, f, d in items if f == "bson"]


def cstr(text):
    return (text if isinstance(text, bytes) else text.encode()) + b"\0"


def doc(*elements):
    """A document of (type, key, value bytes) elements."""
    body = b"".join(bytes([t]) + cstr(k) + v for t, k, v in elements) + b"\0"
    return struct.pack("<i", len(body) + 4) + body


def array(*elements):
    """An array of (type, value bytes) items, keyed "0", "1", ..."""
    return doc(*[(t, str(i), v) for i, (t, v) in enumerate(elements)])


def string(text):
    raw = cstr(text)
    return struct.pack("<i", len(raw)) + raw


def i32(x):
    return struct.pack("<i", x)


def i64(x):
    return struct.pack("<q", x)


def f64(x):
    return struct.pack("<d", x)


def bench_doc(i):
    """One document of the benchmark's workload (bench_all.py's bson_docs),
    written as pymongo writes it."""
    return doc((7, "_id", b"%012d" % i), (2, "name", string("user_%d" % i)),
               (0x10, "age", i32(i % 90)), (1, "score", f64(i * 0.25)),
               (8, "active", bytes([i % 3 == 0])), (0x12, "balance", i64(i * 1000003 << 20)),
               (4, "tags", array((2, string("red")), (2, string("green")),
                                 (2, string("n%d" % (i % 7))))),
               (3, "address", doc((2, "city", string("city_%d" % (i % 100))),
                                  (0x10, "zip", i32(10000 + i % 89999)))))


@unittest.skipUnless(serval.BACKEND == "native", "serval._native is not in use")
class BsonDirect(unittest.TestCase):
    def check(self, name, data, **options):
        """Compares path 3 with paths 1 and 2; returns whether path 3 took the
        input."""
        with self.subTest(name=name, options=options):
            direct = native_loads(data, "bson", DIRECT, **options)
            try:
                tree = native_loads(data, "bson", TREE, **options)
            except serval.Error:
                self.assertIs(direct, NotImplemented,
                              "the tree fails, the direct path gives a value")
                return False
            if direct is NotImplemented:
                self.assertIsNone(same(native_loads(data, "bson", ANY, **options), tree))
                return False
            self.assertIsNone(same(direct, tree))
            self.assertEqual(repr(direct), repr(tree))
            stream = native_loads(data, "bson", STREAM, **options)
            if stream is not NotImplemented:
                self.assertIsNone(same(direct, stream))
            self.assertIsNone(same(native_loads(data, "bson", ANY, **options), direct))
            return True

    def test_vectors(self):
        items = bson_only(inputs())
        taken = sum(self.check(os.path.relpath(n, TOP), d) for n, _, d in items)
        # the plain ones (doubles, nesting, the example's players) at least
        self.assertGreaterEqual(taken, 3, "took %d of %d" % (taken, len(items)))

    def test_samples(self):
        if not os.path.isdir(SAMPLES):
            self.skipTest("no sample folder at %s" % SAMPLES)
        items = bson_only(sample_inputs())
        if not items:
            self.skipTest("no BSON samples in %s" % SAMPLES)
        for n, _, d in items:
            self.check(os.path.relpath(n, TOP), d)

    def test_workload(self):
        # the benchmark's documents, as a stream and one alone
        data = b"".join(bench_doc(i) for i in range(300))
        self.assertTrue(self.check("workload", data))
        self.assertTrue(self.check("one document", bench_doc(7)))
        got = native_loads(data, "bson", DIRECT)
        self.assertEqual(len(got), 300)
        first = got[5]
        self.assertEqual(list(first), ["_id", "name", "age", "score", "active", "balance", "tags",
                                       "address"])
        self.assertIs(type(first["_id"]), serval.BsonObjectId)
        self.assertEqual(first["_id"].value, "303030303030303030303035")  # b"000000000005"
        self.assertEqual(first["name"], "user_5")
        self.assertIs(type(first["age"]), serval.I32)
        self.assertEqual(first["age"], 5)
        self.assertIs(type(first["score"]), float)  # 1.25: not whole
        self.assertEqual(first["score"], 1.25)
        self.assertIs(type(got[4]["score"]), serval.F64)  # 1.0: whole, explicit
        self.assertIs(first["active"], False)
        self.assertIs(got[6]["active"], True)
        self.assertIs(type(first["balance"]), int)
        self.assertEqual(first["balance"], 5000015 << 20)
        self.assertEqual(first["tags"], ["red", "green", "n5"])
        self.assertEqual(first["address"], {"city": "city_5", "zip": 10005})
        self.assertIs(type(first["address"]["zip"]), serval.I32)

    def test_values_by_hand(self):
        # {"d": 0.1, "w": -0.0, "n": nan, "s": "hé", "e": "", "long": 30 x "x",
        #  "o": ObjectId 00 01 .. 0b, "t": true, "dt": 1700000000000 as a
        #  datetime, "z": null, "i": -7 as int32, "l": -2**40, "m": 3 as int64,
        #  "a": [[], {}, "a\0b"]}
        data = doc((1, "d", f64(0.1)), (1, "w", f64(-0.0)), (1, "n", f64(float("nan"))),
                   (2, "s", string("h\u00e9")), (2, "e", string("")),
                   (2, "long", string("x" * 30)), (7, "o", bytes(range(12))),
                   (8, "t", b"\1"), (9, "dt", i64(1700000000000)), (0x0A, "z", b""),
                   (0x10, "i", i32(-7)), (0x12, "l", i64(-2 ** 40)), (0x12, "m", i64(3)),
                   (4, "a", array((4, array()), (3, doc()), (2, string(b"a\0b")))))
        self.assertTrue(self.check("by hand", data))
        got = native_loads(data, "bson", DIRECT)
        self.assertIs(type(got["d"]), float)
        self.assertEqual(got["d"], 0.1)
        self.assertIs(type(got["w"]), serval.F64)
        self.assertEqual(struct.pack("<d", got["w"]), struct.pack("<d", -0.0))
        self.assertIs(type(got["n"]), serval.F64)
        self.assertNotEqual(got["n"], got["n"])
        self.assertEqual([got["s"], got["e"], got["long"]], ["h\u00e9", "", "x" * 30])
        self.assertIs(type(got["o"]), serval.BsonObjectId)
        self.assertEqual(got["o"].value, "000102030405060708090a0b")
        self.assertIs(got["t"], True)
        self.assertIs(type(got["dt"]), serval.DateTime)
        self.assertEqual(got["dt"].value, 1700000000000)
        self.assertIsNone(got["z"])
        self.assertIs(type(got["i"]), serval.I32)
        self.assertEqual(got["i"], -7)
        self.assertEqual([got["l"], got["m"]], [-2 ** 40, 3])
        self.assertIs(type(got["m"]), int)  # int64 is bson's plain int
        self.assertEqual(got["a"], [[], {}, "a\0b"])
        # two documents are a stream: a list of them; one is the document
        two = doc((0x10, "k", i32(1))) + doc()
        self.assertTrue(self.check("stream by hand", two))
        self.assertEqual(native_loads(two, "bson", DIRECT), [{"k": 1}, {}])
        self.assertEqual(native_loads(doc(), "bson", DIRECT), {})
        # the same key in documents of one stream, in other places: the
        # cache of keys by place must not give another key's str
        data = doc((0x0A, "ab", b""), (0x0A, "cd", b"")) + doc((0x0A, "cd", b""), (0x0A, "ab", b""))
        self.assertEqual([list(d) for d in native_loads(data, "bson", DIRECT)],
                         [["ab", "cd"], ["cd", "ab"]])
        # short texts that differ past their first bytes and by length
        data = array((2, string("abcdefgh")), (2, string("abcdefgi")), (2, string("abc")),
                     (2, string("abc\0")), (2, string("abcdefgh")))
        self.assertEqual(native_loads(doc((4, "v", data)), "bson", DIRECT)["v"],
                         ["abcdefgh", "abcdefgi", "abc", "abc\0", "abcdefgh"])
        # one str for a short text met twice, as the streaming path shares
        # it (whatever bytes follow each), and for one key in two documents
        data = doc((4, "v", array((2, string("ab")), (2, string("ab")), (0x0A, b""))))
        for path in (DIRECT, STREAM):
            got = native_loads(data, "bson", path)["v"]
            self.assertIs(got[0], got[1], path)
        got = native_loads(doc((0x0A, "key", b"")) + doc((0x0A, "key", b"")), "bson", DIRECT)
        self.assertIs(list(got[0])[0], list(got[1])[0])
        # keys up to and past the cached length, ending near the input's end
        keys = ["k" * 23, "k" * 24, "k" * 25, "k" * 24 + "\u00e9"]
        data = doc(*[(0x10, k, i32(n)) for n, k in enumerate(keys)])
        self.assertTrue(self.check("long keys", data))
        self.assertEqual(native_loads(data, "bson", DIRECT), {k: n for n, k in enumerate(keys)})

    def test_declined(self):
        """Each input the direct reader must leave to the paths behind."""
        cases = {
            "binary": doc((5, "b", i32(1) + b"\0x")),
            "a decimal128": doc((0x13, "d", bytes(16))),
            "minkey": doc((0xFF, "m", b"")),
            "an array key that is not its index": doc((4, "a", doc((0x10, "1", i32(1))))),
            "a key twice": doc((0x10, "k", i32(1)), (0x10, "k", i32(2))),
            "a key that is not UTF-8": doc((0x10, b"\xff", i32(1))),
            "a string that is not UTF-8": doc((2, "s", string(b"\xed\xa0\x80"))),
            "a bool of 2": doc((8, "t", b"\2")),
            "a string length of 0": doc((2, "s", i32(0))),
            "a string without its 00": doc((2, "s", i32(2) + b"ab")),
            "a string past its document": doc((2, "s", i32(9) + b"abc\0")),
            "a document without its 00": doc((0x10, "k", i32(1)))[:-1] + b"\1",
            "a length below 5": i32(4) + b"\0",
            "a nested length past its parent": doc((3, "d", i32(64) + b"\0")),
            "an int32 cut by its 00": doc((0x0A, "z", b""))[:-1] + b"\x10k\0\1\0",
            "an unknown type": doc((0x20, "u", b"")),
            # (followed by a document: the key is then read by words)
            "a key ended by its document's 00":
                i32(7) + b"\x0ak\0" + doc((2, "s", string("x" * 20))),
            "bytes after the stream": doc() + b"\1\2",
            "one document shorter than its length": doc((0x0A, "z", b""))[:-2],
        }
        for why, data in cases.items():
            with self.subTest(why=why):
                self.assertIs(native_loads(data, "bson", DIRECT), NotImplemented)
                self.check(why, data)
        deep = doc((3, "a", doc((3, "b", doc((0x10, "c", i32(1)))))))
        self.assertIsNot(native_loads(deep, "bson", DIRECT, max_depth=3), NotImplemented)
        self.assertIs(native_loads(deep, "bson", DIRECT, max_depth=2), NotImplemented)
        self.check("deep", deep, max_depth=2)
        text = doc((2, "s", string("abcd")))
        self.assertIsNot(native_loads(text, "bson", DIRECT, max_string=4), NotImplemented)
        self.assertIs(native_loads(text, "bson", DIRECT, max_string=3), NotImplemented)
        self.check("long text", text, max_string=3)
        urls = doc((2, "u", string("@x")))
        self.assertIs(native_loads(urls, "bson", DIRECT, **{"resonite-urls": True}), NotImplemented)
        self.check("resonite-urls", urls, **{"resonite-urls": True})
        self.assertIs(native_loads(urls, "bson", DIRECT, stream=True), NotImplemented)
        self.check("stream", urls, stream=True)

    def test_corrupted(self):
        """Bytes changed at random in the inputs above: never a value where the
        tree fails, never another value than the tree's."""
        rng = random.Random(13)
        seeds = [d for _, _, d in bson_only(inputs()) if len(d) <= 4096]
        seeds.append(b"".join(bench_doc(i) for i in range(3)))
        seeds.append(doc((1, "d", f64(2.5)), (9, "t", i64(5)), (4, "a", array((8, b"\1"),
                                                                              (0x0A, b"")))))
        taken = 0
        for i in range(3000):
            data = bytearray(rng.choice(seeds))
            for _ in range(rng.randint(1, 3)):
                at = rng.randrange(len(data))
                data[at] = rng.choice((0, 1, 2, 3, 4, 5, 0x80, 0xFF, rng.randrange(256)))
            if rng.random() < 0.1:
                del data[rng.randrange(len(data)):]
            taken += self.check("corrupted %d" % i, bytes(data))
        self.assertGreater(taken, 300)


if __name__ == "__main__":
    unittest.main()
