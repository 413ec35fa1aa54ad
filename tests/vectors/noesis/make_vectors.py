#!/usr/bin/env python3
"""Writes the NSDH test vectors of this folder, independently of serval.

The real samples (../shared/samples/noesis-nsb/) are all little-endian,
8-bit, version 4 or 5. The layout (docs/formats/noesis.md B.6) leaves
big-endian files, the unicode variant and versions 2 and 3 unseen; these
files show them as serval understands them (every field in the file's byte
order, 16-bit string lists with 00 00 terminators and BYTE offsets). serval
must decode each and write back the same bytes (tests/unit/test_noesis_variants.c).

    python3 make_vectors.py        # rewrites the .nsb files here
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

IDS = {n: i for i, n in enumerate(
    "BeginInstance EndInstance BeginGroup EndGroup BeginArray EndArray Ref Int8 Int16 Int32 "
    "Int64 UInt8 UInt16 UInt32 UInt64 Bool Float32 Float64 Char8 Char16 String8 String16 "
    "Buffer".split())}
NO_DESC = {"BeginInstance", "EndInstance", "EndGroup", "EndArray"}


class File:
    def __init__(self, big, unicode):
        self.e = ">" if big else "<"
        self.big = big
        self.unicode = unicode

    def p(self, fmt, *v):
        return struct.pack(self.e + fmt, *v)

    def text(self, s):
        """One string list entry with its terminator."""
        if self.unicode:
            return s.encode("utf-16-be" if self.big else "utf-16-le", "surrogatepass") + b"\0\0"
        return s.encode("utf-8") + b"\0"

    def strlist(self, names):
        out, offs = b"", []
        for n in names:
            offs.append(len(out))
            out += self.text(n)
        return out, offs


def build(big, unicode, version, with_metadata=True):
    f = File(big, unicode)
    p = f.p
    # chunk strings: a duplicate "Node" and an empty entry; Node's classId
    # names the SECOND "Node" (so the tree needs "string": 3).
    strings, soff = f.strlist(["Root", "Node", "", "Node"])
    comps = p("II", soff[3], 1) + p("II", soff[0], 2)
    names = ["*version", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "flag", "f32",
             "f64", "c8", "c16", "s8", "s16", "buf", "ref", "Items", "size", "val", "Dict",
             "item", "key", "Empty", "Pad", "LocalValue"]
    md_strings, moff = f.strlist(names)
    D = {n: moff[i] for i, n in enumerate(names)}
    cmds, data = b"", b""

    def c(name, field=None, count=None):
        nonlocal cmds
        op = IDS[name] | (0x80 if count is not None else 0)
        cmds += bytes([op])
        if count is not None:
            cmds += p("I", count)
        if name not in NO_DESC:
            cmds += p("I", D[field])

    def d(fmt, *v):
        nonlocal data
        data += p(fmt, *v)

    def s8(b):
        nonlocal data
        data += p("I", len(b)) + b

    def s16(s):
        nonlocal data
        u = s.encode("utf-16-be" if big else "utf-16-le", "surrogatepass")
        data += p("I", len(u) // 2) + u

    # instance 0 (Node): every value command once
    c("BeginInstance")
    c("UInt32", "*version"); d("I", 7)
    c("Int8", "i8"); d("b", -5)
    c("Int16", "i16"); d("h", -300)
    c("Int32", "i32"); d("i", -70000)
    c("Int64", "i64"); d("q", -5000000000)
    c("UInt8", "u8"); d("B", 200)
    c("UInt16", "u16"); d("H", 60000)
    c("UInt32", "u32"); d("I", 4000000000)
    c("UInt64", "u64"); d("Q", 2**63 + 5)
    c("Bool", "flag"); d("B", 1)
    c("Float32", "f32"); d("f", 1.5)
    c("Float64", "f64"); d("d", -2.25)
    c("Char8", "c8"); d("B", 0x41)
    c("Char16", "c16"); d("H", 0x263A)
    c("String8", "s8"); s8("h\u00e9llo".encode())
    c("String16", "s16"); s16("A\u00e9\U0001F600\ud800")
    c("Buffer", "buf"); s8(b"\x01\x02\x03")
    c("Ref", "ref"); d("I", 1)
    c("Ref", "ref"); d("I", 0xFFFFFFFF)  # a second "ref": key "ref#2"
    c("EndInstance")
    # instance 1 (Root): arrays, a dictionary, repeats of every kind
    c("BeginInstance")
    c("UInt32", "*version"); d("I", 1)
    c("BeginArray", "Items")
    c("UInt32", "size"); d("I", 3)
    c("Ref", "val", 3); d("III", 0, 0xFFFFFFFF, 2)
    c("EndArray")
    c("BeginArray", "Dict")
    c("UInt32", "size"); d("I", 2)
    c("BeginGroup", "item", 2)
    c("String8", "key")
    c("Ref", "val")
    c("EndGroup")
    s8(b"one"); d("I", 0)
    s8(b"two"); d("I", 3)
    c("EndArray")
    c("Float32", "f32", 2); d("ff", 0.5, -1.0)
    c("BeginGroup", "Empty", 0)
    c("UInt32", "u32")
    c("EndGroup")
    c("UInt8", "Pad", 3); data += b"\x00\x7f\xff"
    c("Bool", "flag", 2); data += b"\x00\x01"
    c("String8", "s8"); s8(b"\xff\xfe")  # not UTF-8: kept as bytes
    c("Int16", "i16", 2); d("hh", -1, 2)
    c("BeginGroup", "LocalValue")
    c("BeginGroup", "LocalValue")  # nested, same name: no suffix inside
    c("UInt16", "u16"); d("H", 9)
    c("EndGroup")
    c("EndGroup")
    c("BeginGroup", "LocalValue"); c("EndGroup")  # second at this level: "LocalValue#2"
    c("EndInstance")
    # instances 2 and 3: one repeated BeginInstance (spec §B.4 [inferred])
    c("BeginInstance", None, 2)
    c("UInt32", "u32")
    c("EndInstance")
    d("I", 10)
    d("I", 11)

    instances = p("IIII", 0, 1, 0, 0)
    out = p("I", 0x4E534448) + p("HHI", version, 1 if unicode else 0, 1)
    chunk = p("Q", len(strings)) + strings + p("Q", len(comps)) + comps
    if with_metadata:
        md = p("Q", len(md_strings)) + md_strings + p("Q", len(cmds)) + cmds
        chunk += p("Q", len(md)) + md
    else:
        chunk += p("Q", 0)
    chunk += p("Q", len(instances)) + instances + p("Q", len(data)) + data
    return out + p("Q", len(chunk)) + chunk


def build_padding_bools(big):
    """Bool fields that store 0x7F, as real files do in the "__padding__"
    fields of a render state's Desc group: serval must keep the byte."""
    f = File(big, False)
    p = f.p
    strings, soff = f.strlist(["DepthStencilState"])
    comps = p("II", soff[0], 1)
    names = ["Desc", "DepthEnable", "__padding__", "Flags"]
    md_strings, moff = f.strlist(names)
    D = {n: moff[i] for i, n in enumerate(names)}
    cmds = bytes([IDS["BeginInstance"]])
    cmds += bytes([IDS["BeginGroup"]]) + p("I", D["Desc"])
    cmds += bytes([IDS["Bool"]]) + p("I", D["DepthEnable"])
    cmds += bytes([IDS["Bool"] | 0x80]) + p("I", 3) + p("I", D["__padding__"])
    cmds += bytes([IDS["EndGroup"]])
    cmds += bytes([IDS["Bool"]]) + p("I", D["Flags"])
    cmds += bytes([IDS["EndInstance"]])
    data = b"\x01" + b"\x7f\x7f\x7f" + b"\x80"
    instances = p("I", 0)
    out = p("I", 0x4E534448) + p("HHI", 4, 0, 1)
    chunk = p("Q", len(strings)) + strings + p("Q", len(comps)) + comps
    md = p("Q", len(md_strings)) + md_strings + p("Q", len(cmds)) + cmds
    chunk += p("Q", len(md)) + md
    chunk += p("Q", len(instances)) + instances + p("Q", len(data)) + data
    return out + p("Q", len(chunk)) + chunk


