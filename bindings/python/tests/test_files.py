"""serval.load and serval.dump: detection as the command detects, errors
named by the file, and writes as atomic as the command's (cli/cli_io.c):
a temporary file in the same folder renamed over the target, the old
file's mode kept, links followed to their file, dangling links refused,
and nothing written when the encode or the write fails."""
import os
import stat
import subprocess
import tempfile
import unittest
from unittest import mock

import serval
from serval import _atomic

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.normpath(os.path.join(HERE, "..", "..", "..", "tests", "vectors"))
CLI = os.environ.get("SERVAL_CLI")
# the command runs without the sanitizer runtime CTest preloads into python3
# (a sanitizer build of the command links its own)
CLI_ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def run_cli(args, **kw):
    return subprocess.run([CLI] + args, env=CLI_ENV, **kw)


def read(path):
    with open(path, "rb") as f:
        return f.read()


class Load(unittest.TestCase):
    def test_detected_like_loads(self):
        for rel, fmt in (("bson/all_types.bson", "bson"), ("resonite/tiny.brson", "resonite"),
                         ("noesis/all-commands.le.v5.nsb", "noesis")):
            path = os.path.join(VECTORS, rel)
            self.assertEqual(serval.to_json(serval.load(path)),
                             serval.to_json(serval.loads(read(path), fmt)), rel)

    def test_ambiguous_is_refused_until_named(self):
        path = os.path.join(VECTORS, "godot", "oracle", "color8.bin")
        with self.assertRaises(serval.Error) as cm:
            serval.load(path)
        text = str(cm.exception)
        self.assertTrue(text.startswith(path + ": the format is ambiguous: godot4 (confidence"),
                        text)
        self.assertEqual(cm.exception.status, "SV_ERR_REFUSED")
        self.assertEqual(serval.load(path, "godot3"), serval.loads(read(path), "godot3"))

    def test_bad_data_names_file_and_offset(self):
        data = read(os.path.join(VECTORS, "bson", "all_types.bson"))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "cut.bson")
            with open(path, "wb") as f:
                f.write(data[:-9])
            with self.assertRaises(serval.Error) as cm:
                serval.load(path, "bson")
            self.assertTrue(str(cm.exception).startswith(path + ": bson: "), str(cm.exception))
            self.assertEqual(cm.exception.format, "bson")
            self.assertLessEqual(cm.exception.offset, len(data) - 9)

    def test_archives_and_unknown(self):
        with self.assertRaises(serval.Error) as cm:
            serval.load(os.path.join(VECTORS, "kiwad", "two-members-v1.wad"))
        self.assertIn("serval.kingsisle.Wad", str(cm.exception))
        with self.assertRaises(serval.Error) as cm:
            serval.load(os.path.join(VECTORS, "bson", "README.md"))
        self.assertIn("cannot tell the format", str(cm.exception))
        with self.assertRaises(FileNotFoundError):
            serval.load(os.path.join(VECTORS, "no-such-file"))
        with self.assertRaises(IsADirectoryError):
            serval.load(VECTORS)

    def test_device_is_capped_by_max_alloc(self):
        # as `serval dump --max-alloc 1m /dev/zero`: an error after 1 MiB, not an endless read
        if not os.path.exists("/dev/zero"):
            self.skipTest("no /dev/zero")
        with self.assertRaises(serval.Error) as cm:
            serval.load("/dev/zero", "bson", max_alloc=1 << 20)
        self.assertEqual(cm.exception.status, "SV_ERR_LIMIT")
        self.assertEqual(str(cm.exception), "/dev/zero: input larger than the max_alloc limit of "
                         "1 MiB (what is read from a pipe or device is held in memory)")

    def test_options_are_strict(self):
        with self.assertRaises(TypeError):
            serval.load(os.path.join(VECTORS, "bson", "all_types.bson"), "bson", framing="raw")


