"""Finding serval._native, the C extension under loads() and dumps().

The extension builds Python objects straight from libserval's value tree and
a tree straight from Python objects (src/ of bindings/python). Without it
the module runs on ctypes alone (_lib.py): loads through a pickle stream the
library writes, dumps through typed JSON text; the results are the same.

Where it is looked for, in order:
  - $SERVAL_NATIVE, the path of the extension file;
  - installed in this package (pip install bindings/python compiles it);
  - in a serval build tree: python/serval/ beside the libserval that
    $SERVAL_LIBRARY names, or under build/ of the checkout this file is in.

SERVAL_PYTHON_BACKEND=ctypes skips it (the tests run both ways);
SERVAL_PYTHON_BACKEND=native makes its absence an ImportError.
"""
import glob
import importlib
import importlib.machinery
import importlib.util
import os

from . import _lib


def _candidates():
    env = os.environ.get("SERVAL_NATIVE")
    if env:
        yield env
        return
    yield None  # the installed copy: serval/_native.*.so
    roots = []
    if os.environ.get("SERVAL_LIBRARY"):
        roots.append(os.path.dirname(os.path.abspath(os.environ["SERVAL_LIBRARY"])))
    top = _lib._checkout()
    if top:
        roots.append(os.path.join(top, "build"))
    for root in roots:
        for path in sorted(glob.glob(os.path.join(root, "python", "serval", "_native*.so"))):
            yield path


def _from_file(path):
    loader = importlib.machinery.ExtensionFileLoader("serval._native", path)
    spec = importlib.util.spec_from_file_location("serval._native", path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def load(classes, make_error):
    """The set-up extension module, or None (then why is in reason())."""
    global _why
    choice = os.environ.get("SERVAL_PYTHON_BACKEND", "")
    if choice == "ctypes":
        _why = "SERVAL_PYTHON_BACKEND=ctypes"
        return None
    if choice not in ("", "native"):
        raise ImportError("serval: SERVAL_PYTHON_BACKEND is %r; it takes native or ctypes" % choice)
    tried = []
    for path in _candidates():
        try:
            if path is None:
                module = importlib.import_module("serval._native")
            elif os.path.exists(path):
                module = _from_file(path)
            else:
                tried.append("%s (no such file)" % path)
                continue
            module.setup(classes, make_error)
            _why = "loaded from %s" % getattr(module, "__file__", path)
            return module
        except ImportError as exc:
            tried.append("%s (%s)" % (path or "serval._native", exc))
    _why = "not found: " + "; ".join(tried)
    if choice == "native":
        raise ImportError("serval: SERVAL_PYTHON_BACKEND=native, but serval._native does not load: "
                          + "; ".join(tried))
    return None


_why = ""


def reason():
    """Why the extension is or is not in use, in a few words."""
    return _why
