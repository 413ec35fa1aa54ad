"""The module is as strict as the serval command: dumps() refuses a value the
target format cannot hold (lossy=True writes its nearest form with a
warning), options are checked by name and value, limits by range, and a
missing library says how to get it."""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest
import warnings

import serval

HERE = os.path.dirname(os.path.abspath(__file__))
PYDIR = os.path.dirname(HERE)
REPO = os.path.normpath(os.path.join(PYDIR, "..", ".."))
VECTORS = os.path.join(REPO, "tests", "vectors")
CLI = os.environ.get("SERVAL_CLI")


def bson_doc(elements):
    """A BSON document (bsonspec.org): int32 total size, the elements, 0."""
    body = b"".join(elements)
    return struct.pack("<i", len(body) + 5) + body + b"\x00"


def bson_double(key, x):
    return b"\x01" + key.encode() + b"\x00" + struct.pack("<d", x)


def bson_array(key, doc):
    return b"\x04" + key.encode() + b"\x00" + doc


def numbers(xs):
    return bson_doc([bson_double(str(i), x) for i, x in enumerate(xs)])


def godot3_nested_arrays(depth):
    """depth Godot 3 Arrays (type 19, one item each) around the int 5."""
    return bytes.fromhex("1300000001000000") * depth + bytes.fromhex("0200000005000000")


def python(code, env=None):
    """Runs code in a fresh interpreter (one a crash may kill) with this module."""
    e = dict(os.environ if env is None else env)
    e["PYTHONPATH"] = PYDIR
    return subprocess.run([sys.executable, "-c", code], env=e, capture_output=True, text=True,
                          timeout=120)


class Conversions(unittest.TestCase):
    """Point 1: dumps refuses what the target cannot hold, as `serval conv`."""

    def test_vector3_in_bson_is_refused_with_its_path(self):
        with self.assertRaises(serval.Error) as cm:
            serval.dumps({"a": 1, "p": serval.Vector3([1.0, 2.0, 3.0])}, "bson")
        e = cm.exception
        self.assertEqual((e.status, e.format, e.path), ("SV_ERR_UNSUPPORTED", "bson", "/p"))
        self.assertEqual(e.message, "a vector3 has no BSON form")

    def test_packed_vector3_array_in_bson_is_refused(self):
        value = {"list": [0, {"v": serval.PackedVector3([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])}]}
        with self.assertRaises(serval.Error) as cm:
            serval.dumps(value, "bson")
        self.assertEqual((cm.exception.status, cm.exception.path),
                         ("SV_ERR_UNSUPPORTED", "/list/1/v"))
        self.assertIn("packed_vector3 of 2 items has no BSON form", cm.exception.message)

    def test_refusal_is_the_commands(self):
        if not CLI:
            self.skipTest("SERVAL_CLI not set")
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "in.json")
            with open(src, "wb") as f:
                f.write(serval.dumps({"p": serval.Vector3([1.0, 2.0, 3.0])}, "json"))
            env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
            r = subprocess.run([CLI, "conv", "--to", "bson", "-o", os.path.join(tmp, "o.bson"),
                                src], capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 4)
        with self.assertRaises(serval.Error) as cm:
            serval.dumps({"p": serval.Vector3([1.0, 2.0, 3.0])}, "bson")
        # the command's line is "serval: FILE: " + the error's own text
        self.assertTrue(r.stderr.rstrip("\n").endswith(str(cm.exception)), r.stderr)

    def test_lossy_writes_the_nearest_form_and_warns_per_value(self):
        value = {"p": serval.Vector3([1.0, 2.0, 3.0]),
                 "q": [serval.PackedVector3([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])], "n": 7.5}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            data = serval.dumps(value, "bson", lossy=True)
        expected = bson_doc([
            bson_array("p", numbers([1.0, 2.0, 3.0])),
            bson_array("q", bson_doc([bson_array("0", bson_doc([
                bson_array("0", numbers([1.0, 2.0, 3.0])),
                bson_array("1", numbers([4.0, 5.0, 6.0]))]))])),
            bson_double("n", 7.5),
        ])
        self.assertEqual(data, expected)
        self.assertEqual([w.category for w in caught], [serval.LossyConversionWarning] * 2)
        self.assertEqual([w.message.path for w in caught], ["/p", "/q/0"])
        self.assertEqual(str(caught[0].message), "/p: a vector3 became an array of 3 numbers")
        self.assertTrue(str(caught[1].message).startswith("/q/0: "))
        self.assertEqual(caught[0].filename, __file__)  # points at the caller

    def test_lossy_still_refuses_what_has_no_form(self):
        # an unsigned int above int64 has no BSON form even lossy
        with self.assertRaises(serval.Error) as cm:
            serval.dumps({"big": serval.U64((1 << 63) + 1)}, "bson", lossy=True)
        self.assertEqual((cm.exception.status, cm.exception.path), ("SV_ERR_UNSUPPORTED", "/big"))

    def test_exact_values_pass_unchanged(self):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            data = serval.dumps({"x": 1.5}, "bson", lossy=True)
        self.assertEqual(data, bson_doc([bson_double("x", 1.5)]))
        with self.assertRaises(ValueError):
            serval.dumps({"x": 1.5}, "bson", lossy="yes")


