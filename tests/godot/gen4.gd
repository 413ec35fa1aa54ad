# Oracle vector generator for serval's godot4 profile, run by Godot 4.6
# (the official web export template, headless; tests/godot/regen4.sh loads it
# as an autoload through override.cfg and collects what it prints).
#
# Each vector is one printed line, fields separated by tabs:
#   V name kind options input-hex type expected re-encoded-hex det var_to_str expression
# kind:
#   enc    input = var_to_bytes (or var_to_bytes_with_objects, options
#          "objects=full") of a value; expected = that value in serval's
#          typed JSON (jsonexp4.gd); encoding the expected value must give
#          the input back
#   encnp  as enc for a value holding a NodePath: the engine does not clear
#          the 0-3 pad bytes after NodePath names, so they are heap garbage
#          there; compare with them zeroed
#   dec    input = crafted bytes that bytes_to_var decoded; expected = the
#          value it got; re-encoded = var_to_bytes of that value, or "-" when
#          that is not the same value (an EncodedObjectAsID is written with
#          its own instance id)
# type = typeof() of the value (Godot 4 type code); det = 1 when a run with
# the same seed gives the same bytes, 0 when they hold instance ids of live
# objects; var_to_str with \ \t \n \r escaped.
# A fixed seed makes every "det 1" vector the same on every run.
extends Node

const SEED = 20250401
# (the literal 9223372036854775808 does not fit an int)
const I64_MIN = -9223372036854775807 - 1

var J = load("/tests/jsonexp4.gd").new()
var rng = RandomNumberGenerator.new()
var names = {}
var count = 0
var failed = false

func esc(s: String) -> String:
	return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")

func out(name, kind, opts, input: PackedByteArray, value, reenc, det, expr):
	if names.has(name):
		printerr("duplicate vector name ", name)
		failed = true
		return
	names[name] = true
	count += 1
	var fields = ["V", name, kind, opts, input.hex_encode(), str(typeof(value)), J.of(value),
		reenc, "1" if det else "0", esc(var_to_str(value)), esc(expr)]
	print("\t".join(fields))

func holds_node_path(v) -> bool:
	match typeof(v):
		TYPE_NODE_PATH:
			return true
		TYPE_ARRAY:
			for x in v:
				if holds_node_path(x):
					return true
		TYPE_DICTIONARY:
			for k in v.keys():
				if holds_node_path(k) or holds_node_path(v[k]):
					return true
	return false

# A value the engine encodes.
func enc(name: String, v, expr: String, full = false, det = true):
	J.full_objects = full
	var b = var_to_bytes_with_objects(v) if full else var_to_bytes(v)
	var kind = "encnp" if holds_node_path(v) else "enc"
	out(name, kind, "objects=full" if full else "-", b, v, "-", det, expr)

# Crafted bytes the engine decodes. A null result from bytes that are not
# nil is a refusal (kind "err", expected "error") unless null_ok says null
# is the value.
func dec(name: String, hex: String, expr: String, reenc = true, null_ok = false):
	var b = hex.replace(" ", "").hex_decode()
	var v = bytes_to_var(b)
	J.full_objects = false
	if v == null and not null_ok and b.decode_u32(0) & 0xFF != 0:
		count += 1
		names[name] = true
		print("\t".join(["V", name, "err", "-", b.hex_encode(), "0", "error", "-", "1", "", esc(expr)]))
		return
	var r = var_to_bytes(v).hex_encode() if reenc else "-"
	out(name, "dec", "-", b, v, r, true, expr)

# ---- numbers from bit patterns ------------------------------------------------

func f64_bits(hi: int, lo: int) -> float:
	var b = PackedByteArray()
	b.resize(8)
	b.encode_u32(0, lo)
	b.encode_u32(4, hi)
	return b.decode_double(0)

func f32_bits(u: int) -> float:
	var b = PackedByteArray()
	b.resize(4)
	b.encode_u32(0, u)
	return b.decode_float(0)

