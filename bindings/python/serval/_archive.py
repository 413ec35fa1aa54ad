"""What serval.kingsisle.Wad and serval.resonite.Package share: opened
over a path or bytes, the archive's bytes held for as long as the
library's handle points into them, members by name, a context manager."""
import ctypes as _c
import os as _os

from . import _errors
from . import _lib


def limits(max_alloc=None, max_decompressed=None):
    """An sv_limits with the given caps (None: the library's default)."""
    from . import _options
    lim = _lib.Limits()
    for name, value in (("max_alloc", max_alloc), ("max_decompressed", max_decompressed)):
        if value is not None:
            setattr(lim, name, _options._limit(name, value))
    return lim


class Archive(object):
    """Base of the archive readers: subclasses set _open (returns the
    handle or raises), _close and _member_names."""

    _kind = "archive"

    def __init__(self, source):
        if isinstance(source, (bytes, bytearray, memoryview)):
            self._data = bytes(source)
            self.name = "<bytes>"
        else:
            from .files import read_bytes  # capped as the command caps an input
            path = _os.fspath(source)
            self._data = read_bytes(path)
            self.name = _os.fsdecode(path)
        self._handle = None
        self._handle = self._open(self._data)
        self._names = self._member_names()
        self._index = {n: i for i, n in enumerate(self._names)}

    def _where(self):
        return None if self.name == "<bytes>" else self.name

    def _raise(self, err):
        raise _errors.from_struct(err, self._where())

    def _check_open(self):
        if self._handle is None:
            raise ValueError("serval: the %s is closed" % self._kind)

    def _find(self, name):
        self._check_open()
        try:
            return self._index[name]
        except KeyError:
            raise KeyError("serval: %s has no member %r" % (self.name, name)) from None

    def names(self):
        """The member names, in the archive's table order."""
        return list(self._names)

    def __getitem__(self, name):
        """archive[name] is read(name) with the defaults."""
        return self.read(name)

    def __iter__(self):
        return iter(self.names())

    def __len__(self):
        return len(self._names)

    def __contains__(self, name):
        return name in self._index

    def close(self):
        """Frees the library's handle (also done by the with statement)."""
        if self._handle is not None:
            self._close(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        if getattr(self, "_handle", None) is not None and _lib is not None:
            self.close()

    def __repr__(self):
        return "serval.%s(%r, %d members)" % (type(self).__name__, self.name, len(self._names))

    @staticmethod
    def _take(buf):
        return _c.string_at(buf.data, buf.len) if buf.len else b""
