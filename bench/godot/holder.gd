# The resource class of bench/godot/res_bench.gd: a script resource whose
# exported variables are always stored, so every sub-resource carries data.
extends Resource

export var label = ""
export var value = 0
export(Array) var items = []
export(PoolByteArray) var bytes = PoolByteArray()
