"""Trees pickle: Dask and multiprocessing send them between processes by
pickle, which finds each wrapper class by its module and name. Every class
must come back as itself (not a copy that dumps() does not know)."""
import os
import pickle
import unittest

import serval

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.normpath(os.path.join(HERE, "..", "..", "..", "tests", "vectors"))


class Pickling(unittest.TestCase):
    def test_every_wrapper_class_by_reference(self):
        for name, cls in sorted(serval._CLASSES.items()):
            self.assertIs(pickle.loads(pickle.dumps(cls)), cls, name)
            self.assertIs(getattr(serval, name), cls, name)

    def test_tagged_values(self):
        for v in (serval.UUID("0f8fad5b-d9cb-469f-a165-70867728950e"), serval.StringName("jump"),
                  serval.NodePath("a/b"), serval.RID(13)):
            w = pickle.loads(pickle.dumps(v))
            self.assertIs(type(w), type(v))
            self.assertEqual(w, v)

    def test_trees_of_the_vectors(self):
        for rel, fmt in (("bson/all_types.bson", "bson"), ("resonite/tiny.brson", "resonite"),
                         ("noesis/all-commands.le.v5.nsb", "noesis")):
            with open(os.path.join(VECTORS, rel), "rb") as f:
                data = f.read()
            tree = pickle.loads(pickle.dumps(serval.loads(data, fmt)))
            self.assertEqual(serval.dumps(tree, fmt), data, rel)


if __name__ == "__main__":
    unittest.main()