func u64_hex(n: int) -> String:
	var b = PackedByteArray()
	b.resize(8)
	b.encode_s64(0, n)
	return b.hex_encode()

func r32() -> int:
	return rng.randi()

func r64() -> int:
	return (r32() << 32) | r32()

# A random f32 (as a double) from random bits, NaNs quiet (a signalling NaN
# may be quieted by a float conversion, which would make the expected value
# disagree with the bytes for reasons that are not the format's).
func rand_f32() -> float:
	var u = r32()
	match rng.randi_range(0, 9):
		0: u = [0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x00000001,
			0x007fffff, 0x00800000, 0x7f7fffff, 0x3f800000][rng.randi_range(0, 9)]
		1: u = (u & 0x807fffff) | 0x3f000000  # near 1
		2: return float(rng.randi_range(-1000, 1000))
	if (u & 0x7f800000) == 0x7f800000 and (u & 0x7fffff) != 0:
		u |= 0x400000
	return f32_bits(u)

func rand_f64() -> float:
	var hi = r32()
	var lo = r32()
	match rng.randi_range(0, 5):
		0: return rand_f32()
		1: return float(rng.randi_range(-100000, 100000)) / 8.0
	if (hi & 0x7ff00000) == 0x7ff00000 and ((hi & 0xfffff) != 0 or lo != 0):
		hi |= 0x80000
	return f64_bits(hi, lo)

func rand_int() -> int:
	match rng.randi_range(0, 4):
		0: return rng.randi_range(-100, 100)
		1: return rng.randi_range(-2147483648, 2147483647)
		2: return r64()
		3: return r64() >> rng.randi_range(1, 62)
	return [0, 1, -1, 2147483647, -2147483648, 2147483648, -2147483649,
		9223372036854775807, I64_MIN][rng.randi_range(0, 8)]

func rand_i32() -> int:
	if rng.randi_range(0, 3) == 0:
		return [0, -1, 2147483647, -2147483648][rng.randi_range(0, 3)]
	return rng.randi_range(-2147483648, 2147483647)

const CHARS = ["a", "b", "z", "A", "0", " ", "_", "/", ":", "$", "\"", "\\", "\t", "\n",
	"é", "ß", "€", "中", "文", "ж", "😀", "𝄞", "\u00a0", "\u200b", "\u007f", "\u0001", "~"]

func rand_string(maxlen = 12) -> String:
	var s = ""
	for i in range(rng.randi_range(0, maxlen)):
		s += CHARS[rng.randi_range(0, CHARS.size() - 1)]
	return s

const NAME_CHARS = ["a", "b", "c", "x", "y", "Z", "_", "0", "1", "é", "中", "😀", "-", "."]

func rand_name() -> String:
	var s = ""
	for i in range(rng.randi_range(1, 9)):
		s += NAME_CHARS[rng.randi_range(0, NAME_CHARS.size() - 1)]
	return s

func rand_node_path() -> NodePath:
	var s = "/" if rng.randi_range(0, 2) == 0 else ""
	var names_ = []
	for i in range(rng.randi_range(0 if s == "" else 1, 4)):
		names_.append(rand_name())
	s += "/".join(names_)
	for i in range(rng.randi_range(0 if names_.size() > 0 else 1, 3)):
		s += ":" + rand_name()
	return NodePath(s)

func v2() -> Vector2: return Vector2(rand_f32(), rand_f32())
func v3() -> Vector3: return Vector3(rand_f32(), rand_f32(), rand_f32())
func v4() -> Vector4: return Vector4(rand_f32(), rand_f32(), rand_f32(), rand_f32())
func v2i() -> Vector2i: return Vector2i(rand_i32(), rand_i32())
func v3i() -> Vector3i: return Vector3i(rand_i32(), rand_i32(), rand_i32())
func v4i() -> Vector4i: return Vector4i(rand_i32(), rand_i32(), rand_i32(), rand_i32())