class OptionNames(unittest.TestCase):
    """Point 2: unknown names are TypeError, bad values ValueError."""

    def test_misspelt_option_is_a_type_error_naming_it_and_the_format(self):
        with self.assertRaises(TypeError) as cm:
            serval.loads(b"\x02\x00\x00\x00\x05\x00\x00\x00", "godot3", framming="raw")
        self.assertIn("'framming'", str(cm.exception))
        self.assertIn("godot3", str(cm.exception))
        with self.assertRaises(TypeError) as cm:
            serval.dumps(5, "bson", stream_=True)
        self.assertIn("'stream_'", str(cm.exception))
        self.assertIn("bson", str(cm.exception))

    def test_options_of_another_format_are_unknown(self):
        with self.assertRaises(TypeError):
            serval.loads(b"{}", "json", framing="raw")
        with self.assertRaises(TypeError):  # a type list is for kingsisle only
            serval.loads(b"{}", "json", schema=b"{}")
        with self.assertRaises(TypeError):  # lossy is dumps' alone
            serval.loads(b"{}", "json", lossy=True)

    def test_bad_values_are_value_errors(self):
        data = b"\x02\x00\x00\x00\x05\x00\x00\x00"
        for bad in (1.5, None, b"raw", ["raw"]):
            with self.subTest(value=bad):
                with self.assertRaises(ValueError):
                    serval.loads(data, "godot3", framing=bad)
        with self.assertRaises(ValueError) as cm:  # the format's own check: serval.Error
            serval.loads(data, "godot3", framing="bogus")
        self.assertEqual(cm.exception.status, "SV_ERR_USAGE")
        self.assertEqual(serval.loads(data, "godot3", framing="raw"), 5)
        # a flag the library reads leniently ("1.5", "None": the default)
        for bad in (1.5, None):
            with self.subTest(value=bad):
                with self.assertRaises(ValueError):
                    serval.dumps({"a": 1}, "bson", stream=bad)


class Limits(unittest.TestCase):
    """Point 3: limits in range or ValueError; no value crashes."""

    def test_out_of_range_limits_are_value_errors(self):
        cases = [("max_depth", v) for v in (-1, 0, 2049, 1 << 32, True, 1.0, "64", None)]
        for name in ("max_alloc", "max_string", "max_decompressed"):
            cases += [(name, v) for v in (-1, 0, 1 << 64, -(1 << 64), False, "1k")]
        for name, v in cases:
            with self.subTest(option=name, value=v):
                with self.assertRaises(ValueError):
                    serval.loads(b"[1]", "json", **{name: v})

    def test_in_range_limits_hold(self):
        self.assertEqual(serval.loads(b"[[1]]", "json", max_depth=2048), [[1]])
        self.assertEqual(serval.loads(b"[[1]]", "json", max_alloc=(1 << 64) - 1), [[1]])
        with self.assertRaises(serval.Error) as cm:
            serval.loads(b'"abcdef"', "json", max_string=3)
        self.assertEqual(cm.exception.status, "SV_ERR_LIMIT")

    def test_no_limit_value_crashes_on_deep_input(self):
        # max_depth=-1 used to wrap to 4294967295: no limit, and 100,000
        # nested Godot Arrays then overflowed the C stack (SIGSEGV)
        code = ("import serval\n"
                "data = bytes.fromhex('1300000001000000') * 100000 + bytes.fromhex('0200000005000000')\n"
                "for d in (-1, 4294967295, 2048, 4096):\n"
                "    try:\n"
                "        serval.loads(data, 'godot3', max_depth=d)\n"
                "    except ValueError as e:\n"
                "        print(getattr(e, 'status', 'ValueError'))\n")
        r = python(code)
        self.assertEqual(r.returncode, 0, "died: %d %s" % (r.returncode, r.stderr[-500:]))
        self.assertEqual(r.stdout.split(), ["ValueError", "ValueError", "SV_ERR_DEPTH",
                                            "ValueError"])

    def test_numeric_format_options_are_checked(self):
        with open(os.path.join(VECTORS, "kingsisle", "tiny-deep.bin"), "rb") as f:
            data = f.read()
        for name, bad in (("flags", -1), ("flags", 1 << 32), ("zlib_level", 10),
                          ("property_mask", "7\x00")):
            with self.subTest(option=name, value=bad):
                with self.assertRaises(ValueError):
                    serval.loads(data, "kingsisle", **{name: bad})
        for name, bad in (("quality", -1), ("window", 99), ("threads", 2)):
            with self.subTest(option=name, value=bad):
                with self.assertRaises(ValueError):
                    serval.dumps({"a": 1}, "resonite", **{name: bad})


