# Oracle vector generator for serval's godot3 profile, run by Godot 3.2.3:
#   LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 godot3-server -s gen.gd
# With "--example-save PATH" it writes the example save game of examples/
# instead (tests/godot/example_save.sh).
# (tests/godot/regen.sh runs it and writes tests/vectors/godot/oracle/).
# Each vector is one line "V<TAB>name<TAB>kind<TAB>options<TAB>input hex<TAB>
# expected<TAB>re-encoded hex<TAB>expression":
#   enc  input = what the engine wrote for the expression; expected = the
#        value in serval's typed JSON (jsonexp.gd); encode must give input back
#   dec  input = crafted bytes the engine decoded; expected = the value it got;
#        re-encoded = var2bytes of that value (what serval's encode must give)
#   str  like dec for one String; expected = hex of the engine's to_utf8()
#   err  crafted bytes the engine refused; expected = "error"
extends SceneTree

var J = preload("res://jsonexp.gd").new()
var names = {}

func hexs(b):
	var s = ""
	for x in b:
		s += "%02x" % x
	return s

func hb(h):
	h = h.replace(" ", "")
	var b = PoolByteArray()
	for i in range(0, h.length(), 2):
		b.append(("0x" + h.substr(i, 2)).hex_to_int())
	return b

func out(name, kind, opts, input_hex, expected, reenc, expr):
	if names.has(name):
		printerr("duplicate vector name ", name)
		quit(1)
	names[name] = true
	print("V\t", name, "\t", kind, "\t", opts, "\t", input_hex, "\t", expected, "\t", reenc, "\t", expr)

# A value the engine encodes (var2bytes); expected from the value itself.
# Kind "encnp" when the value holds a NodePath: 3.2.3 skips the padding
# after each NodePath component without writing it (marshalls.cpp,
# "buf += pad + utf8.length()"), so those bytes are whatever was in memory;
# serval writes zeros there, and the test allows exactly that difference.
func enc(name, v, expr, full = false):
	J.full_objects = full
	var e = J.of(v)
	var kind = "encnp" if e.find("$node_path") >= 0 else "enc"
	out(name, kind, "objects=full" if full else "-", hexs(var2bytes(v, full)), e, "-", expr)

# Crafted input the engine decodes; expected from what it decoded.
# A failing built-in call aborts the GDScript function that made it, so the
# decode runs in a function of its own and leaves _res null when it failed.
var _res = null

func _try_decode(b, allow):
	_res = [bytes2var(b, allow)]

# null_ok: the engine's answer is a null value, not a failure (bytes2var
# returns null for both). reenc: false when var2bytes of the decoded value is
# not the canonical encoding (EncodedObjectAsID instances are written with
# their own instance ids; 3.2.3 leaves NodePath padding unzeroed at times).
func dec(name, h, expr, allow = false, null_ok = false, reenc = true):
	var b = hb(h)
	_res = null
	_try_decode(b, allow)
	J.full_objects = allow
	var v = _res[0] if _res != null else null
	if _res == null or (v == null and not null_ok and (b.size() < 4 or b[0] != 0)):
		out(name, "err", "objects=full" if allow else "-", h.replace(" ", ""), "error", "-", expr)
		return
	if typeof(v) == TYPE_STRING:
		out(name, "str", "-", h.replace(" ", ""), "hex:" + hexs(v.to_utf8()), hexs(var2bytes(v)) if reenc else "-", expr)
		return
	out(name, "dec", "objects=full" if allow else "-", h.replace(" ", ""), J.of(v), hexs(var2bytes(v, allow)) if reenc else "-", expr)

func neg_zero():
	var z = 0.0
	return -z

func pow2(k):
	var x = 1.0
	for _i in range(abs(k)):
		x = x * 2.0 if k > 0 else x / 2.0
	return x

func ints():
	for x in [0, 1, -1, 2, -2, 7, 42, 100, 127, 128, -128, 255, 256, 1000, 65535, 65536, -65536,
			1000000, 2147483647, -2147483648, 2147483648, -2147483649, 4294967295, 4294967296,
			9007199254740992, 9007199254740993, 9223372036854775807, -9223372036854775807 - 1,
			123456789012, -123456789012]:
		enc("int_" + str(x).replace("-", "m"), x, str(x))
	var p = 1
	for k in range(1, 63):
		p *= 2
		enc("int_2p%d" % k, p, "1 << %d" % k)
		enc("int_m2p%d" % k, -p, "-(1 << %d)" % k)

