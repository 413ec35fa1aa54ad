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
#      the members and writing the same files; kingsisle wad list of it;
#   5. peak memory: one conv (format to itself) of a ~50 MB input of every
#      format the bench generates, under /usr/bin/time: peak RSS, its ratio
#      to the input size, user and system CPU time, minor page faults,
#      checked against the RSS targets (RSS_TARGETS below).
# Each figure of 1-4 is the median wall time of RUNS runs (default 5). Like
# cat and jq, conv does not wait for the disk unless --sync is given
# (docs/security.md); each conv is also timed with --sync, to show what the
# wait costs on this machine.
#
#   bash bench/whole_process.sh BUILD-DIR [RUNS] [SECTIONS]
#
# SECTIONS: a comma list of the numbers above (default: 1,2,3,4,5).
# Exit status: 0; 1 when a command failed or a checked target was missed
# (the jq ratio of 3, the RSS targets of 5); 77 when a required tool is
# missing. A row whose input cannot be made here (no Godot engine, no
# Resonite sample) prints "not measured" and does not fail.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
runs=${2:-5}
sections=${3:-1,2,3,4,5}
missed=0
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
if awk -v r="$(ratio "$a" "$b")" 'BEGIN {exit !(r >= 15)}'; then
    echo "   target >= 15x jq: met"
else
    echo "   target >= 15x jq: MISSED"; missed=$((missed + 1))
fi
fi

if want 4; then
a=$(median_ms "cp -r wad-plain cp.out" cp.out)
b=$(median_ms "'$serval' kingsisle wad extract big.wad -o wad.out" wad.out)
c=$(median_ms "python3 zlib_extract.py big.wad py.out" py.out)
diff -r wad-plain wad.out >/dev/null && diff -r wad-plain py.out >/dev/null
d=$(median_ms "'$serval' kingsisle wad list big.wad")
echo "4. kiwad $(sz big.wad), 10,000 members: cp -r of the members ${a} ms, serval extract ${b} ms: $(ratio "$b" "$a")x of cp -r; python3 zlib inflate + write ${c} ms: $(ratio "$b" "$c")x of it; serval list ${d} ms (target < 20 ms)"
fi

if want 5; then
# 5. Peak RSS of one conv per format, against the size of its input.
#    RSS_TARGETS: the most peak RSS may be, as a multiple of the input:
#    1.5x where the data can be passed through nearly as it is (packed
#    Godot arrays, JSON to JSON), 2.5x for every other format.
echo "5. peak memory of one conv (format to itself) per format, /usr/bin/time; ratio = peak RSS / input bytes"
if ! [ -x /usr/bin/time ]; then
    echo "   not measured: /usr/bin/time missing (Debian package time)"
else
bench="$build/bench/serval-bench"
mb=${SERVAL_RSS_MB:-50} # input size in MB (10^6 bytes); 50 for the targets
mkdir -p "$work/rss"
cd "$work/rss"
# The generators read the Resonite sample relative to the source tree.
gen() { (cd "$here/.." && "$bench" --size-mb "$1" --save-input "$2" "$work/rss/$3") >/dev/null 2>gen.err; }
# One row: LABEL LIMIT INPUT-BYTES COMMAND... (COMMAND's output goes to the
# file out.bin, removed before the run).
rss_row() {
    local label=$1 limit=$2 bytes=$3
    shift 3
    rm -f out.bin
    if ! /usr/bin/time -f '%M %U %S %e %R' -o time.txt "$@" >/dev/null 2>cmd.err; then
        echo "   $label: FAILED: $* ($(head -c 300 cmd.err))"; missed=$((missed + 1)); return
    fi
    read -r kb user sys wall faults <time.txt
    local verdict
    verdict=$(awk -v kb="$kb" -v b="$bytes" -v l="$limit" 'BEGIN {
        r = kb * 1024 / b; printf "%.2fx of the input (target < %sx): %s", r, l, (r < l ? "met" : "MISSED") }')
    printf '   %-26s input %7.1f MB  peak RSS %7.1f MB  %s  user %ss sys %ss wall %ss minor faults %s\n' \
        "$label" "$(awk -v b="$bytes" 'BEGIN {print b / 1e6}')" \
        "$(awk -v k="$kb" 'BEGIN {print k * 1024 / 1e6}')" "$verdict" "$user" "$sys" "$wall" "$faults"
    case $verdict in *MISSED) missed=$((missed + 1)) ;; esac
}
not_measured() { printf '   %-26s not measured: %s\n' "$1" "$2"; }
bytes() { stat -c %s "$1"; }

if "$bench" --size-mb "$mb" --save typed.json >/dev/null; then
    rss_row "json -> json" 1.5 "$(bytes typed.json)" "$serval" conv -q --from json --to json -o out.bin typed.json
fi
if gen "$mb" godot.vec3.decode vec3.g3 && "$serval" conv -q --from godot3 --to godot4 -o vec3.g4 vec3.g3; then
    rss_row "godot3 packed Vector3" 1.5 "$(bytes vec3.g3)" "$serval" conv -q --from godot3 --to godot3 -o out.bin vec3.g3
    rss_row "godot4 packed Vector3" 1.5 "$(bytes vec3.g4)" "$serval" conv -q --from godot4 --to godot4 -o out.bin vec3.g4
    rm -f vec3.g3 vec3.g4
