"""serval's Python API: values against published vectors, the wrappers, errors,
detection, the format list, and the unpickler's refusal of foreign globals.

Expected bytes come from the tables in tests/vectors/godot/spec/index.tsv
(Godot's own unit tests, gdtype-python, godot-docs), typed JSON texts from
docs/json.md."""
import ctypes
import io
import math
import os
import pickle
import struct
import unittest

import serval

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.normpath(os.path.join(HERE, "..", "..", "..", "tests", "vectors"))


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


class Values(unittest.TestCase):
    def test_godot_engine_vectors(self):
        # ut_typed_array (Godot's unit test): Array[int] holding one int64
        v = serval.loads(bytes.fromhex("1c000100020000000100000002000100efcdab89674523f1"),
                         "godot4")
        self.assertIs(type(v), serval.Array)
        self.assertEqual(list(v), [-1070935975390360081])
        self.assertEqual(v.meta, {"type": "int"})
        # gdtype_vector3
        v = serval.loads(bytes.fromhex("090000009a9931419a99b14133330542"), "godot4")
        self.assertIs(type(v), serval.Vector3)
        self.assertEqual(list(v), [f32(11.1), f32(22.2), f32(33.3)])
        self.assertEqual(v.elem, "f32")
        # docs_rid_13
        self.assertEqual(serval.loads(bytes.fromhex("170000000d00000000000000"), "godot4"),
                         serval.RID(13))
        # v4_string_hi, v4_int_42, v4_float_0_1 (64-bit, not explicit: a plain float)
        self.assertEqual(serval.loads(bytes.fromhex("040000000200000068690000"), "godot4"), "hi")
        self.assertIs(type(serval.loads(bytes.fromhex("020000002a000000"), "godot4")), int)
        v = serval.loads(bytes.fromhex("030001009a9999999999b93f"), "godot4")
        self.assertIs(type(v), float)
        self.assertEqual(v, 0.1)
        # v4_float_nan: float64 NaN
        v = serval.loads(bytes.fromhex("03000100000000000000f87f"), "godot4")
        self.assertIs(type(v), serval.F64)
        self.assertTrue(math.isnan(v))
        # v4_packed_vector2_f64
        v = serval.loads(bytes.fromhex("23000100010000009a9999999999b93f9a9999999999c93f"),
                         "godot4")
        self.assertIs(type(v), serval.PackedVector2)
        self.assertEqual(v, [[0.1, 0.2]])
        self.assertEqual(v.elem, "f64")

    def test_godot_resource(self):
        # examples/leaf.res, saved by Godot 3.2.3 (tests/vectors/godot-res/v3/leaf.json
        # holds what the engine read back from it: label "leaf", value 1)
        path = os.path.join(HERE, "..", "..", "..", "examples", "leaf.res")
        with open(path, "rb") as f:
            data = f.read()
        v = serval.loads(data, "godot-res")
        self.assertEqual(v["external"], [{"type": "Script", "path": "res://holder.gd"}])
        main = v["internal"][-1]
        self.assertEqual(main.cls, "Resource")
        self.assertEqual(main["script"], serval.ExtResource(0))
        self.assertEqual(main["label"], "leaf")
        self.assertEqual(main["value"], 1)
        self.assertEqual(serval.dumps(v, "godot-res"), data)

    def test_dumps_of_built_values(self):
        self.assertEqual(serval.dumps(42, "godot4"), bytes.fromhex("020000002a000000"))
        self.assertEqual(serval.dumps(serval.Vector3([11.1, 22.2, 33.3]), "godot4"),
                         bytes.fromhex("090000009a9931419a99b14133330542"))
        self.assertEqual(serval.dumps(serval.RID(13), "godot4"),
                         bytes.fromhex("170000000d00000000000000"))
        # gdtype_dict_5_bbc: a Dictionary {5: "bbc"}, as a Map and as a dict
        want = bytes.fromhex("1b0000000100000002000000050000000400000003000000626263 00")
        self.assertEqual(serval.dumps(serval.Map([(5, "bbc")]), "godot4"), want)
        self.assertEqual(serval.dumps({5: "bbc"}, "godot4"), want)
        self.assertEqual(serval.dumps(serval.PackedVector2([[0.1, 0.2]], elem="f64"), "godot4"),
                         bytes.fromhex("23000100010000009a9999999999b93f9a9999999999c93f"))

    def typed_json_round_trip(self, text, cls):
        v = serval.loads(text, "json")
        self.assertIs(type(v), cls, text)
        self.assertEqual(serval.dumps(v, "json"), text)
        return v

    def test_typed_json_forms(self):
        # docs/json.md's forms keep their types through Python and back
        T = self.typed_json_round_trip
        self.assertEqual(T(b'{"$$k":1,"$$$x":2}', dict), {"$k": 1, "$$x": 2})
        self.assertEqual(T(b'{"a":1,"a":2}', serval.Map), [("a", 1), ("a", 2)])
        v = T(b'{"$class":"X","f":1,"f":2}', serval.ObjectPairs)
        self.assertEqual((v.cls, list(v)), ("X", [("f", 1), ("f", 2)]))
        v = T(b'{"$class":3735928559,"$meta":"m","k":{"$i8":-1}}', serval.Object)
        self.assertEqual((v.cls, v.meta, v), (3735928559, "m", {"k": -1}))
        self.assertIs(type(v["k"]), serval.I8)
        self.assertEqual(T(b'{"$str":["a",{"$u8s":[255]}]}', serval.Str), b"a\xff")
        self.assertEqual(T(b'{"$utf16":{"$str":["a",55296]}}', serval.UTF16), "a\ud800")
        self.assertEqual(serval.loads(b'{"$utf16":"a\\ud800"}', "json"), "a\ud800")  # the old escape
        self.assertEqual(int(T(b'{"$bool":true,"$raw":127}', serval.Bool)), 127)
        self.assertEqual(T(b'{"$u64":5}', serval.U64), 5)
        self.assertIs(type(serval.loads(b"18446744073709551615", "json")), int)
        self.assertEqual(T(b'{"$f32":0.1}', serval.F32), f32(0.1))
        T(b'{"$f32":"nan:0x7f800001"}', serval.F32)  # a signalling NaN's payload kept
        T(b'{"$f64":"nan:0x7ff0000000000001"}', serval.F64)
        T(b'{"$f32":"-inf"}', serval.F32)
        T(b'{"$vector3":[1.0,"nan:0x7fa00000",3.0]}', serval.Vector3)
        T(b'{"$vector2":[1.5,2.5],"$elem":"f64"}', serval.Vector2)
        T(b'{"$packed_color":[[1.0,0.5,0.0,1.0]]}', serval.PackedColor)
        self.assertEqual(T(b'{"$i32s":[1,-2]}', serval.I32s), [1, -2])
        self.assertEqual(T(b'{"$array":[1],"$meta":{"type":"int"}}', serval.Array).meta,
                         {"type": "int"})
        self.assertEqual(T(b'{"$map":{"a":1},"$meta":"m"}', serval.Dict), {"a": 1})
        self.assertEqual(T(b'{"$ref":null}', serval.Ref).value, None)
        self.assertEqual(T(b'{"$string_name":"jump"}', serval.StringName).value, "jump")
        self.assertEqual(T(b'{"$rid":{"$u64":42}}', serval.RID).value, 42)
        self.assertEqual(T(b'{"$bytes":"AAEC/w=="}', bytes), b"\x00\x01\x02\xff")


