# Oracle generator for serval's PCK, GDEC and ECFG support, run by Godot 3.2.3:
#   godot3-server -s pck_gen.gd          (tests/godot/pck_regen.sh runs it)
# Writes under res://out/: PCKs with PCKPacker, encrypted saves with
# File.open_encrypted (key) and open_encrypted_with_pass (password), and a
# project.binary with ProjectSettings.save_custom. Then it reads each back as
# the engine does and prints what it got, one line per fact:
#   M<TAB>pack<TAB>path<TAB>size<TAB>md5      a member read through res:// after
#                                            ProjectSettings.load_resource_pack
#   L<TAB>pack<TAB>true|false                load_resource_pack's result
#   G<TAB>file<TAB>var2str<TAB>var2bytes hex  what get_var() gave for an encrypted save
#   P<TAB>key<TAB>var2bytes hex              a setting of the project.binary
extends SceneTree

const KEY_HEX = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
const PASSWORD = "serval password"

func hexs(b):
	var s = ""
	for x in b:
		s += "%02x" % x
	return s

func key_bytes():
	var b = PoolByteArray()
	for i in range(0, KEY_HEX.length(), 2):
		b.append(("0x" + KEY_HEX.substr(i, 2)).hex_to_int())
	return b

func write(path, bytes):
	var f = File.new()
	f.open(path, File.WRITE)
	f.store_buffer(bytes)
	f.close()

func sources():
	var d = Directory.new()
	d.make_dir_recursive("res://out")
	d.make_dir_recursive("res://src/sub")
	write("res://src/hello.txt", "hello from Godot 3.2.3\n".to_utf8())
	write("res://src/empty.bin", PoolByteArray())
	var b = PoolByteArray()
	for i in range(300):
		b.append((i * 37 + 11) % 256)
	write("res://src/sub/data.bin", b)
	write("res://src/sub/é.txt", "non-ASCII name\n".to_utf8())

func pack(name, alignment):
	var p = PCKPacker.new()
	p.pck_start("res://out/" + name, alignment)
	p.add_file("res://pck3/hello.txt", "res://src/hello.txt")
	p.add_file("res://pck3/sub/data.bin", "res://src/sub/data.bin")
	p.add_file("res://pck3/empty.bin", "res://src/empty.bin")
	p.add_file("res://pck3/sub/é.txt", "res://src/sub/é.txt")
	p.flush(false)

# The same files added in the byte order of their paths, as serval's pack
# walks a directory: serval godot pck pack must write this pack exactly.
func pack_sorted(name):
	var p = PCKPacker.new()
	p.pck_start("res://out/" + name, 0)
	p.add_file("res://pck3/empty.bin", "res://src/empty.bin")
	p.add_file("res://pck3/hello.txt", "res://src/hello.txt")
	p.add_file("res://pck3/sub/data.bin", "res://src/sub/data.bin")
	p.add_file("res://pck3/sub/é.txt", "res://src/sub/é.txt")
	p.flush(false)

func readback(name, paths):
	var ok = ProjectSettings.load_resource_pack("res://out/" + name)
	print("L\t%s\t%s" % [name, str(ok)])
	var f = File.new()
	for p in paths:
		if not f.file_exists(p):
			print("M\t%s\t%s\tmissing\t" % [name, p])
			continue
		f.open(p, File.READ)
		var n = f.get_len()
		f.close()
		print("M\t%s\t%s\t%d\t%s" % [name, p, n, f.get_md5(p)])

func save_value():
	return {"name": "Ada", "gold": 1234, "pos": Vector2(1.5, -2), "items": ["sword", 3, null],
		"flags": PoolByteArray([1, 2, 3])}

func encrypted():
	var f = File.new()
	f.open_encrypted("res://out/save_key.gdec", File.WRITE, key_bytes())
	f.store_var(save_value())
	f.close()
	f.open_encrypted_with_pass("res://out/save_pass.gdec", File.WRITE, PASSWORD)
	f.store_var(save_value())
	f.store_var(42)
	f.close()
	f.open_encrypted("res://out/raw16.gdec", File.WRITE, key_bytes())
	f.store_buffer("sixteen bytes!!\n".to_utf8())
	f.close()
	for n in ["save_key.gdec", "save_pass.gdec"]:
		if n == "save_key.gdec":
			f.open_encrypted("res://out/" + n, File.READ, key_bytes())
		else:
			f.open_encrypted_with_pass("res://out/" + n, File.READ, PASSWORD)
		while f.get_position() < f.get_len():
			var v = f.get_var()
			print("G\t%s\t%s\t%s" % [n, var2str(v).replace("\n", " "), hexs(var2bytes(v))])
		f.close()

func project():
	ProjectSettings.set_setting("application/config/name", "serval oracle")
	ProjectSettings.set_setting("application/run/main_scene", "res://main.tscn")
	ProjectSettings.set_setting("display/window/size/width", 800)
	ProjectSettings.set_setting("serval/custom/ratio", 0.75)
	ProjectSettings.set_setting("serval/custom/list", [1, "two", Vector3(3, 4, 5)])
	ProjectSettings.save_custom("res://out/project.binary")

func _init():
	sources()
	pack("pack3.pck", 0)
	pack("pack3_align16.pck", 16)
	pack_sorted("pack3_sorted.pck")
	encrypted()
	project()
	var paths = ["res://pck3/hello.txt", "res://pck3/sub/data.bin", "res://pck3/empty.bin",
		"res://pck3/sub/é.txt"]
	readback("pack3.pck", paths)
	readback("pack3_align16.pck", paths)
	readback("pack3_sorted.pck", paths)
	quit()
