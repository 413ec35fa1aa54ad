#!/usr/bin/env bash
# The conformance suite: every test vector, every engine-oracle vector and
# every real sample (when ../shared/samples is beside the checkout) through
# the paths users take, each asserting identical bytes:
#
#   direct  serval conv --from F [-I ...] --to F FILE
#   dump    serval dump --from F [-I ...] FILE | serval conv --to F -
#   jq      serval dump ... | jq . | serval conv --to F -        (jq as installed:
#           Debian 12's is 1.6, which prints numbers through doubles)
#   edit    serval dump ... | jq '<one number leaf moved by one>' | serval conv:
#           the result decodes to exactly the edited tree, and for formats that
#           do not compress, has the input's length and differs from it only
#           inside an 8-byte window (the leaf's own bytes)
#   python  serval.loads then serval.dumps (bindings/python/tests/roundtrip.py,
#           with $SERVAL_PYTHON, default python3, and the libserval.so beside
#           the command), on the C extension serval._native built beside it,
#           then again on the ctypes path (reported as pyctypes)
#
#   bash tests/conformance/run.sh PATH-TO-SERVAL [PATHS]
#
# PATHS is a comma list of the paths above (default: all). With
# SERVAL_TEST_SHARD=K/N in the environment only every Nth input, from the
# Kth, is run (CTest runs the suite as N such tests side by side). The second command
# of each pipe takes no -O: what the first decoded must be in the tree. Only
# the type list (--schema) is given to both sides, as it is not data.
# Prints a table of counts per format and path, the failures, and last
# "N passed, M failed, K skipped". Exits 1 when anything failed.
set -u

if [ $# -lt 1 ] || [ ! -x "$1" ]; then
    echo "usage: bash run.sh PATH-TO-SERVAL [PATHS]" >&2
    exit 2
fi
SERVAL=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
PATHS=${2:-direct,dump,jq,edit,python}
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
V="$TOP/tests/vectors"
SAMPLES="$TOP/../shared/samples"
PYRT="$TOP/bindings/python/tests/roundtrip.py"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/serval-conf.XXXXXX") || exit 3
trap 'rm -rf "$scratch"' EXIT
cd "$scratch" || exit 3

# shellcheck source=../lib/shard.sh
. "$HERE/../lib/shard.sh"

have_path() { case ",$PATHS," in *",$1,"*) return 0 ;; esac; return 1; }
HAVE_JQ=0
command -v jq >/dev/null 2>&1 && HAVE_JQ=1
PYTHON=${SERVAL_PYTHON:-python3}
HAVE_PY=0
if have_path python && [ -f "$PYRT" ] && command -v "$PYTHON" >/dev/null 2>&1; then
    HAVE_PY=1
else
    have_path python && echo "# python path skipped: no $PYTHON or no $PYRT"
fi
export SERVAL_BUILD=${SERVAL_BUILD:-$(dirname "$SERVAL")}

declare -A N_PASS N_FAIL
FORMATS=()
PASS=0
FAIL=0
SKIP=0
FAILURES="$scratch/failures.txt"
PYLIST="$scratch/python.tsv"
: >"$PYLIST"
: >"$FAILURES"

count() { # FORMAT PATH ok|fail [MESSAGE]
    local k="$1/$2"
    case " ${FORMATS[*]-} " in *" $1 "*) ;; *) FORMATS+=("$1") ;; esac
    if [ "$3" = ok ]; then
        N_PASS[$k]=$((${N_PASS[$k]:-0} + 1))
        PASS=$((PASS + 1))
    else
        N_FAIL[$k]=$((${N_FAIL[$k]:-0} + 1))
        FAIL=$((FAIL + 1))
        echo "FAIL [$2] $4" >>"$FAILURES"
    fi
}

