"""libserval through ctypes: finding the library, its structs and functions.

The library is looked for, in this order, at the path in the SERVAL_LIBRARY
environment variable, where an installed serval._native found it (_built.py,
written by the build), in a build tree next to this source tree (build/ at
the top of the serval checkout), and where the system finds it
(ctypes.util.find_library("serval"), then the soname libserval.so.0).
"""
import ctypes
import ctypes.util
import os

_c = ctypes


class Limits(_c.Structure):
    _fields_ = [
        ("max_depth", _c.c_uint32),
        ("max_alloc", _c.c_uint64),
        ("max_string", _c.c_uint64),
        ("max_decompressed", _c.c_uint64),
    ]


class Options(_c.Structure):
    _fields_ = [
        ("struct_size", _c.c_uint32),
        ("limits", Limits),
        ("names", _c.POINTER(_c.c_char_p)),
        ("values", _c.POINTER(_c.c_char_p)),
        ("count", _c.c_size_t),
        ("schema", _c.c_void_p),
        # sv_options_init clears the whole C struct: every member must be here.
        ("borrow_input", _c.c_bool),
    ]


ERROR_PATH_MAX = 256
ERROR_MSG_MAX = 160


class ErrorStruct(_c.Structure):
    _fields_ = [
        ("status", _c.c_int),
        ("format", _c.c_char_p),
        ("byte_offset", _c.c_uint64),
        ("bit_offset", _c.c_int),
        ("line", _c.c_uint32),
        ("column", _c.c_uint32),
        ("path", _c.c_char * ERROR_PATH_MAX),
        ("message", _c.c_char * ERROR_MSG_MAX),
    ]


class Value(_c.Structure):
    """sv_value: 16 bytes, only ever handed back to the library."""
    _fields_ = [("head", _c.c_uint64), ("payload", _c.c_uint64)]


class Buf(_c.Structure):
    _fields_ = [
        ("data", _c.c_void_p),
        ("len", _c.c_size_t),
        ("cap", _c.c_size_t),
        ("alloc", _c.c_void_p),
        ("failed", _c.c_bool),
        # the sink (serval/buf.h): unused here, but sv_buf_init writes them
        ("sink", _c.c_void_p),
        ("sink_ctx", _c.c_void_p),
        ("window", _c.c_size_t),
        ("flushed", _c.c_uint64),
        ("sink_error", _c.c_int),
    ]


DecodeFn = _c.CFUNCTYPE(_c.c_int, _c.c_void_p, _c.c_char_p, _c.c_size_t, _c.POINTER(Options),
                        _c.POINTER(Value), _c.POINTER(ErrorStruct))
EncodeFn = _c.CFUNCTYPE(_c.c_int, _c.POINTER(Value), _c.POINTER(Options), _c.POINTER(Buf),
                        _c.POINTER(ErrorStruct))


class ConvertChange(_c.Structure):
    """sv_convert_change: one value the target format cannot write exactly."""
    _fields_ = [
        ("pointer", _c.c_char_p),
        ("what", _c.c_char_p),
        ("becomes", _c.c_char_p),
        ("message", _c.c_char_p),
        ("refused", _c.c_bool),
    ]


ConvertFn = _c.CFUNCTYPE(None, _c.c_void_p, _c.POINTER(ConvertChange))


class ConvertOpts(_c.Structure):
    _fields_ = [
        ("struct_size", _c.c_uint32),
        ("lossy", _c.c_bool),
        ("report", ConvertFn),
        ("report_ctx", _c.c_void_p),
        ("format_options", _c.POINTER(Options)),
    ]


class OptionDesc(_c.Structure):
    _fields_ = [("name", _c.c_char_p), ("help", _c.c_char_p)]


class Format(_c.Structure):
    _fields_ = [
        ("struct_size", _c.c_uint32),
        ("name", _c.c_char_p),
        ("description", _c.c_char_p),
        ("extensions", _c.POINTER(_c.c_char_p)),
        ("probe", _c.c_void_p),
        ("decode", _c.c_void_p),
        ("encode", _c.c_void_p),
        ("options", _c.POINTER(OptionDesc)),
    ]


def _checkout():
    """The top of the serval checkout this module sits in, or None (an
    installed copy)."""
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.normpath(os.path.join(here, "..", "..", ".."))
    if os.path.exists(os.path.join(top, "include", "serval", "value.h")):
        return top
    return None


def _built_library():
    """The libserval an installed serval._native was linked with (written by
    the build into _built.py): a shared libserval, or the extension itself
    when libserval was built into it. None when not installed that way."""
    try:
        from . import _built
    except ImportError:
        return None
    if _built.LIBRARY:
        return _built.LIBRARY
    import glob
    here = os.path.dirname(os.path.abspath(__file__))
    found = sorted(glob.glob(os.path.join(here, "_native*.so")))
    return found[0] if found else None