func floats():
	enc("float_0", 0.0, "0.0")
	enc("float_neg0", neg_zero(), "-(0.0) computed")
	var lits = {"1_5": 1.5, "0_1": 0.1, "m2_75": -2.75, "0_5": 0.5, "0_25": 0.25, "1e300": 1e300,
			"16777216": 16777216.0, "16777217": 16777217.0, "1e39": 1e39, "1e_m7": 1e-7,
			"123_333": 123.333, "3_14159": 3.14159, "pi": PI, "tau": TAU, "e": 2.718281828459045,
			"1e20": 1e20, "1e21": 1e21, "m1e10": -1e10, "0_3": 0.3, "2_5": 2.5, "100": 100.0,
			"1_401e_m45": 1.401298464324817e-45, "third": 1.0 / 3.0, "65504": 65504.0}
	for k in lits:
		enc("float_" + k, lits[k], str(lits[k]))
	enc("float_inf", INF, "INF")
	enc("float_minf", -INF, "-INF")
	enc("float_nan", NAN, "NAN")
	for k in [-1074, -1022, -1000, -149, -126, -100, -24, -1, 1, 24, 53, 64, 127, 128, 1000, 1023]:
		enc("float_2p%s" % str(k).replace("-", "m"), pow2(k), "2.0^%d computed" % k)
	enc("float_fltmax", (2.0 - pow2(-23)) * pow2(127), "FLT_MAX computed")
	enc("float_dblmax", (2.0 - pow2(-52)) * pow2(1023), "DBL_MAX computed")
	for i in range(1, 21):
		enc("float_i%d_div10" % i, float(i) / 10.0, "%d / 10.0" % i)

func strings():
	var list = {"empty": "", "a": "a", "ab": "ab", "abc": "abc", "abcd": "abcd", "abcde": "abcde",
			"accent": "hé€", "cjk": "日本語", "emoji": "😀x", "newline": "a\nb", "tab": "\t",
			"quote": "\"q\"", "backslash": "b\\s", "dollar": "$x", "ctrl": "\u0001\u001f",
			"space": " lead and trail ", "mixed": "Größe ÷ 2 = ½"}
	for k in list:
		enc("string_" + k, list[k], to_json(list[k]))
	var long = ""
	for _i in range(1000):
		long += "x"
	enc("string_1000", long, "\"x\" * 1000")

