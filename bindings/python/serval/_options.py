"""Keyword options of loads() and dumps(), checked before the library sees them.

The library reads options as "name=value" C strings and limits as unsigned
integers. Handed over unchecked, a misspelt name would be ignored, a value
would be cut at its first NUL, and a negative limit would wrap round to a
huge one (max_depth=-1 as 4294967295: no depth limit, and a deep input then
overflows the C stack). So every name must be one the format declares (or
a limit, or schema= for the formats that read a type list), and every value
must be one the library can take whole:

  - unknown name: TypeError, as Python does for an unknown keyword argument;
  - bad value (wrong type, NUL, out of range): ValueError.

Values the format itself checks (framing="bogus", zlib_level=12) are then
refused by the library with serval.Error, which is a ValueError too.
"""
import ctypes as _c

from . import _lib

# The limits every decoder honours, with the range each takes. max_depth
# stops at 2048, twice the default: the library's pickle writer (which
# loads() goes through) refuses deeper trees anyway, and the deepest
# recursion in the library at that depth fits in the 8 MB main-thread stack
# Python runs on, even in a sanitizer build, where an unbounded limit lets a
# deep input overflow it and kill the interpreter. The sizes take all that
# sv_limits holds.
MAX_DEPTH_CEILING = 2048
_UINT64_MAX = (1 << 64) - 1
LIMITS = {
    "max_depth": MAX_DEPTH_CEILING,
    "max_alloc": _UINT64_MAX,
    "max_string": _UINT64_MAX,
    "max_decompressed": _UINT64_MAX,
}

# The formats whose decoder and encoder read a type list (sv_options.schema).
SCHEMA_FORMATS = ("kingsisle", "kingsisle-xml")


def format_option_names(fmt):
    """The option names format fmt (an sv_format) declares."""
    names = []
    j = 0
    while fmt.options and fmt.options[j].name:
        names.append(fmt.options[j].name.decode())
        j += 1
    return names


def _limit(name, value):
    top = LIMITS[name]
    # bool is an int in Python, but max_depth=True is a mistake, not 1
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("serval: %s needs a whole number from 1 to %d, not %s %r"
                         % (name, top, type(value).__name__, value))
    if value < 1 or value > top:
        raise ValueError("serval: %s needs a whole number from 1 to %d, got %d"
                         % (name, top, value))
    return value


def _text(fmt_name, name, value):
    """value as the library's option string: str as it is, True/False as
    "true"/"false", int in decimal."""
    if value is True:
        return b"true"
    if value is False:
        return b"false"
    if isinstance(value, int):
        return str(value).encode()
    if not isinstance(value, str):
        raise ValueError("serval: option %s of %s needs a str, bool or int, not %s %r"
                         % (name, fmt_name, type(value).__name__, value))
    if "\0" in value:
        raise ValueError("serval: option %s of %s: the value %r holds a NUL character, which "
                         "the library would cut it at" % (name, fmt_name, value))
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError("serval: option %s of %s: the value %r is not valid Unicode (%s)"
                         % (name, fmt_name, value, exc.reason))


class Options(object):
    """An sv_options for format fmt (an sv_format) from keyword options,
    checked; the strings it points to live as long as it does.

    schema_of turns the schema= value into an sv_schema pointer (it is
    given only the formats of SCHEMA_FORMATS)."""

    def __init__(self, fmt, options, call, schema_of=None):
        fmt_name = fmt.name.decode()
        known = format_option_names(fmt)
        self.struct = _lib.Options()
        _lib.options_init(_c.byref(self.struct))
        self.schema = None
        pairs = []
        for name, value in options.items():
            if name in LIMITS:
                setattr(self.struct.limits, name, _limit(name, value))
            elif name == "schema" and fmt_name in SCHEMA_FORMATS and schema_of:
                self.schema = schema_of(value)
                self.struct.schema = self.schema.pointer
            elif name in known:
                pairs.append((name.encode(), _text(fmt_name, name, value)))
            else:
                raise TypeError("serval: %s() got an unknown option %r for format %s "
                                "(it takes: %s)" % (call, name, fmt_name,
                                                    ", ".join(self.accepted(fmt_name, known))))
        n = len(pairs)
        self._names = (_c.c_char_p * max(n, 1))(*[p[0] for p in pairs])
        self._values = (_c.c_char_p * max(n, 1))(*[p[1] for p in pairs])
        self.struct.names = _c.cast(self._names, _c.POINTER(_c.c_char_p))
        self.struct.values = _c.cast(self._values, _c.POINTER(_c.c_char_p))
        self.struct.count = n

    @staticmethod
    def accepted(fmt_name, known):
        names = list(known) + list(LIMITS)
        if fmt_name in SCHEMA_FORMATS:
            names.append("schema")
        return names

    def limits_only(self):
        """An sv_options with these limits and nothing else (for the typed
        JSON that dumps() reads, which the target's options are not for)."""
        o = _lib.Options()
        _lib.options_init(_c.byref(o))
        o.limits = self.struct.limits
        return o
