"""Type lists for the formats that read one (kingsisle, kingsisle-xml):
serval.Schema.load(paths) loads one or more type-list files and merges them
into one schema, as the serval command's repeated --schema does.

Each file may be a serval schema, a wiztype JSON dump or a KingsIsle class
list XML (the kind is told by content). The result goes to schema= of
loads(), dumps(), load(), dump() and iter_load()."""
import ctypes as _c
import os as _os

from . import _errors
from . import _ffi_more as _ffi
from . import _lib


def _read(item):
    """(bytes, the name errors give) of one schema source."""
    if isinstance(item, (bytes, bytearray, memoryview)):
        return bytes(item), "<schema>"
    path = _os.fspath(item)
    if isinstance(path, bytes):
        path = _os.fsdecode(path)
    from .files import read_bytes  # capped as the command caps an input
    return read_bytes(path), path


def _sources(paths):
    if isinstance(paths, (str, bytes, bytearray, memoryview, _os.PathLike)):
        return [paths]
    out = list(paths)
    if not out:
        raise ValueError("serval: Schema.load needs at least one type-list file")
    return out


def _load_one(cls, data, name):
    out = _c.c_void_p()
    err = _lib.ErrorStruct()
    if _lib.schema_load(None, data, len(data), name.encode("utf-8", "replace"), _c.byref(out),
                        _c.byref(err)):
        raise _errors.from_schema_struct(err, name)
    return cls(out.value, name)


def load(cls, paths):
    """Loads the type list(s) at paths (one path, or a list of them; bytes are
    taken as a file's content) and merges them into one finalised schema.
    A file that is not a type list, or two that define the same class
    differently, raise serval.Error naming the file; a missing file raises
    OSError."""
    items = _sources(paths)
    if len(items) == 1:
        data, name = _read(items[0])
        return _load_one(cls, data, name)
    merged = _ffi.schema_new(None)
    if not merged:
        raise MemoryError("serval: cannot allocate a schema")
    names = []
    try:
        for item in items:
            data, name = _read(item)
            names.append(name)
            one = _c.c_void_p()
            err = _lib.ErrorStruct()
            if _lib.schema_load(None, data, len(data), name.encode("utf-8", "replace"),
                                _c.byref(one), _c.byref(err)):
                raise _errors.from_schema_struct(err, name)
            try:
                if _ffi.schema_merge(merged, one, _c.byref(err)):
                    raise _errors.from_schema_struct(err, name)
            finally:
                _lib.schema_free(one)
        err = _lib.ErrorStruct()
        if _ffi.schema_finalize(merged, _c.byref(err)):
            raise _errors.from_schema_struct(err, "<merged schemas>")
    except BaseException:
        _lib.schema_free(merged)
        raise
    return cls(merged, " + ".join(names))


def schema_of(value):
    """The schema= of a call: a serval.Schema as it is; the bytes of a type
    list, a path, or a list of paths loaded (and merged) as Schema.load
    loads them."""
    from . import Schema
    if isinstance(value, Schema):
        return value
    if isinstance(value, (bytes, bytearray, memoryview, str, _os.PathLike, list, tuple)):
        return Schema.load(value)
    raise ValueError("serval: schema= needs a serval.Schema (serval.Schema.load), the bytes of "
                     "a type list, or the path(s) of type-list files, not %s"
                     % type(value).__name__)


def class_count(self):
    """The number of classes in the schema (merged ones counted once)."""
    return _ffi.schema_class_count(self.pointer)


def enum_count(self):
    """The number of enums in the schema."""
    return _ffi.schema_enum_count(self.pointer)