# The edit: the last number leaf outside "$" bookkeeping ($meta, $raw,
# $bool, $class, $ref, $object_id, $str, $elem, map keys and the bit count
# of a raw KingsIsle value, NoesisGUI's instance table of component
# indices; the last, as headers come first) moves toward
# zero, which keeps it within every width and every float type: a whole
# number is halved (rounded toward zero; 0 becomes 1, 1 and -1 become 0),
# one beyond 32 bits moves by one and stays beyond them (Godot 4 writes an
# int in 32 bits when it fits), any other number is halved exactly. No such leaf: the last plain bool is flipped. Prints nothing when
# the tree has neither.
EDIT_FILTER='
def bookkeeping: map(select(type == "string")) |
  any(. == "$meta" or . == "$raw" or . == "$bool" or . == "$class" or . == "$ref" or . == "$str"
      or . == "$object_id" or . == "$elem" or . == "$uint" or . == "$int" or startswith("$$"));
def mapkey($p): ($p | length) >= 3 and ($p[-1] == 0) and ($p[-2] | type == "number")
  and ($p[-3] == "$map");
def rawbits($p): ($p | length) >= 1 and $p[-1] == "bits";
def reference($p): $p | any(. == "instances");
. as $t
| [paths(type == "number") | select((bookkeeping | not) and (mapkey(.) | not) and (rawbits(.) | not) and (reference(.) | not))] as $n
| [paths(type == "boolean") | select((bookkeeping | not) and (mapkey(.) | not))] as $b
| if ($n | length) > 0 then
    ($n[-1]) as $p | ($t | getpath($p)) as $v
    | {path: $p, value: (if $v == 0 then 1 elif $v == 1 or $v == -1 then 0
                         elif $v != ($v | floor) then $v / 2
                         elif $v >= 2147483648 then $v - 1
                         elif $v == -2147483649 then $v - 1
                         elif $v <= -2147483648 then $v + 1
                         elif $v > 0 then ($v / 2 | floor) else ($v / 2 | ceil) end)}
  elif ($b | length) > 0 then
    ($b[-1]) as $p | {path: $p, value: ($t | getpath($p) | not)}
  else empty end'

# A tree as jq compares it after an edit: without the $meta records, which
# keep bytes only while the value they stand for is unchanged, and without
# the {"$array": ...} / {"$map": {...}} wrappers that only carried them.
NORMALIZE='walk(if type == "object" then del(."$meta")
  | (if keys == ["$array"] then ."$array"
     elif keys == ["$map"] and (."$map" | type) == "object" then ."$map"
     else . end)
  else . end)'

RECORDS='([paths(type == "object" and has("$meta")) | select(length > 0)] | length > 0)
  or (type == "object" and has("$meta") and (has("$array") or has("$map"))
      and ((."$meta" | if type == "object" then keys else [] end)
           - ["format", "framing", "prefix", "objects", "version"] | length) > 0)'
# A KingsIsle stream whose body is zlib inside the file: its bytes move as a
# whole, like those of the compressed containers.
# A Godot RSCC resource: its blocks are compressed as a whole too.
ZLIB='type == "object" and ((."$meta" // {}) | type == "object"
  and ((keys | any(test("zlib"))) or .container == "RSCC"))'

COMPRESSED_RE='\.(brson|7zbson|lz4bson)$'