# A random value of builtin type t (not Object, Callable, Signal, Nil).
func rand_of(t: int, depth = 0):
	match t:
		TYPE_BOOL: return rng.randi_range(0, 1) == 1
		TYPE_INT: return rand_int()
		TYPE_FLOAT: return rand_f64()
		TYPE_STRING: return rand_string()
		TYPE_VECTOR2: return v2()
		TYPE_VECTOR2I: return v2i()
		TYPE_RECT2: return Rect2(v2(), v2())
		TYPE_RECT2I: return Rect2i(v2i(), v2i())
		TYPE_VECTOR3: return v3()
		TYPE_VECTOR3I: return v3i()
		TYPE_TRANSFORM2D: return Transform2D(v2(), v2(), v2())
		TYPE_VECTOR4: return v4()
		TYPE_VECTOR4I: return v4i()
		TYPE_PLANE: return Plane(rand_f32(), rand_f32(), rand_f32(), rand_f32())
		TYPE_QUATERNION: return Quaternion(rand_f32(), rand_f32(), rand_f32(), rand_f32())
		TYPE_AABB: return AABB(v3(), v3())
		TYPE_BASIS: return Basis(v3(), v3(), v3())
		TYPE_TRANSFORM3D: return Transform3D(Basis(v3(), v3(), v3()), v3())
		TYPE_PROJECTION: return Projection(v4(), v4(), v4(), v4())
		TYPE_COLOR: return Color(rand_f32(), rand_f32(), rand_f32(), rand_f32())
		TYPE_STRING_NAME: return StringName(rand_string())
		TYPE_NODE_PATH: return rand_node_path()
		TYPE_RID: return rid_from_int64(r64())
		TYPE_DICTIONARY: return rand_dict(depth + 1)
		TYPE_ARRAY: return rand_array(depth + 1)
		TYPE_PACKED_BYTE_ARRAY:
			var p = PackedByteArray()
			for i in range(rng.randi_range(0, 9)):
				p.append(rng.randi_range(0, 255))
			return p
		TYPE_PACKED_INT32_ARRAY:
			var p = PackedInt32Array()
			for i in range(rng.randi_range(0, 6)):
				p.append(rand_i32())
			return p
		TYPE_PACKED_INT64_ARRAY:
			var p = PackedInt64Array()
			for i in range(rng.randi_range(0, 6)):
				p.append(rand_int())
			return p
		TYPE_PACKED_FLOAT32_ARRAY:
			var p = PackedFloat32Array()
			for i in range(rng.randi_range(0, 6)):
				p.append(rand_f32())
			return p
		TYPE_PACKED_FLOAT64_ARRAY:
			var p = PackedFloat64Array()
			for i in range(rng.randi_range(0, 6)):
				p.append(rand_f64())
			return p
		TYPE_PACKED_STRING_ARRAY:
			var p = PackedStringArray()
			for i in range(rng.randi_range(0, 5)):
				p.append(rand_string(6))
			return p
		TYPE_PACKED_VECTOR2_ARRAY:
			var p = PackedVector2Array()
			for i in range(rng.randi_range(0, 4)):
				p.append(v2())
			return p
		TYPE_PACKED_VECTOR3_ARRAY:
			var p = PackedVector3Array()
			for i in range(rng.randi_range(0, 4)):
				p.append(v3())
			return p
		TYPE_PACKED_VECTOR4_ARRAY:
			var p = PackedVector4Array()
			for i in range(rng.randi_range(0, 4)):
				p.append(v4())
			return p
		TYPE_PACKED_COLOR_ARRAY:
			var p = PackedColorArray()
			for i in range(rng.randi_range(0, 4)):
				p.append(Color(rand_f32(), rand_f32(), rand_f32(), rand_f32()))
			return p
	return null

