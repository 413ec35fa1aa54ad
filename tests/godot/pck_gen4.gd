# Godot 4.6 vectors of PCK archives and encrypted files (GDEC), run by
# tests/godot/pck_regen4.sh as the autoload of the 4.6 web export template
# (godot4_run.mjs with GODOT4_GEN=pck_gen4.gd). Writes under user://:
#   - packs with PCKPacker: several alignments, members added out of path
#     order, an empty member, the same packs with three files changed, encrypted members and an encrypted directory
#     (with the all-zero key the official templates are built with, so the
#     engine can mount them), the same with another key (which it cannot),
#     and a patch pack with a removal entry;
#   - store_var saves with FileAccess.open_encrypted (key, and a fixed IV so
#     that a second run gives the same bytes) and open_encrypted_with_pass.
# Then it reads each back as a game does and prints, one line per fact:
#   F<TAB>file<TAB>hex of the file's bytes
#   S<TAB>path<TAB>size<TAB>md5              a source file packed
#   L<TAB>pack<TAB>true|false                 load_resource_pack's result
#   M<TAB>pack<TAB>res://path<TAB>size<TAB>md5  every file under res://pk/PACK/
#                                             (DirAccess walk, FileAccess.get_md5)
#   G<TAB>file<TAB>var_to_str<TAB>var_to_bytes hex   each get_var() of a save
#   N<TAB>file<TAB>count                      how many values get_var() read
# and END last. Before all that, when /tests/in/load.txt exists (files serval
# wrote, put there by godot4_run.mjs with GODOT4_INPUT), it mounts each pack
# it names ("pack<TAB>FILE<TAB>ROOT" lines) and prints IL and IM lines as L
# and M above for every file under res://ROOT, and reads each encrypted save
# it names ("gdec<TAB>FILE<TAB>key|password") printing IG lines as G above.
# Packs come first, on a res:// where no other pack is mounted yet, so a
# member a pack lacks cannot be found in another.
extends Node

const KEY_HEX = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
const PASSWORD = "serval password"
const IV_HEX = "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"
var ZERO_KEY = "0".repeat(64)

# source file -> content; every pack holds all of them under pk/PACK/
var SOURCES = {
	"hello.txt": "hello from Godot 4.6\n".to_utf8_buffer(),
	"empty.bin": PackedByteArray(),
	"sub/data.bin": PackedByteArray(),
	"sub/é.txt": "non-ASCII name\n".to_utf8_buffer(),
	"a16.bin": "sixteen bytes!!\n".to_utf8_buffer(),
}

func write(path: String, bytes: PackedByteArray):
	var f = FileAccess.open(path, FileAccess.WRITE)
	if f == null:
		printerr("cannot write ", path, ": ", FileAccess.get_open_error())
		return
	f.store_buffer(bytes)
	f.close()

func emit_file(name: String, path: String):
	print("F\t", name, "\t", FileAccess.get_file_as_bytes(path).hex_encode())

# user://src2/: the sources with three files changed (one longer, one shorter,
# the empty one filled), for packs of the same paths as another: what
# serval godot pck pack --like must write when given the changed files
func changed_sources():
	DirAccess.make_dir_recursive_absolute("user://src2/sub")
	for n in SOURCES.keys():
		write("user://src2/" + n, SOURCES[n])
	write("user://src2/hello.txt", "changed, and longer than before: 4.6\n".to_utf8_buffer())
	write("user://src2/sub/data.bin", SOURCES["sub/data.bin"].slice(0, 100))
	write("user://src2/empty.bin", "filled\n".to_utf8_buffer())

func sources():
	DirAccess.make_dir_recursive_absolute("user://src/sub")
	DirAccess.make_dir_recursive_absolute("user://out")
	var b = PackedByteArray()
	for i in range(300):
		b.append((i * 37 + 11) % 256)
	SOURCES["sub/data.bin"] = b
	var names = SOURCES.keys()
	names.sort()
	for n in names:
		write("user://src/" + n, SOURCES[n])
		print("S\t", n, "\t", SOURCES[n].size(), "\t", FileAccess.get_md5("user://src/" + n))