# case FORMAT LABEL FILE [options...]: one input through every path. The
# options are -I NAME=VALUE pairs and --schema FILE; --schema goes to both
# commands, -I only to the reading one.
run_case() {
    local fmt=$1 label=$2 file=$3
    shift 3
    in_shard || return 0
    local -a in_opts=("$@") schema=()
    local i
    for ((i = 0; i < ${#in_opts[@]}; i++)); do
        if [ "${in_opts[$i]}" = --schema ]; then schema+=(--schema "${in_opts[$((i + 1))]}"); fi
    done
    if have_path direct; then
        if "$SERVAL" conv --from "$fmt" "${in_opts[@]}" --to "$fmt" -o direct.out "$file" 2>err.txt \
            && cmp -s direct.out "$file"; then
            count "$fmt" direct ok
        else
            count "$fmt" direct fail "$label ($fmt): $(head -c 300 err.txt)"
        fi
    fi
    if ! "$SERVAL" dump --from "$fmt" "${in_opts[@]}" "$file" >dump.json 2>err.txt; then
        local p
        for p in dump jq edit python; do
            have_path "$p" && count "$fmt" "$p" fail "$label ($fmt): dump: $(head -c 300 err.txt)"
        done
        return
    fi
    if have_path dump; then
        if "$SERVAL" conv --to "$fmt" "${schema[@]+"${schema[@]}"}" -o dump.out - <dump.json 2>err.txt \
            && cmp -s dump.out "$file"; then
            count "$fmt" dump ok
        else
            count "$fmt" dump fail "$label ($fmt): $(head -c 300 err.txt)"
        fi
    fi
    if have_path jq; then
        if [ "$HAVE_JQ" = 0 ]; then
            SKIP=$((SKIP + 1))
        elif jq . <dump.json >jq.json 2>err.txt \
            && "$SERVAL" conv --to "$fmt" "${schema[@]+"${schema[@]}"}" -o jq.out jq.json 2>err.txt \
            && cmp -s jq.out "$file"; then
            count "$fmt" jq ok
        else
            count "$fmt" jq fail "$label ($fmt): $(head -c 300 err.txt)"
        fi
    fi
    if have_path edit; then
        if [ "$HAVE_JQ" = 0 ]; then
            SKIP=$((SKIP + 1))
        else
            edit_case "$fmt" "$label" "$file"
        fi
    fi
    if have_path python; then
        if [ "$HAVE_PY" = 0 ]; then
            SKIP=$((SKIP + 1))
        else
            # one Python process runs the whole list at the end
            local line="$fmt"$'\t'"$label"$'\t'"$(realpath "$file")"
            for ((i = 0; i < ${#in_opts[@]}; i++)); do
                case "${in_opts[$i]}" in
                    -I) line+=$'\t'"${in_opts[$((i + 1))]}"; i=$((i + 1)) ;;
                    --schema) line+=$'\t'"schema=${in_opts[$((i + 1))]}"; i=$((i + 1)) ;;
                esac
            done
            printf '%s\n' "$line" >>"$PYLIST"
        fi
    fi
}

edit_case() {
    local fmt=$1 label=$2 file=$3
    # One jq for the whole plan (jq 1.6 takes ~45 ms to start, more than the
    # rest of a small case): line 1 says whether the tree keeps bytes in
    # records, whether its body moves as a whole (ZLIB) and which edit to
    # make; line 2, when there is an edit, is the edited tree.
    local plan="{records: ($RECORDS), zlib: ($ZLIB), edit: ([$EDIT_FILTER] | .[0])} as \$plan
        | \$plan, (if \$plan.edit == null then empty else setpath(\$plan.edit.path; \$plan.edit.value) end)"
    if ! jq -c "$plan" dump.json >plan.txt 2>err.txt; then
        count "$fmt" edit fail "$label ($fmt): jq: $(head -c 300 err.txt)"
        return
    fi
    local head edit
    head=$(head -n 1 plan.txt)
    # An input with bytes kept in records (repeated keys, ignored header
    # bits, raw items: bytes the engine reads but never writes) gives them up
    # when the value they stand for is edited, by design; it goes through
    # the other paths byte for byte, and is not edited here.
    case "$head" in
        '{"records":true,'*)
            SKIP=$((SKIP + 1))
            return
            ;;
    esac
    edit=${head#*,\"edit\":}
    edit=${edit%\}}
    if [ "$edit" = null ]; then
        SKIP=$((SKIP + 1))
        return
    fi
    tail -n +2 plan.txt >edited.json
    if ! "$SERVAL" conv --to "$fmt" "${schema[@]+"${schema[@]}"}" -o edit.out edited.json 2>err.txt; then
        count "$fmt" edit fail "$label ($fmt): edit $edit: $(head -c 300 err.txt)"
        return
    fi
    # The output read back is the edited tree: both as serval writes them
    # (so a float32 is compared as the float32 it became), then as jq sees
    # them without records (one jq compares the two).
    if ! "$SERVAL" dump --from "$fmt" "${in_opts[@]}" edit.out >back.json 2>err.txt \
        || ! "$SERVAL" conv --to json "${schema[@]+"${schema[@]}"}" edited.json >want.json 2>>err.txt \
        || [ "$(jq -n --slurpfile a back.json --slurpfile b want.json \
                "def normalize: $NORMALIZE; (\$a[0] | normalize) == (\$b[0] | normalize)" 2>>err.txt)" != true ]; then
        count "$fmt" edit fail "$label ($fmt): edit $edit: the output does not read back as the edited tree $(head -c 200 err.txt)"
        return
    fi
    # (binary formats only: text moves with the width of a number's digits)
    if [[ ! "$file" =~ $COMPRESSED_RE ]] && [ "$fmt" != kingsisle-xml ] && [ "$fmt" != json ] \
        && [[ "$head" != *'"zlib":true,'* ]] \
        && ! window_ok "$file" edit.out; then
        count "$fmt" edit fail "$label ($fmt): edit $edit changed bytes outside one 8-byte window"
        return
    fi
    count "$fmt" edit ok
}

# window_ok A B: same length, and the bytes that differ lie within 8 bytes.
window_ok() {
    [ "$(stat -c %s "$1")" = "$(stat -c %s "$2")" ] || return 1
    local span
    span=$(cmp -l "$1" "$2" | awk 'NR == 1 {first = $1} {last = $1} END {print (NR ? last - first + 1 : 0)}')
    [ "$span" -le 8 ]
}

hex2bin() { printf '%b' "$(printf '%s' "$1" | tr -d ' ' | sed 's/../\\x&/g')"; }

# "a=b,c=d" or "-" -> -I a=b -I c=d in the array OPTS
split_opts() {
    OPTS=()
    [ "$1" = "-" ] && return
    local IFS=, kv
    for kv in $1; do OPTS+=(-I "$kv"); done
}

# Vectors of bytes the engine ignores after a value: serval refuses them
# unless -I trailing=allow, which drops those bytes on purpose, so no path can
# give them back (tests/cli/cases/godot-dump-trailing-* cover the refusal).
trailing_only() {
    case "$1" in dec_rid_extra | dec_int_trailing | v3_dec_rid_extra | v3_dec_trailing | dec4_rid_trailing) return 0 ;; esac
    return 1
}

# --- Godot ---------------------------------------------------------------
# Godot 3.2.3 oracle vectors: written by the engine (enc), or bytes the engine
# reads (dec); encnp: the engine leaves NodePath pad bytes unwritten (garbage).
while IFS=$'\t' read -r name kind opts _rest; do
    case "$name" in \#* | "") continue ;; esac
    case "$kind" in enc | encnp | dec) ;; *) continue ;; esac
    trailing_only "$name" && continue
    split_opts "$opts"
    run_case godot3 "oracle/$name" "$V/godot/oracle/$name.bin" "${OPTS[@]+"${OPTS[@]}"}"