else
    not_measured "godot packed Vector3" "$(head -c 200 gen.err)"
fi
if gen "$mb" godot.dicts.decode dicts.g3 && "$serval" conv -q --from godot3 --to godot4 -o dicts.g4 dicts.g3; then
    rss_row "godot3 dictionaries" 2.5 "$(bytes dicts.g3)" "$serval" conv -q --from godot3 --to godot3 -o out.bin dicts.g3
    rss_row "godot4 dictionaries" 2.5 "$(bytes dicts.g4)" "$serval" conv -q --from godot4 --to godot4 -o out.bin dicts.g4
    rm -f dicts.g3 dicts.g4
else
    not_measured "godot dictionaries" "$(head -c 200 gen.err)"
fi
# The Resonite inputs hold 2 x --size-mb of BSON; the .brson's ratio is to
# the BSON it holds (what the tree is built from), not to its compressed size.
if gen "$(awk -v m="$mb" 'BEGIN {print m / 2}')" resonite.bson-decode big.bson &&
    gen "$(awk -v m="$mb" 'BEGIN {print m / 2}')" resonite.brson-decode big.brson; then
    rss_row "bson" 2.5 "$(bytes big.bson)" "$serval" conv -q --from bson --to bson -o out.bin big.bson
    rss_row "resonite .brson (payload)" 2.5 "$(bytes big.bson)" "$serval" conv -q --from resonite --to resonite -o out.bin big.brson
    rm -f big.bson big.brson
else
    not_measured "bson, resonite" "$(head -c 200 gen.err)"
fi
if gen "$mb" noesis.decode big.nsb; then
    rss_row "noesis" 2.5 "$(bytes big.nsb)" "$serval" conv -q --from noesis --to noesis -o out.bin big.nsb
    rm -f big.nsb
else
    not_measured "noesis" "$(head -c 200 gen.err)"
fi
if gen "$mb" kingsisle.decode big.ki && "$bench" --save-types types.json >/dev/null; then
    rss_row "kingsisle" 2.5 "$(bytes big.ki)" "$serval" conv -q --schema types.json --from kingsisle \
        --to kingsisle -I flags=1 -O flags=1 -o out.bin big.ki
    rm -f big.ki
else
    not_measured "kingsisle" "$(head -c 200 gen.err)"
fi
# O3DE has no conv: its whole-process path is o3de load (O3DE JSON through
# the schema's types to typed JSON); the schema is the bench's bound structs
# (bench/workloads_o3de.c) written as a schema file.
if gen "$mb" o3de.load scene.json; then
    cat >o3de.schema.json <<'SCHEMA'
{"serval_schema": 1,
 "enums": [{"name": "BenchKind", "underlying": "u32",
            "values": [["Mesh", 0], ["Light", 1], ["Camera", 2], ["Script", 3], ["Collider", 4]]}],
 "classes": [
  {"name": "BenchComponent", "fields": [{"name": "kind", "type": "BenchKind"}, {"name": "name", "type": "string"},
     {"name": "position", "type": "vector3"}, {"name": "rotation", "type": "quaternion"},
     {"name": "scale", "type": "f32"}, {"name": "enabled", "type": "bool"}, {"name": "tags", "type": "vector<i32>"}]},
  {"name": "BenchEntity", "fields": [{"name": "id", "type": "u64"}, {"name": "name", "type": "string"},
     {"name": "color", "type": "color"}, {"name": "components", "type": "vector<BenchComponent>"}]},
  {"name": "BenchScene", "fields": [{"name": "title", "type": "string"}, {"name": "version", "type": "u32"},
     {"name": "entities", "type": "vector<BenchEntity>"}]}]}
SCHEMA
    rss_row "o3de load" 2.5 "$(bytes scene.json)" "$serval" o3de load --schema o3de.schema.json \
        --type BenchScene scene.json
    rm -f scene.json
else
    not_measured "o3de load" "$(head -c 200 gen.err)"
fi
# godot-res: a ~50 MB resource saved by Godot 3.2.3 itself (as godot_res_pck.sh
# makes it); without the engine it is not measured.
godot=${SERVAL_GODOT3:-godot3-server}
if command -v "$godot" >/dev/null; then
    cp "$here/godot/res_bench.gd" "$here/godot/holder.gd" .
    if HOME="$PWD" XDG_DATA_HOME="$PWD" XDG_CONFIG_HOME="$PWD" LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 \
        SERVAL_GODOT_RUNS=1 SERVAL_RES_SUBS=20000 "$godot" -s res_bench.gd >engine.txt 2>/dev/null &&
        [ -f big.res ]; then
        rss_row "godot-res" 2.5 "$(bytes big.res)" "$serval" conv -q --from godot-res --to godot-res -o out.bin big.res
    else
        echo "   godot-res: FAILED: the engine did not save big.res"; missed=$((missed + 1))
    fi
else
    not_measured "godot-res" "$godot not found (Debian package godot3-server)"
fi
rm -f out.bin
cd "$work"
fi
fi

if [ "$missed" -gt 0 ]; then
    echo "$missed target(s) missed or measurement(s) failed"
    exit 1
fi
