"""Resonite packages (.resonitepackage, a zip of R-Main.record, Assets/...
and data trees): serval.resonite.Package, the Python side of
`serval resonite package list|extract|dump`.

    with serval.resonite.Package("Avatar.resonitepackage") as pkg:
        tree = serval.loads(pkg.read(pkg.main_tree()), "resonite")

Members are read with serval's own zip reader (stored and deflated, CRC-32
checked; zip64, encrypted and multi-disk archives are refused)."""
import ctypes as _c
import json as _json

from . import _archive
from . import _ffi_more as _ffi
from . import _lib

MAIN_RECORD = "R-Main.record"


class PackageMember(tuple):
    """(name, size, stored_size, is_data_tree): one member of the zip."""
    __slots__ = ()
    _fields = ("name", "size", "stored_size", "is_data_tree")
    name = property(lambda self: self[0])
    size = property(lambda self: self[1])
    stored_size = property(lambda self: self[2])
    is_data_tree = property(lambda self: self[3])

    def __new__(cls, *items):
        return tuple.__new__(cls, items)

    def __repr__(self):
        return "serval.resonite.PackageMember(%s)" % ", ".join(
            "%s=%r" % (k, v) for k, v in zip(self._fields, self))


class Package(_archive.Archive):
    """A .resonitepackage, over a path or its bytes; a context manager.

    names() lists the members in the zip's order, read(name) gives a
    member's bytes (CRC checked), members() their sizes and whether each is
    a data tree, main_tree() the name of the package's main data tree. A
    damaged zip raises serval.Error when opened, a damaged member when
    read."""

    _kind = "package"

    def _open(self, data):
        handle = _c.c_void_p()
        err = _lib.ErrorStruct()
        if _ffi.resonite_package_open(data, len(data), None, _c.byref(handle), _c.byref(err)):
            self._raise(err)
        return handle.value

    def _close(self, handle):
        _ffi.resonite_package_close(handle)

    def _member(self, i):
        m = _ffi.ResoniteMember()
        err = _lib.ErrorStruct()
        if _ffi.resonite_package_member(self._handle, i, _c.byref(m), _c.byref(err)):
            self._raise(err)
        return m

    def _member_names(self):
        return [self._member(i).name.decode("utf-8", "surrogateescape")
                for i in range(_ffi.resonite_package_count(self._handle))]

    def members(self):
        """Every member (PackageMember), in the zip's order."""
        self._check_open()
        return [PackageMember(n, m.size, m.csize, bool(m.is_data_tree))
                for n, m in zip(self._names, map(self._member, range(len(self._names))))]

    def read(self, name, max_decompressed=None):
        """The member's bytes (inflated, CRC-32 checked); more than
        max_decompressed (default 1 GiB) is refused with serval.Error."""
        i = self._find(name)
        most = _ffi.limits_resolve(_c.byref(_archive.limits(None, max_decompressed)))
        buf = _lib.Buf()
        _lib.buf_init(_c.byref(buf), None)
        err = _lib.ErrorStruct()
        try:
            if _ffi.resonite_package_read(self._handle, i, most.max_decompressed, _c.byref(buf),
                                          _c.byref(err)):
                self._raise(err)
            return self._take(buf)
        finally:
            _lib.buf_free(_c.byref(buf))

    def main_tree(self):
        """The name of the main data tree: the member R-Main.record's assetUri
        names ("packdb:///<sha256>" is "Assets/<sha256>"), else the first
        data tree; None when the package holds none. (The one
        `serval resonite package dump` shows.)"""
        if MAIN_RECORD in self:
            try:
                uri = _json.loads(self.read(MAIN_RECORD)).get("assetUri")
            except (ValueError, AttributeError):
                uri = None
            prefix = "packdb:///"
            if isinstance(uri, str) and uri.startswith(prefix) and len(uri) > len(prefix):
                name = "Assets/" + uri[len(prefix):]
                if name in self:
                    return name
        for m in self.members():
            if m.is_data_tree:
                return m.name
        return None
