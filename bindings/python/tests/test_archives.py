"""serval.kingsisle.Wad and serval.resonite.Package.

Expected values: tests/vectors/kiwad/README.md (two-members-v1.wad: names,
contents and CRCs), the samples' kiwad/manifest.jsonl (names, sizes, CRCs
and SHA-256 of every member, from the independent writer that made them),
and Python's own zipfile module as a second reader of the packages (also
of one built here with zipfile)."""
import hashlib
import io
import json
import os
import unittest
import zipfile

import serval
from serval.kingsisle import Wad
from serval.resonite import Package

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
VECTORS = os.path.join(REPO, "tests", "vectors")
SAMPLES = os.path.normpath(os.path.join(REPO, "..", "shared", "samples"))
TWO = os.path.join(VECTORS, "kiwad", "two-members-v1.wad")


def read(path):
    with open(path, "rb") as f:
        return f.read()


class KiwadVector(unittest.TestCase):
    def test_two_members(self):
        for source in (TWO, read(TWO)):
            with Wad(source) as wad:
                self.assertEqual(wad.names(), ["a.mp3", "e.txt"])
                self.assertEqual((wad.version, wad.flags), (1, None))
                self.assertEqual(wad.read("a.mp3"), b"hi")
                self.assertEqual(wad.read("e.txt"), b"")
                self.assertEqual(wad["a.mp3"], b"hi")
                a, e = wad.members()
                self.assertEqual((a.crc, a.compressed, a.size), (0x994A3853, False, 2))
                self.assertEqual((e.crc, e.compressed, e.stored_size), (0x81959416, True, 8))
                wad.verify("a.mp3")
                self.assertIn("e.txt", wad)
                self.assertEqual(list(wad), ["a.mp3", "e.txt"])
            with self.assertRaises(ValueError):
                wad.read("a.mp3")  # closed

    def test_crc_check(self):
        data = bytearray(read(TWO))
        at = data.index(b"hi")
        data[at] ^= 1  # "hi" becomes "ii"
        with Wad(bytes(data)) as wad:
            with self.assertRaises(serval.Error) as cm:
                wad.read("a.mp3")
            self.assertEqual(cm.exception.status, "SV_ERR_SYNTAX")
            self.assertIn("a.mp3", str(cm.exception))
            with self.assertRaises(serval.Error):
                wad.verify("a.mp3")
            with self.assertRaises(serval.Error):
                wad.verify()  # every member
            wad.verify("e.txt")
            self.assertEqual(wad.read("a.mp3", verify=False), b"ii")

    def test_damaged_table(self):
        with self.assertRaises(serval.Error) as cm:
            Wad(read(TWO)[:40])
        self.assertEqual(cm.exception.format, "kiwad")
        with self.assertRaises(KeyError):
            Wad(TWO).read("nope")
        with self.assertRaises(serval.Error):
            Wad(b"not a wad at all")

    def test_limit(self):
        with Wad(TWO) as wad:
            with self.assertRaises(ValueError):
                wad.read("e.txt", max_decompressed=0)


class KiwadSamples(unittest.TestCase):
    def test_manifest(self):
        folder = os.path.join(SAMPLES, "kiwad")
        if not os.path.isdir(folder):
            self.skipTest("no %s (the real samples are not on this machine)" % folder)
        with open(os.path.join(folder, "manifest.jsonl")) as f:
            rows = [json.loads(line) for line in f if line.strip()]
        self.assertTrue(rows)
        for row in rows:
            path = os.path.join(folder, row["file"])
            if row["expect"] != "ok":
                with self.assertRaises(serval.Error, msg=row["file"]):
                    Wad(path)
                continue
            with Wad(path) as wad:
                wad.verify()  # every member that has data (unpatched ones are skipped)
                self.assertEqual(wad.version, row["version"])
                self.assertEqual(wad.flags, row["flags"])
                members = wad.members()
                self.assertEqual([m.name for m in members], [m["name"] for m in row["members"]])
                for got, want in zip(members, row["members"]):
                    self.assertEqual((got.size, got.crc, got.compressed, got.unpatched),
                                     (want["size"], want["crc"], want["compressed"],
                                      want["unpatched"]), want["name"])
                    if want["unpatched"]:
                        with self.assertRaises(serval.Error) as cm:
                            wad.read(got.name)
                        self.assertEqual(cm.exception.status, "SV_ERR_REFUSED")
                    elif want.get("sha256"):
                        self.assertEqual(hashlib.sha256(wad.read(got.name)).hexdigest(),
                                         want["sha256"], want["name"])


def zip_of(members):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, data, method in members:
            z.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data, compress_type=method)
    return out.getvalue()


class Packages(unittest.TestCase):
    MEMBERS = [("R-Main.record", b'{"assetUri": "packdb:///abc"}', zipfile.ZIP_DEFLATED),
               ("Assets/abc", b"FrDT\x00\x00\x00\x00" + b"x" * 100, zipfile.ZIP_STORED),
               ("Assets/tex", b"some texture " * 50, zipfile.ZIP_DEFLATED)]

    def test_built_by_zipfile(self):
        data = zip_of(self.MEMBERS)
        with Package(data) as pkg:
            self.assertEqual(pkg.names(), [m[0] for m in self.MEMBERS])
            for name, content, _ in self.MEMBERS:
                self.assertEqual(pkg.read(name), content)
            info = pkg.members()
            self.assertEqual([m.is_data_tree for m in info], [False, True, False])
            self.assertEqual(info[2].size, 650)
            self.assertEqual(pkg.main_tree(), "Assets/abc")
            self.assertEqual(pkg["Assets/tex"], self.MEMBERS[2][1])

    def test_crc_and_limits(self):
        data = bytearray(zip_of(self.MEMBERS))
        at = data.index(b"xxxx")
        data[at] = ord("y")
        with Package(bytes(data)) as pkg:
            with self.assertRaises(serval.Error):
                pkg.read("Assets/abc")
            with self.assertRaises(serval.Error) as cm:
                pkg.read("Assets/tex", max_decompressed=100)
            self.assertEqual(cm.exception.status, "SV_ERR_LIMIT")
        with self.assertRaises(serval.Error):
            Package(b"PK\x03\x04 not really a zip")

    def test_samples(self):
        folder = os.path.join(SAMPLES, "resonitepackage")
        if not os.path.isdir(folder):
            self.skipTest("no %s (the real samples are not on this machine)" % folder)
        names = sorted(n for n in os.listdir(folder) if n.endswith(".resonitepackage"))
        self.assertTrue(names)
        for name in names:
            path = os.path.join(folder, name)
            with zipfile.ZipFile(path) as z, Package(path) as pkg:
                self.assertEqual(pkg.names(), z.namelist(), name)
                for member in z.namelist():
                    self.assertEqual(pkg.read(member), z.read(member), member)
                main = pkg.main_tree()
                self.assertIsNotNone(main)
                tree = serval.loads(pkg.read(main), "resonite")
                self.assertEqual(serval.dumps(tree, "resonite"), pkg.read(main))


if __name__ == "__main__":
    unittest.main()