def _candidates(tried):
    """The paths to try, in order; what was passed over is added to tried."""
    env = os.environ.get("SERVAL_LIBRARY")
    if env:
        yield env
        return
    tried.append("$SERVAL_LIBRARY (not set)")
    built = _built_library()
    if built:
        yield built
    top = _checkout()
    if top:
        path = os.path.join(top, "build", "libserval.so")
        if os.path.exists(path):
            yield path
        else:
            tried.append("%s (no such file)" % path)
    found = ctypes.util.find_library("serval")
    if found:
        yield found
    else:
        tried.append('ctypes.util.find_library("serval") (found nothing)')
    yield "libserval.so.0"


def _how_to_get_it():
    top = _checkout()
    if os.environ.get("SERVAL_LIBRARY"):
        head = "SERVAL_LIBRARY names a file that does not load; point it at a libserval.so"
    elif top:
        head = ("build it: run `make run` in %s (it makes %s), or "
                "`cmake --build build --target serval_shared` in a configured build"
                % (top, os.path.join(top, "build", "libserval.so")))
    else:
        head = "install it: run `make install` in the serval checkout"
    return ("%s; or set SERVAL_LIBRARY to the path of libserval.so "
            "(e.g. SERVAL_LIBRARY=/path/to/build/libserval.so python3 ...)" % head)


def _load():
    tried = []
    for path in _candidates(tried):
        try:
            return _c.CDLL(path), path
        except OSError as exc:
            tried.append("%s (%s)" % (path, exc))
    raise ImportError("serval: cannot load libserval, the shared library this module runs on. "
                      "To get it, %s. Looked at: %s" % (_how_to_get_it(), "; ".join(tried)))


lib, path = _load()


def _fn(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = argtypes
    return f


doc_new = _fn("sv_doc_new", _c.c_void_p, _c.c_void_p)
doc_free = _fn("sv_doc_free", None, _c.c_void_p)
options_init = _fn("sv_options_init", None, _c.POINTER(Options))
formats = _fn("sv_formats", _c.POINTER(_c.POINTER(Format)), _c.POINTER(_c.c_size_t))
format_find = _fn("sv_format_find", _c.POINTER(Format), _c.c_char_p)
format_detect = _fn("sv_format_detect", _c.POINTER(Format), _c.c_char_p, _c.c_size_t, _c.c_char_p)
buf_init = _fn("sv_buf_init", None, _c.POINTER(Buf), _c.c_void_p)
buf_free = _fn("sv_buf_free", None, _c.POINTER(Buf))
error_format = _fn("sv_error_format", _c.c_int, _c.POINTER(ErrorStruct), _c.c_char_p, _c.c_size_t)
status_name = _fn("sv_status_name", _c.c_char_p, _c.c_int)
json_decode = _fn("sv_json_decode", _c.c_int, _c.c_void_p, _c.c_char_p, _c.c_size_t, _c.c_void_p,
                  _c.POINTER(Value), _c.POINTER(ErrorStruct))
version = _fn("sv_version", _c.c_char_p)
doc_set_max_alloc = _fn("sv_doc_set_max_alloc", _c.c_int, _c.c_void_p, _c.c_uint64)  # sv_status
convert_opts_init = _fn("sv_convert_opts_init", None, _c.POINTER(ConvertOpts))
convert_knows = _fn("sv_convert_knows", _c.c_bool, _c.POINTER(Format))
convert_lower = _fn("sv_convert_lower", _c.c_int, _c.c_void_p, _c.POINTER(Format),
                    _c.POINTER(Value), _c.POINTER(ConvertOpts), _c.POINTER(Value),
                    _c.POINTER(_c.c_size_t), _c.POINTER(ErrorStruct))
schema_load = _fn("sv_schema_load", _c.c_int, _c.c_void_p, _c.c_char_p, _c.c_size_t,
                  _c.c_char_p, _c.POINTER(_c.c_void_p), _c.POINTER(ErrorStruct))
schema_free = _fn("sv_schema_free", None, _c.c_void_p)


class PickleOpts(_c.Structure):
    _fields_ = [
        ("struct_size", _c.c_uint32),
        ("limits", Limits),
        ("module", _c.c_char_p),
    ]


try:
    pickle_opts_init = _fn("sv_pickle_opts_init", None, _c.POINTER(PickleOpts))
    pickle_write = _fn("sv_pickle_write", _c.c_int, _c.POINTER(Value), _c.POINTER(PickleOpts),
                       _c.POINTER(Buf), _c.POINTER(ErrorStruct))
except AttributeError:  # a library built with SERVAL_WITH_PICKLE=OFF
    pickle_opts_init = pickle_write = None
