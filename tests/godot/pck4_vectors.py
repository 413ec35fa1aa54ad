#!/usr/bin/env python3
"""Builds the Godot 4.x PCK and GDEC test vectors from the layout tables of the
format (pack formats 2 and 3, encrypted members and directory, a pack appended
to an executable, a 4.x GDEC file), independently of serval: the bytes are
assembled here with struct, MD5s come from hashlib and AES-256-CFB128 from the
openssl command. 4.x output has random IVs in the engine; here they are fixed,
so the vectors are reproducible.

    python3 tests/godot/pck4_vectors.py            # rewrite tests/vectors/godot-{pck,gdec}/spec4
    python3 tests/godot/pck4_vectors.py --check    # compare with the committed ones

Each pack gets NAME.expected: one line per member, "path<TAB>size<TAB>md5", the
MD5 of the plaintext computed here, and the members' plaintext under
NAME.members/ for the extract test."""
import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "vectors")
KEY = bytes(range(0x20, 0x40))  # the 32-byte key of the encrypted vectors
KEY_HEX = KEY.hex()

# In the byte order of their paths, the order serval's pack walks a directory
# in, so that a fresh pack of members/ must give v3_plain.pck and v2_plain.pck.
MEMBERS = [
    ("data/empty.bin", b""),
    ("data/numbers.bin", bytes((i * 7 + 3) % 256 for i in range(100))),
    ("icon.svg", b"<svg xmlns='http://www.w3.org/2000/svg'/>\n"),
    ("readme.txt", b"a member of a Godot 4 pack\n"),
]


def cfb_encrypt(key, iv, data):
    """AES-256-CFB128 of data (a multiple of 16 bytes) by the openssl command."""
    r = subprocess.run(["openssl", "enc", "-aes-256-cfb", "-nopad", "-nosalt", "-K", key.hex(),
                        "-iv", iv.hex()], input=data, capture_output=True, check=True)
    return r.stdout


def gdec_block(key, iv, plain, magic):
    """FileAccessEncrypted 4.x: [GDEC] md5 u64 length iv ciphertext (zero-padded to 16)."""
    padded = plain + b"\0" * ((16 - len(plain) % 16) % 16)
    head = b"GDEC" if magic else b""
    return head + hashlib.md5(plain).digest() + struct.pack("<Q", len(plain)) + iv + \
        cfb_encrypt(key, iv, padded)


def path_field(p):
    """4.x: the path without res://, NUL-padded to a multiple of 4."""
    b = p.encode()
    return b + b"\0" * ((4 - len(b) % 4) % 4)


def pad(pos, a):
    return (a - pos % a) % a if a > 1 else 0


def entries(members, offsets, stored_flags):
    d = b""
    for (path, data), off, flags in zip(members, offsets, stored_flags):
        f = path_field(path)
        d += struct.pack("<I", len(f)) + f + struct.pack("<QQ", off, len(data)) + \
            hashlib.md5(data).digest() + struct.pack("<I", flags)
    return d


def pack_v3(members, align=32, enc_files=False, enc_dir=False, ver=(4, 6, 0)):
    """As 4.6 PCKPacker: 104-byte header padded to align = file_base; members each
    padded to align; the directory at the end."""
    flags = 2 | (1 if enc_dir else 0)
    pos = 104 + pad(104, align)
    file_base = pos
    body = b""
    offsets = []
    for i, (path, data) in enumerate(members):
        offsets.append(pos - file_base)
        stored = gdec_block(KEY, bytes([0xA0 + i] * 16), data, False) if enc_files else data
        body += stored
        pos += len(stored)
        p = pad(pos, align)
        body += b"\0" * p
        pos += p
    dir_offset = pos
    ents = entries(members, offsets, [1 if enc_files else 0] * len(members))
    if enc_dir:
        ents = gdec_block(KEY, bytes([0xD1] * 16), ents, False)
    header = b"GDPC" + struct.pack("<IIIIIQQ", 3, *ver, flags, file_base, dir_offset) + b"\0" * 64
    head_pad = b"\0" * (file_base - 104)
    return header + head_pad + body + struct.pack("<I", len(members)) + ents


def pack_v2(members, align=32, ver=(4, 2, 2)):
    """As 4.0-4.4 PCKPacker: header with flags 0 and an absolute file_base; the
    directory right after it; the data padded to align."""
    dir_len = 4 + sum(4 + len(path_field(p)) + 8 + 8 + 16 + 4 for p, _ in members)
    pos = 100 + dir_len - 4
    pos += pad(pos, align)
    file_base = pos
    body = b""
    offsets = []
    for path, data in members:
        offsets.append(pos - file_base)
        body += data
        pos += len(data)
        p = pad(pos, align)
        body += b"\0" * p
        pos += p
    header = b"GDPC" + struct.pack("<IIIIIQ", 2, *ver, 0, file_base) + b"\0" * 64
    d = header + struct.pack("<I", len(members)) + entries(members, offsets, [0] * len(members))
    return d + b"\0" * (file_base - len(d)) + body


