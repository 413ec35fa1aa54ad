# Godot 3.2.3 vectors of the godot-res format (binary resources), run by
# tests/godot/regen_res3.sh:
#   godot3-server -s gen_res3.gd
# Saves resources holding every Variant type the resource format writes
# (sub-resources, external resources, packed arrays, NodePaths, Objects)
# with ResourceSaver.save under res://out/v3/, plain, FLAG_COMPRESS (RSCC,
# zstd), FLAG_SAVE_BIG_ENDIAN, and re-wrapped in every FileAccessCompressed
# mode; and small PackedScenes (.scn). Then loads each file back without
# the cache and prints what the engine read, one line per file:
#   J<TAB>name<TAB>{"file": path, "resources": {path: {"class", "properties"}}}
# Every stored property of the main resource and of each internal resource
# reachable from it, in serval's typed JSON (jsonexp.gd); a Resource value
# is {"$$resource": its path}.
extends SceneTree

var J = preload("res://jsonexp.gd").new()
var Holder = preload("res://holder.gd")

func rb(v, seen):
	match typeof(v):
		TYPE_OBJECT:
			if v == null:
				return "null"
			if v is Resource:
				if v.resource_path.find("::") >= 0 and not seen.has(v.resource_path):
					seen[v.resource_path] = v
				return "{\"$$resource\":" + J.jstr(v.resource_path) + "}"
			return "null"
		TYPE_ARRAY:
			var parts = []
			for x in v:
				parts.append(rb(x, seen))
			return "[" + PoolStringArray(parts).join(",") + "]"
		TYPE_DICTIONARY:
			var parts = []
			for k in v.keys():
				parts.append("[" + rb(k, seen) + "," + rb(v[k], seen) + "]")
			return "{\"$map\":[" + PoolStringArray(parts).join(",") + "]}"
		TYPE_RID:
			return "0"
	return J.of(v)

func props(o, seen):
	var parts = []
	for p in o.get_property_list():
		if p.usage & PROPERTY_USAGE_STORAGE:
			parts.append(J.key(p.name) + ":" + rb(o.get(p.name), seen))
	return "{" + PoolStringArray(parts).join(",") + "}"

func readback(name, path):
	var r = ResourceLoader.load(path, "", true)
	if r == null:
		printerr("could not load ", path)
		quit(1)
		return
	var seen = {}
	var done = {}
	var parts = []
	parts.append(J.jstr(path) + ":{\"class\":" + J.jstr(r.get_class()) + ",\"properties\":" + props(r, seen) + "}")
	var more = true
	while more:
		more = false
		for k in seen.keys():
			if done.has(k):
				continue
			done[k] = true
			more = true
			var o = seen[k]
			parts.append(J.jstr(k) + ":{\"class\":" + J.jstr(o.get_class()) + ",\"properties\":" + props(o, seen) + "}")
	print("J\t", name, "\t{\"file\":", J.jstr(path), ",\"resources\":{", PoolStringArray(parts).join(","), "}}")

func save(name, res, flags = 0, ext = "res"):
	var path = "res://out/v3/" + name + "." + ext
	var err = ResourceSaver.save(path, res, flags)
	if err != OK:
		printerr("save failed: ", path, " ", err)
		quit(1)
	return path

func holder(label, value):
	var h = Holder.new()
	h.label = label
	h.value = value
	return h

# Every Variant type the format writes, in the exported variables.
func all_types():
	var shared = holder("shared", 1)
	var second = holder("second", 2)
	second.sub = shared
	var first = holder("first", 3)
	first.sub = second
	var grad = Gradient.new()
	grad.add_point(0.5, Color(0.25, 0.5, 0.75, 1.0))
	var curve = Curve.new()
	curve.add_point(Vector2(0, 1))
	curve.add_point(Vector2(1, 0))
	var main = holder("main ünïcödé ✓", -7)
	main.real = 0.1
	main.sub = first
	main.path = NodePath("/root/Main/Child:position:x")
	main.bytes = PoolByteArray([1, 2, 3, 4, 5])
	main.items = [
		null, true, false, 0, -1, 2147483647, 2147483648, -2147483649, 9223372036854775807,
		0.5, -1234.5, 1.0 / 3.0, 1e300, -0.0, INF, -INF, NAN, 5e-324,
		"", "text", "ünï\tcode",
		Vector2(1.5, -2.25), Rect2(1, 2, 3, 4), Vector3(1, 2, 3),
		Transform2D(0.5, Vector2(10, 20)), Plane(0, 1, 0, 5), Quat(0.1, 0.2, 0.3, 0.9),
		AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)), Basis(Vector3(1, 0, 0), 0.5),
		Transform(Basis(Vector3(0, 1, 0), 1.0), Vector3(7, 8, 9)), Color(0.1, 0.2, 0.3, 0.4),
		NodePath("Child/Grand"), NodePath("/root/Main"), NodePath("Child:position:x"), NodePath(""),
		NodePath(".."), RID(), shared, [shared, "in array", [1, [2, [3]]]],
		{"a": 1, 2: "two", Vector2(1, 2): [3], "nested": {"x": null}, null: 0.5},
		PoolByteArray(), PoolByteArray([255]), PoolByteArray([1, 2, 3, 4, 5, 6, 7, 8]),
		PoolIntArray([0, -1, 2147483647, -2147483648, 7]), PoolRealArray([0.5, -1.25, 1e10]),
		PoolStringArray(["a", "", "ünï"]), PoolVector2Array([Vector2(1, 2), Vector2(-3, 4.5)]),
		PoolVector3Array([Vector3(1, 2, 3)]), PoolColorArray([Color(1, 0, 0, 1), Color(0, 0, 0, 0)]),
		grad, curve, Holder,
	]
	main.dict = {"grad": grad, "holder": second, "empty": {}, "list": []}
	return main

