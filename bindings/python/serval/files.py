"""Files: serval.load(path) and serval.dump(value, path, fmt), the Python
side of `serval dump FILE` / `serval conv -o OUT`.

load() reads the file whole and decodes it; without fmt the format is told
by content and then by the file's extension, as the command tells it, and
refused when two formats fit equally well. dump() encodes first and writes
only a complete result, atomically, by the command's rules (_atomic.py).
A failure of the data raises serval.Error whose text starts with the
file's name; a failure of the file system raises OSError."""
import os as _os
import sys as _sys

from . import _atomic
from . import _detect
from . import _errors


def _pkg():
    # the package itself, looked up at each call: loads and dumps are taken
    # from it as it is then, whichever backend provides them
    return _sys.modules[__package__]


def read_bytes(path):
    """The bytes of the file at path (a folder raises IsADirectoryError)."""
    with open(path, "rb") as f:
        return f.read()


def decode_file(data, path, fmt, options):
    """loads() of the bytes of the file at path, errors named by the path."""
    display = _os.fspath(path)
    if isinstance(display, bytes):
        display = _os.fsdecode(display)
    if fmt is None:
        fmt = _detect.pick(data, display, display)
    try:
        return _pkg().loads(data, fmt, **options)
    except ValueError as e:
        if hasattr(e, "status"):
            raise _errors.restate(e, display) from None
        raise


def load(path, fmt=None, **options):
    """Reads the file at path and decodes it: format fmt, or, when None, the
    one its bytes (then its extension) say, as `serval dump FILE` picks it.
    options are those of loads() (format options, limits, schema=).

    Raises serval.Error (its text starts with the path) when the data is
    bad or its format cannot be told, TypeError/ValueError for a bad
    option, OSError when the file cannot be read."""
    return decode_file(read_bytes(path), path, fmt, options)


def encode_for_file(value, fmt, lossy, options):
    """The bytes `serval conv --to fmt` writes for value: dumps(), and for
    JSON (compact unless indent= says otherwise) a final newline."""
    data = _pkg().dumps(value, fmt, lossy=lossy, **options)
    return data + b"\n" if fmt == "json" else data


def dump(value, path, fmt, lossy=False, sync=False, **options):
    """Encodes value in format fmt (as dumps() does, with the same options and
    lossy=) and writes it to path as `serval conv -o` writes: to a temporary
    file in the same folder, renamed over path once complete (a failed
    encode leaves path untouched); through a symbolic link to the file it
    names; never through a dangling link. JSON gets a final newline, as
    conv writes it. sync=True fsyncs the file and its
    folder. Returns the number of bytes written."""
    data = encode_for_file(value, fmt, lossy, options)
    _atomic.write_file(path, data, sync=sync)
    return len(data)