def build_local_values():
    """Local values and a colour laid out as the real version 4 files with
    metadata write them (a DependencyObject's LocalValue groups, each a
    Property group holding a Ref to a DependencyPropertySerializer, then the
    Value; a SolidColorBrush's Value group holding the UInt32 "color"
    0xAARRGGBB), for serval's named view: the ProgressBar's Margin, its
    Height and Width (one repeated group), its Foreground brush, and a
    property named "Name" that must not take the key of the "Name" field."""
    f = File(False, False)
    p = f.p
    classes = ["DependencyPropertySerializer", "SolidColorBrush", "ProgressBar",
               "BeginStoryboard", "UIResource"]
    strings, soff = f.strlist(classes)
    comps = b"".join(p("II", soff[i], v) for i, v in enumerate([0, 2, 0, 0, 3]))
    names = ["*version", "Name", "Owner", "NumLocalValues", "LocalValue", "Property", "Value",
             "color", "NumLocalExpressions", "Flags", "left", "top", "right", "bottom", "Root"]
    md_strings, moff = f.strlist(names)
    D = {n: moff[i] for i, n in enumerate(names)}
    cmds, data = b"", b""

    def c(name, field=None, count=None):
        nonlocal cmds
        cmds += bytes([IDS[name] | (0x80 if count is not None else 0)])
        if count is not None:
            cmds += p("I", count)
        if name not in NO_DESC:
            cmds += p("I", D[field])

    def d(fmt, *v):
        nonlocal data
        data += p(fmt, *v)

    def s8(text):
        nonlocal data
        b = text.encode()
        data += p("I", len(b)) + b

    def local_value_start(ref, count=None):
        c("BeginGroup", "LocalValue", count)
        c("BeginGroup", "Property"); c("Ref", "Property"); c("EndGroup")

    instances = []
    # 0..5: the properties the elements set
    for prop, owner in [("Color", "SolidColorBrush"), ("Margin", "FrameworkElement"),
                        ("Height", "FrameworkElement"), ("Width", "FrameworkElement"),
                        ("Foreground", "Control"), ("Name", "FrameworkElement")]:
        c("BeginInstance"); c("String8", "Name"); c("String8", "Owner"); c("EndInstance")
        s8(prop); s8(owner)
        instances.append(0)
    # 6: a dark grey brush
    c("BeginInstance")
    c("UInt32", "*version"); d("I", 3)
    c("UInt32", "NumLocalValues"); d("I", 1)
    local_value_start(0); d("I", 0)
    c("BeginGroup", "Value"); c("UInt32", "color"); c("EndGroup"); d("I", 0xFF333333)
    c("EndGroup")
    c("UInt32", "NumLocalExpressions"); d("I", 0)
    c("UInt8", "Flags"); d("B", 0)
    c("EndInstance")
    instances.append(1)
    # 7: the ProgressBar: Height and Width in one repeated group, then Margin
    # (a Thickness: four floats) and Foreground (a Ref to the brush)
    c("BeginInstance")
    c("UInt32", "*version"); d("I", 1)
    c("UInt32", "NumLocalValues"); d("I", 4)
    local_value_start(None, 2); c("Float32", "Value"); c("EndGroup")
    d("I", 2); d("f", 18.0)
    d("I", 3); d("f", 150.0)
    local_value_start(1); d("I", 1)
    c("BeginGroup", "Value")
    for side in ("left", "top", "right", "bottom"):
        c("Float32", side)
    c("EndGroup")
    c("EndGroup")
    d("ffff", 10.0, 5.0, 10.0, 5.0)
    local_value_start(4); d("I", 4)
    c("Ref", "Value"); d("I", 6)
    c("EndGroup")
    c("UInt32", "NumLocalExpressions"); d("I", 0)
    c("EndInstance")
    instances.append(2)
    # 8: a local value of the property "Name" next to a field "Name"
    c("BeginInstance")
    c("UInt32", "NumLocalValues"); d("I", 1)
    local_value_start(5); d("I", 5)
    c("String8", "Value"); s8("intro")
    c("EndGroup")
    c("UInt32", "NumLocalExpressions"); d("I", 0)
    c("String8", "Name"); s8("")
    c("EndInstance")
    instances.append(3)
    # 9: the same shapes under BeginArray commands (no real file has them;
    # serval names them all the same): a repeated one, then a single one
    c("BeginInstance")
    c("UInt32", "NumLocalValues"); d("I", 3)
    c("BeginArray", "LocalValue", 2)
    c("BeginGroup", "Property"); c("Ref", "Property"); c("EndGroup")
    c("Float32", "Value")
    c("EndArray")
    d("I", 3); d("f", 40.0)
    d("I", 2); d("f", 20.0)
    c("BeginArray", "LocalValue")
    c("BeginGroup", "Property"); c("Ref", "Property"); c("EndGroup")
    c("Ref", "Value")
    c("EndArray")
    d("I", 4); d("I", 0xFFFFFFFF)
    c("EndInstance")
    instances.append(3)
    # 10: the root, last (version 4)
    c("BeginInstance"); c("UInt32", "*version"); c("Ref", "Root"); c("EndInstance")
    d("I", 0); d("I", 7)
    instances.append(4)

    inst = b"".join(p("I", i) for i in instances)
    out = p("I", 0x4E534448) + p("HHI", 4, 0, 1)
    chunk = p("Q", len(strings)) + strings + p("Q", len(comps)) + comps
    md = p("Q", len(md_strings)) + md_strings + p("Q", len(cmds)) + cmds
    chunk += p("Q", len(md)) + md
    chunk += p("Q", len(inst)) + inst + p("Q", len(data)) + data
    return out + p("Q", len(chunk)) + chunk


VECTORS = {
    "all-commands.le.v5.nsb": dict(big=False, unicode=False, version=5),
    "all-commands.be.v5.nsb": dict(big=True, unicode=False, version=5),
    "all-commands.unicode.le.v5.nsb": dict(big=False, unicode=True, version=5),
    "all-commands.unicode.be.v4.nsb": dict(big=True, unicode=True, version=4),
    "all-commands.le.v2.nsb": dict(big=False, unicode=False, version=2),
    "all-commands.le.v3.nsb": dict(big=False, unicode=False, version=3),
    "no-metadata.be.v3.nsb": dict(big=True, unicode=False, version=3, with_metadata=False),
}

ODD_VECTORS = {
    "padding-bools.le.v4.nsb": dict(big=False),
}

if __name__ == "__main__":
    for name, kw in VECTORS.items():
        with open(os.path.join(HERE, name), "wb") as fh:
            fh.write(build(**kw))
    for name, kw in ODD_VECTORS.items():
        with open(os.path.join(HERE, name), "wb") as fh:
            fh.write(build_padding_bools(**kw))
    with open(os.path.join(HERE, "local-values.le.v4.nsb"), "wb") as fh:
        fh.write(build_local_values())
