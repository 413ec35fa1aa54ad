#!/usr/bin/env bash
# Runs every command of the ```sh blocks of README.md and docs/ (docs/*.md,
# docs/formats/*.md) as written, and of the EXAMPLES of the manual page
# (docs/serval.1) as man shows them, with the serval under test first on the
# PATH, and fails when one exits non-zero (pipelines too: pipefail).
#
#   bash tests/docs/run.sh PATH-TO-SERVAL SOURCE-DIR
#
# The commands of a file run one after another in one scratch directory
# holding a copy of examples/, both as examples/ (README.md's commands run
# from the repository's top directory) and at the top (the format pages name
# the example files directly). A line ending in "\" continues on the next;
# lines starting with "#" are comments (```console blocks: see
# markdown_commands). In the manual page, the lines of the
# EXAMPLES' .nf block are rendered by man(1), alone, and taken as a user
# copies them from the terminal: a line indented further continues the
# command above it, and a line with any byte that is not ASCII (a typographic
# quote or minus) fails, as it would not paste into a shell.
set -u
if [ $# -ne 2 ] || [ ! -x "$1" ]; then
    echo "usage: bash run.sh PATH-TO-SERVAL SOURCE-DIR" >&2
    exit 2
fi
BIN=$(cd "$(dirname "$1")" && pwd)
SRC=$(cd "$2" && pwd)
# The binary must be called serval on the PATH.
[ "$(basename "$1")" = serval ] || { echo "the binary must be named serval" >&2; exit 2; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/serval-docs.XXXXXX") || exit 3
trap 'rm -rf "$scratch"' EXIT
command -v jq >/dev/null || { echo "jq not found; skipping"; exit 77; }

# The commands of the ```sh blocks of a Markdown file, one per record,
# separated by NUL. A ```console block is a transcript: each "$ COMMAND" line
# and the lines after it, what it prints (stdout and stderr); its record runs
# COMMAND and compares what it prints with them.
markdown_commands() {
    awk '
        function transcript() {
            if (cmd != "")
                printf "%s 2>&1 | diff -u /dev/fd/3 - 3<<'"'"'SERVAL_DOCS_EXPECTED'"'"'\n%sSERVAL_DOCS_EXPECTED%c", cmd, expected, 0
            cmd = ""
            expected = ""
        }
        /^```console[ \t]*$/ { console = 1; next }
        console && /^```/ { transcript(); console = 0; next }
        console && /^\$ / { transcript(); cmd = substr($0, 3); next }
        console { if (cmd != "") expected = expected $0 "\n"; next }
        /^```(sh|bash)[ \t]*$/ { inblock = 1; next }
        /^```/ { inblock = 0; next }
        !inblock { next }
        /^[ \t]*#/ && cmd == "" { next }
        /^[ \t]*$/ && cmd == "" { next }
        {
            line = $0
            if (line ~ /\\$/) { cmd = cmd substr(line, 1, length(line) - 1) " "; next }
            cmd = cmd line
            printf "%s%c", cmd, 0
            cmd = ""
        }
    ' "$1"
}

# The commands of a manual page's EXAMPLES, as man renders them, one per
# record, separated by NUL; nothing (and a message) without man.
man_commands() {
    command -v man >/dev/null || { echo "man not found: $1 skipped" >&2; return; }
    {
        printf '.TH EXAMPLES 1\n.SH E\n.nf\n'
        awk '/^\.SH/ { s = ($0 ~ /^\.SH EXAMPLES/); next }
             s && /^\.nf/ { b = 1; next }
             s && /^\.fi/ { b = 0 }
             s && b' "$1"
        printf '.fi\n'
    } >"$scratch/examples.1"
    # After the heading E: 7 spaces start a command, more continue it; the
    # first empty line ends the block (the page's footer follows).
    LC_ALL=C.UTF-8 MANWIDTH=250 MANROFFOPT=-rHY=0 man -l "$scratch/examples.1" | awk '
        !on { on = ($0 == "E"); next }
        /^[ \t]*$/ { if (cmd != "") exit; next }
        /^        / { cmd = cmd "\n" substr($0, 8); next }
        { if (cmd != "") printf "%s%c", cmd, 0; cmd = substr($0, 8) }
        END { if (cmd != "") printf "%s%c", cmd, 0 }'
}

passed=0
failed=0
for doc in "$SRC/README.md" "$SRC"/docs/*.md "$SRC"/docs/formats/*.md "$SRC/docs/serval.1"; do
    [ -f "$doc" ] || continue
    rel=${doc#"$SRC"/}
    work="$scratch/$(echo "$rel" | tr / _)"
    mkdir -p "$work"
    cp -R "$SRC/examples" "$work/examples"
    cp "$SRC"/examples/*.* "$work/" 2>/dev/null
    case $doc in
        *.1) man_commands "$doc" >"$scratch/cmds" ;;
        *) markdown_commands "$doc" >"$scratch/cmds" ;;
    esac
    while IFS= read -r -d '' cmd; do
        out="$scratch/out.txt"
        if LC_ALL=C grep -q '[^ -~]' <<<"${cmd//$'\n'/ }"; then
            failed=$((failed + 1))
            echo "not ok - $rel: not ASCII, does not paste: $cmd"
            continue
        fi
        if (cd "$work" && PATH="$BIN:$PATH" bash -o pipefail -c "$cmd" </dev/null >"$out" 2>&1); then
            passed=$((passed + 1))
            echo "ok - $rel: ${cmd%%$'\n'*}"
        else
            failed=$((failed + 1))
            echo "not ok - $rel: $cmd"
            sed -e 's/^/#   /' "$out" | head -n 20
        fi
    done <"$scratch/cmds"
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
