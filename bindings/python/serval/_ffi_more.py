"""The libserval functions the CLI-reach modules call through ctypes (format
candidates, schema merging, KIWAD and .resonitepackage archives), beside
the ones _lib.py declares for loads() and dumps().

Only the library handle and the structs of _lib are used, so these work
whichever backend loads() and dumps() run on."""
import ctypes as _c

from . import _lib

lib = _lib.lib


def _fn(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = argtypes
    return f


ERR = _c.POINTER(_lib.ErrorStruct)
BUF = _c.POINTER(_lib.Buf)

# ---- detection, as the serval command does it --------------------------------


class Candidate(_c.Structure):
    """sv_format_candidate"""
    _fields_ = [("format", _c.POINTER(_lib.Format)), ("score", _c.c_int),
                ("by_extension", _c.c_bool)]


PROBE_TRUNCATED = 1  # SV_PROBE_TRUNCATED: the start of a file of the format, cut off
DETECT_MAX = 8       # the candidates the command looks at (CLI_DETECT_MAX)

format_detect_all = _fn("sv_format_detect_all", _c.c_size_t, _c.c_char_p, _c.c_size_t,
                        _c.c_char_p, _c.POINTER(Candidate), _c.c_size_t)
format_candidates_ambiguous = _fn("sv_format_candidates_ambiguous", _c.c_bool,
                                  _c.POINTER(Candidate), _c.c_size_t)

# ---- schemas --------------------------------------------------------------------

status_str = _fn("sv_status_str", _c.c_char_p, _c.c_int)
schema_new = _fn("sv_schema_new", _c.c_void_p, _c.c_void_p)
schema_merge = _fn("sv_schema_merge", _c.c_int, _c.c_void_p, _c.c_void_p, ERR)
schema_finalize = _fn("sv_schema_finalize", _c.c_int, _c.c_void_p, ERR)
schema_class_count = _fn("sv_schema_class_count", _c.c_size_t, _c.c_void_p)
schema_enum_count = _fn("sv_schema_enum_count", _c.c_size_t, _c.c_void_p)

# ---- KIWAD archives (include/serval/kiwad.h) --------------------------------------


class KiwadMember(_c.Structure):
    """sv_kiwad_member"""
    _fields_ = [
        ("name", _c.c_char_p),
        ("name_len", _c.c_size_t),
        ("offset", _c.c_uint32),
        ("size", _c.c_uint32),
        ("csize", _c.c_uint32),
        ("compressed_flag", _c.c_uint8),
        ("compressed", _c.c_bool),
        ("crc", _c.c_uint32),
        ("stored_len", _c.c_uint32),
        ("unpatched", _c.c_bool),
        ("entry_offset", _c.c_uint64),
    ]


class KiwadInfo(_c.Structure):
    """sv_kiwad_info"""
    _fields_ = [("version", _c.c_uint32), ("flags", _c.c_int), ("count", _c.c_uint32),
                ("table_end", _c.c_uint64), ("file_size", _c.c_uint64)]


kiwad_open = _fn("sv_kiwad_open", _c.c_int, _c.c_char_p, _c.c_size_t, _c.c_void_p,
                 _c.POINTER(_c.c_void_p), ERR)
kiwad_close = _fn("sv_kiwad_close", None, _c.c_void_p)
kiwad_get_info = _fn("sv_kiwad_get_info", KiwadInfo, _c.c_void_p)
kiwad_count = _fn("sv_kiwad_count", _c.c_size_t, _c.c_void_p)
kiwad_member_at = _fn("sv_kiwad_member_at", _c.c_bool, _c.c_void_p, _c.c_size_t,
                      _c.POINTER(KiwadMember))
kiwad_verify = _fn("sv_kiwad_verify", _c.c_int, _c.c_void_p, _c.c_size_t, ERR)
kiwad_read = _fn("sv_kiwad_read", _c.c_int, _c.c_void_p, _c.c_size_t, _c.POINTER(_lib.Limits),
                 _c.c_bool, BUF, ERR)

# ---- .resonitepackage (include/serval/resonite.h) ---------------------------------


class ResoniteMember(_c.Structure):
    """sv_resonite_member"""
    _fields_ = [("name", _c.c_char_p), ("size", _c.c_uint64), ("csize", _c.c_uint64),
                ("is_data_tree", _c.c_bool)]


resonite_package_open = _fn("sv_resonite_package_open", _c.c_int, _c.c_char_p, _c.c_size_t,
                            _c.c_void_p, _c.POINTER(_c.c_void_p), ERR)
resonite_package_close = _fn("sv_resonite_package_close", None, _c.c_void_p)
resonite_package_count = _fn("sv_resonite_package_count", _c.c_size_t, _c.c_void_p)
resonite_package_member = _fn("sv_resonite_package_member", _c.c_int, _c.c_void_p, _c.c_size_t,
                              _c.POINTER(ResoniteMember), ERR)
resonite_package_read = _fn("sv_resonite_package_read", _c.c_int, _c.c_void_p, _c.c_size_t,
                            _c.c_uint64, BUF, ERR)
limits_resolve = _fn("sv_limits_resolve", _lib.Limits, _c.POINTER(_lib.Limits))

# ---- Godot PCK archives (include/serval/godot_pck.h) ------------------------------


class GodotPckMember(_c.Structure):
    """sv_godot_pck_member"""
    _fields_ = [
        ("path", _c.c_char_p),
        ("path_len", _c.c_size_t),
        ("name", _c.c_char_p),
        ("field_len", _c.c_uint32),
        ("offset", _c.c_uint64),
        ("data_offset", _c.c_uint64),
        ("size", _c.c_uint64),
        ("stored_len", _c.c_uint64),
        ("md5", _c.c_uint8 * 16),
        ("flags", _c.c_uint32),
        ("entry_offset", _c.c_uint64),
    ]


class GodotPckInfo(_c.Structure):
    """sv_godot_pck_info"""
    _fields_ = [
        ("format_version", _c.c_uint32),
        ("major", _c.c_uint32),
        ("minor", _c.c_uint32),
        ("patch", _c.c_uint32),
        ("pack_flags", _c.c_uint32),
        ("file_base", _c.c_uint64),
        ("dir_offset", _c.c_uint64),
        ("reserved", _c.c_uint32 * 16),
        ("pck_start", _c.c_uint64),
        ("pck_end", _c.c_uint64),
        ("embedded", _c.c_bool),
        ("count", _c.c_uint32),
        ("file_size", _c.c_uint64),
    ]


GODOT_PCK_FILE_ENCRYPTED = 1  # SV_GODOT_PCK_FILE_ENCRYPTED

godot_pck_open = _fn("sv_godot_pck_open", _c.c_int, _c.c_char_p, _c.c_size_t, _c.c_char_p,
                     _c.c_void_p, _c.POINTER(_c.c_void_p), ERR)
godot_pck_close = _fn("sv_godot_pck_close", None, _c.c_void_p)
godot_pck_get_info = _fn("sv_godot_pck_get_info", GodotPckInfo, _c.c_void_p)
godot_pck_count = _fn("sv_godot_pck_count", _c.c_size_t, _c.c_void_p)
godot_pck_member_at = _fn("sv_godot_pck_member_at", _c.c_bool, _c.c_void_p, _c.c_size_t,
                          _c.POINTER(GodotPckMember))
godot_pck_read = _fn("sv_godot_pck_read", _c.c_int, _c.c_void_p, _c.c_size_t,
                     _c.POINTER(_lib.Limits), _c.c_bool, BUF, ERR)