class NulInValues(unittest.TestCase):
    """Point 4: a value with a NUL is refused, not cut."""

    def test_nul_in_a_value(self):
        data = b"\x02\x00\x00\x00\x05\x00\x00\x00"
        with self.assertRaises(ValueError) as cm:
            serval.loads(data, "godot3", framing="raw\x00prefixed")
        self.assertIn("NUL", str(cm.exception))
        with self.assertRaises(ValueError):
            serval.dumps(5, "godot4", version="4.3\x00junk")


class MissingLibrary(unittest.TestCase):
    """Point 5: an ImportError that says what to run, and make run builds it."""

    def test_import_error_says_what_to_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            # a checkout without build/: the module and the header it is known by
            shutil.copytree(os.path.join(PYDIR, "serval"),
                            os.path.join(tmp, "bindings", "python", "serval"),
                            ignore=shutil.ignore_patterns("__pycache__"))
            os.makedirs(os.path.join(tmp, "include", "serval"))
            open(os.path.join(tmp, "include", "serval", "value.h"), "w").close()
            env = {k: v for k, v in os.environ.items() if k not in ("SERVAL_LIBRARY", "LD_PRELOAD")}
            env["PYTHONPATH"] = os.path.join(tmp, "bindings", "python")
            r = subprocess.run([sys.executable, "-c", "import serval"], env=env,
                               capture_output=True, text=True, cwd=tmp)
            if r.returncode == 0:
                self.skipTest("a libserval is installed on this system")
            self.assertIn("ImportError", r.stderr)
            self.assertIn("make run", r.stderr)
            self.assertIn("run `make run` in %s" % tmp, r.stderr)
            self.assertIn(os.path.join(tmp, "build", "libserval.so"), r.stderr)
            self.assertIn("SERVAL_LIBRARY", r.stderr)

    def test_make_run_builds_the_shared_library(self):
        make = shutil.which("make")
        if not make or not os.path.exists(os.path.join(REPO, "Makefile")):
            self.skipTest("no make or no Makefile")
        r = subprocess.run([make, "-n", "-C", REPO, "run"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        build = [l for l in r.stdout.splitlines() if "cmake --build" in l]
        self.assertTrue(build and "serval_shared" in build[0], r.stdout)


class RoundTripScript(unittest.TestCase):
    """Point 6: tests/roundtrip.py FORMAT IN OUT [NAME=VALUE ...]."""

    def run_script(self, *args):
        env = dict(os.environ)
        lib = env.pop("SERVAL_LIBRARY", None)
        if lib:  # the build this suite runs against, as SERVAL_BUILD
            env["SERVAL_BUILD"] = os.path.dirname(lib)
        return subprocess.run([sys.executable, os.path.join(HERE, "roundtrip.py")] + list(args),
                              env=env, capture_output=True, text=True, timeout=120)

    def check_identical(self, fmt, path, *options):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.bin")
            r = self.run_script(fmt, path, out, *options)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(path, "rb") as a, open(out, "rb") as b:
                self.assertEqual(a.read(), b.read(), "%s %s" % (path, options))

    def test_vectors_come_back(self):
        V = VECTORS
        self.check_identical("godot3", os.path.join(V, "godot", "oracle", "stream_store_var_3.bin"),
                             "framing=stream")
        self.check_identical("bson", os.path.join(V, "bson", "all_types.bson"))
        self.check_identical("resonite", os.path.join(V, "resonite", "tiny.brson"))
        self.check_identical("noesis", os.path.join(V, "noesis", "all-commands.le.v5.nsb"))
        types = "schema=" + os.path.join(V, "kingsisle", "tiny-types.json")
        self.check_identical("kingsisle", os.path.join(V, "kingsisle", "tiny-shallow.bin"), types,
                             "shallow=true", "flags=1", "property_mask=7")
        self.check_identical("kingsisle-xml", os.path.join(V, "kingsisle", "tiny.xml"), types)
        self.check_identical("json", os.path.join(V, "json", "math.json"), "max_depth=64")

    def test_failure_exits_1_with_the_message_and_no_output(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.bin")
            src = os.path.join(tmp, "in.bin")
            with open(src, "wb") as f:
                f.write(bytes.fromhex("04000000050000006162"))  # a truncated string
            r = self.run_script("godot4", src, out)
            self.assertEqual(r.returncode, 1)
            self.assertIn("godot4", r.stderr)
            self.assertIn("input ends too early at byte 4", r.stderr)
            self.assertFalse(os.path.exists(out))
            r = self.run_script("godot4", src, out, "framming=raw")
            self.assertEqual(r.returncode, 1)
            self.assertIn("'framming'", r.stderr)
            r = self.run_script("godot4", src)
            self.assertEqual(r.returncode, 2)
            self.assertIn("usage", r.stderr)


if __name__ == "__main__":
    unittest.main()