done <"$V/godot/oracle/index.tsv"

# Published vectors and rows from the layout rules (spec), and @gd-com/utils'.
for index in "$V/godot/spec/index.tsv" "$V/godot/gdcom/index.tsv"; do
    set_name=$(basename "$(dirname "$index")")
    while IFS=$'\t' read -r name fmt opts _src kind hex _expected; do
        case "$name" in \#* | "") continue ;; esac
        case "$kind" in enc | dec) ;; *) continue ;; esac
        trailing_only "$name" && continue
        mkdir -p "vec/$set_name"
        hex2bin "$hex" >"vec/$set_name/$name.bin"
        split_opts "$opts"
        run_case "$fmt" "$set_name/$name" "vec/$set_name/$name.bin" "${OPTS[@]+"${OPTS[@]}"}"
    done <"$index"
done

# Godot 4.6 oracle vectors (tests/godot/regen4.sh), the same columns first.
while IFS=$'\t' read -r name kind opts _rest; do
    case "$name" in \#* | "") continue ;; esac
    case "$kind" in enc | encnp | dec) ;; *) continue ;; esac
    trailing_only "$name" && continue
    split_opts "$opts"
    run_case godot4 "oracle4/$name" "$V/godot/oracle4/$name.bin" "${OPTS[@]+"${OPTS[@]}"}"
