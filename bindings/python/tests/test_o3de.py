"""serval.o3de: load and store with O3DE's outcomes and issues, against the
worked example of docs/formats/o3de.md and cases of O3DE's own tests
(MathMatrixSerializerTests, AnySerializerTests, JsonAnySerializer)."""
import os
import unittest

import serval
import serval.o3de as o3de
from serval.o3de import Issue

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.normpath(os.path.join(HERE, "..", "..", "..", "examples"))
ITEM_SCHEMA = os.path.join(EXAMPLES, "item.schema.json")

SCHEMA = (b'{"serval_schema": 1, "classes": ['
          b'{"name": "SimpleClass", "fields": [{"name": "var1", "type": "i32", "default": 42},'
          b' {"name": "var2", "type": "f32", "default": 42.0}]}]}')


class WorkedExample(unittest.TestCase):
    def test_load(self):
        with open(os.path.join(EXAMPLES, "item.o3de.json"), "rb") as f:
            r = o3de.load(f.read(), ITEM_SCHEMA, "Item")
        self.assertEqual((r.task, r.processing, r.outcome), ("ReadField", "Completed", "PartialDefaults"))
        self.assertTrue(r.ok)
        self.assertEqual(r.issues, [Issue("/bogus", "ReadField", "Completed", "Skipped",
                                          "Skipping field as there's no matching variable in the target.")])
        self.assertEqual(r.value["var1"], 12)
        self.assertEqual(r.value["mode"].value, 1)
        self.assertEqual(list(r.value["pos"]), [0.0, 0.0, 0.0])
        self.assertIsNone(r.text)

    def test_store(self):
        r = o3de.load('{"var1": "12", "mode": "on"}', ITEM_SCHEMA, "Item")
        v = r.value
        v["pos"] = serval.Vector3([1.0, 2.0, 3.0])
        s = o3de.store(v, ITEM_SCHEMA, "Item")
        self.assertEqual(s.text, '{\n    "var1": 12,\n    "mode": "On",\n    "pos": [\n        1.0,\n'
                                 '        2.0,\n        3.0\n    ]\n}')
        self.assertEqual(s.outcome, "PartialDefaults")  # base_var was its default
        compact = o3de.store(v, serval.load_schema(ITEM_SCHEMA), "Item", keep_defaults=True, indent=0)
        self.assertEqual(compact.text, '{"base_var":-42.0,"var1":12,"mode":"On","pos":[1.0,2.0,3.0]}')
        self.assertEqual(compact.outcome, "Success")


class Matrices(unittest.TestCase):
    # MathMatrixSerializerTests: Load_ValidObjectLowerCase (the identity's
    # data) and Load_InvalidFields, outcomes DefaultsUsed and Unsupported
    def test_identity_object(self):
        r = o3de.load('{"scale":1.0,"yaw":0.0,"pitch":0.0,"roll":0.0}', SCHEMA, "matrix3x3")
        self.assertEqual(r.outcome, "DefaultsUsed")
        self.assertEqual(list(r.value), [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0])
        r = o3de.load('{"scale":1.0,"x":0.0,"y":0.0,"z":0.0,"yaw":0.0,"pitch":0.0,"roll":0.0}',
                      SCHEMA, "matrix4x4")
        self.assertEqual(r.outcome, "DefaultsUsed")
        self.assertEqual(list(r.value), [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0,
                                         0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0])

    def test_invalid_field(self):
        r = o3de.load('{"scale":1.0,"yaw":"Invalid","pitch":0.0,"roll":0.0}', SCHEMA, "matrix3x3")
        self.assertEqual((r.processing, r.outcome), ("Altered", "Unsupported"))
        self.assertFalse(r.ok)
        self.assertEqual([(i.path, i.outcome) for i in r.issues], [("/yaw", "Unsupported")])

    def test_scale_translation_store(self):
        r = o3de.load('{"roll":0.0,"pitch":0.0,"yaw":0.0,"scale":10.0,"x":10.0,"y":20.0,"z":30.0}',
                      SCHEMA, "matrix3x4")
        self.assertEqual(r.outcome, "Success")
        s = o3de.store(r.value, SCHEMA, "matrix3x4", indent=0)
        self.assertEqual(s.text, "[10.0,0.0,0.0,10.0,0.0,10.0,0.0,20.0,0.0,0.0,10.0,30.0]")