func maths():
	enc("vector2_1_5_m2", Vector2(1.5, -2), "Vector2(1.5, -2)")
	enc("vector2_0_1_0_2", Vector2(0.1, 0.2), "Vector2(0.1, 0.2)")
	enc("vector2_zero", Vector2(), "Vector2()")
	enc("vector2_inf_nan", Vector2(INF, NAN), "Vector2(INF, NAN)")
	enc("vector2_negzero", Vector2(neg_zero(), 1), "Vector2(-0.0, 1)")
	enc("rect2_1234", Rect2(1, 2, 3, 4), "Rect2(1, 2, 3, 4)")
	enc("rect2_frac", Rect2(0.5, -0.25, 1e10, 1e-10), "Rect2(0.5, -0.25, 1e10, 1e-10)")
	enc("vector3_123", Vector3(1, 2, 3), "Vector3(1, 2, 3)")
	enc("vector3_11_1", Vector3(11.1, 22.2, 33.3), "Vector3(11.1, 22.2, 33.3)")
	enc("vector3_big", Vector3(1e30, -1e-30, 3.4e38), "Vector3(1e30, -1e-30, 3.4e38)")
	enc("transform2d_123456", Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)), "Transform2D((1,2),(3,4),(5,6))")
	enc("transform2d_identity", Transform2D.IDENTITY, "Transform2D.IDENTITY")
	enc("transform2d_rot", Transform2D(0.5, Vector2(10, 20)), "Transform2D(0.5, Vector2(10, 20))")
	enc("plane_1234", Plane(1, 2, 3, 4), "Plane(1, 2, 3, 4)")
	enc("plane_up", Plane(Vector3.UP, 0.5), "Plane(Vector3.UP, 0.5)")
	enc("quat_1234", Quat(0.1, 0.2, 0.3, 0.4), "Quat(0.1, 0.2, 0.3, 0.4)")
	enc("quat_identity", Quat.IDENTITY, "Quat.IDENTITY")
	enc("quat_euler", Quat(Vector3(0.1, 0.2, 0.3)), "Quat(Vector3(0.1, 0.2, 0.3))")
	enc("aabb_123456", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)), "AABB((1,2,3),(4,5,6))")
	enc("basis_123456789", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), "Basis((1,2,3),(4,5,6),(7,8,9))")
	enc("basis_identity", Basis.IDENTITY, "Basis.IDENTITY")
	enc("basis_rot", Basis(Vector3(0, 1, 0), 0.7), "Basis(Vector3.UP, 0.7)")
	enc("transform_1to12", Transform(Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), Vector3(10, 11, 12)), "Transform(Basis((1,2,3),(4,5,6),(7,8,9)), (10,11,12))")
	enc("transform_identity", Transform.IDENTITY, "Transform.IDENTITY")
	enc("transform_lookat", Transform.IDENTITY.looking_at(Vector3(1, 2, 3), Vector3.UP), "Transform.IDENTITY.looking_at((1,2,3), UP)")
	enc("color_quarter", Color(0.25, 0.5, 0.75, 1), "Color(0.25, 0.5, 0.75, 1)")
	enc("color_red", Color(1, 0, 0), "Color(1, 0, 0)")
	enc("color8", Color8(10, 20, 30, 40), "Color8(10, 20, 30, 40)")
	enc("color_named", ColorN("aliceblue", 0.5), "ColorN(\"aliceblue\", 0.5)")

func nodepaths():
	var list = {"empty": "", "a": "a", "a_bc": "a/bc", "root_x": "/root/x", "a_b_cde": "a:b:cde",
			"prop": ":prop", "root_pos_x": "/root/Node:position:x", "parent": "../sibling",
			"dot": ".", "deep": "a/b/c/d/e/f", "abs_only": "/root", "unicode": "Größe/日本"}
	for k in list:
		enc("nodepath_" + k, NodePath(list[k]), "NodePath(%s)" % to_json(list[k]))

func objects():
	enc("rid_empty", RID(), "RID()")
	var o = ClassDB.instance("Object")
	enc("object_as_id", o, "ClassDB.instance(\"Object\") as id")
	enc("object_full", o, "ClassDB.instance(\"Object\") full", true)
	o.free()
	enc("object_freed", o, "a freed Object")
	enc("object_freed_full", o, "a freed Object, full", true)
	var n = null
	var r = ClassDB.instance("Reference")
	enc("reference_full", r, "Reference full", true)
	enc("resource_full", ClassDB.instance("Resource"), "Resource full", true)
	var s = GDScript.new()
	s.source_code = "extends Reference\nexport var hp = 5\nvar plain = 7\n"
	s.reload()
	var rs = ClassDB.instance("Reference")
	rs.set_script(s)
	enc("reference_script_full", rs, "Reference with GDScript (export var hp = 5), full", true)
	enc("node2d_full", Node2D.new(), "Node2D.new() full", true)
	enc("array_with_object_id", [r, 1], "[Reference, 1] as id")
	enc("dict_with_object_full", {"o": r, "n": n}, "{\"o\": Reference, \"n\": null} full", true)

