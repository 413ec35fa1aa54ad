# The engine side of serval-bench's Godot workloads (bench/workloads_godot.c).
# Builds the same data as bench/gen_godot.c, writes var2bytes of it to
# $SERVAL_GODOT_OUT (serval checks those bytes against its own godot3
# encoding before any time counts), then times $SERVAL_GODOT_RUNS rounds of
# var2bytes and bytes2var with OS.get_ticks_usec(), start-up and data
# building excluded, and prints one line per round: "run <encode us> <decode us>".
#   SERVAL_GODOT_WORKLOAD=mixed_dicts|packed_vec3 godot3-server -s bench.gd
extends SceneTree

func build(workload):
	if workload == "packed_vec3":
		var a = PoolVector3Array()
		a.resize(4000000)
		for i in range(4000000):
			a.set(i, Vector3(i * 0.5, i * -0.25, i % 1000))
		return a
	var list = []
	for i in range(200000):
		var hp = (i % 1000) / 8.0 if i % 2 == 0 else i * 0.1
		list.append({"id": i, "name": "entity_%d" % i, "pos": Vector3(i, i * 0.5, -i), "hp": hp, "tags": ["a", "bb", i]})
	return list

func _init():
	var workload = OS.get_environment("SERVAL_GODOT_WORKLOAD")
	var runs = int(OS.get_environment("SERVAL_GODOT_RUNS"))
	var data = build(workload)
	var bytes = var2bytes(data)
	var f = File.new()
	if f.open(OS.get_environment("SERVAL_GODOT_OUT"), File.WRITE) != OK:
		print("error cannot write the output file")
		quit(1)
		return
	f.store_buffer(bytes)
	f.close()
	for _r in range(runs):
		var t0 = OS.get_ticks_usec()
		var b = var2bytes(data)
		var t1 = OS.get_ticks_usec()
		var back = bytes2var(b)
		var t2 = OS.get_ticks_usec()
		if back == null or b.size() != bytes.size():
			print("error round ", _r)
		print("run ", t1 - t0, " ", t2 - t1)
	quit()
