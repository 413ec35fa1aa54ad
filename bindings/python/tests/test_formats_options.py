"""Every format the serval command lists, one option of each with its known
effect, and type lists through Schema.load and schema= on loads and dumps.

Expected bytes come from docs/formats/godot.md (store_var frames: a u32
length, then the Variant) and the vectors' own files; the merged schema's
counts are those `serval schema check weapons.json shield.json` states in
tests/cli/cases/schema-check/stdout."""
import os
import subprocess
import unittest

import serval

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
VECTORS = os.path.join(REPO, "tests", "vectors")
CASES = os.path.join(REPO, "tests", "cli", "cases")
CLI = os.environ.get("SERVAL_CLI")
# the command runs without the sanitizer runtime CTest preloads into python3
# (a sanitizer build of the command links its own)
CLI_ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def run_cli(args, **kw):
    return subprocess.run([CLI] + args, env=CLI_ENV, **kw)
KT = os.path.join(VECTORS, "kingsisle", "tiny-types.json")


def vector(*parts):
    with open(os.path.join(VECTORS, *parts), "rb") as f:
        return f.read()


class Formats(unittest.TestCase):
    def test_every_format_the_cli_lists(self):
        if not CLI:
            self.skipTest("SERVAL_CLI not set (the serval command to compare with)")
        out = run_cli(["formats"], capture_output=True, text=True, check=True).stdout
        listed = {}
        current = None
        for line in out.splitlines():
            if line.startswith("  -O "):
                listed[current]["options"].append(line.split()[1])
            elif line.strip():
                words = line.split()
                name, modes = words[:2]
                exts = []
                for w in words[2:]:
                    if w != "-" and not w.startswith("."):
                        break
                    exts += [w] if w != "-" else []
                current = name
                listed[name] = {"modes": modes, "ext": exts, "options": []}
        ours = {f.name: f for f in serval.formats()}
        for name, want in listed.items():
            if want["modes"] == "load/store":
                # O3DE JSON is read and written through a schema type, not by
                # loads/dumps: the command says so, and so does the library.
                self.assertNotIn(name, ours)
                continue
            self.assertIn(name, ours, "serval.formats() lacks %s" % name)
            f = ours[name]
            self.assertEqual((f.readable, f.writable),
                             ("read" in want["modes"], "write" in want["modes"]), name)
            self.assertEqual(["." + e.lstrip(".") for e in f.extensions], want["ext"], name)
            self.assertEqual(list(f.options), want["options"], name)
        self.assertEqual(set(ours), {n for n, w in listed.items() if w["modes"] != "load/store"})


class OnePerFormat(unittest.TestCase):
    def test_json_indent(self):
        self.assertEqual(serval.dumps({"a": [1]}, "json", indent=2),
                         b'{\n  "a": [\n    1\n  ]\n}')
        self.assertEqual(serval.dumps({"a": [1]}, "json"), b'{"a":[1]}')

    def test_godot4_framing(self):
        # store_var(42): u32 length 8, then var_to_bytes(42)
        self.assertEqual(serval.dumps(42, "godot4", framing="prefixed"),
                         bytes.fromhex("08000000 020000002a000000"))

    def test_godot3_prefix(self):
        # StreamPeer.big_endian: the length prefix in big-endian order
        self.assertEqual(serval.dumps(42, "godot3", framing="prefixed", prefix="be"),
                         bytes.fromhex("00000008 020000002a000000"))

    def test_godot_doc_trailing(self):
        data = bytes.fromhex("00000000 ff")  # nil, then one byte more
        with self.assertRaises(serval.Error) as cm:
            serval.loads(data, "godot-doc", framing="raw")
        self.assertEqual(cm.exception.status, "SV_ERR_TRAILING")
        self.assertEqual(cm.exception.offset, 4)
        self.assertIsNone(serval.loads(data, "godot-doc", framing="raw", trailing="allow"))

    def test_bson_stream(self):
        empty = bytes.fromhex("0500000000")
        self.assertEqual(serval.loads(empty, "bson"), {})
        self.assertEqual(serval.loads(empty, "bson", stream=True), [{}])

    def test_resonite_container(self):
        data = vector("resonite", "tiny.lz4bson")
        tree = serval.loads(data, "resonite", container="lz4")
        self.assertEqual(serval.dumps(tree, "resonite"), data)
        with self.assertRaises(serval.Error) as cm:
            serval.loads(data, "resonite", container="brotli")  # checked against the header
        self.assertEqual(cm.exception.format, "resonite")

    def test_noesis_version(self):
        data = vector("noesis", "all-commands.le.v5.nsb")
        tree = serval.loads(data, "noesis")
        self.assertEqual(serval.dumps(tree, "noesis"), data)
        v3 = serval.dumps(tree, "noesis", version=3)
        self.assertNotEqual(v3, data)
        self.assertEqual(serval.dumps(serval.loads(v3, "noesis"), "noesis", version=5), data)

    def test_kingsisle_shallow(self):
        data = vector("kingsisle", "tiny-shallow.bin")
        opts = {"flags": 1, "property_mask": 7, "schema": KT}
        tree = serval.loads(data, "kingsisle", shallow=True, **opts)
        self.assertEqual(serval.dumps(tree, "kingsisle", shallow=True, **opts), data)
        with self.assertRaises(serval.Error):
            serval.loads(data, "kingsisle", shallow=False, **opts)

    def test_unknown_option_is_a_type_error(self):
        for f in serval.formats():
            with self.assertRaises(TypeError, msg=f.name):
                serval.loads(b"", f.name, no_such_option=1)


