"""serval.iter_load: BSON documents one after another and Godot store_var
streams, one value at a time.

The Godot stream is docs/formats/godot.md's example (a 3.x stream of 42 and
"hi": 08000000 02000000 2a000000 0c000000 04000000 02000000 68690000); the
BSON items are the vectors of tests/vectors/bson and the 5-byte empty
document of bsonspec.org."""
import json
import os
import tempfile
import threading
import unittest

import serval

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.normpath(os.path.join(HERE, "..", "..", "..", "tests", "vectors"))
GODOT3_STREAM = bytes.fromhex("08000000 02000000 2a000000 0c000000 04000000 02000000 68690000")
EMPTY_DOC = bytes.fromhex("0500000000")


def bson_vectors():
    folder = os.path.join(VECTORS, "bson")
    out = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".bson"):
            with open(os.path.join(folder, name), "rb") as f:
                out.append(f.read())
    return out


class Godot(unittest.TestCase):
    def test_the_documented_stream(self):
        self.assertEqual(list(serval.iter_load(GODOT3_STREAM, "godot3")), [42, "hi"])
        # the same values as the whole-stream reader gives
        self.assertEqual(list(serval.iter_load(GODOT3_STREAM, "godot3")),
                         list(serval.loads(GODOT3_STREAM, "godot3", framing="stream")))

    def test_big_endian_prefix(self):
        be = bytes.fromhex("00000008 02000000 2a000000 0000000c 04000000 02000000 68690000")
        self.assertEqual(list(serval.iter_load(be, "godot3", prefix="be")), [42, "hi"])

    def test_items_come_before_a_bad_frame(self):
        # frame 2 claims 255 bytes; 42 and "hi" are yielded before the error
        data = GODOT3_STREAM + bytes.fromhex("ff000000 0000")
        it = serval.iter_load(data, "godot3")
        self.assertEqual(next(it), 42)
        self.assertEqual(next(it), "hi")
        with self.assertRaises(serval.Error) as cm:
            next(it)
        e = cm.exception
        self.assertEqual((e.status, e.offset, e.path), ("SV_ERR_TRUNCATED", 28, "/2"))
        self.assertIn("item 2 at byte 28", str(e))

    def test_bad_variant_offset_is_absolute(self):
        # frame 1 holds type 0xff (no such Variant type) at byte 16 of the stream
        data = bytes.fromhex("08000000 02000000 2a000000 04000000 ff000000")
        with self.assertRaises(serval.Error) as cm:
            list(serval.iter_load(data, "godot3"))
        self.assertEqual(cm.exception.offset, 16)
        self.assertTrue(cm.exception.path.startswith("/1"))

    def test_from_a_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "game.save")
            with open(path, "wb") as f:
                f.write(GODOT3_STREAM * 3)
            self.assertEqual(list(serval.iter_load(path, "godot3")), [42, "hi"] * 3)
            with open(path, "ab") as f:
                f.write(bytes.fromhex("ffffff7f"))  # a 2 GiB frame that is not there
            with self.assertRaises(serval.Error) as cm:
                list(serval.iter_load(path, "godot3"))
            self.assertTrue(str(cm.exception).startswith(path + ": "))
            self.assertEqual(cm.exception.offset, 3 * len(GODOT3_STREAM))

    def pipe_of(self, data):
        """A path that reads data through a pipe (no size to look at)."""
        r, w = os.pipe()

        def feed():
            with os.fdopen(w, "wb") as f:
                f.write(data)
        t = threading.Thread(target=feed)
        t.start()
        self.addCleanup(t.join)
        self.addCleanup(os.close, r)
        return "/dev/fd/%d" % r

    def test_from_a_pipe(self):
        if not os.path.isdir("/dev/fd"):
            self.skipTest("no /dev/fd")
        self.assertEqual(list(serval.iter_load(self.pipe_of(GODOT3_STREAM * 2), "godot3")),
                         [42, "hi"] * 2)
        # a 2 GiB length with 6 bytes behind it: truncated, without a 2 GiB buffer
        it = serval.iter_load(self.pipe_of(GODOT3_STREAM + bytes.fromhex("ffffff7f 0000")),
                              "godot3")
        self.assertEqual([next(it), next(it)], [42, "hi"])
        with self.assertRaises(serval.Error) as cm:
            next(it)
        self.assertEqual((cm.exception.status, cm.exception.offset), ("SV_ERR_TRUNCATED", 28))

    def test_streams_godot_wrote(self):
        # tests/vectors/godot/oracle: File.store_var and StreamPeer.put_var
        # streams written by Godot 3.2.3, with the values it was given
        folder = os.path.join(VECTORS, "godot", "oracle")
        rows = []
        with open(os.path.join(folder, "index.tsv")) as f:
            for line in f:
                cols = line.rstrip("\n").split("\t")
                if not line.startswith("#") and len(cols) > 3 and "framing=stream" in cols[2]:
                    rows.append(cols)
        self.assertEqual(len(rows), 2)
        for name, _, _, expected in (r[:4] for r in rows):
            want = [serval.from_json(json.dumps(v)) for v in json.loads(expected)]
            got = list(serval.iter_load(os.path.join(folder, name + ".bin"), "godot3"))
            self.assertEqual([serval.to_json(v) for v in got], [serval.to_json(v) for v in want],
                             name)

    def test_vectors_of_the_engine(self):
        # every Godot 3 oracle value, written as one stream, comes back in order
        folder = os.path.join(VECTORS, "godot", "oracle")
        values = []
        for name in sorted(os.listdir(folder))[:60]:
            if name.endswith(".bin"):
                with open(os.path.join(folder, name), "rb") as f:
                    data = f.read()
                try:
                    values.append(serval.loads(data, "godot3", framing="raw"))
                except serval.Error:
                    continue  # a Godot 4 vector
        stream = serval.dumps(serval.Array(values, meta={"format": "godot3", "framing": "stream"}),
                              "godot3")
        self.assertEqual([serval.to_json(v) for v in serval.iter_load(stream, "godot3")],
                         [serval.to_json(v) for v in values])


