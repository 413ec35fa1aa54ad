# Loads a pack with ProjectSettings.load_resource_pack and reads members back
# through res://, as a game does (tests/godot/pck_load.sh runs it):
#   godot3-server -s pck_load.gd -- PACK PATH...
# Prints "L<TAB>true|false", then per path "M<TAB>path<TAB>size<TAB>md5" (or
# "missing").
extends SceneTree

func _init():
	var args = Array(OS.get_cmdline_args())
	var i = args.find("--")
	var rest = []
	if i >= 0:
		rest = args.slice(i + 1, args.size() - 1)
	else:
		rest = args.slice(2, args.size() - 1)
	var ok = ProjectSettings.load_resource_pack(rest[0])
	print("L\t%s" % str(ok))
	var f = File.new()
	for k in range(1, rest.size()):
		var p = rest[k]
		if not f.file_exists(p):
			print("M\t%s\tmissing" % p)
			continue
		f.open(p, File.READ)
		var n = f.get_len()
		f.close()
		print("M\t%s\t%d\t%s" % [p, n, f.get_md5(p)])
	quit()