# names: the source files in the order they are added; encrypt: those added
# with encrypt = true
# src, root: the source folder, and the folder under res://pk/ (default: name)
func pack(name: String, alignment: int, names: Array, key := "", enc_dir := false, encrypt := [],
		src := "user://src/", root := ""):
	if root == "":
		root = name
	var p = PCKPacker.new()
	var err
	if key == "":
		err = p.pck_start("user://out/" + name + ".pck", alignment)
	else:
		err = p.pck_start("user://out/" + name + ".pck", alignment, key, enc_dir)
	if err != OK:
		printerr("pck_start ", name, ": error ", err)
		return
	for n in names:
		err = p.add_file("res://pk/" + root + "/" + n, src + n, encrypt.has(n))
		if err != OK:
			printerr("add_file ", name, " ", n, ": error ", err)
	err = p.flush(false)
	if err != OK:
		printerr("flush ", name, ": error ", err)
	emit_file(name + ".pck", "user://out/" + name + ".pck")

# pack_name "in:FILE" for the inputs: IM lines, without the "in:"
func walk(pack_name: String, dir: String):
	var tag = "M\t" + pack_name
	if pack_name.begins_with("in:"):
		tag = "IM\t" + pack_name.substr(3)
	for f in DirAccess.get_files_at(dir):
		var path = dir + "/" + f
		var fa = FileAccess.open(path, FileAccess.READ)
		if fa == null:
			print(tag, "\t", path, "\tunreadable\t", FileAccess.get_open_error())
			continue
		var n = fa.get_length()
		fa.close()
		print(tag, "\t", path, "\t", n, "\t", FileAccess.get_md5(path))
	for d in DirAccess.get_directories_at(dir):
		walk(pack_name, dir + "/" + d)

func readback(name: String):
	var ok = ProjectSettings.load_resource_pack("user://out/" + name + ".pck")
	print("L\t", name, "\t", str(ok))
	if ok:
		walk(name, "res://pk/" + name)

func save_value():
	return {"name": "Ada", "gold": 1234, "pos": Vector2(1.5, -2), "items": ["sword", 3, null],
		"flags": PackedByteArray([1, 2, 3]), "ratio": 0.1, "id": &"hero"}

func encrypted():
	var key = KEY_HEX.hex_decode()
	var iv = IV_HEX.hex_decode()
	var f = FileAccess.open_encrypted("user://out/save_key.gdec", FileAccess.WRITE, key, iv)
	if f == null:
		printerr("open_encrypted with an IV: ", FileAccess.get_open_error())
		return
	f.store_var(save_value())
	f.close()
	f = FileAccess.open_encrypted_with_pass("user://out/save_pass.gdec", FileAccess.WRITE, PASSWORD)
	f.store_var(save_value())
	f.store_var(42)
	f.store_var("last")
	f.close()
	f = FileAccess.open_encrypted("user://out/raw16.gdec", FileAccess.WRITE, key, iv)
	f.store_buffer("sixteen bytes!!\n".to_utf8_buffer())
	f.close()
	f = FileAccess.open_encrypted("user://out/empty.gdec", FileAccess.WRITE, key)
	f.close()
	for n in ["save_key.gdec", "save_pass.gdec", "raw16.gdec", "empty.gdec"]:
		emit_file(n, "user://out/" + n)
	for n in ["save_key.gdec", "save_pass.gdec", "empty.gdec"]:
		if n == "save_pass.gdec":
			f = FileAccess.open_encrypted_with_pass("user://out/" + n, FileAccess.READ, PASSWORD)
		else:
			f = FileAccess.open_encrypted("user://out/" + n, FileAccess.READ, key)
		if f == null:
			printerr("cannot read ", n, " back: ", FileAccess.get_open_error())
			continue
		var count = 0
		while f.get_position() < f.get_length():
			var v = f.get_var()
			count += 1
			print("G\t", n, "\t", var_to_str(v).replace("\n", " "), "\t", var_to_bytes(v).hex_encode())
		f.close()
		print("N\t", n, "\t", count)

