#!/usr/bin/env bash
# Work is linear in the input (docs/security.md, "Work"): for every
# format serval can write, adversarial families of inputs (many tiny values,
# empty containers, many keys, many strings, deep nesting) are made at three
# sizes around 1 KB, 4 KB and 16 KB, and decoded under callgrind, which
# counts instructions (the same count on every run, whatever the machine is
# doing). A family passes when
#   - the instructions per added byte between the two larger sizes are at
#     most twice those between the two smaller ones plus a little (a
#     quadratic decoder would show four times), and
#   - no input costs more than MAX_PER_BYTE instructions per byte above the
#     fixed cost of starting the program.
# Then Godot Dictionaries whose keys differ only past the first number
# (Vector3 keys with the same x, Arrays, Dictionaries and packed arrays of
# the same length and first number) are decoded at about 64 KB, 256 KB and
# 1 MB, in godot4 and godot3: repeated-key detection must stay linear
# however the keys are chosen. A run that callgrind cannot finish within
# KEY_TIMEOUT seconds (a quadratic decoder at 1 MB) fails.
# Usage: run.sh SERVAL_BINARY
set -uo pipefail
serval=$1
MAX_PER_BYTE=2000
if ! command -v valgrind >/dev/null; then
  echo "work: valgrind is not installed; skipped (scripts/install-deps.sh installs it)"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# family NAME OPEN UNIT CLOSE: typed JSON with COUNT units; %u = index.
families=(
  'small-ints|{"a":[|0|]}'
  'nulls|{"a":[|null|]}'
  'empty-arrays|{"a":[|[]|]}'
  'empty-maps|{"a":[|{}|]}'
  'empty-strings|{"a":[|""|]}'
  'many-keys|{|"k%u":0|}'
  'small-maps|{"a":[|{"x":%u}|]}'
  'strings|{"a":[|"s%u"|]}'
  'vectors|{"a":[|{"$vector3":[%u,0,0]}|]}'
)
make_family() { # open unit close count > file
  # the unit split at its %u once: gsub per unit is slow in mawk
  awk -v op="$1" -v un="$2" -v cl="$3" -v n="$4" 'BEGIN {
    printf "%s", op
    k = split(un, part, /%u/)
    for (i = 0; i < n; i++) {
      if (i) printf ","
      for (j = 1; j <= k; j++) printf "%s%s", part[j], (j < k ? i : "")
    }
    printf "%s", cl }'
}
# deep nesting: COUNT nested maps (within the default depth limit of 1024)
make_deep() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "{\"a\":"; printf "0";
  for (i = 0; i < n; i++) printf "}" }'; }

count_instructions() { # format file
  timeout "${KEY_TIMEOUT:-300}" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$serval" validate --from "$1" "$2" \
    2>&1 | awk '/Collected :/ { print $NF }'
}

mapfile -t formats < <("$serval" formats | awk '/^[a-z]/ && $2 ~ /write/ { print $1 }')
# The program's fixed cost: validating the smallest input.
printf '{}' >"$tmp/empty.json"
base=$(count_instructions json "$tmp/empty.json")