# Every builtin type a value can be made of without live objects.
const DATA_TYPES = [TYPE_BOOL, TYPE_INT, TYPE_FLOAT, TYPE_STRING, TYPE_VECTOR2, TYPE_VECTOR2I,
	TYPE_RECT2, TYPE_RECT2I, TYPE_VECTOR3, TYPE_VECTOR3I, TYPE_TRANSFORM2D, TYPE_VECTOR4,
	TYPE_VECTOR4I, TYPE_PLANE, TYPE_QUATERNION, TYPE_AABB, TYPE_BASIS, TYPE_TRANSFORM3D,
	TYPE_PROJECTION, TYPE_COLOR, TYPE_STRING_NAME, TYPE_NODE_PATH, TYPE_RID, TYPE_DICTIONARY,
	TYPE_ARRAY, TYPE_PACKED_BYTE_ARRAY, TYPE_PACKED_INT32_ARRAY, TYPE_PACKED_INT64_ARRAY,
	TYPE_PACKED_FLOAT32_ARRAY, TYPE_PACKED_FLOAT64_ARRAY, TYPE_PACKED_STRING_ARRAY,
	TYPE_PACKED_VECTOR2_ARRAY, TYPE_PACKED_VECTOR3_ARRAY, TYPE_PACKED_VECTOR4_ARRAY,
	TYPE_PACKED_COLOR_ARRAY]

func rand_any(depth: int):
	var k = rng.randi_range(0, DATA_TYPES.size() + 2)
	if k >= DATA_TYPES.size():
		return [null, Callable(), null][k - DATA_TYPES.size()]
	var t = DATA_TYPES[k]
	if depth >= 4 and (t == TYPE_DICTIONARY or t == TYPE_ARRAY):
		t = TYPE_INT
	return rand_of(t, depth)

func rand_array(depth: int) -> Array:
	var a = []
	for i in range(rng.randi_range(0, 5)):
		a.append(rand_any(depth))
	return a

func rand_key():
	match rng.randi_range(0, 4):
		0, 1: return rand_string(6)
		2: return rand_int()
		3: return StringName(rand_string(4))
	return rand_any(3)

func rand_dict(depth: int) -> Dictionary:
	var d = {}
	var string_keys = rng.randi_range(0, 1) == 0
	for i in range(rng.randi_range(0, 5)):
		var k = rand_string(6) if string_keys else rand_key()
		d[k] = rand_any(depth)
	return d

func builtin_name(t: int) -> String:
	return type_string(t)

# ---- the vectors ----------------------------------------------------------------

func gen_scalars():
	enc("nil", null, "null")
	enc("bool_true", true, "true")
	enc("bool_false", false, "false")
	var fixed_ints = [0, 1, -1, 127, 128, 255, 256, 65535, 65536, 2147483647, -2147483648,
		2147483648, -2147483649, 4294967295, 4294967296, 9007199254740993,
		9223372036854775807, I64_MIN]
	for i in range(fixed_ints.size()):
		enc("int_fixed_%02d" % i, fixed_ints[i], str(fixed_ints[i]))
	for i in range(40):
		var n = rand_int()
		enc("int_rand_%02d" % i, n, str(n))
	# floats from bit patterns: -0.0, subnormals, NaNs and infinities cannot be
	# written as GDScript literals (spec: a literal -0.0 merges with 0.0)
	var fixed_bits = [[0, 0], [0x80000000, 0], [0, 1], [0x80000000, 1], [0x000fffff, 0xffffffff],
		[0x00100000, 0], [0x7fefffff, 0xffffffff], [0xffefffff, 0xffffffff],
		[0x7ff00000, 0], [0xfff00000, 0], [0x7ff80000, 0], [0xfff80000, 0],
		[0x7ff80000, 1], [0x7fffffff, 0xffffffff], [0x3ff00000, 0], [0x3fb99999, 0x9999999a],
		[0x41700000, 0x10000000], [0x36a00000, 0], [0x36a00000, 0x20000000], [0x47efffff, 0xe0000000],
		[0x47efffff, 0xf0000000], [0x3810000000 >> 8, 0], [0x380fffff, 0xc0000000], [0xc0590000, 0]]
	for i in range(fixed_bits.size()):
		var h = fixed_bits[i][0]
		var l = fixed_bits[i][1]
		enc("float_bits_%02d" % i, f64_bits(h, l), "f64 bits %08x%08x" % [h, l])
	var f32_patterns = [0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0xff7fffff,
		0x7fc00000, 0xffc00000, 0x7fc00001, 0x7fffffff, 0x3f800001, 0x4b800001]
	for i in range(f32_patterns.size()):
		enc("float_f32bits_%02d" % i, f32_bits(f32_patterns[i]), "f32 bits %08x as float" % f32_patterns[i])
	for i in range(40):
		var x = rand_f64()
		enc("float_rand_%02d" % i, x, "f64 bits " + J.hex64(J.bits64(x)))

