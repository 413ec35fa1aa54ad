"""O3DE JSON serialization from Python: libserval's serval/o3de.h.

    import serval.o3de
    schema = serval.load_schema("item.schema.json")
    r = serval.o3de.load('{"var1": "12", "mode": "on"}', schema, "Item")
    r.value        # the value, as serval.loads gives typed JSON values
    r.outcome      # "PartialDefaults" (also r.task, r.processing)
    r.issues       # [Issue(path="/bogus", outcome="Skipped", ...)] when any
    s = serval.o3de.store(r.value, schema, "Item")
    s.text         # O3DE's JSON text, defaults left out, 4-space indent

load() applies O3DE JSON text on top of the default instance of a schema
type, with O3DE's conversions, defaults, "$type", AZStd::any, matrices and
result codes (docs/formats/o3de.md); store() writes a value's O3DE JSON as
RapidJSON prints it. Both return a Result holding O3DE's result (task,
processing, outcome) and the issues reported on the way: every report whose
outcome is not Success, with its JSON Pointer (load) or dotted path (store),
as `serval o3de load --report` lists them. A failed operation is still a
Result (its processing is "Halted", or "Altered" when a value was left
alone); only what lies outside O3DE's rules (text that is not JSON, a value
that is not of the type, an unknown type name) raises serval.Error.

schema is a serval.Schema (serval.load_schema), the bytes of a schema file,
or its path.
"""
import ctypes as _c
import os as _os

from . import _lib

__all__ = ["load", "store", "Result", "Issue"]


class _Opts(_c.Structure):
    """sv_o3de_opts."""
    _fields_ = [
        ("struct_size", _c.c_uint32),
        ("keep_defaults", _c.c_bool),
        ("clear_containers", _c.c_bool),
        ("report", _c.c_void_p),
        ("report_ctx", _c.c_void_p),
        ("max_depth", _c.c_uint32),
        # sv_o3de_opts_init clears the whole C struct: every member must be here.
        ("limits", _lib.Limits),
    ]


_ReportFn = _c.CFUNCTYPE(_c.c_uint32, _c.c_void_p, _c.c_char_p, _c.c_uint32, _c.c_char_p)

_f = _lib._fn
_opts_init = _f("sv_o3de_opts_init", None, _c.POINTER(_Opts))
_read = _f("sv_o3de_read", _c.c_int, _c.c_void_p, _c.c_char_p, _c.c_size_t, _c.c_void_p,
           _c.POINTER(_lib.Value), _c.POINTER(_lib.ErrorStruct))
_write = _f("sv_o3de_write", _c.c_int, _c.POINTER(_lib.Value), _c.c_int, _c.POINTER(_lib.Buf),
            _c.POINTER(_lib.ErrorStruct))
_default = _f("sv_o3de_default_value", _c.c_int, _c.c_void_p, _c.c_void_p, _c.c_void_p,
              _c.POINTER(_lib.Value), _c.POINTER(_lib.ErrorStruct))
_load = _f("sv_o3de_load", _c.c_int, _c.c_void_p, _c.c_void_p, _c.POINTER(_lib.Value), _c.c_void_p,
           _c.POINTER(_lib.Value), _c.POINTER(_Opts), _c.POINTER(_c.c_uint32),
           _c.POINTER(_lib.ErrorStruct))
_store = _f("sv_o3de_store", _c.c_int, _c.c_void_p, _c.c_void_p, _c.POINTER(_lib.Value),
            _c.c_void_p, _c.c_void_p, _c.POINTER(_lib.Value), _c.POINTER(_Opts),
            _c.POINTER(_c.c_uint32), _c.POINTER(_lib.ErrorStruct))
_parse_type = _f("sv_schema_parse_type", _c.c_int, _c.c_void_p, _c.c_char_p, _c.c_size_t,
                 _c.POINTER(_c.c_void_p), _c.POINTER(_lib.ErrorStruct))
_read_value = _f("sv_schema_read_value", _c.c_int, _c.c_void_p, _c.c_void_p,
                 _c.POINTER(_lib.Value), _c.c_void_p, _c.POINTER(_lib.Value),
                 _c.POINTER(_lib.ErrorStruct))
_json_encode = _f("sv_json_encode", _c.c_int, _c.POINTER(_lib.Value), _c.c_void_p,
                  _c.POINTER(_lib.Buf), _c.POINTER(_lib.ErrorStruct))
