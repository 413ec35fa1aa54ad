# The expected value of a Godot 4 Variant in serval's typed JSON
# (docs/formats/godot.md), computed inside the engine from the value itself
# (typeof, fields, type metadata of typed containers), never from serval.
# Floats are written as their exact decimal expansion (serval's JSON reader
# turns it back into the same bits), NaNs by their bits. Run by gen4.gd.
extends RefCounted

# var_to_bytes_with_objects: objects in full, typed containers of objects
# name their class; without it they say "EncodedObjectAsID" (spec §5.1).
var full_objects = false

func bits64(x: float) -> int:
	var b = PackedByteArray()
	b.resize(8)
	b.encode_double(0, x)
	return b.decode_u64(0)

func bits32(x: float) -> int:
	var b = PackedByteArray()
	b.resize(4)
	b.encode_float(0, x)
	return b.decode_u32(0)

func hex64(n: int) -> String:
	return "%08x%08x" % [(n >> 32) & 0xFFFFFFFF, n & 0xFFFFFFFF]

# An int read as unsigned 64-bit, in decimal (RIDs and object ids are u64).
func u64s(n: int) -> String:
	if n >= 0:
		return str(n)
	var q = ((n >> 1) & 0x7FFFFFFFFFFFFFFF) / 5
	return str(q) + str(n - q * 10)

# Exact decimal text of a finite double: x = m * 2^e, then m * 5^-e / 10^-e
# (or m * 2^e) in base-10^9 limbs.
func exact(x: float) -> String:
	if x == 0.0:
		return "-0.0" if bits64(x) < 0 else "0.0"
	var neg = x < 0
	if neg:
		x = -x
	var e = 0
	while x >= 9007199254740992.0:
		x = x / 2.0
		e += 1
	while x != floor(x):
		x = x * 2.0
		e -= 1
	var m = int(x)
	var limbs = [m % 1000000000, (m / 1000000000) % 1000000000, m / 1000000000000000000]
	var mul = 2 if e > 0 else 5
	for _i in range(abs(e)):
		var carry = 0
		for j in range(limbs.size()):
			var t = limbs[j] * mul + carry
			limbs[j] = t % 1000000000
			carry = t / 1000000000
		if carry > 0:
			limbs.append(carry)
	var s = ""
	for j in range(limbs.size() - 1, -1, -1):
		s += "%09d" % limbs[j]
	while s.length() > 1 and s[0] == "0":
		s = s.substr(1)
	if e < 0:
		var k = -e
		while s.length() <= k:
			s = "0" + s
		s = s.substr(0, s.length() - k) + "." + s.substr(s.length() - k)
		while s.ends_with("0") and not s.ends_with(".0"):
			s = s.substr(0, s.length() - 1)
	else:
		s += ".0"
	return ("-" if neg else "") + s

# An element of a float32 tuple or packed array (the double holds the f32).
func elem32(x: float) -> String:
	if is_nan(x):
		var b = bits32(x)
		return "\"nan\"" if b == 0x7fc00000 else "\"nan:0x%08x\"" % b
	if is_inf(x):
		return "\"inf\"" if x > 0 else "\"-inf\""
	return exact(x)

# An element of a PackedFloat64Array.
func elem64(x: float) -> String:
	if is_nan(x):
		var b = bits64(x)
		return "\"nan\"" if b == 0x7ff8000000000000 else "\"nan:0x" + hex64(b) + "\""
	if is_inf(x):
		return "\"inf\"" if x > 0 else "\"-inf\""
	return exact(x)

# A float Variant: f32 when (double)(float)x == x, else f64 (spec §6.2); an
# infinity is f32 and NaN f64, which the typed JSON says explicitly.
func real(x: float) -> String:
	if is_nan(x):
		return "{\"$f64\":" + elem64(x) + "}"
	if is_inf(x):
		return "{\"$f32\":" + elem32(x) + "}"
	return exact(x)

func jstr(s: String) -> String:
	var o = "\""
	for i in range(s.length()):
		var c = s.unicode_at(i)
		if c == 0x22:
			o += "\\\""
		elif c == 0x5c:
			o += "\\\\"
		elif c < 0x20:
			o += "\\u%04x" % c
		else:
			o += s[i]
	return o + "\""

# Object keys that start with "$" get a second "$" (docs/json.md).
func key(s: String) -> String:
	if s.begins_with("$"):
		s = "$" + s
	return jstr(s)

