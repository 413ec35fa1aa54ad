# The engine side of bench/godot_res_pck.sh: builds a ~50 MB resource (large
# packed arrays and SERVAL_RES_SUBS sub-resources), saves it with
# ResourceSaver.save to res://big.res, then times SERVAL_GODOT_RUNS rounds of
# ResourceLoader.load (no cache) and ResourceSaver.save of what was loaded
# with OS.get_ticks_usec(), engine start-up and building the data excluded.
# Prints "size <bytes>" once, then "run <load us> <save us>" per round.
extends SceneTree

var Holder = preload("res://holder.gd")

func build():
	var n = 2300000
	var v3 = PoolVector3Array()
	v3.resize(n)
	var reals = PoolRealArray()
	reals.resize(n)
	var ints = PoolIntArray()
	ints.resize(n)
	for i in range(n):
		v3.set(i, Vector3(i * 0.5, i * -0.25, i % 1000))
		reals.set(i, i * 0.125)
		ints.set(i, i * 7 - 1000000)
	var root = Holder.new()
	root.label = "root"
	root.items = [v3, reals, ints]
	var subs = int(OS.get_environment("SERVAL_RES_SUBS"))
	for i in range(subs):
		var s = Holder.new()
		s.label = "sub_%d" % i
		s.value = i
		var b = PoolByteArray()
		b.resize(64)
		for j in range(64):
			b.set(j, (i + j) % 256)
		s.bytes = b
		root.items.append(s)
	return root

func _init():
	var runs = int(OS.get_environment("SERVAL_GODOT_RUNS"))
	if ResourceSaver.save("res://big.res", build()) != OK:
		print("error cannot save res://big.res")
		quit(1)
		return
	var f = File.new()
	f.open("res://big.res", File.READ)
	print("size ", f.get_len())
	f.close()
	for r in range(runs):
		var t0 = OS.get_ticks_usec()
		var loaded = ResourceLoader.load("res://big.res", "", true)
		var t1 = OS.get_ticks_usec()
		var err = ResourceSaver.save("res://engine_out.res", loaded)
		var t2 = OS.get_ticks_usec()
		if loaded == null or err != OK:
			print("error round ", r)
		print("run ", t1 - t0, " ", t2 - t1)
	quit()
