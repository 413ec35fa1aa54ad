"""Godot PCK archives (.pck, and packs appended to a game's executable):
serval.godot.Pck, the Python side of `serval godot pck list|cat`.

    with serval.godot.Pck("game.pck") as pck:
        for name in pck.names():
            data = pck.read(name)          # the stored MD5 is checked

Opening checks the whole directory (count, paths, ranges) in libserval
before anything is read (include/serval/godot_pck.h); a member's data is
read, and decrypted when the pack is encrypted, only by read(). Encrypted
Godot 4 packs need key= (the 32-byte script encryption key, as bytes or
64 hex digits)."""
import binascii as _binascii
import ctypes as _c

from . import _archive
from . import _ffi_more as _ffi
from . import _lib

_RES = "res://"


class PckMember(tuple):
    """(path, size, md5, encrypted): one directory entry. path is as the
    pack stores it ("res://..." in Godot 3 packs), size the content's in
    bytes, md5 the stored digest as 32 hex digits (all zeros from Godot 3's
    PCKPacker, which writes none), encrypted whether the member's data is."""
    __slots__ = ()
    _fields = ("path", "size", "md5", "encrypted")
    path = property(lambda self: self[0])
    size = property(lambda self: self[1])
    md5 = property(lambda self: self[2])
    encrypted = property(lambda self: self[3])

    def __new__(cls, *items):
        return tuple.__new__(cls, items)

    def __repr__(self):
        return "serval.godot.PckMember(%s)" % ", ".join(
            "%s=%r" % (k, v) for k, v in zip(self._fields, self))


def _key_bytes(key):
    if key is None:
        return None
    if isinstance(key, str):
        try:
            key = _binascii.unhexlify(key.strip())
        except (ValueError, _binascii.Error):
            raise ValueError("serval: key= must be 32 bytes or 64 hex digits") from None
    key = bytes(key)
    if len(key) != 32:
        raise ValueError("serval: key= must be 32 bytes or 64 hex digits, not %d bytes"
                         % len(key))
    return key


class Pck(_archive.Archive):
    """A Godot PCK archive (formats 1 to 3: Godot 3.x to 4.6), over a path or
    its bytes; a context manager. key: the 32-byte key (bytes or hex) of an
    encrypted Godot 4 pack.

    names() lists the member paths in directory order, read(name) gives a
    member's content (with or without "res://" in name), members() gives
    each directory entry and version the pack's format and engine version.
    A damaged archive raises serval.Error (format "godot-pck", byte offset,
    member) when opened; a damaged member or wrong MD5 when read."""

    _kind = "Godot PCK archive"

    def __init__(self, source, key=None):
        self._key = _key_bytes(key)
        super().__init__(source)

    def _open(self, data):
        handle = _c.c_void_p()
        err = _lib.ErrorStruct()
        if _ffi.godot_pck_open(data, len(data), self._key, None, _c.byref(handle),
                               _c.byref(err)):
            self._raise(err)
        return handle.value

    def _close(self, handle):
        _ffi.godot_pck_close(handle)

    def _member(self, i):
        m = _ffi.GodotPckMember()
        if not _ffi.godot_pck_member_at(self._handle, i, _c.byref(m)):
            raise IndexError(i)
        return m

    def _member_names(self):
        return [_c.string_at(m.path, m.path_len).decode("utf-8")
                for m in map(self._member, range(_ffi.godot_pck_count(self._handle)))]

    def _find(self, name):
        # "res://a.txt" and "a.txt" name the same member, as the command takes them
        if isinstance(name, str) and name not in self._index:
            other = name[len(_RES):] if name.startswith(_RES) else _RES + name
            if other in self._index:
                name = other
        return super()._find(name)

    def __contains__(self, name):
        if not isinstance(name, str):
            return False
        if name in self._index:
            return True
        other = name[len(_RES):] if name.startswith(_RES) else _RES + name
        return other in self._index

    @property
    def version(self):
        """(format_version, major, minor, patch): the pack format (1, 2 or 3)
        and the engine version its header names."""
        self._check_open()
        info = _ffi.godot_pck_get_info(self._handle)
        return (info.format_version, info.major, info.minor, info.patch)

    @property
    def embedded(self):
        """True when the pack was found appended to an executable."""
        self._check_open()
        return bool(_ffi.godot_pck_get_info(self._handle).embedded)

    def members(self):
        """Every directory entry (PckMember), in directory order."""
        self._check_open()
        out = []
        for i, name in enumerate(self._names):
            m = self._member(i)
            out.append(PckMember(name, m.size, bytes(m.md5).hex(),
                                 bool(m.flags & _ffi.GODOT_PCK_FILE_ENCRYPTED)))
        return out

    def read(self, name, verify=True, max_alloc=None):
        """The member's content: its bytes, decrypted when encrypted (needs
        key=, else serval.Error SV_ERR_REFUSED). verify: check the stored MD5
        (as `serval godot pck cat` does; all-zero MD5s are not checked).
        Refused over max_alloc (default 4 GiB) before any work."""
        i = self._find(name)
        lim = _archive.limits(max_alloc, None)
        buf = _lib.Buf()
        _lib.buf_init(_c.byref(buf), None)
        err = _lib.ErrorStruct()
        try:
            if _ffi.godot_pck_read(self._handle, i, _c.byref(lim), bool(verify), _c.byref(buf),
                                   _c.byref(err)):
                self._raise(err)
            return self._take(buf)
        finally:
            _lib.buf_free(_c.byref(buf))