func nums32(list) -> String:
	var parts = []
	for x in list:
		parts.append(elem32(x))
	return "[" + ",".join(parts) + "]"

func ints(list) -> String:
	var parts = []
	for x in list:
		parts.append(str(x))
	return "[" + ",".join(parts) + "]"

func tuple(tag: String, list) -> String:
	return "{\"$" + tag + "\":" + nums32(list) + "}"

func ituple(tag: String, list) -> String:
	return "{\"$" + tag + "\":" + ints(list) + "}"

func basis_rows(b: Basis) -> Array:
	# spec §5.1: row-major, rows[i][j]; x, y, z are the column axes
	return [b.x.x, b.y.x, b.z.x, b.x.y, b.y.y, b.z.y, b.x.z, b.y.z, b.z.z]

func node_path_text(p: NodePath) -> String:
	var names = []
	for i in range(p.get_name_count()):
		names.append(str(p.get_name(i)))
	var s = ("/" if p.is_absolute() else "") + "/".join(names)
	for i in range(p.get_subname_count()):
		s += ":" + str(p.get_subname(i))
	return s

# The element type T of a typed container (docs/formats/godot.md).
func elem_type(builtin: int, cls: StringName, script) -> String:
	if builtin != TYPE_OBJECT:
		return jstr(type_string(builtin))
	if not full_objects:
		return "{\"class\":\"EncodedObjectAsID\"}"
	if script != null:
		return "{\"script\":" + jstr(script.resource_path) + "}"
	return "{\"class\":" + jstr(str(cls)) + "}"

func object(o) -> String:
	if o == null or not is_instance_valid(o):
		return "null"
	if o is EncodedObjectAsID:
		return "{\"$object_id\":" + u64s(o.get_object_id()) + "}"
	if not full_objects:
		return "{\"$object_id\":" + u64s(o.get_instance_id()) + "}"
	var parts = ["\"$class\":" + jstr(o.get_class())]
	for p in o.get_property_list():
		if p.usage & PROPERTY_USAGE_STORAGE:
			var val
			if p.name == "script":
				# 4.3+: the script's res:// path, or nil (spec §5.4)
				var sc = o.get_script()
				val = "null" if sc == null else jstr(sc.resource_path)
			else:
				val = of(o.get(p.name))
			parts.append(key(p.name) + ":" + val)
	return "{" + ",".join(parts) + "}"

func dictionary(v: Dictionary) -> String:
	var all_str = true
	for k in v.keys():
		if typeof(k) != TYPE_STRING:
			all_str = false
	var parts = []
	var body
	if all_str:
		for k in v.keys():
			parts.append(key(k) + ":" + of(v[k]))
		body = "{" + ",".join(parts) + "}"
	else:
		for k in v.keys():
			parts.append("[" + of(k) + "," + of(v[k]) + "]")
		body = "[" + ",".join(parts) + "]"
	var meta = []
	if v.is_typed_key():
		meta.append("\"key\":" + elem_type(v.get_typed_key_builtin(), v.get_typed_key_class_name(), v.get_typed_key_script()))
	if v.is_typed_value():
		meta.append("\"value\":" + elem_type(v.get_typed_value_builtin(), v.get_typed_value_class_name(), v.get_typed_value_script()))
	if meta.is_empty():
		return body if all_str else "{\"$map\":" + body + "}"
	return "{\"$map\":" + body + ",\"$meta\":{" + ",".join(meta) + "}}"

func array(v: Array) -> String:
	var parts = []
	for x in v:
		parts.append(of(x))
	var body = "[" + ",".join(parts) + "]"
	if not v.is_typed():
		return body
	var t = elem_type(v.get_typed_builtin(), v.get_typed_class_name(), v.get_typed_script())
	return "{\"$array\":" + body + ",\"$meta\":{\"type\":" + t + "}}"

func packed_vectors(tag: String, items, per: int) -> String:
	var parts = []
	for it in items:
		match per:
			2: parts.append(nums32([it.x, it.y]))
			3: parts.append(nums32([it.x, it.y, it.z]))
			4: parts.append(nums32([it.x, it.y, it.z, it.w]))
			_: parts.append(nums32([it.r, it.g, it.b, it.a]))
	return "{\"$" + tag + "\":[" + ",".join(parts) + "]}"

