# Godot 4.6 vectors of the godot-res format (binary resources), run by
# tests/godot/regen_res4.sh as the autoload of the 4.6 web export template
# (godot4_run.mjs with GODOT4_GEN=gen_res4.gd). Saves resources with
# ResourceSaver.save under user://gres/: a script resource with class_name
# (flags 11, script_class), typed Arrays and Dictionaries, every 4.x Variant
# type, sub-resources and an external one, FLAG_COMPRESS and
# FLAG_SAVE_BIG_ENDIAN, a Gradient and a small PackedScene; then loads each
# back without the cache. Prints per file:
#   R<TAB>name<TAB>extension<TAB>hex of the file
#   J<TAB>name<TAB>{"file": path, "resources": {path: {"class", "properties"}}}
# (as gen_res3.gd; a Resource value is {"$$resource": its path}), the same
# for each file given in /tests/in (load_inputs), and END.
extends Node

var J = load("/tests/jsonexp4.gd").new()
var Holder

const HOLDER_SRC = """extends Resource
class_name GresHolder
@export var label: String = ""
@export var value: int = 0
@export var real: float = 0.0
@export var items: Array = []
@export var ints: Array[int] = []
@export var dict: Dictionary = {}
@export var typed_dict: Dictionary[String, int] = {}
@export var sub: Resource
@export var path: NodePath
@export var bytes: PackedByteArray
@export var name_: StringName = &""
"""

func rb(v, seen) -> String:
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
			return "[" + ",".join(parts) + "]"
		TYPE_DICTIONARY:
			var parts = []
			for k in v.keys():
				parts.append("[" + rb(k, seen) + "," + rb(v[k], seen) + "]")
			return "{\"$map\":[" + ",".join(parts) + "]}"
		TYPE_RID:
			return "0"
	return J.of(v)

func props(o, seen) -> String:
	var parts = []
	for p in o.get_property_list():
		if p.usage & PROPERTY_USAGE_STORAGE:
			parts.append(J.key(p.name) + ":" + rb(o.get(p.name), seen))
	return "{" + ",".join(parts) + "}"

func hexs(b: PackedByteArray) -> String:
	return b.hex_encode()

func emit(name: String, path: String, ext: String):
	print("R\t", name, "\t", ext, "\t", hexs(FileAccess.get_file_as_bytes(path)))
	var r = ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
	if r == null:
		printerr("could not load ", path)
		return
	var seen = {}
	var done = {}
	var parts = [J.jstr(path) + ":{\"class\":" + J.jstr(r.get_class()) + ",\"properties\":" + props(r, seen) + "}"]
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
	print("J\t", name, "\t{\"file\":", J.jstr(path), ",\"resources\":{", ",".join(parts), "}}")

func save(name: String, res: Resource, flags := 0, ext := "res") -> String:
	var path = "user://gres/" + name + "." + ext
	var err = ResourceSaver.save(res, path, flags)
	if err != OK:
		printerr("save failed: ", path, " ", err)
	emit(name, path, ext)
	return path

func holder(label: String, value: int):
	var h = Holder.new()
	h.label = label
	h.value = value
	return h

func all_types():
	var shared = holder("shared", 1)
	var second = holder("second", 2)
	second.sub = shared
	var grad = Gradient.new()
	grad.add_point(0.5, Color(0.25, 0.5, 0.75, 1.0))
	var main = holder("main ünïcödé ✓", -7)
	main.real = 0.1
	main.sub = second
	main.path = NodePath("/root/Main/Child:position:x")
	main.bytes = PackedByteArray([1, 2, 3, 4, 5])
	main.name_ = &"a_string_name"
	main.ints.assign([1, -2, 2147483648])
	main.typed_dict.assign({"a": 1, "b": -2})
	main.items = [
		null, true, 0, -1, 2147483647, 2147483648, -9223372036854775808,
		0.5, 1.0 / 3.0, 1e300, -0.0, INF, NAN, 100.0,
		"", "text", &"sname",
		Vector2(1.5, -2.25), Vector2i(3, -4), Rect2(1, 2, 3, 4), Rect2i(1, 2, 3, 4),
		Vector3(1, 2, 3), Vector3i(-1, 0, 1), Transform2D(0.5, Vector2(10, 20)),
		Vector4(1, 2, 3, 4), Vector4i(1, -2, 3, -4), Plane(0, 1, 0, 5),
		Quaternion(0.1, 0.2, 0.3, 0.9), AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)),
		Basis(Vector3(1, 0, 0), 0.5), Transform3D(Basis(Vector3(0, 1, 0), 1.0), Vector3(7, 8, 9)),
		Projection(Transform3D()), Color(0.1, 0.2, 0.3, 0.4),
		NodePath("Child/Grand"), NodePath(""), RID(), shared, grad,
		[shared, [1, [2]]], {"a": 1, 2: "two", Vector2i(1, 2): [3], null: 0.5},
		PackedByteArray(), PackedInt32Array([0, -1, 7]), PackedInt64Array([1 << 40, -1]),
		PackedFloat32Array([0.5, -1.25]), PackedFloat64Array([0.1, 1e300]),
		PackedStringArray(["a", "", "ünï"]), PackedVector2Array([Vector2(1, 2)]),
		PackedVector3Array([Vector3(1, 2, 3)]), PackedColorArray([Color(1, 0, 0, 1)]),
		PackedVector4Array([Vector4(1, 2, 3, 4)]),
	]
	main.dict = {"grad": grad, "holder": second}
	return main

func scene() -> PackedScene:
	var root = Node2D.new()
	root.name = "Main"
	root.position = Vector2(10, 20)
	var child = Sprite2D.new()
	child.name = "Child"
	root.add_child(child)
	child.owner = root
	var label = Label.new()
	label.name = "Label"
	label.text = "hello"
	root.add_child(label)
	label.owner = root
	label.set_meta("tag", holder("meta", 1))
	var packed = PackedScene.new()
	packed.pack(root)
	return packed

# Resources given to the engine in /tests/in (GODOT4_INPUT of godot4_run.mjs;
# tests/godot/res4_brotli.sh gives the Brotli-compressed ones, which Godot
# reads but cannot write): each is loaded from there, after the saves above
# (so user://gres/holder.gd exists), and printed as the saved ones are.
func load_inputs():
	if not DirAccess.dir_exists_absolute("/tests/in"):
		return
	for n in DirAccess.get_files_at("/tests/in"):
		emit(n.get_basename(), "/tests/in/" + n, n.get_extension())

func _ready():
	DirAccess.make_dir_recursive_absolute("user://gres")
	var info = Engine.get_version_info()
	print("I\tengine\t", info.string, "\t", info.hash)
	var s = GDScript.new()
	s.source_code = HOLDER_SRC
	s.reload()
	ResourceSaver.save(s, "user://gres/holder.gd")
	Holder = load("user://gres/holder.gd")
	var main = all_types()
	save("all_types", main)
	save("all_types_compressed", main, ResourceSaver.FLAG_COMPRESS)
	save("all_types_be", main, ResourceSaver.FLAG_SAVE_BIG_ENDIAN)
	save("leaf", holder("leaf", 1))
	var g = Gradient.new()
	g.add_point(0.25, Color(1, 0, 0, 1))
	save("gradient", g)
	save("gradient_compressed", g, ResourceSaver.FLAG_COMPRESS)
	var sc = scene()
	save("scene", sc, 0, "scn")
	save("scene_compressed", sc, ResourceSaver.FLAG_COMPRESS, "scn")
	load_inputs()
	print("END\t0\tok")
	get_tree().quit()
