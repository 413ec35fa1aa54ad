#!/usr/bin/env bash
# Renames every internal function of src/ to sv__<module>_<name>, the rule
# scripts/check-names.sh checks: an sv_ function no public header declares,
# and an sv__ one whose name does not start with a module, take the module of
# the folder that defines it (sv_br_read in src/core/ becomes
# sv__core_br_read; sv__jw_float in src/json/ becomes sv__json_jw_float).
#
#   bash scripts/rename-internal.sh [--dry-run] [ROOT]
#
# Prints the map (OLD NEW, a line), then, unless --dry-run, replaces each OLD
# as a whole word in the C sources and build files of src/ include/ cli/
# tests/ fuzz/ bench/ bindings/ examples/ web/. Public names are never in the
# map: every sv_ name a header under include/serval/ mentions, and every one
# bindings/ (the Python module's ctypes fallback) or web/ (the viewer's list
# of exported functions) spells out. The map is made afresh from the tree on
# each run, so the script can run again on a newer tree; on a tree that
# follows the rule the map is empty and nothing changes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dry=0
if [[ ${1:-} == --dry-run ]]; then
    dry=1
    shift
fi
root=$(cd "${1:-$here/..}" && pwd)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/internal_names.py" map "$root" >"$tmp/map"
cat "$tmp/map"
count=$(wc -l <"$tmp/map")
echo "rename-internal: $count names to rename" >&2
[[ $dry -eq 0 && $count -gt 0 ]] || exit 0

# One sed script: s/\bOLD\b/NEW/g a name (the names are C identifiers, so
# they need no escaping).
awk '{ printf "s/\\b%s\\b/%s/g\n", $1, $2 }' "$tmp/map" >"$tmp/rename.sed"

dirs=()
for d in src include cli tests fuzz bench bindings examples web; do
    [[ -d $root/$d ]] && dirs+=("$root/$d")
done
find "${dirs[@]}" \( -name node_modules -o -name __pycache__ \) -prune -o -type f \
    \( -name '*.c' -o -name '*.h' -o -name '*.h.in' -o -name '*.cc' -o -name '*.cpp' \
    -o -name 'CMakeLists.txt' -o -name '*.cmake' \) -print0 |
    xargs -0 grep -lZE 'sv_' |
    xargs -0 -r sed -i -f "$tmp/rename.sed"
python3 "$here/internal_names.py" check "$root" | tail -n1 >&2