func of(v) -> String:
	match typeof(v):
		TYPE_NIL:
			return "null"
		TYPE_BOOL:
			return "true" if v else "false"
		TYPE_INT:
			return str(v)
		TYPE_FLOAT:
			return real(v)
		TYPE_STRING:
			return jstr(v)
		TYPE_VECTOR2:
			return tuple("vector2", [v.x, v.y])
		TYPE_VECTOR2I:
			return ituple("vector2i", [v.x, v.y])
		TYPE_RECT2:
			return tuple("rect2", [v.position.x, v.position.y, v.size.x, v.size.y])
		TYPE_RECT2I:
			return ituple("rect2i", [v.position.x, v.position.y, v.size.x, v.size.y])
		TYPE_VECTOR3:
			return tuple("vector3", [v.x, v.y, v.z])
		TYPE_VECTOR3I:
			return ituple("vector3i", [v.x, v.y, v.z])
		TYPE_TRANSFORM2D:
			return tuple("transform2d", [v.x.x, v.x.y, v.y.x, v.y.y, v.origin.x, v.origin.y])
		TYPE_VECTOR4:
			return tuple("vector4", [v.x, v.y, v.z, v.w])
		TYPE_VECTOR4I:
			return ituple("vector4i", [v.x, v.y, v.z, v.w])
		TYPE_PLANE:
			return tuple("plane", [v.normal.x, v.normal.y, v.normal.z, v.d])
		TYPE_QUATERNION:
			return tuple("quaternion", [v.x, v.y, v.z, v.w])
		TYPE_AABB:
			return tuple("aabb", [v.position.x, v.position.y, v.position.z, v.size.x, v.size.y, v.size.z])
		TYPE_BASIS:
			return tuple("basis", basis_rows(v))
		TYPE_TRANSFORM3D:
			var r = basis_rows(v.basis)
			r.append_array([v.origin.x, v.origin.y, v.origin.z])
			return tuple("transform3d", r)
		TYPE_PROJECTION:
			# column-major (spec §5.1)
			var c = []
			for col in [v.x, v.y, v.z, v.w]:
				c.append_array([col.x, col.y, col.z, col.w])
			return tuple("projection", c)
		TYPE_COLOR:
			return tuple("color", [v.r, v.g, v.b, v.a])
		TYPE_STRING_NAME:
			return "{\"$string_name\":" + jstr(str(v)) + "}"
		TYPE_NODE_PATH:
			return "{\"$node_path\":" + jstr(node_path_text(v)) + "}"
		TYPE_RID:
			return "{\"$rid\":" + u64s(v.get_id()) + "}"
		TYPE_OBJECT:
			return object(v)
		TYPE_CALLABLE:
			return "{\"$callable\":null}"
		TYPE_SIGNAL:
			return "{\"$signal\":[" + jstr(str(v.get_name())) + "," + u64s(v.get_object_id()) + "]}"
		TYPE_DICTIONARY:
			return dictionary(v)
		TYPE_ARRAY:
			return array(v)
		TYPE_PACKED_BYTE_ARRAY:
			# raw_to_base64 complains about an empty array (and gives "")
			return "{\"$bytes\":" + jstr("" if v.is_empty() else Marshalls.raw_to_base64(v)) + "}"
		TYPE_PACKED_INT32_ARRAY:
			return "{\"$i32s\":" + ints(v) + "}"
		TYPE_PACKED_INT64_ARRAY:
			return "{\"$i64s\":" + ints(v) + "}"
		TYPE_PACKED_FLOAT32_ARRAY:
			return "{\"$f32s\":" + nums32(v) + "}"
		TYPE_PACKED_FLOAT64_ARRAY:
			var parts = []
			for x in v:
				parts.append(elem64(x))
			return "{\"$f64s\":[" + ",".join(parts) + "]}"
		TYPE_PACKED_STRING_ARRAY:
			var parts = []
			for x in v:
				parts.append(jstr(x))
			return "{\"$array\":[" + ",".join(parts) + "],\"$meta\":\"PackedStringArray\"}"
		TYPE_PACKED_VECTOR2_ARRAY:
			return packed_vectors("packed_vector2", v, 2)
		TYPE_PACKED_VECTOR3_ARRAY:
			return packed_vectors("packed_vector3", v, 3)
		TYPE_PACKED_VECTOR4_ARRAY:
			return packed_vectors("packed_vector4", v, 4)
		TYPE_PACKED_COLOR_ARRAY:
			return packed_vectors("packed_color", v, 0)
	return "\"?unknown type " + str(typeof(v)) + "\""
