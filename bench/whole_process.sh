#!/usr/bin/env bash
# Whole-process timings of the serval command next to the tools a user would
# compare it with, all in one run on the same files:
#   1. conv --from godot3 --to godot3 of a 48 MB PackedVector3Array
#      against cat of the same file to a new file;
#   2. validate of a .brson holding about 100 MB of BSON
#      against brotli -d of its payload (a headerless .brson is the bare
#      Brotli stream, so the payload is the file);
#   3. conv --from json --to json of a 50 MB typed JSON document
#      (serval-bench --save) against jq -c . of the same file;
#   4. kingsisle wad extract of the 200 MB archive of the kiwad workloads
#      (serval-bench --save-kiwad: 10,000 members, half zlib) against cp -r
#      of its members already extracted, and against Python's zlib inflating
#      the members and writing the same files; kingsisle wad list of it.
# Each figure is the median wall time of RUNS runs (default 5). Like cat and
# jq, conv does not wait for the disk unless --sync is given
# (docs/security.md); each conv is also timed with --sync, to show what the
# wait costs on this machine.
#
#   bash bench/whole_process.sh BUILD-DIR [RUNS] [SECTIONS]
#
# SECTIONS: a comma list of the numbers above (default: 1,2,3,4).
set -eu
build=$(cd "${1:-build}" && pwd)
runs=${2:-5}
sections=${3:-1,2,3,4}
want() { case ",$sections," in *",$1,"*) return 0 ;; esac; return 1; }
serval="$build/serval"
work=$(mktemp -d "${TMPDIR:-/tmp}/serval-whole.XXXXXX")
trap 'rm -rf "$work"' EXIT
for t in brotli jq python3; do
    command -v $t >/dev/null || { echo "$t not found (bash scripts/install-deps.sh bench)"; exit 77; }
done

# Median of RUNS wall times of a shell command, in milliseconds. Before each
# run (untimed) the command's output file, if named, is removed and the disk
# is synced, so that no run pays for the previous one: replacing a file whose
# pages are still being written back waits for that writeback.
median_ms() {
    local i s e times=()
    for ((i = 0; i < runs; i++)); do
        if [ -n "${2:-}" ]; then rm -rf "$2"; sync; fi
        s=$(date +%s%N)
        bash -c "$1" >/dev/null 2>&1 || { echo "failed: $1" >&2; exit 1; }
        e=$(date +%s%N)
        times+=($(((e - s) / 1000000)))
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}'; }

echo "generating inputs in $work ..."
if want 1; then
# 1. Godot 3 raw Variant: type 25 (PoolVector3Array), count, 4,000,000
#    Vector3 of float32 = 48,000,008 bytes.
python3 - "$work/pv3.bin" <<'PY'
import array, struct, sys
n = 4_000_000
a = array.array('f', (i * 0.25 for i in range(3 * n)))
with open(sys.argv[1], 'wb') as f:
    f.write(struct.pack('<II', 25, n))
    f.write(a.tobytes())
PY
fi
if want 2; then
# 2. about 100 MB of BSON in a Resonite-shaped tree, as a headerless .brson.
python3 - "$work/big.json" <<'PY'
import json, sys
slots = [{"ID": "ID%08x" % i, "Name": {"Data": "Slot %d" % i},
          "Position": {"Data": [i * 0.5, 1.0, -2.0]},
          "Tag": {"Data": "x" * 40}, "Active": {"Data": True}} for i in range(600_000)]
