"""serval.dask on a distributed.LocalCluster of 2 worker processes, over
every vector (tests/vectors) and sample (../shared/samples, when present),
against the serval command on the same files: read_files' good and bad
files are `serval validate -r`'s, and convert_files writes the files
`serval conv -r --to json --output-dir` writes, byte for byte, and fails
where it fails. Also: `import serval` does not import Dask."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
VECTORS = os.path.join(REPO, "tests", "vectors")
SAMPLES = os.path.normpath(os.path.join(REPO, "..", "shared", "samples"))
CLI = os.environ.get("SERVAL_CLI")
# the command runs without the sanitizer runtime CTest preloads into python3
# (a sanitizer build of the command links its own)
CLI_ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def run_cli(args, **kw):
    return subprocess.run([CLI] + args, env=CLI_ENV, **kw)

try:
    import dask.bag  # noqa: F401 (serval.dask needs it)
    import distributed
except ImportError:
    distributed = None


def roots():
    out = [VECTORS]
    if os.path.isdir(SAMPLES):
        out.append(SAMPLES)
    return out


def files_under(root):
    out = {}
    for folder, _, names in os.walk(root):
        for n in names:
            p = os.path.join(folder, n)
            with open(p, "rb") as f:
                out[os.path.relpath(p, root)] = f.read()
    return out


class NoDaskOnImport(unittest.TestCase):
    def test_import_serval_leaves_dask_alone(self):
        code = ("import sys, serval; serval.loads(b'\\x05\\0\\0\\0\\0', 'bson'); "
                "print(sorted(m for m in sys.modules if m.split('.')[0] in "
                "('dask', 'distributed', 'serval.dask')))")
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           cwd=os.path.dirname(HERE), check=True)
        self.assertEqual(r.stdout.strip(), "[]")


@unittest.skipIf(distributed is None, "no Dask (Debian: apt-get install python3-dask "
                 "python3-distributed)")
class Records(unittest.TestCase):
    def test_every_failure_is_a_record(self):
        import serval.dask
        paths = [os.path.join(VECTORS, "bson", "all_types.bson"),       # takes no framing=
                 os.path.join(VECTORS, "godot", "oracle", "color8.bin"),  # ambiguous
                 os.path.join(VECTORS, "no-such-file")]
        records = serval.dask.read_files(paths, framing="raw").compute(scheduler="sync")
        self.assertEqual([p for p, _ in records], paths)
        self.assertEqual([r[1].status for r in records], ["TypeError", "SV_ERR_REFUSED",
                                                          "SV_ERR_IO"])
        self.assertIn("unknown option 'framing'", records[0][1].message)
        self.assertEqual(records[2][1].message, paths[2] + ": No such file or directory")


@unittest.skipIf(distributed is None, "no Dask (Debian: apt-get install python3-dask "
                 "python3-distributed)")
class OnACluster(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import logging
        cls.cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                               dashboard_address=None,
                                               silence_logs=logging.ERROR)
        cls.client = distributed.Client(cls.cluster)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.cluster.close()

    def test_read_files_as_validate(self):
        import serval
        import serval.dask
        self.assertEqual(len(self.client.scheduler_info()["workers"]), 2)
        if not os.path.isdir(SAMPLES):
            print("note: no %s; the vectors only" % SAMPLES, file=sys.stderr)
        records = serval.dask.read_files(roots()).compute()
        good = {p for p, v in records if not isinstance(v, serval.dask.FileError)}
        bad = {p: v for p, v in records if isinstance(v, serval.dask.FileError)}
        self.assertEqual(len(good) + len(bad), sum(len(files_under(r)) for r in roots()))
        self.assertGreater(len(good), 800)
        for path, e in bad.items():  # each record names its file and says why
            self.assertEqual(e.path, path)
            self.assertTrue(e.message.startswith(path + ": "), e.message)
            self.assertTrue(e.status.startswith("SV_ERR_"), e)
        # the trees came back through pickling whole: spot-check against a local load
        for path, value in records[:200]:
            if path in good:
                self.assertEqual(serval.to_json(value), serval.to_json(serval.load(path)), path)
        if not CLI:
            self.skipTest("SERVAL_CLI not set (the serval command to compare with)")
        r = run_cli(["validate", "-r", "-j", "2"] + roots(), capture_output=True,
                           text=True)
        cli_good = {line[:-len(": ok")] for line in r.stdout.splitlines() if line.endswith(": ok")}
        self.assertEqual(good, cli_good)

    def test_convert_files_as_conv(self):
        import serval.dask
        if not CLI:
            self.skipTest("SERVAL_CLI not set (the serval command to compare with)")
        folders = [os.path.join(r, n) for r in roots() for n in sorted(os.listdir(r))
                   if os.path.isdir(os.path.join(r, n))]
        compared = clashes = 0
        with tempfile.TemporaryDirectory() as tmp:
            for i, folder in enumerate(folders):
                ours, theirs = os.path.join(tmp, "py%d" % i), os.path.join(tmp, "cli%d" % i)
                r = run_cli(["conv", "-r", "-q", "-j", "2", "--to", "json",
                                    "--output-dir", theirs, folder], capture_output=True,
                                   text=True)
                if r.returncode == 2:  # two inputs with one output name: refused whole
                    self.assertIn("would both be written to", r.stderr)
                    with self.assertRaises(ValueError, msg=folder):
                        serval.dask.convert_files([folder], ours, "json")
                    self.assertFalse(os.path.exists(ours))
                    clashes += 1
                    continue
                records = serval.dask.convert_files([folder], ours, "json")
                want = files_under(theirs) if os.path.isdir(theirs) else {}
                got = files_under(ours) if os.path.isdir(ours) else {}
                self.assertEqual(sorted(got), sorted(want), folder)
                for rel in want:
                    self.assertEqual(got[rel], want[rel], rel)
                    compared += 1
                failed = [p for p, v in records if isinstance(v, serval.dask.FileError)]
                self.assertEqual(len(records) - len(failed), len(want), folder)
                self.assertEqual(bool(failed), r.returncode != 0, folder)
        self.assertGreater(compared, 700)
        self.assertGreater(clashes, 0)  # tests/vectors/kingsisle: tiny.bind and tiny.xml

    def test_bad_option_fails_the_call_not_each_file(self):
        import serval.dask
        with self.assertRaises(TypeError):
            serval.dask.read_files(VECTORS, "bson", framing="raw")
        with self.assertRaises(TypeError):
            serval.dask.convert_files([VECTORS], "/nonexistent", "bson", indent=2)


if __name__ == "__main__":
    unittest.main()