func gen_strings():
	var fixed = ["", "a", "ab", "abc", "abcd", "abcde", "é", "€", "中文", "😀", "hé€😀",
		"\"quoted\"", "back\\slash", "tab\tnew\nline", "$dollar", "\u00a0", "ж" + "x".repeat(40)]
	for i in range(fixed.size()):
		enc("string_fixed_%02d" % i, fixed[i], "String")
	for i in range(30):
		enc("string_rand_%02d" % i, rand_string(20), "String")
	var sn = ["", "a", "hit", "ready", "é€", "😀x"]
	for i in range(sn.size()):
		enc("string_name_fixed_%02d" % i, StringName(sn[i]), "StringName")
	for i in range(14):
		enc("string_name_rand_%02d" % i, StringName(rand_string(10)), "StringName")
	var paths = ["", "a", "a/bc", "/root/x", ":prop", "a:b:cde", "/root/Player:position:x",
		"../sibling", ".", "é/中文:😀", "abcd/efgh:ijkl", "a/b/c/d/e/f"]
	for i in range(paths.size()):
		enc("node_path_fixed_%02d" % i, NodePath(paths[i]), "NodePath(\"" + paths[i] + "\")")
	for i in range(24):
		enc("node_path_rand_%02d" % i, rand_node_path(), "NodePath")

func gen_math():
	var math = [TYPE_VECTOR2, TYPE_VECTOR2I, TYPE_RECT2, TYPE_RECT2I, TYPE_VECTOR3, TYPE_VECTOR3I,
		TYPE_TRANSFORM2D, TYPE_VECTOR4, TYPE_VECTOR4I, TYPE_PLANE, TYPE_QUATERNION, TYPE_AABB,
		TYPE_BASIS, TYPE_TRANSFORM3D, TYPE_PROJECTION, TYPE_COLOR]
	for t in math:
		var tn = builtin_name(t).to_snake_case()
		for i in range(12):
			enc("%s_rand_%02d" % [tn, i], rand_of(t), builtin_name(t))
	enc("vector2_ones", Vector2(1, 1), "Vector2(1, 1)")
	enc("basis_identity", Basis(), "Basis()")
	enc("basis_123456789", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)),
		"Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))")
	enc("transform3d_identity", Transform3D(), "Transform3D()")
	enc("projection_identity", Projection(), "Projection()")
	enc("color_named", Color.CORNFLOWER_BLUE, "Color.CORNFLOWER_BLUE")
	enc("color_html", Color("#12345678"), "Color(\"#12345678\")")