func containers():
	enc("dict_empty", {}, "{}")
	enc("dict_a1", {"a": 1}, "{\"a\": 1}")
	enc("dict_b1_a2_3c", {"b": 1, "a": 2, 3: "c"}, "{\"b\":1, \"a\":2, 3:\"c\"}")
	enc("dict_nested", {"k": {"a": [1, 2]}, 5: Vector2(1, 1)}, "{\"k\":{\"a\":[1,2]}, 5:Vector2(1,1)}")
	var d = {"x": 1, "y": 2, "z": 3}
	d.erase("x")
	d["x"] = 4
	d["y"] = 5
	enc("dict_erase_reinsert", d, "{x,y,z}; erase x; x=4; y=5")
	enc("dict_keys_mixed", {null: 0, true: 1, 2: 2, 3.5: 3, "s": 4, Vector2(1, 2): 5, [1]: 6}, "{null, true, 2, 3.5, \"s\", Vector2, [1]}")
	enc("dict_dollar_key", {"$class": 1, "$$": 2, "plain": 3}, "{\"$class\":1, \"$$\":2, \"plain\":3}")
	enc("dict_nodepath_key", {NodePath("a/b"): 1}, "{NodePath(\"a/b\"): 1}")
	enc("array_empty", [], "[]")
	enc("array_mixed", [1, "a", 2.5, null, [true]], "[1, \"a\", 2.5, null, [true]]")
	enc("array_123", [1, 2, 3], "[1, 2, 3]")
	enc("array_nested5", [[[[[1]]]]], "[[[[[1]]]]]")
	enc("array_all_types", [null, false, -5, 0.1, "s", Vector2(1, 2), Rect2(), Vector3(), Transform2D(), Plane(), Quat(), AABB(), Basis(), Transform(), Color(), NodePath("x"), RID(), {}, [], PoolByteArray([1]), PoolIntArray([2]), PoolRealArray([3]), PoolStringArray(["4"]), PoolVector2Array([Vector2()]), PoolVector3Array([Vector3()]), PoolColorArray([Color()])], "one of every type")
	enc("dict_of_arrays", {"ints": [1, 2, 3], "strs": ["a", "b"], "empty": []}, "{\"ints\":[1,2,3], ...}")
	enc("entity", {"id": 7, "name": "entity_7", "pos": Vector3(1, 2, 3), "hp": 0.75, "tags": ["a", "bb", 7]}, "a mixed_dicts entity")

func pools():
	enc("pba_empty", PoolByteArray(), "PoolByteArray()")
	enc("pba_1", PoolByteArray([1]), "PoolByteArray([1])")
	enc("pba_123", PoolByteArray([1, 2, 3]), "PoolByteArray([1,2,3])")
	enc("pba_1234", PoolByteArray([1, 2, 3, 4]), "PoolByteArray([1,2,3,4])")
	enc("pba_12345", PoolByteArray([0, 255, 128, 127, 5]), "PoolByteArray([0,255,128,127,5])")
	enc("pia_empty", PoolIntArray(), "PoolIntArray()")
	enc("pia_3", PoolIntArray([1, -1, 2147483647]), "PoolIntArray([1,-1,INT32_MAX])")
	enc("pia_min", PoolIntArray([-2147483648, 0]), "PoolIntArray([INT32_MIN, 0])")
	enc("pra_empty", PoolRealArray(), "PoolRealArray()")
	enc("pra_2", PoolRealArray([1.5, 0.1]), "PoolRealArray([1.5, 0.1])")
	enc("pra_special", PoolRealArray([INF, -INF, NAN, neg_zero(), 1e-45]), "PoolRealArray([INF,-INF,NAN,-0.0,1e-45])")
	enc("psa_empty", PoolStringArray(), "PoolStringArray()")
	enc("psa_4", PoolStringArray(["a", "abc", "", "abcd"]), "PoolStringArray([\"a\",\"abc\",\"\",\"abcd\"])")
	enc("psa_unicode", PoolStringArray(["é", "日本", "😀"]), "PoolStringArray([\"é\",\"日本\",\"😀\"])")
	enc("psa_lengths", PoolStringArray(["", "1", "12", "123", "1234", "12345"]), "PoolStringArray of lengths 0..5")
	enc("pv2a_empty", PoolVector2Array(), "PoolVector2Array()")
	enc("pv2a_2", PoolVector2Array([Vector2(1, 2), Vector2(3, 4)]), "PoolVector2Array([(1,2),(3,4)])")
	enc("pv3a_empty", PoolVector3Array(), "PoolVector3Array()")
	enc("pv3a_1", PoolVector3Array([Vector3(1, 2, 3)]), "PoolVector3Array([(1,2,3)])")
	enc("pv3a_3", PoolVector3Array([Vector3(0.1, 0.2, 0.3), Vector3(-1, -2, -3), Vector3(1e10, 0, NAN)]), "PoolVector3Array of 3")
	enc("pca_empty", PoolColorArray(), "PoolColorArray()")
	enc("pca_1", PoolColorArray([Color(1, 0, 0, 1)]), "PoolColorArray([Color(1,0,0,1)])")
	enc("pca_2", PoolColorArray([Color(0.1, 0.2, 0.3, 0.4), Color8(1, 2, 3, 4)]), "PoolColorArray of 2")

