"""iter_load: the values of a stream one at a time.

Two kinds of file are a sequence of values rather than one:
  - BSON: documents one after another (mongodump output, a log of
    messages); `-I stream` reads them as one array;
  - Godot store_var / put_var streams: frames of a u32 length and a Variant
    (-I framing=stream).

iter_load walks the frames itself and decodes each on its own, so only one
frame's bytes and one value are held at a time (from a file, only the frame
being read is in memory). Each value is the one loads(..., stream / framing
=stream) gives at that index: a Godot frame is decoded as a stream of one
frame, the BSON document as a document. An error names the item's index,
its absolute byte offset and, in path, its JSON Pointer under "/<index>".
"""
import os as _os
import stat as _stat
import struct as _struct
import sys as _sys

from . import _errors
from . import _optcheck

_GODOT = ("godot3", "godot4", "godot-doc")
STREAM_FORMATS = ("bson",) + _GODOT


def _pkg():
    return _sys.modules[__package__]


class _Source(object):
    """Bytes read from a bytes-like value or a file, with the offset reached.
    For bytes and regular files the size is known, and a length field is
    checked against what is left before anything is read; from a pipe or
    device (size None) a frame is read in pieces of at most 1 MiB, so a
    length field that lies costs no more memory than the bytes that come."""

    def __init__(self, data_or_path):
        self.file = None
        self.view = None
        if isinstance(data_or_path, (bytes, bytearray, memoryview)):
            self.view = memoryview(data_or_path).cast("B")
            self.size = len(self.view)
            self.name = "<bytes>"
        else:
            self.file = open(data_or_path, "rb")
            st = _os.fstat(self.file.fileno())
            self.size = st.st_size if _stat.S_ISREG(st.st_mode) else None
            self.name = _os.fsdecode(data_or_path)
        self.pos = 0

    def fits(self, n):
        """Whether n more bytes may be there (False only when known not to be)."""
        return self.size is None or n <= self.size - self.pos

    def read(self, n):
        """Up to n bytes (fewer at the end)."""
        if self.view is not None:
            out = bytes(self.view[self.pos:self.pos + n])
        else:
            parts = []
            got = 0
            while got < n:
                chunk = self.file.read(min(n - got, 1 << 20))
                if not chunk:
                    break
                parts.append(chunk)
                got += len(chunk)
            out = b"".join(parts)
        self.pos += len(out)
        return out

    def close(self):
        if self.file is not None:
            self.file.close()


def _truncated(fmt, src, index, start, what, need):
    return _errors.make(
        "SV_ERR_TRUNCATED", "item %d at byte %d: %s needs %d bytes, %d are left"
        % (index, start, what, need, src.pos - start), fmt, start, "/%d" % index,
        where=src.name if src.file is not None else None)


def _bson_items(src, options):
    loads = _pkg().loads
    index = 0
    while True:
        start = src.pos
        head = src.read(4)
        if not head:
            return
        if len(head) < 4:
            raise _truncated("bson", src, index, start, "a document's length", 4)
        n = _struct.unpack("<i", head)[0]
        if n < 5:
            raise _errors.make("SV_ERR_SYNTAX", "item %d at byte %d: document length %d (the "
                               "least is 5)" % (index, start, n), "bson", start, "/%d" % index,
                               where=src.name if src.file is not None else None)
        if not src.fits(n - 4):
            src.pos = src.size  # (what is left, for the message)
            raise _truncated("bson", src, index, start, "the document", n)
        doc = head + src.read(n - 4)
        if len(doc) < n:
            raise _truncated("bson", src, index, start, "the document", n)
        yield index, start, lambda doc=doc: loads(doc, "bson", **options)
        index += 1


def _godot_items(src, fmt, options):
    loads = _pkg().loads
    order = "<" if options.get("prefix", "le") == "le" else ">"
    index = 0
    while True:
        start = src.pos
        head = src.read(4)
        if not head:
            return
        if len(head) < 4:
            raise _truncated(fmt, src, index, start, "a frame's length", 4)
        n = _struct.unpack(order + "I", head)[0]
        if not src.fits(n):
            src.pos = src.size  # (what is left, for the message)
            raise _truncated(fmt, src, index, start, "the frame", n + 4)
        frame = head + src.read(n)
        if len(frame) < n + 4:
            raise _truncated(fmt, src, index, start, "the frame", n + 4)

        def one(frame=frame):
            return loads(frame, fmt, framing="stream", **options)[0]
        yield index, start, one
        index += 1


def iter_load(data_or_path, fmt, **options):
    """Yields the values of a stream one at a time: fmt "bson" (documents one
    after another) or "godot3" / "godot4" / "godot-doc" (store_var frames,
    as framing="stream" reads them; prefix="be" for big-endian lengths).
    data_or_path is bytes-like or the path of a file, which is read frame by
    frame. options are loads()' (limits, the format's options) and apply to
    each value. Raises serval.Error for a bad or cut-off item, after the
    items before it were yielded."""
    if fmt not in STREAM_FORMATS:
        raise ValueError("serval: iter_load reads %s, not %r" % (", ".join(STREAM_FORMATS), fmt))
    options = dict(options)
    if "stream" in options and fmt == "bson":
        raise TypeError("serval: iter_load() reads a BSON stream always; it takes no stream=")
    if "framing" in options and fmt in _GODOT:
        raise TypeError("serval: iter_load() reads framing=stream always; it takes no framing=")
    fixed = {"framing": "stream"} if fmt in _GODOT else {}
    _optcheck.check(fmt, options, "iter_load", **fixed)
    if not isinstance(data_or_path, (bytes, bytearray, memoryview)):
        data_or_path = _os.fspath(data_or_path)  # a TypeError now, not at the first next()
    return _iterate(data_or_path, fmt, options)


def _iterate(data_or_path, fmt, options):
    src = _Source(data_or_path)
    try:
        items = _bson_items(src, options) if fmt == "bson" else _godot_items(src, fmt, options)
        for index, start, decode in items:
            try:
                value = decode()
            except ValueError as e:
                if not hasattr(e, "status"):
                    raise
                head = "item %d at byte %d" % (index, start)
                if src.file is not None:
                    head = "%s: %s" % (src.name, head)
                raise _errors.restate(e, head, start, "/%d" % index) from None
            yield value
    finally:
        src.close()