done <"$V/godot/oracle4/index.tsv"

# --- BSON, Resonite, NoesisGUI ---------------------------------------------
for f in "$V"/bson/*.bson; do run_case bson "bson/$(basename "$f")" "$f"; done
for f in "$V"/resonite/*.brson "$V"/resonite/*.7zbson "$V"/resonite/*.lz4bson; do run_case resonite "resonite/$(basename "$f")" "$f"; done
for f in "$V"/noesis/*.nsb; do run_case noesis "noesis/$(basename "$f")" "$f"; done
# Godot project.binary (ECFG) from Godot 3.2.3 (tests/godot/pck_regen.sh).
# Encrypted files (godot-enc) need the key on the writing side too, which
# this suite does not give: tests/godot/pck_test.sh and pck_test4.sh take them through the
# same paths with it.
for f in "$V"/godot-project/*/*.binary; do run_case godot-project "godot-project/$(basename "$f")" "$f"; done

# --- Godot binary resources (Godot 3.2.3 and 4.6 saved them) ---------------
for f in "$V"/godot-res/v3/*.res "$V"/godot-res/v3/*.scn "$V"/godot-res/v4/*.res "$V"/godot-res/v4/*.scn \
         "$V"/godot-res/brotli4/*.res; do
    run_case godot-res "godot-res/$(basename "$f")" "$f"
done

# --- KingsIsle -------------------------------------------------------------
KT="$V/kingsisle/tiny-types.json"
run_case kingsisle kingsisle/tiny-shallow.bin "$V/kingsisle/tiny-shallow.bin" \
    --schema "$KT" -I shallow=true -I flags=1 -I property_mask=7
run_case kingsisle kingsisle/tiny-deep.bin "$V/kingsisle/tiny-deep.bin" --schema "$KT" -I flags=1 -I property_mask=7
run_case kingsisle kingsisle/tiny-deep.bin-no-types "$V/kingsisle/tiny-deep.bin" -I flags=1
run_case kingsisle kingsisle/tiny.bind "$V/kingsisle/tiny.bind" --schema "$KT"
run_case kingsisle-xml kingsisle/tiny.xml "$V/kingsisle/tiny.xml" --schema "$KT"
# classes the type list lacks (raw bits), named enums, long compact lengths
KU="$V/kingsisle/unknown-types.json"
run_case kingsisle kingsisle/unknown-class.bin "$V/kingsisle/unknown-class.bin" --schema "$KU"
run_case kingsisle kingsisle/unknown-in-list.bin "$V/kingsisle/unknown-in-list.bin" --schema "$KU"
run_case kingsisle kingsisle/long-length.bin "$V/kingsisle/long-length.bin" \
    --schema "$KT" -I shallow=true -I flags=1 -I property_mask=7
run_case kingsisle kingsisle/long-length-list.bin "$V/kingsisle/long-length-list.bin" \
    --schema "$KU" -I shallow=true -I flags=2 -I property_mask=7
run_case kingsisle kingsisle/enum-named.bin "$V/kingsisle/enum-named.bin" --schema "$KT"
run_case kingsisle-xml kingsisle/enum-named.xml "$V/kingsisle/enum-named.xml" --schema "$KT"

# --- Real samples ------------------------------------------------------------
if [ -d "$SAMPLES" ]; then
    for f in "$SAMPLES"/brson/*.brson; do
        [ -e "$f" ] && run_case resonite "samples/brson/$(basename "$f")" "$f"
    done
    for f in "$SAMPLES"/noesis-nsb/*.nsb; do
        [ -e "$f" ] && run_case noesis "samples/noesis-nsb/$(basename "$f")" "$f"
    done
    for f in "$SAMPLES"/godot-res/*.res; do
        [ -e "$f" ] && run_case godot-res "samples/godot-res/$(basename "$f")" "$f"
    done
    # katsuba's fixtures, each with its serializer options (config.json) and
    # the type list katsuba decodes them with.
    KS="$SAMPLES/kingsisle"
    for cfg in "$KS"/*.config.json; do
        [ -e "$cfg" ] || continue
        bin=${cfg%.config.json}.bin
        [ -f "$bin" ] || continue
        mapfile -t OPTS < <(jq -r 'to_entries[] | "-I", "\(.key)=\(.value)"' "$cfg")
        run_case kingsisle "samples/kingsisle/$(basename "$bin")" "$bin" --schema "$KS/types.json" "${OPTS[@]}"
    done
    # The ObjectProperty members of the KIWAD archives, as `kingsisle wad cat`
    # gives them: XML object files, and BINd files (read with the type list
    # of katsuba's fixtures, which the BINd sample member comes from).
    n_member=0
    for wad in "$SAMPLES"/kiwad/*.wad; do
        [ -e "$wad" ] || continue
        while IFS=$'\t' read -r member _ _ _ _ unpatched; do
            [ -z "$unpatched" ] || continue
            n_member=$((n_member + 1))
            out="$scratch/kiwad-member-$n_member"
            "$SERVAL" kingsisle wad cat "$wad" "$member" >"$out" 2>/dev/null || continue
            label="samples/kiwad/$(basename "$wad"):$member"
            if [ "$(head -c 4 "$out")" = BINd ]; then
                run_case kingsisle "$label" "$out" --schema "$KS/types.json"
            elif head -c 512 "$out" | grep -q '<Objects'; then
                run_case kingsisle-xml "$label" "$out"
            fi
        done < <("$SERVAL" kingsisle wad list "$wad" 2>/dev/null)
    done
else
    echo "# samples skipped: no ../shared/samples beside the checkout"
fi

# --- Python: the list in one process ------------------------------------------
# Twice: on the C extension serval._native where it is built (path python),
# and on the ctypes path it falls back to (pyctypes).
if [ -s "$PYLIST" ]; then
  for backend in native ctypes; do
    p=python
    [ "$backend" = ctypes ] && p=pyctypes
    if [ "$backend" = native ] && ! SERVAL_LIBRARY="$SERVAL_BUILD/libserval.so" SERVAL_PYTHON_BACKEND=native "$PYTHON" -c 'import sys; sys.path.insert(0, sys.argv[1]); import serval' "$TOP/bindings/python" >/dev/null 2>&1; then
        echo "# python path on serval._native skipped: not built beside $SERVAL (python3-dev)"
        continue
    fi
    SERVAL_PYTHON_BACKEND=$backend "$PYTHON" "$PYRT" --batch "$PYLIST" >python.out 2>python.err
    while IFS=$'\t' read -r verdict fmt label why; do
        case "$verdict" in
            ok) count "$fmt" $p ok ;;
            FAIL) count "$fmt" $p fail "$label ($fmt, $backend): $why" ;;
        esac
    done <python.out
    # a Python that stopped part way leaves inputs without a verdict
    missing=$(($(wc -l <"$PYLIST") - $(grep -c -E '^(ok|FAIL)'$'\t' python.out)))
    if [ "$missing" -ne 0 ]; then
        count python $p fail "$missing inputs got no verdict ($backend): $(tail -c 300 python.err)"
    fi
  done
fi

# --- Report ------------------------------------------------------------------
echo "# format         path     passed  failed"
for fmt in "${FORMATS[@]}"; do
    for p in direct dump jq edit python pyctypes; do
        k="$fmt/$p"
        [ -n "${N_PASS[$k]:-}${N_FAIL[$k]:-}" ] || continue
        printf '# %-14s %-8s %6d  %6d\n' "$fmt" "$p" "${N_PASS[$k]:-0}" "${N_FAIL[$k]:-0}"
    done
done
if [ -s "$FAILURES" ]; then
    head -n 200 "$FAILURES"
    n=$(wc -l <"$FAILURES")
    [ "$n" -gt 200 ] && echo "# ... and $((n - 200)) more"
fi
echo "$PASS passed, $FAIL failed, $SKIP skipped"
[ "$FAIL" = 0 ] && [ "$PASS" -gt 0 ]