func framing():
	var f = File.new()
	f.open("user://serval_gen.save", File.WRITE)
	f.store_var(42)
	f.store_var("hi")
	f.store_var({"k": [1.5]})
	f.close()
	f.open("user://serval_gen.save", File.READ)
	var b = f.get_buffer(f.get_len())
	f.close()
	out("stream_store_var_3", "enc", "framing=stream", hexs(b), "[42,\"hi\",{\"k\":[1.5]}]", "-", "File.store_var(42); store_var(\"hi\"); store_var({\"k\":[1.5]})")
	var sp = StreamPeerBuffer.new()
	sp.put_var(42)
	out("prefixed_put_var_42", "enc", "framing=prefixed", hexs(sp.data_array), "42", "-", "StreamPeerBuffer.put_var(42)")
	sp = StreamPeerBuffer.new()
	sp.big_endian = true
	sp.put_var([1, "a"])
	out("prefixed_be_put_var", "enc", "framing=prefixed,prefix=be", hexs(sp.data_array), "[1,\"a\"]", "-", "StreamPeerBuffer(big_endian).put_var([1, \"a\"])")
	sp = StreamPeerBuffer.new()
	sp.put_var(Vector2(1, 2))
	sp.put_var(PoolStringArray(["x"]))
	out("stream_put_var_2", "enc", "framing=stream", hexs(sp.data_array), "[{\"$vector2\":[1.0,2.0]},{\"$array\":[\"x\"],\"$meta\":\"PackedStringArray\"}]", "-", "put_var(Vector2(1,2)); put_var(PoolStringArray([\"x\"]))")