def pack_v1_export(members, base):
    """As the 3.x editor export writes a pack at offset base of an executable:
    res:// paths NUL-padded to 4, real MD5s, the data after the directory padded
    to 16, each member padded to 16; offsets absolute in the file."""
    fields = [("res://" + p).encode() for p, _ in members]
    fields = [f + b"\0" * ((4 - len(f) % 4) % 4) for f in fields]
    dir_end = 88 + sum(4 + len(f) + 8 + 8 + 16 for f in fields)
    pos = dir_end + pad(dir_end, 16)
    body, offs = b"", []
    for _, data in members:
        offs.append(base + pos)
        body += data + b"\0" * pad(len(data), 16)
        pos += len(data) + pad(len(data), 16)
    d = b"GDPC" + struct.pack("<IIII", 1, 3, 2, 3) + b"\0" * 64 + struct.pack("<I", len(members))
    for f, (_, data), off in zip(fields, members, offs):
        d += struct.pack("<I", len(f)) + f + struct.pack("<QQ", off, len(data)) + hashlib.md5(data).digest()
    return d + b"\0" * pad(len(d), 16) + body


def embed(exe, pck):
    """As the export appends a pack: pad by position % 8, the pack, pad by
    (pos - start + 12) % 8, u64 pack size, "GDPC". A format 3 pack's offsets are
    relative to its start, so it moves as it is."""
    out = exe + b"\0" * (len(exe) % 8)
    start = len(out)
    out += pck
    out += b"\0" * ((len(out) - start + 12) % 8)
    return out + struct.pack("<Q", len(out) - start) + b"GDPC"


def expected(members, flags="", prefix=""):
    """What serval godot pck list must print: path as stored, size, MD5, flags."""
    return "".join("%s%s\t%d\t%s%s\n" % (prefix, p, len(d), hashlib.md5(d).hexdigest(), flags)
                   for p, d in members)


def godot4_store_var_string(s):
    """store_var of a String in Godot 4: u32 length, then type 4, u32 byte
    length, the UTF-8 padded to 4."""
    b = s.encode()
    v = struct.pack("<II", 4, len(b)) + b + b"\0" * ((4 - len(b) % 4) % 4)
    return struct.pack("<I", len(v)) + v


EXE = b"\x7fELF" + b"a Godot 3 executable stand-in\n" * 2


def build(dest):
    pck = os.path.join(dest, "godot-pck", "spec4")
    gdec = os.path.join(dest, "godot-gdec", "spec4")
    os.makedirs(pck, exist_ok=True)
    os.makedirs(gdec, exist_ok=True)
    packs = {
        "v3_plain.pck": pack_v3(MEMBERS),
        "v3_enc_files.pck": pack_v3(MEMBERS, enc_files=True),
        "v3_enc_dir.pck": pack_v3(MEMBERS, enc_files=True, enc_dir=True),
        "v2_plain.pck": pack_v2(MEMBERS),
        "v3_embedded.bin": embed(b"\x7fELF" + b"not really an executable\n" * 3, pack_v3(MEMBERS)),
        "v1_embedded.bin": embed(EXE, pack_v1_export(MEMBERS, len(EXE) + len(EXE) % 8)),
    }
    for name, data in packs.items():
        with open(os.path.join(pck, name), "wb") as f:
            f.write(data)
        with open(os.path.join(pck, name + ".expected"), "w") as f:
            f.write(expected(MEMBERS, "\tencrypted" if "_enc_" in name else "",
                             "res://" if name.startswith("v1") else ""))
    with open(os.path.join(pck, "key.txt"), "w") as f:
        f.write(KEY_HEX + "\n")
    members = os.path.join(pck, "members")
    for path, data in MEMBERS:
        p = os.path.join(members, path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
    plain = godot4_store_var_string("a Godot 4 save")
    with open(os.path.join(gdec, "save4.gdec"), "wb") as f:
        f.write(gdec_block(KEY, bytes(range(16)), plain, True))
    with open(os.path.join(gdec, "save4.plain"), "wb") as f:
        f.write(plain)
    with open(os.path.join(gdec, "key.txt"), "w") as f:
        f.write(KEY_HEX + "\n")


def tree(d):
    out = {}
    for root, _, files in os.walk(d):
        for n in files:
            p = os.path.join(root, n)
            with open(p, "rb") as f:
                out[os.path.relpath(p, d)] = f.read()
    return out


def main():
    if shutil.which("openssl") is None:
        print("the openssl command is not installed; skipping")
        return 77
    if len(sys.argv) > 1 and sys.argv[1] == "--check":
        with tempfile.TemporaryDirectory() as t:
            build(t)
            for sub in ("godot-pck/spec4", "godot-gdec/spec4"):
                if tree(os.path.join(t, sub)) != tree(os.path.join(OUT, sub)):
                    print("regenerated %s differs from the committed vectors" % sub)
                    return 1
        print("the spec-built Godot 4 vectors regenerate byte for byte")
        return 0
    build(OUT)
    print("wrote tests/vectors/godot-pck/spec4 and tests/vectors/godot-gdec/spec4")
    return 0


if __name__ == "__main__":
    sys.exit(main())