class Dump(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.value = serval.load(os.path.join(VECTORS, "bson", "all_types.bson"))
        self.want = read(os.path.join(VECTORS, "bson", "all_types.bson"))

    def tearDown(self):
        self.tmp.cleanup()

    def leftovers(self):
        return sorted(n for n in os.listdir(self.dir) if n.startswith("."))

    def test_new_file(self):
        path = os.path.join(self.dir, "out.bson")
        mask = os.umask(0o027)
        try:
            self.assertEqual(serval.dump(self.value, path, "bson"), len(self.want))
        finally:
            os.umask(mask)
        self.assertEqual(read(path), self.want)
        self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o640)
        self.assertEqual(self.leftovers(), [])

    def test_existing_file_keeps_its_mode_not_setuid(self):
        path = os.path.join(self.dir, "out.bson")
        with open(path, "wb") as f:
            f.write(b"old")
        os.chmod(path, 0o4751)
        serval.dump(self.value, path, "bson")
        self.assertEqual(read(path), self.want)
        self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o751)

    def test_through_a_link_replaces_its_file(self):
        real = os.path.join(self.dir, "real.bson")
        with open(real, "wb") as f:
            f.write(b"old")
        link = os.path.join(self.dir, "link.bson")
        os.symlink("real.bson", link)
        serval.dump(self.value, link, "bson")
        self.assertTrue(os.path.islink(link))
        self.assertEqual(read(real), self.want)

    def test_dangling_link_is_refused(self):
        link = os.path.join(self.dir, "link.bson")
        os.symlink("nowhere.bson", link)
        with self.assertRaises(FileNotFoundError) as cm:
            serval.dump(self.value, link, "bson")
        self.assertIn("dangling", str(cm.exception))
        self.assertFalse(os.path.exists(os.path.join(self.dir, "nowhere.bson")))

    def test_folder_is_refused(self):
        with self.assertRaises(IsADirectoryError):
            serval.dump(self.value, self.dir, "bson")

    def test_failed_encode_leaves_the_old_file(self):
        path = os.path.join(self.dir, "out.bson")
        with open(path, "wb") as f:
            f.write(b"old")
        with self.assertRaises(serval.Error) as cm:
            serval.dump({"v": serval.Vector3([1, 2, 3])}, path, "bson")
        self.assertEqual(cm.exception.path, "/v")
        self.assertEqual(read(path), b"old")
        self.assertEqual(self.leftovers(), [])

    def test_failed_write_leaves_no_half_file(self):
        path = os.path.join(self.dir, "out.bson")
        with open(path, "wb") as f:
            f.write(b"old")
        real_write = os.write

        def short_then_fail(fd, data):
            if len(data) > 10:
                real_write(fd, bytes(data[:10]))
                raise OSError(28, "No space left on device")
            return real_write(fd, data)
        with mock.patch.object(_atomic._os, "write", short_then_fail):
            with self.assertRaises(OSError):
                serval.dump(self.value, path, "bson")
        self.assertEqual(read(path), b"old")
        self.assertEqual(self.leftovers(), [])

    def test_json_as_conv_writes_it(self):
        src = os.path.join(VECTORS, "bson", "all_types.bson")
        path = os.path.join(self.dir, "out.json")
        serval.dump(serval.load(src), path, "json")
        if not CLI:
            self.skipTest("SERVAL_CLI not set (the serval command to compare with)")
        want = run_cli(["conv", "--to", "json", src], capture_output=True,
                              check=True).stdout
        self.assertEqual(read(path), want)

    def test_format_from_extension_or_meta(self):
        # as conv without --to: the extension's format, else the tree's meta
        path = os.path.join(self.dir, "out.bson")
        serval.dump(self.value, path)
        self.assertEqual(read(path), self.want)
        path = os.path.join(self.dir, "out.json")
        serval.dump({"a": 1}, path)
        self.assertEqual(read(path), b'{"a":1}\n')
        # docs/formats/godot.md: a 3.x stream of 42 and "hi" keeps its format in the meta
        stream = bytes.fromhex("08000000 02000000 2a000000 0c000000 04000000 02000000 68690000")
        tree = serval.loads(stream, "godot3", framing="stream")
        path = os.path.join(self.dir, "game.save")
        serval.dump(tree, path)
        self.assertEqual(read(path), stream)
        with self.assertRaises(serval.Error) as cm:
            serval.dump({"a": 1}, os.path.join(self.dir, "out.save"))
        self.assertEqual(cm.exception.status, "SV_ERR_USAGE")
        self.assertFalse(os.path.exists(os.path.join(self.dir, "out.save")))

    def test_lossy_and_options_pass_through(self):
        path = os.path.join(self.dir, "out.bson")
        with self.assertWarns(serval.LossyConversionWarning):
            serval.dump({"v": serval.Vector3([1, 2, 3])}, path, "bson", lossy=True)
        self.assertEqual(serval.load(path)["v"], [1.0, 2.0, 3.0])
        with self.assertRaises(TypeError):
            serval.dump(self.value, path, "bson", indent=2)


if __name__ == "__main__":
    unittest.main()
