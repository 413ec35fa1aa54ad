"""serval.godot.Pck.

Expected values: tests/vectors/godot-pck/engine3/engine.tsv (paths, sizes
and MD5s of the contents as Godot 3.2.3 read them back from its own
packs), the spec4 vectors' .expected lists (paths, sizes, MD5s and the
encrypted flag) with key.txt, and the samples' godot-res/manifest.jsonl
(what Godot 4.6 read back from sample4.pck)."""
import hashlib
import json
import os
import unittest

import serval
from serval.godot import Pck, PckMember

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
VEC = os.path.join(REPO, "tests", "vectors", "godot-pck")
SAMPLES = os.path.normpath(os.path.join(REPO, "..", "shared", "samples", "godot-res"))


def read(path):
    with open(path, "rb") as f:
        return f.read()


def engine3_readback():
    """{pack: [(path, size, md5), ...]} as Godot 3.2.3 read its packs."""
    packs = {}
    with open(os.path.join(VEC, "engine3", "engine.tsv"), encoding="utf-8") as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if cols[0] == "M":
                packs.setdefault(cols[1], []).append((cols[2], int(cols[3]), cols[4]))
    return packs


def spec4_expected(name):
    rows = []
    with open(os.path.join(VEC, "spec4", name + ".expected"), encoding="utf-8") as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            rows.append((cols[0], int(cols[1]), cols[2], len(cols) > 3 and cols[3] == "encrypted"))
    return rows


KEY_HEX = read(os.path.join(VEC, "spec4", "key.txt")).decode().strip()


class Engine3(unittest.TestCase):
    def test_engine_readback(self):
        packs = engine3_readback()
        self.assertEqual(len(packs), 3)
        for pack, want in packs.items():
            path = os.path.join(VEC, "engine3", pack)
            for source in (path, read(path)):
                with Pck(source) as pck:
                    self.assertEqual(pck.version[:2], (1, 3), pack)
                    self.assertEqual(sorted(pck.names()), sorted(p for p, _, _ in want), pack)
                    for p, size, md5 in want:
                        data = pck.read(p)
                        self.assertEqual((len(data), hashlib.md5(data).hexdigest()), (size, md5))
                        self.assertEqual(pck[p], data)
                        self.assertIn(p, pck)
                        # without "res://", as `serval godot pck cat` takes it
                        self.assertEqual(pck[p[len("res://"):]], data)
                        self.assertIn(p[len("res://"):], pck)
                    for m in pck.members():
                        # Godot 3's PCKPacker writes no MD5
                        self.assertEqual((m.md5, m.encrypted), ("0" * 32, False))
                    self.assertNotIn("res://pck3/missing.txt", pck)
                    with self.assertRaises(KeyError):
                        pck.read("pck3/missing.txt")


class Spec4(unittest.TestCase):
    def check(self, name, key=None):
        want = spec4_expected(name)
        path = os.path.join(VEC, "spec4", name)
        with Pck(path, key=key) as pck:
            self.assertEqual(pck.names(), [w[0] for w in want])
            self.assertEqual(pck.members(), [PckMember(*w) for w in want])
            self.assertEqual(len(pck), len(want))
            self.assertEqual(list(pck), [w[0] for w in want])
            for p, size, md5, _ in want:
                data = pck.read(p)
                self.assertEqual((len(data), hashlib.md5(data).hexdigest()), (size, md5))
                self.assertEqual(data, read(os.path.join(VEC, "spec4", "members", p)))
            return pck

    def test_plain_and_embedded(self):
        for name in ("v2_plain.pck", "v3_plain.pck", "v3_embedded.bin"):
            self.check(name)
        with Pck(os.path.join(VEC, "spec4", "v3_embedded.bin")) as pck:
            self.assertTrue(pck.embedded)
            self.assertEqual(pck.version[0], 3)

    def test_encrypted_with_key(self):
        key = bytes.fromhex(KEY_HEX)
        for name in ("v3_enc_files.pck", "v3_enc_dir.pck"):
            self.check(name, key=KEY_HEX)
            self.check(name, key=key)

    def test_encrypted_without_key(self):
        with Pck(os.path.join(VEC, "spec4", "v3_enc_files.pck")) as pck:
            self.assertTrue(all(m.encrypted for m in pck.members()))
            with self.assertRaises(serval.Error) as cm:
                pck.read("readme.txt")
            self.assertEqual((cm.exception.status, cm.exception.format),
                             ("SV_ERR_REFUSED", "godot-pck"))
        with self.assertRaises(serval.Error) as cm:
            Pck(os.path.join(VEC, "spec4", "v3_enc_dir.pck"))
        self.assertEqual((cm.exception.status, cm.exception.format), ("SV_ERR_REFUSED", "godot-pck"))

    def test_wrong_key(self):
        with self.assertRaises(serval.Error) as cm:
            Pck(os.path.join(VEC, "spec4", "v3_enc_dir.pck"), key=b"\x01" * 32)
        self.assertEqual(cm.exception.format, "godot-pck")
        for bad in ("zz", b"short"):
            with self.assertRaises(ValueError):
                Pck(os.path.join(VEC, "spec4", "v3_enc_dir.pck"), key=bad)

    def test_md5_checked(self):
        data = bytearray(read(os.path.join(VEC, "spec4", "v3_plain.pck")))
        text = read(os.path.join(VEC, "spec4", "members", "readme.txt"))
        at = bytes(data).index(text)
        data[at] ^= 0x20
        with Pck(bytes(data)) as pck:
            with self.assertRaises(serval.Error) as cm:
                pck.read("readme.txt")
            self.assertEqual(cm.exception.format, "godot-pck")
            self.assertIn("readme.txt", str(cm.exception))
            self.assertEqual(pck.read("readme.txt", verify=False), bytes(data[at:at + len(text)]))

    def test_damaged_pack(self):
        data = read(os.path.join(VEC, "spec4", "v2_plain.pck"))
        with self.assertRaises(serval.Error) as cm:
            Pck(data[:60])
        e = cm.exception
        self.assertEqual(e.format, "godot-pck")
        self.assertGreaterEqual(e.offset, 0)
        self.assertLessEqual(e.offset, 60)

    def test_closed(self):
        pck = Pck(os.path.join(VEC, "spec4", "v3_plain.pck"))
        pck.close()
        with self.assertRaises(ValueError):
            pck.read("readme.txt")


class Sample4(unittest.TestCase):
    def test_engine_readback(self):
        path = os.path.join(SAMPLES, "sample4.pck")
        if not os.path.isfile(path):
            self.skipTest("no samples folder (%s)" % SAMPLES)
        with open(os.path.join(SAMPLES, "manifest.jsonl"), encoding="utf-8") as f:
            entry = [e for e in map(json.loads, f) if e["file"] == "sample4.pck"][0]
        self.assertTrue(entry["load_resource_pack"])
        with Pck(path) as pck:
            self.assertEqual(pck.version[:3], (3, 4, 6))
            self.assertEqual(len(pck), len(entry["readback"]))
            for rb in entry["readback"]:
                data = pck.read(rb["path"])
                self.assertEqual((len(data), hashlib.md5(data).hexdigest(), data.decode()),
                                 (rb["size"], rb["md5"], rb["text"]))
            (m,) = pck.members()
            self.assertEqual((m.size, m.md5, m.encrypted),
                             (16, entry["members"][0]["md5"], False))


if __name__ == "__main__":
    unittest.main()
