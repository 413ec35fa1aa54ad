# Sourced by the godot-keys-* cases: a Godot Dictionary of about 1 MB whose
# keys differ only in a later number, decoded by dump and by validate.
#   godot_keys FORMAT KEY COUNT
# KEY is a typed JSON key with %u for the pair's index; every key is
# distinct, so the Dictionary must keep COUNT pairs.
set -u
fail() { echo "FAIL: $*"; exit 1; }
godot_keys() {
  local fmt=$1 key=$2 count=$3
  # the key split at its %u once (gsub per key is slow in mawk)
  awk -v un="[$key,null]" -v n="$count" 'BEGIN {
    printf "{\"$map\":["
    k = split(un, part, /%u/)
    for (i = 0; i < n; i++) {
      if (i) printf ","
      for (j = 1; j <= k; j++) printf "%s%s", part[j], (j < k ? i : "")
    }
    printf "]}" }' >keys.json
  "$SERVAL" conv --from json --to "$fmt" -o keys.bin keys.json || fail "conv to $fmt failed"
  local size
  size=$(stat -c %s keys.bin)
  [ "$size" -ge 700000 ] || fail "keys.bin is only $size bytes"
  "$SERVAL" validate --from "$fmt" keys.bin >out.txt 2>&1 || fail "validate: $(cat out.txt)"
  "$SERVAL" dump --compact --from "$fmt" keys.bin >dump.json || fail "dump failed"
  # every pair kept: the JSON has COUNT pairs, one ",null]" each
  local pairs
  pairs=$(grep -o ',null\]' dump.json | wc -l)
  [ "$pairs" -eq "$count" ] || fail "$pairs pairs decoded, $count expected"
  echo "$fmt: $count distinct keys in $size bytes"
}