class Schemas(unittest.TestCase):
    def test_load_merges_like_repeated_schema_options(self):
        s = serval.Schema.load([os.path.join(VECTORS, "schema", "weapons.json"),
                                os.path.join(VECTORS, "schema", "shield.json")])
        self.assertEqual((s.enum_count, s.class_count), (1, 3))
        one = serval.Schema.load(os.path.join(VECTORS, "schema", "weapons.json"))
        self.assertEqual((one.enum_count, one.class_count), (1, 2))

    def test_conflict_names_both_files(self):
        folder = os.path.join(CASES, "schema-check-conflict")
        a, b = os.path.join(folder, "weapons.json"), os.path.join(folder, "clash.json")
        with self.assertRaises(serval.Error) as cm:
            serval.Schema.load([a, b])
        # worded as `serval schema check` words it (the library's message
        # holds 160 bytes, so the long paths here cut it short)
        self.assertTrue(str(cm.exception).startswith(
            "%s: schema: malformed input: class 'Weapon' has hash 1534054483 in '%s" % (b, a)),
            str(cm.exception))
        self.assertEqual(cm.exception.status, "SV_ERR_SYNTAX")

    def test_unknown_type_worded_as_the_command(self):
        bad = os.path.join(CASES, "schema-check-bad", "bad.json")
        with open(os.path.join(CASES, "schema-check-bad", "stderr")) as f:
            want = f.read().strip()  # serval: bad.json: schema: not found at ...
        with self.assertRaises(serval.Error) as cm:
            serval.Schema.load(bad)
        self.assertEqual("serval: " + str(cm.exception), want.replace("bad.json", bad, 1))
        self.assertEqual(cm.exception.status, "SV_ERR_NOT_FOUND")

    def test_missing_file(self):
        with self.assertRaises(FileNotFoundError):
            serval.Schema.load(os.path.join(VECTORS, "schema", "no-such.json"))

    def test_not_a_type_list(self):
        with self.assertRaises(serval.Error) as cm:
            serval.Schema.load(os.path.join(VECTORS, "bson", "all_types.bson"))
        self.assertIn("all_types.bson", str(cm.exception))

    def test_schema_on_loads_and_dumps(self):
        types = serval.Schema.load(KT)
        self.assertIs(type(types), serval.Schema)
        for name, fmt, opts in (("tiny-deep.bin", "kingsisle", {"flags": 1, "property_mask": 7}),
                                ("tiny.bind", "kingsisle", {}),
                                ("tiny.xml", "kingsisle-xml", {})):
            data = vector("kingsisle", name)
            for schema in (types, KT, [KT]):
                tree = serval.loads(data, fmt, schema=schema, **opts)
                self.assertEqual(serval.dumps(tree, fmt, schema=schema, **opts), data, name)
        # with the type list the classes have their names; without it, hashes
        named = serval.loads(vector("kingsisle", "tiny-deep.bin"), "kingsisle", schema=types,
                             flags=1, property_mask=7)
        bare = serval.loads(vector("kingsisle", "tiny-deep.bin"), "kingsisle", flags=1)
        self.assertNotEqual(serval.to_json(named), serval.to_json(bare))

    def test_load_schema_is_kept(self):
        s = serval.load_schema(KT)
        self.assertEqual(s.class_count, serval.Schema.load(KT).class_count)

    def test_bad_schema_value(self):
        with self.assertRaises(ValueError):
            serval.loads(vector("kingsisle", "tiny.bind"), "kingsisle", schema=42)
        with self.assertRaises(TypeError):
            serval.loads(b"{}", "json", schema=KT)  # json takes no type list


if __name__ == "__main__":
    unittest.main()
