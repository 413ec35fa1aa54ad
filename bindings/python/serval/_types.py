"""The typed wrappers: Python values that keep an engine type Python would lose.

loads() gives plain Python values wherever serval's typed JSON is plain JSON
(docs/json.md), and one of these classes wherever typed JSON has a "$" form:
F32 for {"$f32": ...}, Vector3 for {"$vector3": [...]}, StringName for
{"$string_name": ...}, and so on. Each is a subclass of the Python type that
holds its data (int, float, str, bytes, list or dict), so it works where that
type does, or, for the engine types that can wrap any value, a small class
whose `value` is the wrapped value. dumps() writes them back as the same
typed JSON forms.
"""


def _name(obj):
    return "serval." + type(obj).__name__


# ---- scalars ---------------------------------------------------------------------

class _Int(int):
    """An integer of an explicit width (the class says which)."""
    __slots__ = ()
    form = ""

    def __repr__(self):
        return "%s(%d)" % (_name(self), int(self))


class I8(_Int):
    __slots__ = ()
    form = "$i8"


class I16(_Int):
    __slots__ = ()
    form = "$i16"


class I32(_Int):
    __slots__ = ()
    form = "$i32"


class I64(_Int):
    """A 64-bit integer whose width the source chose (a plain int is one too)."""
    __slots__ = ()
    form = "$i64"


class U8(_Int):
    __slots__ = ()
    form = "$u8"


class U16(_Int):
    __slots__ = ()
    form = "$u16"


class U32(_Int):
    __slots__ = ()
    form = "$u32"


class U64(_Int):
    __slots__ = ()
    form = "$u64"


class F32(float):
    """A float32. Its value is the float32 exactly (a float32 fits a double);
    NaN payloads are kept in the double's top mantissa bits."""
    __slots__ = ()
    form = "$f32"

    def __repr__(self):
        return "%s(%r)" % (_name(self), float(self))


class F64(float):
    """A float64 that typed JSON writes as a form: the source chose 64 bits on
    purpose, or the value is not finite."""
    __slots__ = ()
    form = "$f64"

    def __repr__(self):
        return "%s(%r)" % (_name(self), float(self))


class Bool(int):
    """A true bool that its source stored as a value other than 0 and 1
    (int(b) is that value: Bool(127) is a padding byte 0x7F)."""
    __slots__ = ()

    def __repr__(self):
        return "%s(%d)" % (_name(self), int(self))


class UTF16(str):
    """A string that came from UTF-16 (it may hold lone surrogates)."""
    __slots__ = ()

    def __repr__(self):
        return "%s(%s)" % (_name(self), str.__repr__(self))


class Str(bytes):
    """A string of the source that is not UTF-8: its bytes."""
    __slots__ = ()

    def __repr__(self):
        return "%s(%s)" % (_name(self), bytes.__repr__(self))


class Ref(object):
    """A reference to another object: an index or id, or None (a null ref)."""
    __slots__ = ("value",)

    def __init__(self, value=None):
        self.value = value

    def __eq__(self, other):
        return type(other) is type(self) and other.value == self.value

    def __hash__(self):
        return hash((Ref, self.value))

    def __repr__(self):
        return "%s(%r)" % (_name(self), self.value)


# ---- containers with meta data or keys a dict cannot hold ---------------------------

class Array(list):
    """A list with meta data (a Godot typed array's element type, say)."""
    meta = None

    def __init__(self, items=(), meta=None):
        list.__init__(self, items)
        self.meta = meta

    def __repr__(self):
        return "%s(%s, meta=%r)" % (_name(self), list.__repr__(self), self.meta)


class Dict(dict):
    """A dict with meta data (a Godot typed dictionary's key and value types)."""
    meta = None

    def __init__(self, items=(), meta=None):
        dict.__init__(self, items)
        self.meta = meta

    def __repr__(self):
        return "%s(%s, meta=%r)" % (_name(self), dict.__repr__(self), self.meta)


class Map(list):
    """A map that a dict cannot hold (keys that are not plain strings, or a key
    twice): its (key, value) pairs in order, with optional meta data."""
    meta = None

    def __init__(self, pairs=(), meta=None):
        list.__init__(self, (tuple(p) for p in pairs))
        self.meta = meta

    def __repr__(self):
        return "%s(%s, meta=%r)" % (_name(self), list.__repr__(self), self.meta)


class Object(dict):
    """A class instance: its fields as a dict, the class name (or hash) as cls."""
    cls = None
    meta = None

    def __init__(self, cls, fields=(), meta=None):
        dict.__init__(self, fields)
        self.cls = cls
        self.meta = meta

    def __repr__(self):
        extra = "" if self.meta is None else ", meta=%r" % (self.meta,)
        return "%s(%r, %s%s)" % (_name(self), self.cls, dict.__repr__(self), extra)


class ObjectPairs(list):
    """A class instance with a field name twice: its (name, value) pairs."""
    cls = None
    meta = None

    def __init__(self, cls, pairs=(), meta=None):
        list.__init__(self, (tuple(p) for p in pairs))
        self.cls = cls
        self.meta = meta

    def __repr__(self):
        extra = "" if self.meta is None else ", meta=%r" % (self.meta,)
        return "%s(%r, %s%s)" % (_name(self), self.cls, list.__repr__(self), extra)


# ---- tagged values: the engine types carried by an ordinary value -------------------