func load_inputs():
	if not FileAccess.file_exists("/tests/in/load.txt"):
		return
	for line in FileAccess.get_file_as_string("/tests/in/load.txt").split("\n", false):
		var f = line.split("\t")
		var path = "/tests/in/" + f[1]
		if f[0] == "pack":
			var ok = ProjectSettings.load_resource_pack(path)
			print("IL\t", f[1], "\t", str(ok))
			if ok:
				walk("in:" + f[1], "res://" + f[2])
			continue
		# gdec: an encrypted save serval wrote, opened with KEY_HEX or PASSWORD
		var fa
		if f[2] == "key":
			fa = FileAccess.open_encrypted(path, FileAccess.READ, KEY_HEX.hex_decode())
		else:
			fa = FileAccess.open_encrypted_with_pass(path, FileAccess.READ, PASSWORD)
		if fa == null:
			print("IG\t", f[1], "\tcannot open\t", FileAccess.get_open_error())
			continue
		while fa.get_position() < fa.get_length():
			var v = fa.get_var()
			print("IG\t", f[1], "\t", var_to_str(v).replace("\n", " "), "\t", var_to_bytes(v).hex_encode())
		fa.close()

func _ready():
	var info = Engine.get_version_info()
	print("I\tengine\t", info.string, "\t", info.hash)
	load_inputs()
	sources()
	var sorted = SOURCES.keys()
	sorted.sort()
	var shuffled = ["sub/é.txt", "hello.txt", "empty.bin", "sub/data.bin", "a16.bin"]
	var all = sorted.duplicate()
	# plain packs: the 4.x default (32), other alignments, out of path order
	pack("plain32", 32, sorted)
	pack("align1", 1, sorted)
	pack("align16", 16, sorted)
	pack("align256", 256, shuffled)
	pack("unsorted", 32, shuffled)
	pack("align48", 48, shuffled)
	# the same paths and order with three files changed (not mounted)
	changed_sources()
	for c in [["plain32", 32, sorted], ["align1", 1, sorted], ["align16", 16, sorted],
			["align256", 256, shuffled], ["unsorted", 32, shuffled], ["align48", 48, shuffled]]:
		pack(c[0] + "_changed", c[1], c[2], "", false, [], "user://src2/", c[0])
	# encrypted with the templates' key: members only, directory only, both
	pack("enc_files", 32, sorted, ZERO_KEY, false, ["hello.txt", "empty.bin", "sub/data.bin"])
	pack("enc_dir", 32, sorted, ZERO_KEY, true, [])
	pack("enc_both", 16, shuffled, ZERO_KEY, true, all)
	# another key: the engine cannot mount it; serval reads it with the key
	pack("enc_key", 32, sorted, KEY_HEX, true, all)
	# a patch pack: one member, and the removal of another path
	var p = PCKPacker.new()
	p.pck_start("user://out/patch.pck", 32)
	p.add_file("res://pk/patch/hello.txt", "user://src/hello.txt")
	p.add_file_removal("res://pk/plain32/hello.txt")
	p.flush(false)
	emit_file("patch.pck", "user://out/patch.pck")
	for n in ["plain32", "align1", "align16", "align256", "unsorted", "align48", "enc_files", "enc_dir",
			"enc_both", "enc_key"]:
		readback(n)
	# after the patch, res://pk/plain32/hello.txt is gone
	readback("patch")
	walk("plain32-patched", "res://pk/plain32")
	encrypted()
	print("END\t0\tok")
	get_tree().quit()