class Errors(unittest.TestCase):
    def test_decode_error_has_offset_and_path(self):
        with self.assertRaises(serval.Error) as cm:
            serval.loads(b'{"a":[1,{"$i8":300}]}', "json")
        e = cm.exception
        self.assertEqual((e.status, e.format, e.offset), ("SV_ERR_RANGE", "json", 15))
        self.assertEqual(e.path, "/a/1/$i8")
        self.assertIn("300", e.message)
        self.assertIsInstance(e, ValueError)

    def test_truncated_godot(self):
        # v4 String of 5 bytes with only 2 there
        with self.assertRaises(serval.Error) as cm:
            serval.loads(bytes.fromhex("04000000050000006162"), "godot4")
        self.assertEqual((cm.exception.status, cm.exception.format), ("SV_ERR_TRUNCATED", "godot4"))

    def test_unknown_format_and_bad_values(self):
        with self.assertRaises(serval.Error) as cm:
            serval.loads(b"{}", "no-such-format")
        self.assertEqual(cm.exception.status, "SV_ERR_NOT_FOUND")
        with self.assertRaises(serval.Error):
            serval.dumps(serval.Vector3([1.0, 2.0]), "godot4")  # two numbers for a Vector3
        with self.assertRaises(TypeError):
            serval.dumps(object(), "json")
        with self.assertRaises(OverflowError):
            serval.dumps(1 << 64, "json")

    def test_options_reach_the_format(self):
        # stream_store_var_3: three store_var calls, read with framing=stream
        with open(os.path.join(VECTORS, "godot", "oracle", "stream_store_var_3.bin"), "rb") as f:
            data = f.read()
        v = serval.loads(data, "godot3", framing="stream")
        self.assertEqual(v, [42, "hi", {"k": [1.5]}])
        self.assertEqual(serval.dumps(v, "godot3", framing="stream"), data)
        with self.assertRaises(serval.Error) as cm:
            serval.loads(data, "godot3", framing="bogus")
        self.assertEqual(cm.exception.status, "SV_ERR_USAGE")
        with self.assertRaises(serval.Error) as cm:
            serval.loads(b"[[[[1]]]]", "json", max_depth=2)
        self.assertEqual(cm.exception.status, "SV_ERR_DEPTH")

    def test_unpickler_refuses_foreign_globals(self):
        stream = pickle.dumps(os.system, protocol=4)
        with self.assertRaises(pickle.UnpicklingError):
            serval._Unpickler(io.BytesIO(stream)).load()