_task_name = _f("sv_o3de_task_name", _c.c_char_p, _c.c_int)
_processing_name = _f("sv_o3de_processing_name", _c.c_char_p, _c.c_int)
_outcome_name = _f("sv_o3de_outcome_name", _c.c_char_p, _c.c_int)
_result_task = _f("sv_o3de_result_task", _c.c_int, _c.c_uint32)
_result_processing = _f("sv_o3de_result_processing", _c.c_int, _c.c_uint32)
_result_outcome = _f("sv_o3de_result_outcome", _c.c_int, _c.c_uint32)

_SUCCESS = 1  # SV_O3DE_SUCCESS


def _names(code):
    """(task, processing, outcome) names of a packed O3DE result code."""
    return (_task_name(_result_task(code)).decode(),
            _processing_name(_result_processing(code)).decode(),
            _outcome_name(_result_outcome(code)).decode())


class Issue(object):
    """One report of O3DE's serializers: path (JSON Pointer on load, dotted
    path on store), task ("ReadField"), processing ("Altered"), outcome
    ("Unsupported") and message (O3DE's text)."""
    __slots__ = ("path", "task", "processing", "outcome", "message")

    def __init__(self, path, task, processing, outcome, message):
        self.path = path
        self.task = task
        self.processing = processing
        self.outcome = outcome
        self.message = message

    def __eq__(self, other):
        return isinstance(other, Issue) and all(
            getattr(self, k) == getattr(other, k) for k in Issue.__slots__)

    def __repr__(self):
        return "Issue(%r, %s/%s/%s, %r)" % (self.path, self.task, self.processing,
                                           self.outcome, self.message)


class Result(object):
    """What load() or store() came to: value (load: the loaded value; store:
    the value given), text (store: the O3DE JSON; load: None), O3DE's result
    (code, task, processing, outcome) and the issues reported, in order.
    ok is True when the processing is "Completed" (nothing was refused)."""

    def __init__(self, value, text, code, issues):
        self.value = value
        self.text = text
        self.code = code
        self.task, self.processing, self.outcome = _names(code)
        self.issues = issues

    @property
    def ok(self):
        return self.processing == "Completed"

    def __repr__(self):
        return "serval.o3de.Result(%s/%s/%s, %d issue(s))" % (
            self.task, self.processing, self.outcome, len(self.issues))


_pytype = type  # load() and store() take a parameter named type


def _package():
    """The serval package (loaded before this module), for load_schema,
    loads, dumps and Error."""
    import serval
    return serval


def _schema_pointer(schema):
    """(pointer, keep-alive) of a serval.Schema, schema bytes or a path."""
    serval = _package()
    if hasattr(schema, "pointer"):
        return schema.pointer, schema
    if isinstance(schema, (str, _os.PathLike, bytes, bytearray, memoryview)):
        loaded = serval.load_schema(schema)
        return loaded.pointer, loaded
    raise TypeError("serval.o3de: schema must be a serval.Schema, the bytes of a schema or "
                    "its path, not %s" % _pytype(schema).__name__)


def _error(err):
    """serval.Error from an sv_error, as the package raises them."""
    text = _c.create_string_buffer(1024)
    _lib.error_format(_c.byref(err), text, len(text))
    status = _lib.status_name(err.status)
    return _package().Error(status.decode() if status else str(err.status),
                            err.message.decode("utf-8", "replace"),
                            (err.format or b"").decode("utf-8", "replace"), err.byte_offset,
                            err.bit_offset, err.path.decode("utf-8", "replace"),
                            text.value.decode("utf-8", "replace"))


def _type_pointer(schema_ptr, type_name):
    if not isinstance(type_name, str):
        raise TypeError("serval.o3de: type must be a str (a schema type expression), not %s"
                        % _pytype(type_name).__name__)
    raw = type_name.encode("utf-8")
    out = _c.c_void_p()
    err = _lib.ErrorStruct()
    if _parse_type(schema_ptr, raw, len(raw), _c.byref(out), _c.byref(err)):
        raise _error(err)
    return out.value


class _Reporter(object):
    """The sv_o3de_opts callback: keeps every report that is not a Success."""

    def __init__(self):
        self.issues = []
        self.fn = _ReportFn(self._report)

    def _report(self, _ctx, message, code, path):
        try:
            if _result_outcome(code) != _SUCCESS:
                task, processing, outcome = _names(code)
                self.issues.append(Issue((path or b"").decode("utf-8", "replace"), task,
                                         processing, outcome,
                                         (message or b"").decode("utf-8", "replace")))
        except Exception:  # never raise through C; the issue is lost at worst
            pass
        return code


