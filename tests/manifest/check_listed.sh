#!/usr/bin/env bash
# Every format of the manifest (src/formats/formats.def) is where users look:
#   - in `serval formats` (those this build has: SERVAL_FORMATS, as CMake
#     passes the groups built, "json godot ..."; unset, all of them),
#   - in the manual page docs/serval.1 (as \fBname\fR), with its subcommand,
#   - in the shell completions: each subcommand in completions/serval.bash
#     and completions/_serval, and the format names as both complete them
#     (from `serval formats`),
#   - in README.md's format table (as `name` in a row of the table).
# Library-only lines (kind "library": pickle) are an API, not a format.
#
#   bash tests/manifest/check_listed.sh PATH-TO-SERVAL SERVAL-SOURCE-DIR
set -uo pipefail
serval=${1:?usage: check_listed.sh PATH-TO-SERVAL SERVAL-SOURCE-DIR}
src=${2:?usage: check_listed.sh PATH-TO-SERVAL SERVAL-SOURCE-DIR}
def=$src/src/formats/formats.def
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

listing=$("$serval" formats) || { echo "FAIL: serval formats"; exit 1; }
man=$src/docs/serval.1
table=$(grep '^| ' "$src/README.md")
checked=0
re='^SV_FORMAT_GROUP\(([A-Z0-9_]+), *([a-z]+), *([a-z0-9_]+), *"([^"]*)", *"[^"]*", *([a-z0-9_]+),'
while IFS= read -r line; do
    [[ $line =~ $re ]] || { [[ $line == SV_FORMAT_GROUP* ]] && fail "cannot read manifest line: $line"; continue; }
    option=${BASH_REMATCH[1]} kind=${BASH_REMATCH[2]} names=${BASH_REMATCH[4]} command=${BASH_REMATCH[5]}
    [ "$kind" = library ] && continue
    group=$(tr 'A-Z' 'a-z' <<<"$option")
    built=1
    if [ -n "${SERVAL_FORMATS:-}" ] && [[ " $SERVAL_FORMATS " != *" $group "* ]]; then built=0; fi
    for name in $names; do
        checked=$((checked + 1))
        if [ $built = 1 ] && ! grep -q "^$name " <<<"$listing"; then
            fail "$name: not in 'serval formats'"
        fi
        roff=$(sed 's/-/\\\\-/g' <<<"$name")
        grep -q "\\\\fB$roff\\\\fR" "$man" || fail "$name: not in docs/serval.1 (as \\fB$roff\\fR)"
        grep -qF "\`$name\`" <<<"$table" || fail "$name: not in README.md's format table (as \`$name\`)"
    done
    if [ "$command" != none ]; then
        grep -q "^\.B $command " "$man" || fail "serval $command: not in docs/serval.1 (a .B $command line)"
        grep -Eq "^ *local commands=\".*\\b$command\\b" "$src/completions/serval.bash" \
            || fail "serval $command: not in completions/serval.bash's commands"
        grep -q "'$command:" "$src/completions/_serval" || fail "serval $command: not in completions/_serval"
    fi
done <"$def"
# Both completions name the formats by asking serval, so a new one is there.
for f in serval.bash _serval; do
    grep -q 'serval formats' "$src/completions/$f" || fail "completions/$f does not complete formats from 'serval formats'"
done
[ $checked -gt 0 ] || fail "no format read from $def"
[ $failures = 0 ] || exit 1
echo "ok: $checked formats of the manifest listed by serval formats, the manual, the completions and the README"