func gen_ids():
	# RIDs over the whole u64 range (RID(-1) is all ones), built with rid_from_int64
	var rids = [0, 1, 13, 4294967295, 4294967296, 9223372036854775807,
		I64_MIN, -2, -1]
	for i in range(rids.size()):
		enc("rid_fixed_%02d" % i, rid_from_int64(rids[i]), "rid_from_int64(%d)" % rids[i])
	for i in range(12):
		var n = r64()
		enc("rid_rand_%02d" % i, rid_from_int64(n), "rid_from_int64(%d)" % n)
	enc("rid_empty", RID(), "RID()")
	# Object ids over the whole u64 range: var_to_bytes writes the id of a live
	# object only, so these are bytes the engine decodes (an EncodedObjectAsID)
	var ids = [1, 5, 1288, 4294967296, 9223372036854775807, I64_MIN, -2, -1]
	for i in range(ids.size()):
		dec("object_id_fixed_%02d" % i, "18000100" + u64_hex(ids[i]), "EncodedObjectAsID %d" % ids[i], false)
	for i in range(10):
		var n = r64()
		if n == 0:
			n = 7
		dec("object_id_rand_%02d" % i, "18000100" + u64_hex(n), "EncodedObjectAsID %d" % n, false)
	# Signals: name and object id; a Signal keeps any id, so the engine's own
	# bytes come from a Signal it decoded
	var sigs = [["hit", 5], ["", 0], ["é€", -1], ["pressed", I64_MIN], ["a_b", 4294967296]]
	for i in range(sigs.size()):
		var nm = sigs[i][0].to_utf8_buffer()
		var head = PackedByteArray()
		head.resize(4)
		head.encode_u32(0, nm.size())
		while nm.size() % 4 != 0:
			nm.append(0)
		var s = bytes_to_var(("1a000000" + head.hex_encode() + nm.hex_encode() + u64_hex(sigs[i][1])).hex_decode())
		enc("signal_%02d" % i, s, "Signal(id %d, \"%s\")" % [sigs[i][1], sigs[i][0]])
	enc("callable_empty", Callable(), "Callable()")
	enc("callable_method", Callable(self, "_ready"), "Callable(self, \"_ready\")")
	enc("signal_live", Signal(self, "ready"), "Signal(self, \"ready\")", false, false)
	# objects: a null or freed one is nil; a live one is its instance id
	var no_object: Object = null
	enc("object_null", no_object, "var o: Object = null")
	var gone = Node.new()
	gone.free()
	enc("object_freed", gone, "a freed Node")
	var n = Node.new()
	enc("object_live_node", n, "Node.new() (instance id)", false, false)
	var rc = RefCounted.new()
	enc("object_live_refcounted", rc, "RefCounted.new() (instance id)", false, false)
	enc("array_of_live_objects", [n, rc, null], "[Node, RefCounted, null]", false, false)
	var typed_nodes: Array[Node] = [n]
	enc("typed_array_node", typed_nodes, "Array[Node] with a Node", false, false)
	var empty_nodes: Array[Node] = []
	enc("typed_array_node_empty", empty_nodes, "Array[Node]([])")
	var empty_objs: Array[Object] = []
	enc("typed_array_object_empty", empty_objs, "Array[Object]([])")
	var empty_refs: Array[RefCounted] = []
	enc("typed_array_refcounted_empty_full", empty_refs, "Array[RefCounted]([]) with objects", true)
	enc("typed_array_node_empty_full", empty_nodes, "Array[Node]([]) with objects", true)
	var d_nodes: Dictionary[String, Node] = {"a": n}
	enc("typed_dict_string_node", d_nodes, "Dictionary[String, Node]", false, false)
	var d_nodes_empty: Dictionary[Node, int] = {}
	enc("typed_dict_node_int_empty", d_nodes_empty, "Dictionary[Node, int]({})")
	enc("typed_dict_node_int_empty_full", d_nodes_empty, "Dictionary[Node, int]({}) with objects", true)
	# full objects
	enc("full_refcounted", RefCounted.new(), "RefCounted.new() with objects", true)
	var res = Resource.new()
	res.resource_name = "thing é"
	enc("full_resource", res, "Resource with a name, with objects", true)
	var node = Node2D.new()
	node.name = "Player"
	node.position = Vector2(1.5, -2)
	enc("full_node2d", node, "Node2D with objects", true)
	enc("full_array_of_objects", [RefCounted.new(), null, res], "[RefCounted, null, Resource] with objects", true)
	var gr = Gradient.new()
	enc("full_gradient", gr, "Gradient.new() with objects", true)
	var cv = Curve.new()
	cv.add_point(Vector2(0, 1))
	cv.add_point(Vector2(0.5, 0.25))
	enc("full_curve", cv, "Curve with two points, with objects", true)
	node.free()
	n.free()

