# A resource with a script: the script is an external resource of every
# file that holds one, and its exported variables are always written
# (Godot 3.x compares only native defaults).
extends Resource

export var label = ""
export var value = 0
export var real = 0.0
export(Array) var items = []
export(Dictionary) var dict = {}
export(Resource) var sub = null
export(NodePath) var path = NodePath()
export(PoolByteArray) var bytes = PoolByteArray()
