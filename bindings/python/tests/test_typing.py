"""The package is typed (py.typed and .pyi stubs that name every public
function and class) and documented: help() shows a docstring for every
public function, class and method added beside loads and dumps. When
Debian's mypy is installed, a short program using the API type-checks
against the stubs, and one misusing it does not."""
import ast
import os
import pydoc
import shutil
import subprocess
import tempfile
import unittest

import serval
import serval.godot
import serval.kingsisle
import serval.resonite

HERE = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.join(os.path.dirname(HERE), "serval")

GOOD = '''
import serval
from serval.kingsisle import Wad
from serval.resonite import Package
v = serval.load("x.bson", max_depth=64)
n: int = serval.dump(v, "y.bson", "bson", lossy=True)
t: str = serval.to_json(v, indent=0)
w = serval.from_json(t)
for item in serval.iter_load(b"", "bson"):
    pass
s: serval.Schema = serval.Schema.load(["a.json", "b.json"])
k: int = s.class_count
with Wad("Root.wad") as wad:
    data: bytes = wad.read(wad.names()[0])
with Package(b"") as pkg:
    main = pkg.main_tree()
with serval.godot.Pck("game.pck", key="00" * 32) as pck:
    blob: bytes = pck.read(pck.names()[0])
    sizes = [m.size for m in pck.members() if not m.encrypted]
f = serval.F32(1.5)
'''
BAD = '''
import serval
n: str = serval.dump({}, "y.bson", "bson")
'''


def stub_names(path):
    with open(path) as f:
        tree = ast.parse(f.read())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    return names


class Typed(unittest.TestCase):
    def test_marker_and_stubs(self):
        self.assertTrue(os.path.isfile(os.path.join(PKG, "py.typed")))
        names = stub_names(os.path.join(PKG, "__init__.pyi"))
        missing = [n for n in serval.__all__ if n not in names]
        self.assertEqual(missing, [])
        self.assertLessEqual({"Wad", "WadMember"}, stub_names(os.path.join(PKG, "kingsisle.pyi")))
        self.assertLessEqual({"Pck", "PckMember"}, stub_names(os.path.join(PKG, "godot.pyi")))
        self.assertLessEqual({"Package", "PackageMember"},
                             stub_names(os.path.join(PKG, "resonite.pyi")))
        self.assertLessEqual({"read_files", "convert_files", "FileError"},
                             stub_names(os.path.join(PKG, "dask.pyi")))

    def test_mypy(self):
        mypy = shutil.which("mypy")
        if not mypy:
            self.skipTest("no mypy (Debian: apt-get install mypy)")
        with tempfile.TemporaryDirectory() as tmp:
            for name, text in (("good.py", GOOD), ("bad.py", BAD)):
                with open(os.path.join(tmp, name), "w") as f:
                    f.write(text)
            # one run over both (mypy starts slowly): errors in bad.py only
            r = subprocess.run([mypy, "--no-incremental", "--cache-dir", os.path.join(tmp, "c"),
                                "--ignore-missing-imports", "good.py", "bad.py"], cwd=tmp,
                               env=dict(os.environ, MYPYPATH=os.path.dirname(PKG)),
                               capture_output=True, text=True)
            errors = [line for line in r.stdout.splitlines() if ": error:" in line]
            self.assertTrue(errors, r.stdout + r.stderr)
            self.assertEqual([e for e in errors if not e.startswith("bad.py:3:")], [],
                             r.stdout + r.stderr)


class Documented(unittest.TestCase):
    def test_help_shows_docstrings(self):
        for f in (serval.loads, serval.dumps, serval.load, serval.dump, serval.iter_load,
                  serval.to_json, serval.from_json, serval.Schema.load):
            self.assertTrue(f.__doc__ and len(f.__doc__) > 40, f)
            self.assertIn(f.__doc__.split()[0], pydoc.render_doc(f))

    def test_classes_and_methods(self):
        for cls in (serval.kingsisle.Wad, serval.resonite.Package, serval.godot.Pck):
            self.assertTrue(cls.__doc__, cls)
            for name in ("names", "read", "members", "close"):
                self.assertTrue(getattr(cls, name).__doc__, "%s.%s" % (cls.__name__, name))
        for mod in (serval.godot, serval.kingsisle, serval.resonite, serval.files, serval.streams,
                    serval.typed_json, serval.schema):
            self.assertTrue(mod.__doc__, mod)


if __name__ == "__main__":
    unittest.main()