func decodes():
	# spec §12.4, decoder behaviour, plus more leniencies and refusals
	dec("dec_int_m2", "02000000 feffffff", "int32 -2")
	dec("dec_bool_2", "01000000 02000000", "bool 2 is true")
	dec("dec_str_pad_nonzero", "04000000 01000000 617a7a7a", "nonzero padding")
	dec("err_str_no_pad", "04000000 01000000 61", "missing padding: ERR_FILE_EOF")
	dec("err_str_bad_utf8", "04000000 02000000 c3280000", "invalid UTF-8")
	dec("err_int_short", "02000000 ffff", "int32 with 2 bytes")
	dec("err_type_27", "1b000000", "type 27 >= VARIANT_MAX")
	dec("err_type_255", "ff000000", "type 255")
	dec("err_type_short", "020000", "3-byte input")
	dec("err_nodepath_old", "0f000000 01000000 61000000", "old-format NodePath")
	dec("err_object_full_refused", "11000000 00000000", "full Object without allow_objects")
	dec("dec_object_full_null", "11000000 00000000", "full Object with empty class, allowed", true, true)
	dec("dec_object_id_5", "11000100 05000000 00000000", "EncodedObjectAsID 5", false, false, false)
	dec("dec_object_id_0", "11000100 00000000 00000000", "object id 0 is null", false, true)
	dec("dec_rid_extra", "10000000 01000000", "RID ignores following bytes")
	dec("dec_nil_flags", "00000100", "nil with flag bits")
	dec("dec_int_trailing", "02000000 01000000 deadbeef", "trailing bytes ignored")
	dec("err_pba_negative", "14000000 ffffffff", "PoolByteArray count -1")
	dec("err_array_short", "13000000 05000000 02000000 01000000", "Array of 5 with one item")
	dec("dec_vector2_flag64", "05000100 0000803f 00000040", "3.x ignores the 64 flag on math types")
	dec("dec_int_bits8_15", "02010000 05000000", "header bits 8-15 ignored")
	dec("dec_int_bit24", "02000001 05000000", "header bit 24 ignored")
	dec("dec_int_bit17", "02000200 05000000", "header bit 17 ignored")
	dec("dec_array_shared_bit", "13000000 01000080 02000000 09000000", "Array count bit 31 masked")
	dec("dec_dict_shared_bit", "12000000 01000080 02000000 01000000 02000000 02000000", "Dictionary count bit 31 masked")
	dec("dec_pba_no_pad", "14000000 01000000 01", "PoolByteArray without its tail padding")
	dec("dec_psa_no_nul", "17000000 01000000 02000000 62620000", "PoolStringArray element without NUL")
	dec("dec_psa_negative", "17000000 ffffffff", "PoolStringArray count -1 is empty")
	dec("err_pia_negative", "15000000 ffffffff", "PoolIntArray count -1")
	dec("err_pia_overflow", "15000000 00000040", "PoolIntArray count 2^30 (count*4 overflows)")
	dec("err_pia_short", "15000000 02000000 01000000", "PoolIntArray of 2 with 1")
	dec("err_pv3a_short", "19000000 01000000 0000803f", "PoolVector3Array truncated")
	dec("err_vector3_short", "07000000 0000803f 00000040", "Vector3 with 2 floats")
	dec("err_basis_short", "0c000000 0000803f", "Basis truncated")
	dec("dec_dict_dup", "12000000 02000000 02000000 01000000 02000000 0a000000 02000000 01000000 02000000 0b000000", "{1:10, 1:11}")
	dec("dec_dict_dup_order", "12000000 03000000 04000000 01000000 61000000 02000000 01000000 04000000 01000000 62000000 02000000 02000000 04000000 01000000 61000000 02000000 03000000", "{a:1, b:2, a:3}")
	dec("dec_nodepath_prop_flag", "0f000000 01000080 00000000 02000000 01000000 61000000 01000000 62000000", "NodePath with the obsolete property flag", false, false, false)
	dec("err_nodepath_short", "0f000000 01000080 00000000", "NodePath header truncated")
	dec("err_nodepath_names_short", "0f000000 02000080 00000000 00000000 01000000 61000000", "NodePath with 2 names, 1 present")
	# serval keeps an object's properties as the bytes list them (none here);
	# the engine's live Object always has its "script" property
	var on = bytes2var(hb("11000000 06000000 4f626a65 63740000 ffffffff"), true)
	out("dec_object_negative_props", "dec", "objects=full", "11000000060000004f626a6563740000ffffffff", "{\"$class\":\"Object\"}" if on != null and on.get_class() == "Object" else "error", "-", "Object with -1 properties")
	dec("err_object_short", "11000000 06000000 4f626a65 63740000", "Object without property count", true)
	# Widths the engine would not choose: it reads the value (checked here),
	# serval's tree also keeps the width, so its encode gives the input back.
	var w = bytes2var(hb("03000100 00000000 0000f83f"))
	out("dec_float_f32_as_f64", "dec", "-", "03000100000000000000f83f", "{\"$f64\":1.5}" if typeof(w) == TYPE_REAL and w == 1.5 else "error", "-", "1.5 written as f64")
	w = bytes2var(hb("03000000 0000c07f"))
	out("dec_float_nan32", "dec", "-", "030000000000c07f", "{\"$f32\":\"nan\"}" if typeof(w) == TYPE_REAL and w != w else "error", "-", "NaN written as f32")
	w = bytes2var(hb("02000100 05000000 00000000"))
	out("dec_int_small_64", "dec", "-", "020001000500000000000000", "{\"$i64\":5}" if typeof(w) == TYPE_INT and w == 5 else "error", "-", "5 written as int64")
	# strings: BOM, NUL, and what 3.2.3's parse_utf8 takes or refuses
	var strs = {"bom": "efbbbf6162", "bom_only": "efbbbf", "bom_twice": "efbbbfefbbbf61", "nul_mid": "610062",
			"nul_then_bad": "6100ff", "nul_first": "0061", "c080": "c080", "c181": "c181", "e08080": "e08080",
			"surrogate": "eda080", "surrogate_pair": "eda080edb080", "above_10ffff": "f4908080",
			"five_byte": "f888808080", "six_byte": "fc8480808080", "ff": "ff", "lone_cont": "80",
			"trunc2": "c3", "trunc3": "e282", "emoji": "f09f9880", "copy": "c2a9", "e0a080": "e0a080",
			"efbfbf": "efbfbf", "f0908080": "f0908080", "overlong4_pass": "f080a080", "overlong5_pass": "f8808480 80",
			"bad_cont": "c341", "fe": "fe", "f5": "f5808080", "cut_by_nul": "e28200"}
	for k in strs:
		var s = strs[k].replace(" ", "")
		var n = s.length() / 2
		var h = "04000000" + ("%02x000000" % n) + s
		while h.length() % 8 != 0:
			h += "00"
		# a second BOM stays in the string; the engine's re-encoding then loses
		# it (its reader drops one BOM), serval writes two (docs/formats/godot.md)
		dec("utf8_" + k, h, "String bytes " + s, false, false, k != "bom_twice")
	# dictionary keys the engine takes for the same key, or not
	var pairs = {"int_int": [1, 1], "int_float": [1, 1.0], "zero_negzero": [0.0, neg_zero()],
			"nan_nan": [NAN, NAN], "arr_arr": [[1], [1]], "dict_dict": [{}, {}],
			"v2nan": [Vector2(NAN, 1), Vector2(NAN, 1)], "pia": [PoolIntArray([1]), PoolIntArray([1])],
			"pra_nan": [PoolRealArray([NAN]), PoolRealArray([NAN])], "pra_zero": [PoolRealArray([0.0]), PoolRealArray([neg_zero()])],
			"np": [NodePath("a/b"), NodePath("a/b")], "str": ["a", "a"], "str_nul": ["a", "a"],
			"rid": [RID(), RID()], "bool_int": [true, 1], "pba": [PoolByteArray([1]), PoolByteArray([1])],
			"psa": [PoolStringArray(["x"]), PoolStringArray(["x"])], "color": [Color(1, 0, 0), Color(1, 0, 0)]}
	for k in pairs:
		if k == "pra_nan":
			continue
		var h = "12000000 02000000" + hexs(var2bytes(pairs[k][0])) + "02000000 0a000000"
		if k == "str_nul":
			h = "12000000 02000000 04000000 01000000 61000000 02000000 0a000000"
			h += "04000000 03000000 61006200"
		else:
			h += hexs(var2bytes(pairs[k][1]))
		h += "02000000 0b000000"
		dec("dedupe_" + k, h, "Dictionary with keys " + str(pairs[k]))
	# Two [NAN] keys stay two keys; the engine then cannot look either up
	# (NaN != NaN in Pool arrays), so its printout and re-encoding of the
	# result are no use, and the expected value is written out here.
	var pra = "16000000 01000000 0000c07f"
	var hp = "12000000 02000000" + pra + "02000000 0a000000" + pra + "02000000 0b000000"
	var dp = bytes2var(hb(hp))
	out("dedupe_pra_nan", "dec", "-", hp.replace(" ", ""), "{\"$map\":[[{\"$f32s\":[\"nan\"]},10],[{\"$f32s\":[\"nan\"]},11]]}" if dp.size() == 2 else "size %d" % dp.size(), "-", "Dictionary with keys [PoolRealArray([NAN]), PoolRealArray([NAN])]")
	dec("dedupe_object_ids", "12000000 02000000 11000100 05000000 00000000 02000000 01000000 11000100 05000000 00000000 02000000 02000000", "two keys with object id 5", false, false, false)

# The example save of examples/ (tests/godot/example_save.sh): what a game
# writes with File.store_var, one Dictionary.
func example_save(path):
	var save = {
		"version": 3,
		"player": {
			"name": "Ann",
			"level": 12,
			"gold": 1250,
			"health": 87.5,
			"position": Vector3(12.5, 0, -3.25),
			"tint": Color(1, 0.5, 0.25, 1),
			"inventory": ["sword", "health potion", "map of the caves"],
		},
		"checkpoints": PoolByteArray([1, 2, 3, 5, 8]),
		"path": PoolVector3Array([Vector3(0, 0, 0), Vector3(1.5, 0, 2)]),
	}
	var f = File.new()
	if f.open(path, File.WRITE) != OK:
		printerr("cannot write ", path)
		quit(1)
		return
	f.store_var(save)
	f.close()

func _init():
	var args = OS.get_cmdline_args()
	for i in range(args.size() - 1):
		if args[i] == "--example-save":
			example_save(args[i + 1])
			quit()
			return
	ints()
	floats()
	strings()
	maths()
	nodepaths()
	objects()
	containers()
	pools()
	framing()
	decodes()
	quit()
