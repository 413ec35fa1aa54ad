#!/usr/bin/python3
"""Makes the Brotli-compressed resources (RSCC mode 4) of this folder from
Godot 4.6's own compressed resource ../v4/all_types_compressed.res (zstd
blocks, decompressed with the zstd command), laid out as Godot's
FileAccessCompressed lays out any RSCC file (spec section 6.1):

    "RSCC", u32 mode (4), u32 block_size, u32 total,
    u32 csize[total // block_size + 1], the blocks, "RSCC"

The plaintext is the resource stream without its leading "RSRC" (the offsets
in it count from there, so it is taken from a file the engine compressed
rather than from an uncompressed one); block i holds block_size bytes of it,
the last one the rest (possibly none), each a Brotli stream of its own. Godot 4 reads mode 4 (BrotliDecoderDecompress) but never
writes it, so these files come from this script (Debian's python3-brotli),
not from the engine; tests/godot/res4_brotli.sh has Godot 4.6 load them and
records what it read back (<name>.json).

    all_types_brotli.res     block size 4096 (Godot's), one block, quality 11
    all_types_brotli_1k.res  block size 1024: three blocks, quality 5, window 16

Run from anywhere: /usr/bin/python3 make_brotli.py (Debian's Python, where
python3-brotli installs; writes beside itself)."""
import os
import struct
import subprocess
import sys

import brotli

HERE = os.path.dirname(os.path.abspath(__file__))


def rscc(plain: bytes, block_size: int, **params) -> bytes:
    count = len(plain) // block_size + 1
    blocks = [brotli.compress(plain[i * block_size:(i + 1) * block_size], **params)
              for i in range(count)]
    head = b"RSCC" + struct.pack("<III", 4, block_size, len(plain))
    sizes = b"".join(struct.pack("<I", len(b)) for b in blocks)
    return head + sizes + b"".join(blocks) + b"RSCC"


def engine_plaintext(path: str) -> bytes:
    """The stream of an RSCC file of zstd blocks (mode 2)."""
    with open(path, "rb") as f:
        data = f.read()
    magic, mode, block_size, total = struct.unpack_from("<4sIII", data)
    if magic != b"RSCC" or mode != 2:
        raise SystemExit(f"{path}: not an RSCC file of zstd blocks")
    count = total // block_size + 1
    sizes = struct.unpack_from(f"<{count}I", data, 16)
    at, plain = 16 + 4 * count, b""
    for size in sizes:
        plain += subprocess.run(["zstd", "-d", "-q", "-c"], input=data[at:at + size],
                                stdout=subprocess.PIPE, check=True).stdout
        at += size
    if len(plain) != total:
        raise SystemExit(f"{path}: the blocks hold {len(plain)} bytes, the header says {total}")
    return plain


def main() -> int:
    plain = engine_plaintext(os.path.join(HERE, "..", "v4", "all_types_compressed.res"))
    out = {
        "all_types_brotli.res": rscc(plain, 4096, quality=11, lgwin=22),
        "all_types_brotli_1k.res": rscc(plain, 1024, quality=5, lgwin=16),
    }
    for name, data in out.items():
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(data)
        print(f"{name}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