class Registry(unittest.TestCase):
    def test_detect(self):
        self.assertEqual(serval.detect(b'{"a": 1}'), "json")
        with open(os.path.join(VECTORS, "bson", "doubles.bson"), "rb") as f:
            bson = f.read()
        self.assertEqual(serval.detect(bson), "bson")
        self.assertEqual(serval.loads(b'{"a": 1}'), {"a": 1})  # detected

    def test_formats(self):
        table = {f.name: f for f in serval.formats()}
        for name in ("json", "godot4", "godot3", "godot-doc", "bson", "resonite", "noesis"):
            self.assertIn(name, table)
        self.assertTrue(table["json"].readable and table["json"].writable)
        self.assertIn("json", table["json"].extensions)
        self.assertIn("framing", table["godot4"].options)

    def test_options_struct_matches_the_library(self):
        # sv_options_init sets struct_size to the C struct's size and clears
        # that many bytes: the ctypes mirror must be exactly as long, or the
        # call writes past it.
        from serval import _lib
        room = ctypes.create_string_buffer(ctypes.sizeof(_lib.Options) + 64)
        _lib.options_init(ctypes.cast(room, ctypes.POINTER(_lib.Options)))
        size = struct.unpack_from("=I", room.raw)[0]
        self.assertEqual(size, ctypes.sizeof(_lib.Options))

    def test_buf_struct_is_as_long_as_the_library_writes(self):
        # sv_buf_init sets every field of the C struct (the sink's too): the
        # ctypes mirror must hold them all, or the call writes past it. The
        # bytes after the mirror must keep their guard value.
        from serval import _lib
        n = ctypes.sizeof(_lib.Buf)
        room = ctypes.create_string_buffer(b"\xa5" * (n + 64), n + 64)
        _lib.buf_init(ctypes.cast(room, ctypes.POINTER(_lib.Buf)), None)
        self.assertEqual(room.raw[n:], b"\xa5" * 64)
        _lib.buf_free(ctypes.cast(room, ctypes.POINTER(_lib.Buf)))


if __name__ == "__main__":
    unittest.main()