def _opts(reporter, keep_defaults=False, clear_containers=False):
    o = _Opts()
    _opts_init(_c.byref(o))
    o.keep_defaults = bool(keep_defaults)
    o.clear_containers = bool(clear_containers)
    o.report = _c.cast(reporter.fn, _c.c_void_p)
    return o


def _buf_text(buf):
    return _c.string_at(buf.data, buf.len).decode("utf-8")


def load(text, schema, type, clear_containers=False):
    """Loads O3DE JSON text (str or bytes; comments allowed) into the default
    instance of schema type `type` as O3DE's JsonSerialization::Load does.
    Returns a Result whose value is the loaded value (as serval.loads gives
    typed JSON), with O3DE's outcome and the issues reported."""
    if isinstance(text, str):
        text = text.encode("utf-8")
    elif isinstance(text, (bytearray, memoryview)):
        text = bytes(text)
    elif not isinstance(text, bytes):
        raise TypeError("serval.o3de.load: text must be str or bytes, not %s"
                        % _pytype(text).__name__)
    sp, keep = _schema_pointer(schema)
    tp = _type_pointer(sp, type)
    doc = _lib.doc_new(None)
    if not doc:
        raise MemoryError("serval: cannot allocate a document")
    reporter = _Reporter()
    buf = _lib.Buf()
    _lib.buf_init(_c.byref(buf), None)
    try:
        err = _lib.ErrorStruct()
        json = _lib.Value()
        if _read(doc, text, len(text), None, _c.byref(json), _c.byref(err)):
            raise _error(err)
        value = _lib.Value()
        if _default(sp, tp, doc, _c.byref(value), _c.byref(err)):
            raise _error(err)
        opts = _opts(reporter, clear_containers=clear_containers)
        code = _c.c_uint32()
        if _load(sp, tp, _c.byref(json), doc, _c.byref(value), _c.byref(opts), _c.byref(code),
                 _c.byref(err)):
            raise _error(err)
        if _json_encode(_c.byref(value), None, _c.byref(buf), _c.byref(err)):
            raise _error(err)
        typed = _c.string_at(buf.data, buf.len)
        result = Result(_package().loads(typed, "json"), None, code.value, reporter.issues)
    finally:
        _lib.buf_free(_c.byref(buf))
        _lib.doc_free(doc)
        del keep
    return result


def store(value, schema, type, keep_defaults=False, indent=4):
    """Writes value (of schema type `type`, as load() or serval.loads give
    values) as O3DE JSON, as JsonSerialization::Store does: values equal to
    their defaults are left out unless keep_defaults. The Result's text is
    the JSON as RapidJSON prints it (indent spaces, 0 for one line)."""
    if not isinstance(indent, int) or isinstance(indent, bool) or not 0 <= indent <= 16:
        raise ValueError("serval.o3de.store: indent must be an int from 0 to 16")
    sp, keep = _schema_pointer(schema)
    tp = _type_pointer(sp, type)
    typed = _package().dumps(value, "json")
    doc = _lib.doc_new(None)
    if not doc:
        raise MemoryError("serval: cannot allocate a document")
    reporter = _Reporter()
    buf = _lib.Buf()
    _lib.buf_init(_c.byref(buf), None)
    try:
        err = _lib.ErrorStruct()
        tree = _lib.Value()
        if _lib.json_decode(doc, typed, len(typed), None, _c.byref(tree), _c.byref(err)):
            raise _error(err)
        natural = _lib.Value()
        if _read_value(sp, tp, _c.byref(tree), doc, _c.byref(natural), _c.byref(err)):
            raise _error(err)
        opts = _opts(reporter, keep_defaults=keep_defaults)
        code = _c.c_uint32()
        out = _lib.Value()
        if _store(sp, tp, _c.byref(natural), None, doc, _c.byref(out), _c.byref(opts),
                  _c.byref(code), _c.byref(err)):
            raise _error(err)
        if _write(_c.byref(out), indent, _c.byref(buf), _c.byref(err)):
            raise _error(err)
        result = Result(value, _buf_text(buf), code.value, reporter.issues)
    finally:
        _lib.buf_free(_c.byref(buf))
        _lib.doc_free(doc)
        del keep
    return result

