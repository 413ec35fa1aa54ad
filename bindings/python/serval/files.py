"""Files: serval.load(path) and serval.dump(value, path, fmt), the Python
side of `serval dump FILE` / `serval conv -o OUT`.

load() reads the file whole and decodes it; without fmt the format is told
by content and then by the file's extension, as the command tells it, and
refused when two formats fit equally well. dump() encodes first and writes
only a complete result, atomically, by the command's rules (_atomic.py).
A failure of the data raises serval.Error whose text starts with the
file's name; a failure of the file system raises OSError."""
import os as _os
import stat as _stat
import sys as _sys

from . import _atomic
from . import _detect
from . import _errors


def _pkg():
    # the package itself, looked up at each call: loads and dumps are taken
    # from it as it is then, whichever backend provides them
    return _sys.modules[__package__]


MAX_INPUT = 4 << 30  # the command's default --max-input: 4 GiB
_CHUNK = 1 << 20


def _size_text(n):
    units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
    u = 0
    while u < 4 and n >= 1024 and n % 1024 == 0:
        n //= 1024
        u += 1
    return "%d %s" % (n, units[u])


def read_bytes(path, max_alloc=None):
    """The bytes of the file at path, read as the command reads an input: at
    most 4 GiB (its default --max-input), and from a pipe or device (read
    into memory as it comes) at most max_alloc when given, so /dev/zero is
    an error after that much, not a read without end. A folder raises
    IsADirectoryError."""
    display = _os.fsdecode(_os.fspath(path))
    with open(path, "rb") as f:
        st = _os.fstat(f.fileno())
        regular = _stat.S_ISREG(st.st_mode)
        most, what = MAX_INPUT, "the input limit of %s" % _size_text(MAX_INPUT)
        if not regular and max_alloc is not None and max_alloc < most:
            most = max_alloc
            what = ("the max_alloc limit of %s (what is read from a pipe or device is held in "
                    "memory)" % _size_text(max_alloc))
        if regular and st.st_size > most:
            raise _errors.make("SV_ERR_LIMIT", "input larger than " + what, where=display)
        parts = []
        got = 0
        while True:
            chunk = f.read(min(_CHUNK, most + 1 - got))
            if not chunk:
                break
            parts.append(chunk)
            got += len(chunk)
            if got > most:
                raise _errors.make("SV_ERR_LIMIT", "input larger than " + what, where=display)
    return b"".join(parts)


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
    max_alloc = options.get("max_alloc")
    return decode_file(read_bytes(path, max_alloc if isinstance(max_alloc, int) else None),
                       path, fmt, options)


def encode_for_file(value, fmt, lossy, options):
    """The bytes `serval conv --to fmt` writes for value: dumps(), and for
    JSON (compact unless indent= says otherwise) a final newline."""
    data = _pkg().dumps(value, fmt, lossy=lossy, **options)
    return data + b"\n" if fmt == "json" else data


def format_for_output(value, path):
    """The format conv writes when --to is not given: the one whose extension
    path has, else the one the tree's root meta names (as dump writes it);
    serval.Error when neither says."""
    name = _os.fsdecode(_os.fspath(path))
    base = _os.path.basename(name)
    for f in _pkg().formats():
        if f.writable and any(base.endswith("." + e.lstrip(".")) for e in f.extensions):
            return f.name
    meta = getattr(value, "meta", None)
    if isinstance(meta, dict) and isinstance(meta.get("format"), str):
        return meta["format"]
    raise _errors.make("SV_ERR_USAGE", "no format to write %s in: name one with fmt= (the "
                       "extension names none, and the value's meta names none)" % name)


def dump(value, path, fmt=None, lossy=False, sync=False, **options):
    """Encodes value in format fmt (as dumps() does, with the same options and
    lossy=) and writes it to path as `serval conv -o` writes: to a temporary
    file in the same folder, renamed over path once complete (a failed
    encode leaves path untouched); through a symbolic link to the file it
    names; never through a dangling link. JSON gets a final newline, as
    conv writes it. sync=True fsyncs the file and its
    folder. Returns the number of bytes written.

    fmt None: as conv without --to, the format of path's extension (.json,
    .bson, ...), else the one the value's root meta names."""
    if fmt is None:
        fmt = format_for_output(value, path)
    data = encode_for_file(value, fmt, lossy, options)
    _atomic.write_file(path, data, sync=sync)
    return len(data)