class Bson(unittest.TestCase):
    def test_documents_one_after_another(self):
        docs = bson_vectors()
        stream = b"".join(docs) + EMPTY_DOC
        got = list(serval.iter_load(stream, "bson"))
        self.assertEqual(len(got), len(docs) + 1)
        self.assertEqual(got[-1], {})
        for doc, value in zip(docs, got):
            self.assertEqual(serval.dumps(value, "bson"), doc)
        self.assertEqual([serval.to_json(v) for v in got],
                         [serval.to_json(v) for v in serval.loads(stream, "bson", stream=True)])

    def test_cut_document(self):
        stream = EMPTY_DOC * 2 + bytes.fromhex("10000000 00")
        it = serval.iter_load(bytearray(stream), "bson")
        self.assertEqual([next(it), next(it)], [{}, {}])
        with self.assertRaises(serval.Error) as cm:
            next(it)
        self.assertEqual((cm.exception.status, cm.exception.offset, cm.exception.path),
                         ("SV_ERR_TRUNCATED", 10, "/2"))

    def test_bad_length(self):
        with self.assertRaises(serval.Error) as cm:
            list(serval.iter_load(EMPTY_DOC + bytes.fromhex("03000000 00"), "bson"))
        self.assertEqual((cm.exception.status, cm.exception.offset), ("SV_ERR_SYNTAX", 5))

    def test_strict_arguments(self):
        with self.assertRaises(TypeError):
            serval.iter_load(EMPTY_DOC, "bson", stream=True)
        with self.assertRaises(TypeError):
            serval.iter_load(EMPTY_DOC, "bson", framing="raw")
        with self.assertRaises(ValueError):
            serval.iter_load(EMPTY_DOC, "json")
        with self.assertRaises(ValueError):
            list(serval.iter_load(EMPTY_DOC, "bson", max_depth=0))


if __name__ == "__main__":
    unittest.main()
