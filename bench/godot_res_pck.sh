#!/usr/bin/env bash
# Godot resources and packs: serval next to the engine and to cp, in one run.
#   1. a ~50 MB binary resource (.res: packed arrays of 2,300,000 Vector3,
#      reals and ints, and SUBS sub-resources of a script class), saved by
#      Godot 3.2.3 itself (bench/godot/res_bench.gd in godot3-server). The
#      engine times ResourceLoader.load (no cache) and ResourceSaver.save of
#      what it loaded inside the script (OS.get_ticks_usec, start-up and
#      building excluded); serval is timed as a whole process, start-up
#      included: `serval validate` (decode) and `serval conv --from
#      godot-res --to godot-res` (decode + encode, checked byte-identical
#      to the engine's file); and inside one process, as the engine times
#      itself, by serval-bench-res (bench/godot_res_time.c): decode of the
#      bytes in memory into a tree, encode back, each run on fresh memory.
#   2. a PCK of 1,000 members (50 KB each, format 1 as Godot 3's PCKPacker
#      lays it out, made by `serval godot pck pack`): `serval godot pck
#      extract` against `cp -r` of the same files already extracted.
# Each figure is the median wall time of RUNS runs (default 5); ratios are
# printed as peer / serval for the engine and serval / cp for the pack.
#
#   bash bench/godot_res_pck.sh BUILD-DIR [RUNS] [SUBS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
runs=${2:-5}
subs=${3:-20000}
serval="$build/serval"
godot=${SERVAL_GODOT3:-godot3-server}
command -v "$godot" >/dev/null || { echo "$godot not found (Debian package godot3-server)"; exit 77; }
command -v python3 >/dev/null || { echo "python3 not found"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/serval-godot-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

median_ms() {  # as in whole_process.sh: median wall ms of RUNS runs of $1
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
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}'; }

# ---- 1. the engine saves the resource and times its own load and save ----
cp "$here/godot/res_bench.gd" "$here/godot/holder.gd" "$work/"
(cd "$work" && HOME="$work" XDG_DATA_HOME="$work" XDG_CONFIG_HOME="$work" LANG=en_US.UTF-8 \
    LC_ALL=en_US.UTF-8 SERVAL_GODOT_RUNS="$runs" SERVAL_RES_SUBS="$subs" \
    "$godot" -s res_bench.gd >"$work/engine.txt" 2>/dev/null) || { echo "the engine run failed"; exit 1; }
if grep -q '^error' "$work/engine.txt" || [ "$(grep -c '^run ' "$work/engine.txt")" != "$runs" ]; then
    echo "the engine run failed:"; cat "$work/engine.txt"; exit 1
fi
eng_load=$(awk '/^run /{print int($2 / 1000)}' "$work/engine.txt" | median)
eng_save=$(awk '/^run /{print int($3 / 1000)}' "$work/engine.txt" | median)
size=$(stat -c %s "$work/big.res")
"$serval" conv --from godot-res --to godot-res -o "$work/serval.res" "$work/big.res"
cmp "$work/big.res" "$work/serval.res" || { echo "serval's encoding differs from the engine's file"; exit 1; }
sv_dec=$(median_ms "'$serval' validate --from godot-res '$work/big.res'")
sv_conv=$(median_ms "'$serval' conv --from godot-res --to godot-res -o '$work/serval.res' '$work/big.res'" "$work/serval.res")
echo "godot-res, $size bytes, $subs sub-resources (median of $runs):"
echo "  engine ResourceLoader.load ${eng_load} ms, ResourceSaver.save ${eng_save} ms (inside the engine)"
echo "  serval validate ${sv_dec} ms; conv (decode + encode) ${sv_conv} ms (whole process)"
echo "  ratio: decode $(ratio "$eng_load" "$sv_dec")x, decode + encode $(ratio $((eng_load + eng_save)) "$sv_conv")x faster than the engine (whole process)"
# Inside the process, as the engine times itself (start-up, mapping and exit
# left out on both sides): the target's figures.
if [ -x "$build/bench/serval-bench-res" ]; then
    read -r _ in_dec _ in_enc < <("$build/bench/serval-bench-res" "$work/big.res" "$runs")
    echo "  serval in process: decode ${in_dec} ms, encode ${in_enc} ms (bench/godot_res_time.c)"
    echo "  ratio in process: decode $(ratio "$eng_load" "$in_dec")x, encode $(ratio "$eng_save" "$in_enc")x faster than the engine (target 5x both ways)"
else
    echo "  (no $build/bench/serval-bench-res: configure with -DSERVAL_BENCH=ON for the in-process figures)"
fi

# ---- 2. a 1,000-member pack: extract against cp -r -----------------------------
python3 - "$work/tree" <<'PY'
import os, random, sys
rnd = random.Random(7)
for i in range(1000):
    d = os.path.join(sys.argv[1], "dir%02d" % (i % 20))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "file%04d.bin" % i), "wb") as f:
        f.write(rnd.randbytes(50_000))
PY
"$serval" godot pck pack "$work/tree" -o "$work/big.pck" --format-version 1 --godot 3.2.3
"$serval" godot pck extract "$work/big.pck" -o "$work/check"
diff -r "$work/tree" "$work/check" >/dev/null || { echo "extract differs from the packed files"; exit 1; }
rm -rf "$work/check"
cp_ms=$(median_ms "cp -r '$work/tree' '$work/copy'" "$work/copy")
ex_ms=$(median_ms "'$serval' godot pck extract '$work/big.pck' -o '$work/out'" "$work/out")
echo "godot pck extract, 1,000 members, $(stat -c %s "$work/big.pck") bytes (median of $runs):"
echo "  cp -r ${cp_ms} ms, serval ${ex_ms} ms: $(ratio "$ex_ms" "$cp_ms")x of cp -r (target <= 1.5x)"