passed=0 failed=0
# judge LABEL NAME I1 I2 I3 L1 L2 L3: instruction counts I of inputs of L bytes.
judge() {
  local f=$1 name=$2 i1=$3 i2=$4 i3=$5 l1=$6 l2=$7 l3=$8
  if [ -z "$i1" ] || [ -z "$i2" ] || [ -z "$i3" ]; then
    echo "FAIL $f $name: callgrind gave no count"; failed=$((failed + 1)); return
  fi
  local verdict
  verdict=$(awk -v i1="$i1" -v i2="$i2" -v i3="$i3" -v l1="$l1" -v l2="$l2" -v l3="$l3" \
              -v base="$base" -v max="$MAX_PER_BYTE" 'BEGIN {
    s1 = (i2 - i1) / (l2 - l1); s2 = (i3 - i2) / (l3 - l2); per = (i3 - base) / l3
    ok = (s2 <= 2 * s1 + 20) && per <= max
    printf "%s %.0f %.0f %.0f", ok ? "ok" : "FAIL", s1, s2, per }')
  set -- $verdict
  printf '%-4s %-10s %-14s %6s bytes: %5s -> %5s instructions per added byte, %5s per byte in all\n' \
    "$1" "$f" "$name" "$l3" "$2" "$3" "$4"
  if [ "$1" = ok ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}
check() { # format family-name file1 file2 file3
  judge "$1" "$2" "$(count_instructions "$1" "$3")" "$(count_instructions "$1" "$4")" \
    "$(count_instructions "$1" "$5")" "$(stat -c %s "$3")" "$(stat -c %s "$4")" "$(stat -c %s "$5")"
}

for f in "${formats[@]}"; do
  for fam in "${families[@]}" "deep|||"; do
    IFS='|' read -r name open unit close <<<"$fam"
    files=()
    for size in 1 4 16; do
      src="$tmp/$name-$size.json" out="$tmp/$f-$name-$size.bin"
      if [ "$name" = deep ]; then make_deep $((size * 60)) >"$src"
      else make_family "$open" "$unit" "$close" $((size * 120)) >"$src"; fi
      if [ "$f" = json ]; then cp "$src" "$out"
      elif ! "$serval" conv --from json --to "$f" -o "$out" "$src" 2>/dev/null; then break; fi
      files+=("$out")
    done
    [ ${#files[@]} -eq 3 ] || continue
    check "$f" "$name" "${files[@]}"
  done
done
# Dictionary keys that agree in everything but a later number: typed JSON
# $map pairs [KEY, null], converted to each Godot format.
key_families=(
  'vector3-same-x|{"$vector3":[0,%u,0]}'
  'arrays-same-first|[0,%u]'
  'dicts-same-size|{"a":%u}'
  'int-packed-same-first|{"$i32s":[0,%u]}'
  'float-packed-same-first|{"$f32s":[0,%u]}'
)
for f in godot4 godot3; do
  for fam in "${key_families[@]}"; do
    IFS='|' read -r name key <<<"$fam"
    files=()
    for count in 3000 12000 48000; do
      src="$tmp/keys-$name-$count.json" out="$tmp/$f-keys-$name-$count.bin"
      make_family '{"$map":[' "[$key,null]" ']}' "$count" >"$src"
      "$serval" conv --from json --to "$f" -o "$out" "$src" || break
      files+=("$out")
    done
    [ ${#files[@]} -eq 3 ] || { echo "FAIL $f keys-$name: could not make the input"; failed=$((failed + 1)); continue; }
    check "$f" "keys-$name" "${files[@]}"
  done
done

# Settings Registry merge patches that null half the members of a large
# object: each null takes its member out once (O3DE keeps duplicate names,
# so the member is marked and the object compacted at the end), where moving
# the members and rebuilding the key index per null was quadratic.
if "$serval" formats | grep -q '^o3de '; then
  counts=() sizes=()
  for count in 2000 8000 32000; do
    d="$tmp/setreg-$count"; mkdir -p "$d"
    make_family '{"O":{' '"k%u":0' '}}' "$count" >"$d/a.setreg"
    make_family '{"O":{' '"k%u":null' '}}' $((count / 2)) >"$d/b.setreg"
    counts+=("$(timeout "${KEY_TIMEOUT:-300}" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
      "$serval" o3de setreg merge "$d/a.setreg" "$d/b.setreg" 2>&1 >/dev/null | awk '/Collected :/ { print $NF }')")
    sizes+=($(($(stat -c %s "$d/a.setreg") + $(stat -c %s "$d/b.setreg"))))
  done
  judge o3de setreg-nulls "${counts[@]}" "${sizes[@]}"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
