"""serval.Error values for the CLI-reach modules: from the library's
sv_error, and re-stated for a file or for an item of a stream, the way the
serval command names where a failure is."""
import ctypes as _c

from . import _lib


def _error_class():
    from . import Error  # the package defines it before it imports these modules
    return Error


def from_struct(err, where=None):
    """serval.Error from an sv_error; where (a file name) is put before the
    text, as the command puts it."""
    buf = _c.create_string_buffer(1024)
    _lib.error_format(_c.byref(err), buf, len(buf))
    status = _lib.status_name(err.status)
    text = buf.value.decode("utf-8", "replace")
    return _error_class()(status.decode() if status else str(err.status),
                          err.message.decode("utf-8", "replace"),
                          (err.format or b"").decode("utf-8", "replace"), err.byte_offset,
                          err.bit_offset, err.path.decode("utf-8", "replace"),
                          "%s: %s" % (where, text) if where else text)


def make(status, message, fmt="", offset=0, path="", where=None):
    """serval.Error of the given status, its text as the command says it."""
    text = "%s: %s" % (where, message) if where else message
    return _error_class()(status, message, fmt, offset, -1, path, text)


def restate(e, where=None, offset_base=0, path_prefix=""):
    """e (a serval.Error) moved: its byte offset by offset_base, its JSON
    Pointer under path_prefix, and where put before its text."""
    text = str(e)
    if where:
        text = "%s: %s" % (where, text)
    out = _error_class()(e.status, e.message, e.format, e.offset + offset_base, e.bit_offset,
                         path_prefix + e.path, text)
    out.__cause__ = e.__cause__
    return out


def from_schema_struct(err, where):
    """serval.Error of a type list that did not load or merge, worded as the
    command words it (cli/cli_schema.c): a JSON syntax error with its byte,
    line and column, anything else as "FILE: schema: WHAT at PATH: MESSAGE"."""
    if err.line > 0:
        return from_struct(err, where)
    from . import _ffi_more
    e = from_struct(err, where)
    what = (_ffi_more.status_str(err.status) or b"").decode()
    path = err.path.decode("utf-8", "replace")
    message = err.message.decode("utf-8", "replace")
    text = "%s: schema: %s%s%s%s%s" % (where, what, " at " if path else "", path,
                                       ": " if message else "", message)
    return _error_class()(e.status, e.message, e.format, e.offset, e.bit_offset, e.path, text)