class Tagged(object):
    """An engine type carried by an ordinary value (`value`): StringName("jump"),
    NodePath("Player/Sprite"), RID(42), ..."""
    __slots__ = ("value",)
    tag = ""

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return type(other) is type(self) and other.value == self.value

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        try:
            return hash((type(self), self.value))
        except TypeError:
            return hash(type(self))

    def __str__(self):
        return str(self.value)

    def __repr__(self):
        return "%s(%r)" % (_name(self), self.value)


_TAGGED = [
    ("StringName", "string_name"), ("NodePath", "node_path"), ("RID", "rid"),
    ("Callable", "callable"), ("Signal", "signal"), ("ObjectID", "object_id"),
    ("DateTime", "datetime"), ("BsonObjectId", "objectid"), ("Regex", "regex"),
    ("Timestamp", "timestamp"), ("Decimal128", "decimal128"), ("MinKey", "minkey"),
    ("MaxKey", "maxkey"), ("UUID", "uuid"), ("Enum", "enum"), ("URL", "url"), ("Char", "char"),
    ("ColorARGB", "color_argb"), ("ExtResource", "ext"), ("SubResource", "sub"),
]


# ---- math tuples and packed arrays ------------------------------------------------------

class Tuple(list):
    """A math tuple: its numbers, with the shape in the class and the element
    type in `elem` (the shape's default unless the source chose another)."""
    tag = ""
    scalars = 0
    elem = "f32"

    def __init__(self, numbers=(), elem=None):
        list.__init__(self, numbers)
        if elem is not None and elem != type(self).elem:
            self.elem = elem

    def __repr__(self):
        extra = "" if self.elem == type(self).elem else ", elem=%r" % (self.elem,)
        return "%s(%s%s)" % (_name(self), list.__repr__(self), extra)


class Packed(list):
    """A packed array of math items: one list of numbers per item."""
    tag = ""
    scalars = 0
    elem = "f32"

    def __init__(self, items=(), elem=None):
        list.__init__(self, (list(i) for i in items))
        if elem is not None and elem != type(self).elem:
            self.elem = elem

    def __repr__(self):
        extra = "" if self.elem == type(self).elem else ", elem=%r" % (self.elem,)
        return "%s(%s%s)" % (_name(self), list.__repr__(self), extra)


class Numbers(list):
    """A packed array of numbers without shape; the class names the element type."""
    elem = ""

    def __repr__(self):
        return "%s(%s)" % (_name(self), list.__repr__(self))


_SHAPES = [
    ("Vector2", "vector2", 2, "f32"), ("Vector2i", "vector2i", 2, "i32"),
    ("Rect2", "rect2", 4, "f32"), ("Rect2i", "rect2i", 4, "i32"),
    ("Vector3", "vector3", 3, "f32"), ("Vector3i", "vector3i", 3, "i32"),
    ("Transform2D", "transform2d", 6, "f32"), ("Vector4", "vector4", 4, "f32"),
    ("Vector4i", "vector4i", 4, "i32"), ("Plane", "plane", 4, "f32"),
    ("Quaternion", "quaternion", 4, "f32"), ("AABB", "aabb", 6, "f32"),
    ("Basis", "basis", 9, "f32"), ("Transform3D", "transform3d", 12, "f32"),
    ("Projection", "projection", 16, "f32"), ("Color", "color", 4, "f32"),
    ("Matrix3x3", "matrix3x3", 9, "f32"), ("Matrix3x4", "matrix3x4", 12, "f32"),
    ("Matrix4x4", "matrix4x4", 16, "f32"), ("Euler", "euler", 3, "f32"),
    ("Transform", "transform", 8, "f32"),
]
_PACKED_SHAPES = [
    ("PackedVector2", "packed_vector2", 2, "f32"), ("PackedVector3", "packed_vector3", 3, "f32"),
    ("PackedColor", "packed_color", 4, "f32"), ("PackedVector4", "packed_vector4", 4, "f32"),
]
ELEMS = ("u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64", "f32", "f64")

CLASSES = {}  # every wrapper class by its name in the module (what pickles name)
BY_TAG = {}  # tag name -> class (shapes, packed shapes, tagged values)
BY_ELEM = {}  # element type -> Numbers class

for _cls in (I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, Bool, UTF16, Str, Ref, Array, Dict,
             Map, Object, ObjectPairs):
    CLASSES[_cls.__name__] = _cls
for _n, _tag in _TAGGED:
    CLASSES[_n] = BY_TAG[_tag] = type(_n, (Tagged,), {"__slots__": (), "tag": _tag,
                                                       "__module__": __name__})
for _n, _tag, _k, _e in _SHAPES:
    CLASSES[_n] = BY_TAG[_tag] = type(_n, (Tuple,), {"tag": _tag, "scalars": _k, "elem": _e,
                                                      "__module__": __name__})
for _n, _tag, _k, _e in _PACKED_SHAPES:
    CLASSES[_n] = BY_TAG[_tag] = type(_n, (Packed,), {"tag": _tag, "scalars": _k, "elem": _e,
                                                       "__module__": __name__})
for _e in ELEMS:
    _n = _e.upper() + "s"
    CLASSES[_n] = BY_ELEM[_e] = type(_n, (Numbers,), {"elem": _e, "__module__": __name__})
del _cls, _n, _tag, _k, _e
# The classes made above are attributes of this module too, where their
# __module__ says they are: pickle (and Dask, which sends trees between
# processes) finds a class by that name, and without it cloudpickle copied
# each class by value, so a tree came back with classes dumps() did not know.
globals().update(CLASSES)