func gen_containers():
	enc("array_empty", [], "[]")
	enc("dict_empty", {}, "{}")
	enc("array_nested", [[[[[]]]], [1, [2, [3]]]], "nested arrays")
	enc("dict_keys_string_and_stringname", {"a": 1, &"b": 2}, "{\"a\": 1, &\"b\": 2}")
	enc("dict_dollar_key", {"$map": 1, "$x": [2]}, "keys that start with $")
	enc("dict_mixed_keys", {1: "one", 1.5: "x", Vector2(1, 2): null, "s": true, null: 0}, "mixed keys")
	for i in range(50):
		enc("array_rand_%02d" % i, rand_array(0), "random Array")
	for i in range(50):
		enc("dict_rand_%02d" % i, rand_dict(0), "random Dictionary")
	# typed arrays of every builtin type (4.3+ writes the type block)
	for t in DATA_TYPES:
		var tn = builtin_name(t)
		var a = Array([], t, "", null)
		enc("typed_array_%s_empty" % tn.to_snake_case(), a, "Array[%s]([])" % tn)
		var b = Array([], t, "", null)
		for i in range(rng.randi_range(1, 4)):
			b.append(rand_of(t, 3))
		enc("typed_array_%s" % tn.to_snake_case(), b, "Array[%s]" % tn)
	# typed dictionaries (4.4+): key only, value only, both
	var key_types = [TYPE_STRING, TYPE_INT, TYPE_STRING_NAME, TYPE_FLOAT, TYPE_VECTOR2I, TYPE_BOOL]
	for kt in key_types:
		for vt in [TYPE_NIL, TYPE_INT, TYPE_STRING, TYPE_VECTOR3, TYPE_ARRAY, TYPE_PACKED_BYTE_ARRAY]:
			var d = Dictionary({}, kt, "", null, vt, "", null)
			for i in range(rng.randi_range(0, 4)):
				d[rand_of(kt, 3)] = rand_of(vt, 3) if vt != TYPE_NIL else rand_any(3)
			enc("typed_dict_%s_%s" % [builtin_name(kt).to_snake_case(), builtin_name(vt).to_snake_case()],
				d, "Dictionary[%s, %s]" % [builtin_name(kt), builtin_name(vt) if vt != TYPE_NIL else "Variant"])
	for vt in [TYPE_FLOAT, TYPE_COLOR, TYPE_DICTIONARY, TYPE_NODE_PATH]:
		var d = Dictionary({}, TYPE_NIL, "", null, vt, "", null)
		for i in range(rng.randi_range(1, 4)):
			d[rand_key()] = rand_of(vt, 3)
		enc("typed_dict_variant_%s" % builtin_name(vt).to_snake_case(), d, "Dictionary[Variant, %s]" % builtin_name(vt))
	# typed containers inside containers
	var inner: Array[int] = [1, 2, 3]
	var inner_d: Dictionary[String, float] = {"x": 0.5}
	enc("nested_typed", {"list": inner, "map": inner_d, "plain": [inner, inner_d]}, "typed containers nested")

