"""serval: read and write game-engine serialization formats from Python.

    import serval
    value = serval.loads(data)              # the format is detected
    value = serval.loads(data, "godot4")    # or named
    data2 = serval.dumps(value, "godot4")   # the same bytes back

loads() gives plain Python values (None, bool, int, float, str, bytes, list,
dict) and, only where Python would lose the engine type, the typed wrappers
of this module (F32, I32, Vector3, StringName, Object, ...; see _types.py).
The mapping is that of serval's typed JSON: a value is plain where typed
JSON is plain JSON, and a wrapper where typed JSON has a "$" form.

Options are the format's own (`framing="stream"` for Godot, for instance;
serval.formats() lists them) plus the limits every decoder honours:
max_depth, max_alloc, max_string and max_decompressed; kingsisle and
kingsisle-xml also take schema= (a type list, see load_schema()). An
unknown option is a TypeError, a bad value a ValueError (see _options.py).

dumps() never changes a value silently: a value the target format has no
type for (a Vector3 in BSON) is an Error naming its JSON Pointer, as
`serval conv` refuses it; with lossy=True it is written in its nearest form
(an array of three numbers) with one LossyConversionWarning per value.

Everything runs in libserval (found as _lib.py says). The C extension
serval._native (found as _native_loader.py says) builds Python objects
straight from the library's value tree and a tree straight from Python
objects; BACKEND says whether it is in use ("native") or not ("ctypes":
decoding through a pickle stream the library writes, encoding through
typed JSON text, with the same results).
"""
import ctypes as _c
import gc as _gc
import pickle as _pickle
import warnings as _warnings

from . import _lib
from . import _options
from . import _types
from ._types import *  # noqa: F401,F403 (the wrapper classes)
from ._types import CLASSES as _CLASSES
from ._typed_json import dumps_text as _dumps_text
from . import _native_loader

__all__ = ["loads", "dumps", "detect", "formats", "load_schema", "Schema", "Error",
           "LossyConversionWarning", "FormatInfo", "library_version"] + sorted(_CLASSES)
globals().update(_CLASSES)


class Error(ValueError):
    """A failure of libserval: status (e.g. "SV_ERR_TRUNCATED"), format, byte offset
    (and bit offset, or -1), JSON Pointer path of the value and message."""

    def __init__(self, status, message, fmt="", offset=0, bit_offset=-1, path="", text=None):
        ValueError.__init__(self, text or message)
        self.status = status
        self.message = message
        self.format = fmt
        self.offset = offset
        self.bit_offset = bit_offset
        self.path = path


_native = _native_loader.load(
    _CLASSES, lambda status, message, fmt, offset, bit, path, text:
    Error(status, message, fmt, offset, bit, path, text))
BACKEND = "native" if _native is not None else "ctypes"


def _error(err):
    buf = _c.create_string_buffer(1024)
    _lib.error_format(_c.byref(err), buf, len(buf))
    status = _lib.status_name(err.status)
    return Error(status.decode() if status else str(err.status),
                 err.message.decode("utf-8", "replace"),
                 (err.format or b"").decode("utf-8", "replace"), err.byte_offset, err.bit_offset,
                 err.path.decode("utf-8", "replace"), buf.value.decode("utf-8", "replace"))


def _usage(message):
    return Error("SV_ERR_USAGE", message, text="serval: " + message)


class LossyConversionWarning(UserWarning):
    """dumps(..., lossy=True) wrote a value in its nearest form, not as it is
    (a Vector3 as an array of three numbers in BSON, say). The message
    starts with the value's JSON Pointer; path has it alone."""

    def __init__(self, message, path=""):
        UserWarning.__init__(self, message)
        self.path = path


class Schema(object):
    """A type list loaded into libserval (load_schema()), for the schema=
    option of the formats that need one (kingsisle, kingsisle-xml)."""

    def __init__(self, pointer, source):
        self.pointer = pointer
        self.source = source

    def __del__(self):
        if self.pointer and _lib is not None and _lib.schema_free is not None:
            _lib.schema_free(self.pointer)
            self.pointer = None

    def __repr__(self):
        return "serval.Schema(%r)" % self.source