class Any(unittest.TestCase):
    def test_load_and_store(self):
        r = o3de.load('{"$type":"SimpleClass","value":{"var1":88}}', SCHEMA, "any")
        self.assertEqual(r.outcome, "PartialDefaults")
        self.assertEqual(r.value.cls, "SimpleClass")
        self.assertEqual(r.value["var1"], 88)
        s = o3de.store(r.value, SCHEMA, "any", indent=0)
        self.assertEqual(s.text, '{"$type":"SimpleClass","Value":{"var1":88}}')

    def test_primitives(self):
        # AnySerializerTests' Any2JSON_StoreAndLoad_Bool: store, load, same value
        for flag in (True, False):
            s = o3de.store(flag, SCHEMA, "any", indent=0)
            self.assertEqual(s.text, '{"$type":"bool","Value":%s}' % ("true" if flag else "false"))
            r = o3de.load(s.text, SCHEMA, "any")
            self.assertEqual(r.outcome, "Success")
            self.assertIs(r.value, flag)
        r = o3de.load('{"$type":"{EA2C3E90-AFBE-44d4-A90D-FAAF79BAF93D}","Value":"1.5"}', SCHEMA, "any")
        self.assertEqual((r.outcome, r.value), ("Success", 1.5))
        self.assertIsInstance(r.value, serval.F32)

    def test_vector3(self):
        # AnySerializerTests' Any2JSON_StoreAndLoad_Vector3: a math type every
        # SerializeContext reflects, by its AZ_TYPE_INFO name
        text = '{"$type":"Vector3","Value":[9.0,-9.0,-81.0]}'
        r = o3de.load(text, SCHEMA, "any")
        self.assertEqual((r.outcome, r.issues), ("Success", []))
        self.assertEqual(list(r.value), [9.0, -9.0, -81.0])
        s = o3de.store(r.value, SCHEMA, "any", indent=0)
        self.assertEqual((s.text, s.outcome), (text, "Success"))

    def test_unknown_type(self):
        r = o3de.load('{"$type":"Invalid"}', SCHEMA, "any")
        self.assertEqual(r.outcome, "DefaultsUsed")  # as JsonAnySerializer returns it
        self.assertIsNone(r.value)
        self.assertEqual(r.issues, [
            Issue("", "ReadField", "Halted", "Unknown", "Unable to find type id with the provided string."),
            Issue("", "ReadField", "Completed", "DefaultsUsed",
                  "JsonAnySerializer::Load created a default, empty AZStd::any")])

    def test_empty_any_stores_as_explicit_default(self):
        s = o3de.store(None, SCHEMA, "any", indent=0)
        self.assertEqual(s.text, "{}")
        self.assertEqual(s.outcome, "DefaultsUsed")


class Errors(unittest.TestCase):
    def test_not_json(self):
        with self.assertRaises(serval.Error) as cm:
            o3de.load('{"var1": ', ITEM_SCHEMA, "Item")
        self.assertEqual(cm.exception.status, "SV_ERR_TRUNCATED")

    def test_unknown_type_name(self):
        with self.assertRaises(serval.Error):
            o3de.load("{}", ITEM_SCHEMA, "NoSuchClass")

    def test_value_not_of_the_type(self):
        with self.assertRaises(serval.Error):
            o3de.store("text", ITEM_SCHEMA, "Item")

    def test_bad_arguments(self):
        with self.assertRaises(TypeError):
            o3de.load(42, ITEM_SCHEMA, "Item")
        with self.assertRaises(TypeError):
            o3de.load("{}", 42, "Item")
        with self.assertRaises(ValueError):
            o3de.store(None, SCHEMA, "any", indent=-1)


if __name__ == "__main__":
    unittest.main()
