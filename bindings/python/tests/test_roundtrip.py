"""Every test vector and real sample that serval decodes comes back byte for byte
through serval.loads and serval.dumps.

For each input: the Python round trip gives the input's bytes wherever the
library's own decode-then-encode does (the vectors the engines or spec tables
mark as canonical), and in every case the very bytes of the library's own
round trip (the serval command, SERVAL_CLI, when given). Vectors the engines
refuse raise serval.Error with the status the table names.
"""
import os
import subprocess
import tempfile
import unittest
import zipfile

import serval

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
VECTORS = os.path.join(REPO, "tests", "vectors")
SAMPLES = os.path.normpath(os.path.join(REPO, "..", "shared", "samples"))
CLI = os.environ.get("SERVAL_CLI")
KNOWN = {f.name for f in serval.formats()}


def read(path):
    with open(path, "rb") as f:
        return f.read()


def options_of(text):
    if text in ("-", ""):
        return {}
    return dict(item.split("=", 1) for item in text.split(","))


def cli_roundtrip(data, fmt, options):
    """The library's own decode then encode, by the serval command."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "in.bin")
        dst = os.path.join(tmp, "out.bin")
        with open(src, "wb") as f:
            f.write(data)
        args = [CLI, "conv", "--from", fmt, "--to", fmt, "-o", dst]
        for k, v in options.items():
            args += ["-I", "%s=%s" % (k, v)]  # how the input is read; the tree keeps it
        # (a sanitizer runtime preloaded for this process would clash with
        # the command's own)
        env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
        subprocess.run(args + [src], check=True, stdout=subprocess.DEVNULL, env=env)
        out = read(dst)
        # the command ends JSON text with a newline; the library does not
        if fmt == "json" and out.endswith(b"\n"):
            out = out[:-1]
        return out


def godot_table(path, with_profile):
    """Rows of an index.tsv: (name, fmt, options, kind, input bytes, expected,
    the engine's re-encoding or None)."""
    base = os.path.dirname(path)
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            if with_profile:  # name profile options source kind hex expected
                name, fmt, opts, _, kind, hexdata, expected = cols[:7]
                data = bytes.fromhex(hexdata.replace(" ", ""))
                reenc = None
            else:  # name kind options expected re-encoded expression
                name, kind, opts, expected, reenc = cols[:5]
                reenc = None if reenc == "-" else bytes.fromhex(reenc)
                fmt = "godot3"
                data = read(os.path.join(base, name + ".bin"))
            rows.append((name, fmt, options_of(opts), kind, data, expected, reenc))
    return rows


class RoundTrip(unittest.TestCase):
    def check(self, label, data, fmt, options, canonical):
        value = serval.loads(data, fmt, **options)
        back = serval.dumps(value, fmt, **options)
        if canonical:
            self.assertEqual(back, data, "%s: the round trip changed the bytes" % label)
        if CLI:
            self.assertEqual(back, cli_roundtrip(data, fmt, options),
                             "%s: differs from the library's own round trip" % label)
        return back

    def run_godot_table(self, path, with_profile):
        if not os.path.exists(path):
            self.skipTest("no %s" % path)
        rows = godot_table(path, with_profile)
        self.assertGreater(len(rows), 10)
        for name, fmt, opts, kind, data, expected, reenc in rows:
            with self.subTest(name=name):
                if kind == "err":
                    with self.assertRaises(serval.Error) as cm:
                        serval.loads(data, fmt, **opts)
                    e = cm.exception
                    if expected.startswith("SV_"):
                        self.assertEqual(e.status, expected)
                    self.assertEqual(e.format, fmt)
                    self.assertLessEqual(e.offset, len(data))
                    continue
                # the engine reads a raw Variant and ignores what follows it;
                # serval asks for that with trailing=allow
                opts = dict(opts, trailing="allow")
                # enc, encnp: the engine's own bytes for that value; dec: bytes
                # the engine reads but would not write; str: a string the
                # engine reads differently. serval keeps the bytes of dec and
                # str inputs beyond the value (godot.md, "Bytes kept beyond
                # the value"), so they come back too
                back = self.check(name, data, fmt, opts, canonical=kind in ("enc", "encnp"))
                if kind == "str":
                    self.assertEqual(back, data, "%s: the string's bytes did not come back" % name)

    def test_godot_oracle(self):
        self.run_godot_table(os.path.join(VECTORS, "godot", "oracle", "index.tsv"), False)

    def test_godot_spec(self):
        self.run_godot_table(os.path.join(VECTORS, "godot", "spec", "index.tsv"), True)

    def test_godot_gdcom(self):
        self.run_godot_table(os.path.join(VECTORS, "godot", "gdcom", "index.tsv"), True)

    def run_files(self, folder, suffixes, fmt, need=1):
        if not os.path.isdir(folder):
            self.skipTest("no %s (the real samples are not on this machine)" % folder)
        names = sorted(n for n in os.listdir(folder) if n.endswith(suffixes))
        self.assertGreaterEqual(len(names), need)
        for n in names:
            with self.subTest(file=n):
                data = read(os.path.join(folder, n))
                self.assertEqual(serval.detect(data, n), fmt)
                self.check(n, data, fmt, {}, canonical=True)

    def test_bson_vectors(self):
        self.run_files(os.path.join(VECTORS, "bson"), (".bson",), "bson", 5)

    def test_resonite_vectors(self):
        self.run_files(os.path.join(VECTORS, "resonite"), ("bson", ".brson"), "resonite", 6)

    def test_noesis_vectors(self):
        self.run_files(os.path.join(VECTORS, "noesis"), (".nsb",), "noesis", 8)

    def test_json_vectors(self):
        # typed JSON is written in one canonical layout: what the library writes
        folder = os.path.join(VECTORS, "json")
        for n in sorted(os.listdir(folder)):
            with self.subTest(file=n):
                self.check(n, read(os.path.join(folder, n)), "json", {}, canonical=False)

    def test_samples_brson(self):
        self.run_files(os.path.join(SAMPLES, "brson"), (".brson",), "resonite", 3)

    def test_samples_noesis(self):
        self.run_files(os.path.join(SAMPLES, "noesis-nsb"), (".nsb",), "noesis", 6)

    def test_samples_resonitepackage_members(self):
        folder = os.path.join(SAMPLES, "resonitepackage")
        if not os.path.isdir(folder):
            self.skipTest("no %s (the real samples are not on this machine)" % folder)
        trees = 0
        for n in sorted(os.listdir(folder)):
            if not n.endswith(".resonitepackage"):
                continue
            with zipfile.ZipFile(os.path.join(folder, n)) as z:
                for member in z.namelist():
                    data = z.read(member)
                    if not data.startswith(b"FrDT"):
                        continue  # the record and metadata are JSON, the rest images
                    with self.subTest(member=n + ":" + member):
                        self.check(member, data, "resonite", {}, canonical=True)
                        trees += 1
        self.assertGreaterEqual(trees, 2)


if __name__ == "__main__":
    unittest.main()