# A PoolByteArray of n bytes that compresses (RSCC blocks beyond one).
func big(n):
	var h = holder("big", n)
	var b = PoolByteArray()
	b.resize(n)
	for i in range(n):
		b[i] = (i * 7 + (i >> 5)) & 255
	h.bytes = b
	h.items = []
	for i in range(200):
		h.items.append("item %d" % i)
	return h

func read_all(path):
	var f = File.new()
	f.open(path, File.READ)
	var data = f.get_buffer(f.get_len())
	f.close()
	return data

func write_all(path, data):
	var f = File.new()
	f.open(path, File.WRITE)
	f.store_buffer(data)
	f.close()

func set_magic(data, magic):
	var m = magic.to_ascii()
	for i in range(4):
		data[i] = m[i]
		data[data.size() - 4 + i] = m[i]
	return data

# The plaintext of a saved RSCC file (its magic made GCPF, read with
# File.open_compressed) compressed again in another FileAccessCompressed
# mode, the magic made RSCC: the file a saver with that mode would write
# (ResourceSaver itself always uses zstd).
func rewrap(name, src, mode):
	var tmp = "res://out/tmp_" + name
	write_all(tmp, set_magic(read_all(src), "GCPF"))
	var c = File.new()
	if c.open_compressed(tmp, File.READ) != OK:
		printerr("open_compressed failed")
		quit(1)
	var plain = c.get_buffer(c.get_len())
	c.close()
	if c.open_compressed(tmp, File.WRITE, mode) != OK:
		printerr("open_compressed failed")
		quit(1)
	c.store_buffer(plain)
	c.close()
	var path = "res://out/v3/" + name + ".res"
	write_all(path, set_magic(read_all(tmp), "RSCC"))
	Directory.new().remove(tmp)
	return path

func scene():
	var root = Node2D.new()
	root.name = "Main"
	root.position = Vector2(10, 20)
	var child = Sprite.new()
	child.name = "Child"
	child.modulate = Color(1, 0.5, 0.25, 1)
	root.add_child(child)
	child.owner = root
	var label = Label.new()
	label.name = "Label"
	label.text = "hello"
	root.add_child(label)
	label.owner = root
	var timer = Timer.new()
	timer.name = "Timer"
	root.add_child(timer)
	timer.owner = root
	timer.connect("timeout", label, "hide", [], CONNECT_PERSIST)
	var grand = Node.new()
	grand.name = "Grand"
	child.add_child(grand)
	grand.owner = root
	grand.set_meta("tag", holder("meta", 1))
	var packed = PackedScene.new()
	if packed.pack(root) != OK:
		printerr("pack failed")
		quit(1)
	return packed

func _init():
	Directory.new().make_dir_recursive("res://out/v3")
	var made = []
	var main = all_types()
	made.append(["all_types", save("all_types", main)])
	made.append(["all_types_compressed", save("all_types_compressed", main, ResourceSaver.FLAG_COMPRESS)])
	made.append(["all_types_be", save("all_types_be", main, ResourceSaver.FLAG_SAVE_BIG_ENDIAN)])
	made.append(["all_types_be_compressed", save("all_types_be_compressed", main,
		ResourceSaver.FLAG_SAVE_BIG_ENDIAN | ResourceSaver.FLAG_COMPRESS)])
	made.append(["leaf", save("leaf", holder("leaf", 1))])
	made.append(["gradient", save("gradient", all_types().dict["grad"])])
	var b = big(10000)
	made.append(["big", save("big", b)])
	var big_path = save("big_zstd", b, ResourceSaver.FLAG_COMPRESS)
	made.append(["big_zstd", big_path])
	made.append(["big_fastlz", rewrap("big_fastlz", big_path, File.COMPRESSION_FASTLZ)])
	made.append(["big_deflate", rewrap("big_deflate", big_path, File.COMPRESSION_DEFLATE)])
	made.append(["big_gzip", rewrap("big_gzip", big_path, File.COMPRESSION_GZIP)])
	var all_path = "res://out/v3/all_types_compressed.res"
	made.append(["all_types_fastlz", rewrap("all_types_fastlz", all_path, File.COMPRESSION_FASTLZ)])
	made.append(["all_types_deflate", rewrap("all_types_deflate", all_path, File.COMPRESSION_DEFLATE)])
	made.append(["all_types_gzip", rewrap("all_types_gzip", all_path, File.COMPRESSION_GZIP)])
	var sc = scene()
	made.append(["scene", save("scene", sc, 0, "scn")])
	made.append(["scene_compressed", save("scene_compressed", sc, ResourceSaver.FLAG_COMPRESS, "scn")])
	for m in made:
		readback(m[0], m[1])
	quit(0)
