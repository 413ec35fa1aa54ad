"""KingsIsle KIWAD archives (.wad, Wizard101 and Pirate101's game data):
serval.kingsisle.Wad, the Python side of `serval kingsisle wad list|cat`.

    with serval.kingsisle.Wad("Root.wad") as wad:
        for name in wad.names():
            data = wad.read(name)          # the CRC is checked, zlib inflated

Opening checks the whole file table (counts, names, ranges, overlaps) in
libserval before anything is read (docs/formats/kiwad.md); a member's data
is inflated only by read(), to its declared size and within the limits."""
import ctypes as _c

from . import _archive
from . import _ffi_more as _ffi
from . import _lib


class WadMember(tuple):
    """(name, size, stored_size, compressed, crc, unpatched): one file-table
    entry. size is the content's, stored_size what the archive holds;
    unpatched marks a placeholder whose data is not in this file."""
    __slots__ = ()
    _fields = ("name", "size", "stored_size", "compressed", "crc", "unpatched")
    name = property(lambda self: self[0])
    size = property(lambda self: self[1])
    stored_size = property(lambda self: self[2])
    compressed = property(lambda self: self[3])
    crc = property(lambda self: self[4])
    unpatched = property(lambda self: self[5])

    def __new__(cls, *items):
        return tuple.__new__(cls, items)

    def __repr__(self):
        return "serval.kingsisle.WadMember(%s)" % ", ".join(
            "%s=%r" % (k, v) for k, v in zip(self._fields, self))


class Wad(_archive.Archive):
    """A KIWAD archive, over a path or its bytes; a context manager.

    names() lists the members in table order, read(name) gives a member's
    content, verify(name) checks its CRC, members() gives each table entry
    and version/flags the header's. A damaged archive raises serval.Error
    (format "kiwad", byte offset, member) when opened; a damaged member
    when read."""

    _kind = "KIWAD archive"

    def _open(self, data):
        handle = _c.c_void_p()
        err = _lib.ErrorStruct()
        if _ffi.kiwad_open(data, len(data), None, _c.byref(handle), _c.byref(err)):
            self._raise(err)
        return handle.value

    def _close(self, handle):
        _ffi.kiwad_close(handle)

    def _member(self, i):
        m = _ffi.KiwadMember()
        if not _ffi.kiwad_member_at(self._handle, i, _c.byref(m)):
            raise IndexError(i)
        return m

    def _member_names(self):
        return [_c.string_at(m.name, m.name_len).decode("utf-8")
                for m in map(self._member, range(_ffi.kiwad_count(self._handle)))]

    @property
    def version(self):
        """The archive's format version (1 or 2)."""
        self._check_open()
        return _ffi.kiwad_get_info(self._handle).version

    @property
    def flags(self):
        """The header's flags byte, or None (version 1 has none)."""
        self._check_open()
        f = _ffi.kiwad_get_info(self._handle).flags
        return None if f < 0 else f

    def members(self):
        """Every file-table entry (WadMember), in table order."""
        self._check_open()
        out = []
        for i, name in enumerate(self._names):
            m = self._member(i)
            out.append(WadMember(name, m.size, m.stored_len, bool(m.compressed), m.crc,
                                 bool(m.unpatched)))
        return out

    def verify(self, name=None):
        """Checks the member's CRC against the table's; serval.Error (status
        SV_ERR_SYNTAX, both values in the message) when they differ. With no
        name, every member but the unpatched placeholders (which have no data
        to check), in table order, as `serval kingsisle wad list --verify`."""
        if name is None:
            for member in self.members():
                if not member.unpatched:
                    self.verify(member.name)
            return
        i = self._find(name)
        err = _lib.ErrorStruct()
        if _ffi.kiwad_verify(self._handle, i, _c.byref(err)):
            self._raise(err)

    def read(self, name, verify=True, max_alloc=None, max_decompressed=None):
        """The member's content: its stored bytes, or the zlib stream
        inflated to exactly its declared size (refused before any work when
        that is over max_decompressed or max_alloc, default 1 GiB / 4 GiB).
        verify: check the CRC first (as `serval kingsisle wad cat` does).
        An unpatched placeholder raises serval.Error (SV_ERR_REFUSED)."""
        i = self._find(name)
        lim = _archive.limits(max_alloc, max_decompressed)
        buf = _lib.Buf()
        _lib.buf_init(_c.byref(buf), None)
        err = _lib.ErrorStruct()
        try:
            if _ffi.kiwad_read(self._handle, i, _c.byref(lim), bool(verify), _c.byref(buf),
                               _c.byref(err)):
                self._raise(err)
            return self._take(buf)
        finally:
            _lib.buf_free(_c.byref(buf))