def load_schema(data, source="<schema>"):
    """Loads a type list (a serval schema, wiztype JSON, a KingsIsle class
    list XML; the kind is told by content) from its bytes, or from the file
    at data when data is a str or os.PathLike."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        import os
        source = os.fspath(data)
        with open(source, "rb") as f:
            data = f.read()
    data = _data(data)
    out = _c.c_void_p()
    err = _lib.ErrorStruct()
    if _lib.schema_load(None, data, len(data), str(source).encode("utf-8", "replace"),
                        _c.byref(out), _c.byref(err)):
        raise _error(err)
    return Schema(out.value, str(source))


def _schema_of(value):
    if isinstance(value, Schema):
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return load_schema(value)
    raise ValueError("serval: schema= needs a serval.Schema (serval.load_schema) or the bytes "
                     "of a type list, not %s" % type(value).__name__)


def _find(fmt):
    f = _lib.format_find(fmt.encode())
    if not f:
        raise Error("SV_ERR_NOT_FOUND", "no format named %r" % fmt,
                    text="serval: no format named %r (serval.formats() lists them)" % fmt)
    return f.contents


def _data(data):
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise TypeError("serval: data must be bytes-like, not %s" % type(data).__name__)


class _Unpickler(_pickle.Unpickler):
    """The C unpickler, resolving no global but this module's wrapper classes.

    It only ever reads streams that libserval's sv_pickle_write wrote a
    moment before from a value tree (never bytes from outside), and even
    so a name that is not one of the wrappers is refused."""

    def find_class(self, module, name):
        if module == __name__ and name in _CLASSES:
            return _CLASSES[name]
        raise _pickle.UnpicklingError("serval: unexpected global %s.%s" % (module, name))


class _Reader(object):
    """A file over the library's output buffer, read frame by frame."""

    def __init__(self, address, size):
        self.address = address
        self.size = size
        self.pos = 0

    def read(self, n=-1):
        left = self.size - self.pos
        n = left if n < 0 or n > left else n
        out = _c.string_at(self.address + self.pos, n)
        self.pos += n
        return out

    def readinto(self, b):
        n = min(len(b), self.size - self.pos)
        _c.memmove((_c.c_char * len(b)).from_buffer(b), self.address + self.pos, n)
        self.pos += n
        return n

    def readline(self):
        raise _pickle.UnpicklingError("serval: the stream has no text opcodes")


def _tree_to_python(root):
    if _lib.pickle_write is None:
        raise Error("SV_ERR_UNSUPPORTED", "libserval was built without SERVAL_WITH_PICKLE",
                    text="serval: libserval was built without SERVAL_WITH_PICKLE")
    buf = _lib.Buf()
    _lib.buf_init(_c.byref(buf), None)
    err = _lib.ErrorStruct()
    opts = _lib.PickleOpts()
    _lib.pickle_opts_init(_c.byref(opts))
    module = __name__.encode()
    opts.module = module
    try:
        if _lib.pickle_write(_c.byref(root), _c.byref(opts), _c.byref(buf), _c.byref(err)):
            raise _error(err)
        # The unpickler builds a tree: no object it makes can be part of a
        # reference cycle, so the cyclic garbage collector, which would walk
        # the growing tree again and again while it is built (most of
        # json.loads' time on a large document), is paused meanwhile.
        paused = _gc.isenabled()
        if paused:
            _gc.disable()
        try:
            return _Unpickler(_Reader(buf.data, buf.len)).load()
        finally:
            if paused:
                _gc.enable()
    finally:
        _lib.buf_free(_c.byref(buf))


def loads(data, fmt=None, **options):
    """Decodes data (bytes) in format fmt (detected when None) to Python values."""
    data = _data(data)
    if fmt is None:
        fmt = detect(data)
        if fmt is None:
            raise Error("SV_ERR_UNSUPPORTED", "no format recognises the data",
                        text="serval: no format recognises the data; name one")
    f = _find(fmt)
    if not f.decode:
        raise _usage("format %s cannot be read" % fmt)
    decode = _lib.DecodeFn(f.decode)
    opts = _options.Options(f, options, "loads", _schema_of)
    if _native is not None:
        return _native.loads(data, fmt, _c.addressof(opts.struct))
    doc = _lib.doc_new(None)
    if not doc:
        raise MemoryError("serval: cannot allocate a document")
    try:
        root = _lib.Value()
        err = _lib.ErrorStruct()
        if decode(doc, data, len(data), _c.byref(opts.struct), _c.byref(root), _c.byref(err)):
            raise _error(err)
        return _tree_to_python(root)
    finally:
        _lib.doc_free(doc)


def _lower(doc, f, root, opts, lossy):
    """The tree format f writes exactly (as `serval conv` makes it): root
    itself, or with lossy a copy where each value f cannot hold has its
    nearest form, with one LossyConversionWarning per changed value. A value
    f cannot hold (even lossy) raises Error naming its JSON Pointer."""
    if not _lib.convert_knows(f):  # its encoder checks each value itself
        return root
    changes = []

    def report(_ctx, change):
        ch = change.contents
        if not ch.refused:
            changes.append((ch.pointer.decode("utf-8", "replace"),
                            ch.message.decode("utf-8", "replace")))

    co = _lib.ConvertOpts()
    _lib.convert_opts_init(_c.byref(co))
    co.lossy = lossy
    co.format_options = _c.pointer(opts.struct)
    callback = _lib.ConvertFn(report)
    if lossy:
        co.report = callback
    out = _lib.Value()
    err = _lib.ErrorStruct()
    if _lib.convert_lower(doc, f, _c.byref(root), _c.byref(co), _c.byref(out), None,
                          _c.byref(err)):
        raise _error(err)
    for pointer, message in changes:
        _warnings.warn(LossyConversionWarning("%s: %s" % (pointer or "(the root)", message),
                                              pointer), stacklevel=3)
    return out


