"""serval.to_json / serval.from_json: the typed JSON text of `serval dump`
and `serval conv`, byte for byte.

The texts are docs/json.md's forms; the comparison with the command runs
`serval dump` (and --compact) on the vectors it detects."""
import os
import subprocess
import unittest

import serval

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.normpath(os.path.join(HERE, "..", "..", "..", "tests", "vectors"))
CLI = os.environ.get("SERVAL_CLI")
# the command runs without the sanitizer runtime CTest preloads into python3
# (a sanitizer build of the command links its own)
CLI_ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def run_cli(args, **kw):
    return subprocess.run([CLI] + args, env=CLI_ENV, **kw)


class Text(unittest.TestCase):
    def test_documented_forms(self):
        self.assertEqual(serval.to_json({"a": serval.I32(1)}), '{\n  "a": {"$i32": 1}\n}\n')
        self.assertEqual(serval.to_json({"a": serval.I32(1)}, indent=0), '{"a":{"$i32":1}}\n')
        self.assertEqual(serval.to_json([1, "x"], indent=0), '[1,"x"]\n')
        self.assertEqual(serval.to_json({"$k": b"\x01\x02\x03"}, indent=0),
                         '{"$$k":{"$bytes":"AQID"}}\n')

    def test_from_json(self):
        v = serval.from_json('{"hp": {"$f32": 99.5}, "pos": {"$vector3": [1, 2, 3]}}')
        self.assertIs(type(v["hp"]), serval.F32)
        self.assertIs(type(v["pos"]), serval.Vector3)
        self.assertEqual(serval.from_json(b'[1, 2]'), [1, 2])
        with self.assertRaises(serval.Error) as cm:
            serval.from_json('{"a": [1, }')
        self.assertEqual(cm.exception.format, "json")
        with self.assertRaises(TypeError):
            serval.from_json("{}", framing="raw")
        self.assertEqual(serval.from_json('{"$k": 1}', plain=True), {"$k": 1})

    def test_bad_indent(self):
        for bad in (-1, 17, True, "2"):
            with self.assertRaises(ValueError):
                serval.to_json({}, indent=bad)


class LikeTheCommand(unittest.TestCase):
    def files(self):
        """(path, format or None: detected) of the vectors compared."""
        out = []
        for sub, fmts in (("bson", [None]), ("resonite", [None]), ("noesis", [None]),
                          ("godot/oracle", ["godot3", "godot4"]),
                          ("godot/spec", ["godot3", "godot4"])):
            folder = os.path.join(VECTORS, sub)
            names = sorted(n for n in os.listdir(folder)
                           if not n.endswith((".md", ".tsv", ".c", ".py", ".json")))
            out += [(os.path.join(folder, n), f) for n in names[:40] for f in fmts]
        return out

    def test_dump_bytes(self):
        if not CLI:
            self.skipTest("SERVAL_CLI not set (the serval command to compare with)")
        compared = 0
        for path, fmt in self.files():
            named = ["--from", fmt] if fmt else []
            r = run_cli(["dump"] + named + [path], capture_output=True)
            if r.returncode:
                with self.assertRaises(serval.Error, msg=path):
                    serval.load(path, fmt)
                continue
            value = serval.load(path, fmt)
            self.assertEqual(serval.to_json(value).encode("utf-8"), r.stdout, path)
            compact = run_cli(["dump", "--compact"] + named + [path],
                                     capture_output=True, check=True).stdout
            text = serval.to_json(value, indent=0)
            self.assertEqual(text.encode("utf-8"), compact, path)
            # conv reads the text back to the file's bytes, as from_json does
            with open(path, "rb") as f:
                data = f.read()
            back = run_cli(["conv", "-o", "-", "-"], input=compact,
                                  capture_output=True)
            if back.returncode == 0 and back.stdout == data:
                self.assertEqual(serval.dumps(serval.from_json(text), fmt or serval.detect(data)),
                                 data, path)
            compared += 1
        self.assertGreater(compared, 60)

if __name__ == "__main__":
    unittest.main()