json.dump({"VersionNumber": "2024.1.1", "Object": {"Children": slots}}, open(sys.argv[1], "w"))
PY
"$serval" conv --from json --to bson -o "$work/big.bson" "$work/big.json"
"$serval" conv --from json --to resonite -O framing=legacy -O quality=5 -o "$work/big.brson" "$work/big.json"
fi
if want 3; then
# 3. the benchmark's typed JSON document.
"$build/bench/serval-bench" --size-mb 50 --save "$work/typed.json" >/dev/null
fi
if want 4; then
# 4. the kiwad workloads' archive, and its members as plain files for cp -r.
"$build/bench/serval-bench" --size-mb 50 --save-kiwad "$work/big.wad" >/dev/null
"$serval" kingsisle wad extract "$work/big.wad" -o "$work/wad-plain"
cat > "$work/zlib_extract.py" <<'PY'
# zlib's inflate of every member plus the write, as extract does it; no checks.
import os, struct, sys, zlib
d = open(sys.argv[1], 'rb').read()
version, count = struct.unpack_from('<II', d, 5)
pos = 14 if version >= 2 else 13
for _ in range(count):
    off, size, csize, z, crc, nlen = struct.unpack_from('<IIIBII', d, pos)
    name = d[pos + 21:pos + 20 + nlen].decode()
    pos += 21 + nlen
    path = os.path.join(sys.argv[2], name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(zlib.decompress(d[off:off + csize]) if z else d[off:off + size])
PY
fi

sz() { awk -v b="$(stat -c %s "$1")" 'BEGIN {printf "%.1f MB", b / 1e6}'; }
want 4 && echo "big.wad $(sz "$work/big.wad"), $(find "$work/wad-plain" -type f | wc -l) members, $(du -sb "$work/wad-plain" | awk '{printf "%.1f MB", $1 / 1e6}') extracted"
want 1 && echo "pv3.bin $(sz "$work/pv3.bin")"
want 2 && echo "big.brson $(sz "$work/big.brson") holding $(sz "$work/big.bson") of BSON"
want 3 && echo "typed.json $(sz "$work/typed.json")"
echo "median of $runs runs, whole process, wall time:"

cd "$work"
if want 1; then
a=$(median_ms "cat pv3.bin > cat.out" cat.out)
b=$(median_ms "'$serval' conv --from godot3 --to godot3 -o conv.out pv3.bin" conv.out)
c=$(median_ms "'$serval' conv --sync --from godot3 --to godot3 -o conv.out pv3.bin" conv.out)
cmp pv3.bin conv.out
echo "1. godot3 48 MB PackedVector3Array: cat ${a} ms, serval conv ${b} ms: $(ratio "$b" "$a")x of cat (target <= 2x); with --sync ${c} ms: $(ratio "$c" "$a")x"
fi

if want 2; then
a=$(median_ms "brotli -d -c big.brson > /dev/null")
b=$(median_ms "'$serval' validate -q big.brson")
c=$(median_ms "'$serval' validate -q -T 0 big.brson")
echo "2. validate .brson ($(sz big.bson) BSON): brotli -d ${a} ms, serval validate ${b} ms (-T 0: ${c} ms): $(ratio "$b" "$a")x of brotli -d (target <= 1.2x)"
fi

if want 3; then
a=$(median_ms "jq -c . typed.json > jq.out" jq.out)
b=$(median_ms "'$serval' conv --from json --to json -o json.out typed.json" json.out)
c=$(median_ms "'$serval' conv --sync --from json --to json -o json.out typed.json" json.out)
echo "3. typed JSON $(sz typed.json): jq -c . ${a} ms, serval conv ${b} ms: $(ratio "$a" "$b")x faster than jq (target >= 15x); with --sync ${c} ms: $(ratio "$a" "$c")x"
fi

if want 4; then
a=$(median_ms "cp -r wad-plain cp.out" cp.out)
b=$(median_ms "'$serval' kingsisle wad extract big.wad -o wad.out" wad.out)
c=$(median_ms "python3 zlib_extract.py big.wad py.out" py.out)
diff -r wad-plain wad.out >/dev/null && diff -r wad-plain py.out >/dev/null
d=$(median_ms "'$serval' kingsisle wad list big.wad")
echo "4. kiwad $(sz big.wad), 10,000 members: cp -r of the members ${a} ms, serval extract ${b} ms: $(ratio "$b" "$a")x of cp -r; python3 zlib inflate + write ${c} ms: $(ratio "$b" "$c")x of it; serval list ${d} ms (target < 20 ms)"
fi
