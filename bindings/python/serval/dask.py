"""serval over a Dask cluster: a corpus of files read or converted in
parallel, on one machine's processes or on a real cluster.

    import serval.dask
    from dask.distributed import Client
    client = Client("scheduler:8786")      # or LocalCluster(n_workers=2)
    bag = serval.dask.read_files("saves/**/*.save", "godot3")
    bad = bag.filter(lambda r: isinstance(r[1], serval.dask.FileError)).compute()
    serval.dask.convert_files(["saves/"], "out/", "json")

Every file gives one record: (path, tree) or (path, FileError); a bad file
is a record, never a failed task. Workers need serval importable and
libserval loadable (SERVAL_LIBRARY, or an installed library), as the
client does. Only this submodule imports Dask: `import serval` does not.
"""
import os as _os
import sys as _sys

import dask.bag as _bag

from . import _atomic
from . import _optcheck
from . import _walk
from . import files as _files

__all__ = ["read_files", "convert_files", "FileError"]


class FileError(tuple):
    """What became of a file that failed: (path, message, status, format,
    offset, pointer). message is the error's full text (the path first, as
    the command prints it); status is the library's ("SV_ERR_TRUNCATED",
    ...), or "SV_ERR_IO" for a file that could not be read or written;
    offset is the byte offset, pointer the JSON Pointer of the value."""
    __slots__ = ()
    _fields = ("path", "message", "status", "format", "offset", "pointer")
    path = property(lambda self: self[0])
    message = property(lambda self: self[1])
    status = property(lambda self: self[2])
    format = property(lambda self: self[3])
    offset = property(lambda self: self[4])
    pointer = property(lambda self: self[5])

    def __new__(cls, path, message, status, format="", offset=0, pointer=""):
        return tuple.__new__(cls, (path, message, status, format, offset, pointer))

    def __reduce__(self):  # pickled to and from the workers
        return (FileError, tuple(self))

    def __repr__(self):
        return "serval.dask.FileError(%s)" % ", ".join(
            "%s=%r" % (k, v) for k, v in zip(self._fields, self))


def _failure(path, e):
    if hasattr(e, "status"):  # serval.Error
        return FileError(path, str(e), e.status, e.format, e.offset, e.path)
    if isinstance(e, OSError):
        return FileError(path, "%s: %s" % (path, e.strerror or e), "SV_ERR_IO")
    return FileError(path, "%s: %s" % (path, e), type(e).__name__)


def _pkg():
    return _sys.modules[__package__]


def _read_one(path, fmt, options):
    try:
        return (path, _files.load(path, fmt, **options))
    except Exception as e:  # noqa: BLE001 (whatever one file does, it is its record)
        return (path, _failure(path, e))


def _partitions(n, npartitions):
    if npartitions is not None:
        return max(1, min(n, npartitions))
    return max(1, min(n, 64))


def read_files(paths_or_glob, fmt=None, npartitions=None, **options):
    """A Dask Bag of (path, tree) for every file of paths_or_glob: a path, a
    folder (every file under it, as `serval validate -r` walks it), a glob
    pattern ("saves/**/*.bin") or a list of them. fmt names the format
    (None: told from each file, as the command tells it); options are
    loads()'s, for every file (an option fmt does not take raises TypeError
    here). A file that fails gives (path, FileError) instead of its tree.
    Nothing runs until the bag is computed (on the default Dask client when
    one was made)."""
    if fmt is not None:
        _optcheck.check(fmt, options, "read_files")
    paths = [p for p, _ in _walk.collect(paths_or_glob)]
    return _bag.from_sequence(paths, npartitions=_partitions(len(paths), npartitions)).map(
        _read_one, fmt, options)


def _extension(fmt):
    for f in _pkg().formats():
        if f.name == fmt:
            return f.extensions[0].lstrip(".") if f.extensions else f.name
    return fmt


def _convert_one(job, fmt, read_fmt, read_options, lossy, options):
    path, out = job
    try:
        tree = _files.load(path, read_fmt, **read_options)
        data = _files.encode_for_file(tree, fmt, lossy, options)
        parent = _os.path.dirname(out)
        if parent:
            _os.makedirs(parent, exist_ok=True)
        _atomic.write_file(out, data)
        return (path, out)
    except Exception as e:  # noqa: BLE001 (whatever one file does, it is its record)
        return (path, _failure(path, e))


def _check_outputs(jobs):
    """As conv --output-dir checks before it writes anything: two inputs with
    one output name (x.bson and x.brson both make x.json), or an output that
    is another input, raise ValueError."""
    seen = {}
    for p, out in jobs:
        if out in seen:
            raise ValueError("serval: %s and %s would both be written to %s (convert them to "
                             "different folders)" % (seen[out], p, out))
        seen[out] = p
    inputs = {}
    for p, _ in jobs:
        try:
            st = _os.stat(p)
        except OSError:
            continue
        inputs.setdefault((st.st_dev, st.st_ino), p)
    for p, out in jobs:
        try:
            st = _os.stat(out)
        except OSError:
            continue
        other = inputs.get((st.st_dev, st.st_ino))
        if other is not None and other != p:
            raise ValueError("serval: the output of %s would be written over %s, another input"
                             % (p, other))


def convert_files(paths, out_dir, fmt, read_fmt=None, read_options=None, lossy=False,
                  npartitions=None, compute=True, **options):
    """Converts every file of paths (as read_files takes them) to format fmt
    under out_dir, named as `serval conv --output-dir` names them (the path
    under the folder given, or the base name, with fmt's extension), each
    written atomically: a file that fails leaves no output. read_fmt and
    read_options are the input's (conv's --from and -I), options and lossy
    the output's (-O, --lossy). JSON is compact with a final newline, as
    conv writes it.

    Returns [(path, output path) or (path, FileError)] in input order, or
    with compute=False the Dask Bag of them. Two inputs that would write
    the same output raise ValueError before anything is written."""
    read_options = dict(read_options or {})
    if read_fmt is not None:
        _optcheck.check(read_fmt, read_options, "convert_files")
    try:
        _pkg().dumps(None, fmt, **options)  # the output's options, checked once
    except ValueError as e:
        if not hasattr(e, "status") or e.status in ("SV_ERR_USAGE", "SV_ERR_NOT_FOUND"):
            raise
    except TypeError as e:
        raise TypeError(str(e).replace("dumps()", "convert_files()")) from None
    out_dir = _os.fsdecode(_os.fspath(out_dir)).rstrip("/") or "/"
    ext = _extension(fmt)
    jobs = [(p, _walk.output_name(out_dir, rel, ext)) for p, rel in _walk.collect(paths)]
    _check_outputs(jobs)
    bag = _bag.from_sequence(jobs, npartitions=_partitions(len(jobs), npartitions)).map(
        _convert_one, fmt, read_fmt, read_options, lossy, options)
    return bag.compute() if compute else bag
