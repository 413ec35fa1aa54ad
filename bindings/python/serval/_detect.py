"""Format detection as the serval command does it (cli/cli_detect.c): the
format is taken only when the data says which one it is. Two formats that
fit equally well, an archive that is no single tree, or nothing that fits
are errors worded as the command words them."""
import ctypes as _c

from . import _errors
from . import _ffi_more as _ffi
from . import _lib


def _names(cands, n):
    return ", ".join(cands[i].format.contents.name.decode() for i in range(n))


def _tied(cands, n):
    t = 1
    while (t < n and cands[t].score == cands[0].score
           and cands[t].by_extension == cands[0].by_extension):
        t += 1
    return t


def _no_format_reason(data):
    if not data:
        return "the input is empty"
    if data[:3] == b"\xef\xbb\xbf":
        return ("the input starts with a UTF-8 byte order mark, which JSON does not allow "
                "(remove the first 3 bytes)")
    if not data.strip(b" \t\r\n"):
        return "the input holds only white space"
    return None


def pick(data, filename, display):
    """The name of the one format data is in, or serval.Error (status
    SV_ERR_UNSUPPORTED, or SV_ERR_REFUSED when the data fits several)."""
    cands = (_ffi.Candidate * _ffi.DETECT_MAX)()
    name = filename.encode("utf-8", "surrogateescape") if filename else None
    n = min(_ffi.format_detect_all(data, len(data), name, cands, _ffi.DETECT_MAX),
            _ffi.DETECT_MAX)
    if n and not _ffi.format_candidates_ambiguous(cands, n):
        return cands[0].format.contents.name.decode()
    if n:
        tied = _tied(cands, n)
        first, second = (cands[0].format.contents.name.decode(),
                         cands[1].format.contents.name.decode())
        if cands[0].score == _ffi.PROBE_TRUNCATED:
            msg = ("the input is cut off, and its start fits several formats: %s; name it with "
                   "fmt=%r (or fmt=%r)" % (_names(cands, tied), first, second))
        else:
            listed = ", ".join("%s (confidence %d)" % (cands[i].format.contents.name.decode(),
                                                        cands[i].score) for i in range(tied))
            msg = ("the format is ambiguous: %s; name it with fmt=%r (or fmt=%r)"
                   % (listed, first, second))
        raise _errors.make("SV_ERR_REFUSED", msg, where=display)
    if (filename or "").endswith(".resonitepackage") or data[:4] == b"PK\x03\x04":
        raise _errors.make("SV_ERR_UNSUPPORTED", "a .resonitepackage (zip) is not one data tree; "
                           "open it with serval.resonite.Package", where=display)
    if data[:5] == b"KIWAD":
        raise _errors.make("SV_ERR_UNSUPPORTED", "a KingsIsle KIWAD archive (.wad) is not one "
                           "data tree; open it with serval.kingsisle.Wad", where=display)
    why = _no_format_reason(data)
    if why:
        raise _errors.make("SV_ERR_SYNTAX", "cannot tell the format: " + why, where=display)
    count = _c.c_size_t()
    table = _lib.formats(_c.byref(count))
    known = ", ".join(table[i].contents.name.decode() for i in range(count.value))
    raise _errors.make("SV_ERR_UNSUPPORTED", "cannot tell the format; name it with fmt= (known "
                       "formats: %s)" % known, where=display)