def dumps(value, fmt, lossy=False, **options):
    """Encodes value (as loads() gives them, or built from plain values and the
    wrappers) in format fmt; returns bytes.

    A value fmt has no type for is an Error naming its path, unless lossy is
    true: then it is written in its nearest form, with a
    LossyConversionWarning for each such value."""
    if not isinstance(lossy, bool):
        raise ValueError("serval: lossy needs True or False, not %r" % (lossy,))
    f = _find(fmt)
    if not f.encode:
        raise _usage("format %s cannot be written" % fmt)
    encode = _lib.EncodeFn(f.encode)
    opts = _options.Options(f, options, "dumps", _schema_of)
    if _native is not None:
        out, lowered = _native.dumps(value, fmt, _c.addressof(opts.struct), lossy)
        for pointer, message in lowered:
            _warnings.warn(LossyConversionWarning("%s: %s" % (pointer or "(the root)", message),
                                                  pointer), stacklevel=2)
        return out
    text = _dumps_text(value)
    read_json = _lib.DecodeFn(_find("json").decode)
    json_opts = opts.limits_only()
    doc = _lib.doc_new(None)
    if not doc:
        raise MemoryError("serval: cannot allocate a document")
    _lib.doc_set_max_alloc(doc, opts.struct.limits.max_alloc)
    buf = _lib.Buf()
    _lib.buf_init(_c.byref(buf), None)
    try:
        root = _lib.Value()
        err = _lib.ErrorStruct()
        if read_json(doc, text, len(text), _c.byref(json_opts), _c.byref(root), _c.byref(err)):
            raise _error(err)
        root = _lower(doc, f, root, opts, lossy)
        if encode(_c.byref(root), _c.byref(opts.struct), _c.byref(buf), _c.byref(err)):
            raise _error(err)
        return _c.string_at(buf.data, buf.len)
    finally:
        _lib.buf_free(_c.byref(buf))
        _lib.doc_free(doc)


def detect(data, filename=None):
    """The name of the format data is in (by content, then by filename's
    extension), or None."""
    data = _data(data)
    f = _lib.format_detect(data, len(data), filename.encode() if filename else None)
    return f.contents.name.decode() if f else None


class FormatInfo(tuple):
    """(name, description, extensions, readable, writable, options)"""
    __slots__ = ()
    _fields = ("name", "description", "extensions", "readable", "writable", "options")

    def __new__(cls, *items):
        return tuple.__new__(cls, items)

    name = property(lambda self: self[0])
    description = property(lambda self: self[1])
    extensions = property(lambda self: self[2])
    readable = property(lambda self: self[3])
    writable = property(lambda self: self[4])
    options = property(lambda self: self[5])

    def __repr__(self):
        return "serval.FormatInfo(%s)" % ", ".join(
            "%s=%r" % (k, v) for k, v in zip(self._fields, self))


def _strings(ptr):
    out = []
    i = 0
    while ptr and ptr[i]:
        out.append(ptr[i].decode())
        i += 1
    return out


def formats():
    """The formats of this libserval, in its order: a list of FormatInfo, whose
    options is a dict of option name to its one-line help."""
    n = _c.c_size_t()
    table = _lib.formats(_c.byref(n))
    out = []
    for i in range(n.value):
        f = table[i].contents
        opts = {}
        j = 0
        while f.options and f.options[j].name:
            opts[f.options[j].name.decode()] = f.options[j].help.decode()
            j += 1
        out.append(FormatInfo(f.name.decode(), f.description.decode(), _strings(f.extensions),
                              bool(f.decode), bool(f.encode), opts))
    return out


def library_version():
    """The version of the libserval in use, and its path."""
    return _lib.version().decode(), _lib.path


# ---- the CLI's reach: files, streams, typed JSON text, schemas, archives ----------
# (modules of their own, over loads()/dumps() and the library handle)
from . import schema as _schema_mod  # noqa: E402
from . import files as _files  # noqa: E402
from . import streams as _streams  # noqa: E402
from . import typed_json as _typed_json_text  # noqa: E402
from . import godot, kingsisle, resonite  # noqa: E402,F401

Schema.load = classmethod(_schema_mod.load)
Schema.class_count = property(_schema_mod.class_count)
Schema.enum_count = property(_schema_mod.enum_count)
_schema_of = _schema_mod.schema_of  # schema= also takes paths (merged as Schema.load does)
load = _files.load
dump = _files.dump
iter_load = _streams.iter_load
to_json = _typed_json_text.to_json
from_json = _typed_json_text.from_json
__all__ += ["load", "dump", "iter_load", "to_json", "from_json", "kingsisle", "resonite", "o3de", "godot"]

# O3DE JSON serialization, as serval.o3de (a module of its own).
from . import o3de  # noqa: E402,F401
