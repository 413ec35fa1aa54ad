# The expected value of a Variant in serval's typed JSON (docs/formats/godot.md),
# computed on the engine side from the value itself (typeof, fields, property
# lists), never from serval. Floats are written as their exact decimal
# expansion, which serval's JSON reader turns back into the same bits.
extends Reference

var full_objects = false

func _sign_negative(x):
	var s = StreamPeerBuffer.new()
	s.put_double(x)
	return (s.data_array[7] & 0x80) != 0

# Exact decimal text of a finite double: x = m * 2^e, then m * 5^-e / 10^-e
# (or m * 2^e) in base-10^9 limbs.
func exact(x):
	if x != x:
		return null
	if x == INF or x == -INF:
		return null
	if x == 0.0:
		return "-0.0" if _sign_negative(x) else "0.0"
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
		s = s.substr(1, s.length() - 1)
	if e < 0:
		var k = -e
		while s.length() <= k:
			s = "0" + s
		s = s.substr(0, s.length() - k) + "." + s.substr(s.length() - k, k)
		while s.ends_with("0") and not s.ends_with(".0"):
			s = s.substr(0, s.length() - 1)
	else:
		s += ".0"
	return ("-" if neg else "") + s

# A number inside a tuple or packed array.
func elem(x):
	if x != x:
		return "\"nan\""
	if x == INF:
		return "\"inf\""
	if x == -INF:
		return "\"-inf\""
	return exact(x)

# A Variant float (canonical: plain float64 in the tree).
func real(x):
	if x != x:
		return "{\"$f64\":\"nan\"}"
	# infinities are f32 for the engine (spec §6.2), the typed JSON says so
	if x == INF:
		return "{\"$f32\":\"inf\"}"
	if x == -INF:
		return "{\"$f32\":\"-inf\"}"
	return exact(x)

# JSON string; control characters escaped by hand (to_json leaves them raw).
func jstr(s):
	var t = to_json(s)
	var o = ""
	for i in range(t.length()):
		var c = t.ord_at(i)
		if c < 0x20:
			o += "\\u%04x" % c
		else:
			o += t[i]
	return o

func key(s):
	if s.begins_with("$"):
		s = "$" + s
	return jstr(s)

func nums(list):
	var parts = []
	for x in list:
		parts.append(elem(x))
	return "[" + PoolStringArray(parts).join(",") + "]"

func tuple(tag, list):
	return "{\"$" + tag + "\":" + nums(list) + "}"

func packed(tag, items, per):
	var parts = []
	for it in items:
		if per == 2:
			parts.append(nums([it.x, it.y]))
		elif per == 3:
			parts.append(nums([it.x, it.y, it.z]))
		else:
			parts.append(nums([it.r, it.g, it.b, it.a]))
	return "{\"$" + tag + "\":[" + PoolStringArray(parts).join(",") + "]}"

func basis_rows(b):
	# spec §9.3: row-major, rows[i][j]; x, y, z are the column axes
	return [b.x.x, b.y.x, b.z.x, b.x.y, b.y.y, b.z.y, b.x.z, b.y.z, b.z.z]

func object(o):
	if o == null or not is_instance_valid(o):
		return "null"
	if o is EncodedObjectAsID:
		return "{\"$object_id\":" + str(o.get_object_id()) + "}"
	if not full_objects:
		return "{\"$object_id\":" + str(o.get_instance_id()) + "}"
	var parts = ["\"$class\":" + jstr(o.get_class())]
	for p in o.get_property_list():
		if p.usage & PROPERTY_USAGE_STORAGE:
			parts.append(key(p.name) + ":" + of(o.get(p.name)))
	return "{" + PoolStringArray(parts).join(",") + "}"

func of(v):
	match typeof(v):
		TYPE_NIL:
			return "null"
		TYPE_BOOL:
			return "true" if v else "false"
		TYPE_INT:
			return str(v)
		TYPE_REAL:
			return real(v)
		TYPE_STRING:
			return jstr(v)
		TYPE_VECTOR2:
			return tuple("vector2", [v.x, v.y])
		TYPE_RECT2:
			return tuple("rect2", [v.position.x, v.position.y, v.size.x, v.size.y])
		TYPE_VECTOR3:
			return tuple("vector3", [v.x, v.y, v.z])
		TYPE_TRANSFORM2D:
			return tuple("transform2d", [v.x.x, v.x.y, v.y.x, v.y.y, v.origin.x, v.origin.y])
		TYPE_PLANE:
			return tuple("plane", [v.normal.x, v.normal.y, v.normal.z, v.d])
		TYPE_QUAT:
			return tuple("quaternion", [v.x, v.y, v.z, v.w])
		TYPE_AABB:
			return tuple("aabb", [v.position.x, v.position.y, v.position.z, v.size.x, v.size.y, v.size.z])
		TYPE_BASIS:
			return tuple("basis", basis_rows(v))
		TYPE_TRANSFORM:
			var r = basis_rows(v.basis)
			r.append(v.origin.x)
			r.append(v.origin.y)
			r.append(v.origin.z)
			return tuple("transform3d", r)
		TYPE_COLOR:
			return tuple("color", [v.r, v.g, v.b, v.a])
		TYPE_NODE_PATH:
			return "{\"$node_path\":" + jstr(str(v)) + "}"
		TYPE_RID:
			return "{\"$rid\":null}"
		TYPE_OBJECT:
			return object(v)
		TYPE_DICTIONARY:
			var all_str = true
			for k in v.keys():
				if typeof(k) != TYPE_STRING:
					all_str = false
			var parts = []
			if all_str:
				for k in v.keys():
					parts.append(key(k) + ":" + of(v[k]))
				return "{" + PoolStringArray(parts).join(",") + "}"
			for k in v.keys():
				parts.append("[" + of(k) + "," + of(v[k]) + "]")
			return "{\"$map\":[" + PoolStringArray(parts).join(",") + "]}"
		TYPE_ARRAY:
			var parts = []
			for x in v:
				parts.append(of(x))
			return "[" + PoolStringArray(parts).join(",") + "]"
		TYPE_RAW_ARRAY:
			return "{\"$bytes\":" + jstr(Marshalls.raw_to_base64(v)) + "}"
		TYPE_INT_ARRAY:
			var parts = []
			for x in v:
				parts.append(str(x))
			return "{\"$i32s\":[" + PoolStringArray(parts).join(",") + "]}"
		TYPE_REAL_ARRAY:
			return "{\"$f32s\":" + nums(v) + "}"
		TYPE_STRING_ARRAY:
			var parts = []
			for x in v:
				parts.append(jstr(x))
			return "{\"$array\":[" + PoolStringArray(parts).join(",") + "],\"$meta\":\"PackedStringArray\"}"
		TYPE_VECTOR2_ARRAY:
			return packed("packed_vector2", v, 2)
		TYPE_VECTOR3_ARRAY:
			return packed("packed_vector3", v, 3)
		TYPE_COLOR_ARRAY:
			return packed("packed_color", v, 4)
	return "\"?unknown type " + str(typeof(v)) + "\""