func gen_packed():
	var packed = [TYPE_PACKED_BYTE_ARRAY, TYPE_PACKED_INT32_ARRAY, TYPE_PACKED_INT64_ARRAY,
		TYPE_PACKED_FLOAT32_ARRAY, TYPE_PACKED_FLOAT64_ARRAY, TYPE_PACKED_STRING_ARRAY,
		TYPE_PACKED_VECTOR2_ARRAY, TYPE_PACKED_VECTOR3_ARRAY, TYPE_PACKED_VECTOR4_ARRAY,
		TYPE_PACKED_COLOR_ARRAY]
	for t in packed:
		var tn = builtin_name(t).to_snake_case()
		enc("%s_empty" % tn, type_convert([], t), "%s()" % builtin_name(t))
		for i in range(10):
			enc("%s_rand_%02d" % [tn, i], rand_of(t), builtin_name(t))
	enc("packed_string_array_fixed", PackedStringArray(["a", "abc", "", "abcd", "é€😀"]), "PackedStringArray")
	var fb = PackedFloat64Array([f64_bits(0x80000000, 0), f64_bits(0, 1), f64_bits(0x7ff00000, 0),
		f64_bits(0x7ff80000, 5), f64_bits(0xfff80000, 0)])
	enc("packed_float64_array_bits", fb, "PackedFloat64Array of -0.0, 5e-324, inf, NaN payloads")
	var ff = PackedFloat32Array([f32_bits(0x80000000), f32_bits(1), f32_bits(0xff800000), f32_bits(0x7fc00003)])
	enc("packed_float32_array_bits", ff, "PackedFloat32Array of -0.0, 1e-45, -inf, a NaN payload")

# Inputs the engine reads but never writes (what 4.6 does with them). Ints,
# floats and math types written wider than needed are left out: serval keeps
# their width (docs/formats/godot.md), so the engine's value, which has no
# width, is not the tree's; the spec's vectors cover them.
func gen_decoded():
	dec("dec4_string_nul", "04000000 03000000 61006200", "String a NUL b")
	dec("dec4_string_bom", "04000000 05000000 efbbbf61 62000000", "String BOM ab")
	dec("dec4_string_pad_nonzero", "04000000 01000000 617a7a7a", "String a, padding zzz")
	dec("dec4_string_overlong", "04000000 02000000 c1810000", "String overlong A")
	dec("dec4_string_surrogate", "04000000 03000000 eda08000", "String UTF-8 of U+D800")
	dec("dec4_string_short", "04000000 05000000 61626300", "String whose bytes are missing")
	dec("dec4_bool_2", "01000000 02000000", "bool 2")
	dec("dec4_int_header_bits", "02ff0000 05000000", "int 5, header bits 8-15 set")
	dec("dec4_color_flag", "14000100 0000803f 00000040 00004040 00008040", "Color with the 64-bit flag")
	dec("dec4_psa_no_nul", "22000000 01000000 02000000 62620000", "PackedStringArray element without its NUL")
	dec("dec4_array_count_bit31", "1c000000 01000080 02000000 07000000", "Array count with bit 31")
	dec("dec4_dict_dup", "1b000000 02000000 04000000 01000000 61000000 02000000 01000000 04000000 01000000 61000000 02000000 02000000", "Dictionary a:1, a:2")
	dec("dec4_dict_string_stringname", "1b000000 02000000 04000000 01000000 61000000 02000000 01000000 15000000 01000000 61000000 02000000 02000000", "Dictionary a:1, &a:2")
	dec("dec4_type_38", "26000000 00000000", "PackedVector4Array, empty")
	dec("dec4_type_39", "27000000", "type code 39")
	dec("dec4_object_id_0", "18000100 00000000 00000000", "Object id 0", false, true)
	dec("dec4_nodepath_old", "16000000 01000000 61000000", "NodePath without bit 31")
	dec("dec4_rid_trailing", "17000000 0d000000 00000000 01020304", "RID 13, bytes after it")

func gen_random_values():
	for i in range(120):
		enc("any_rand_%03d" % i, rand_any(0), "random Variant")

func _ready():
	rng.seed = SEED
	var info = Engine.get_version_info()
	print("I\tengine\t", info.string, "\t", info.hash)
	print("I\tseed\t", SEED)
	gen_scalars()
	gen_strings()
	gen_math()
	gen_ids()
	gen_containers()
	gen_packed()
	gen_random_values()
	gen_decoded()
	print("END\t", count, "\t", "failed" if failed else "ok")
	get_tree().quit()
