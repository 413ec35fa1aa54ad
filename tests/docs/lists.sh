#!/usr/bin/env bash
# The manual page and the bash and zsh completions know every format and every
# command the serval under test knows:
#  - formats: each name `serval formats` lists is in the man page's
#    DESCRIPTION; each one it reads or writes (--from/--to) is offered after
#    --from and --to by both completions;
#  - commands: each command `serval --help` lists is an entry of the man
#    page's COMMANDS and is offered after `serval` by both completions; each
#    subcommand its usage lines name (`serval resonite tree ...`) is in the
#    man page's COMMANDS and is offered after `serval COMMAND` by both.
#
#   bash tests/docs/lists.sh PATH-TO-SERVAL SOURCE-DIR
#
# The bash completion is run (sourced, with COMP_WORDS set as bash sets them);
# the zsh one is read, as zsh may not be installed: its command list, its
# per-command subcommand lists and the pipeline that lists the formats, which
# is run.
set -u
if [ $# -ne 2 ] || [ ! -x "$1" ]; then
    echo "usage: bash lists.sh PATH-TO-SERVAL SOURCE-DIR" >&2
    exit 2
fi
BIN=$(cd "$(dirname "$1")" && pwd)
SRC=$(cd "$2" && pwd)
[ "$(basename "$1")" = serval ] || { echo "the binary must be named serval" >&2; exit 2; }
export PATH="$BIN:$PATH"
MAN="$SRC/docs/serval.1"
BASH_COMP="$SRC/completions/serval.bash"
ZSH_COMP="$SRC/completions/_serval"
command -v man >/dev/null || { echo "man not found; skipping"; exit 77; }

passed=0
failed=0
check() { # DESCRIPTION, then a command that succeeds when it holds
    local what=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
        echo "ok - $what"
    else
        failed=$((failed + 1))
        echo "not ok - $what"
    fi
}

# The man page as man shows it, one section at a time.
# Wide and without hyphenation, so no name is broken across lines.
page=$(LC_ALL=C.UTF-8 MANWIDTH=200 MANROFFOPT=-rHY=0 man -l "$MAN" 2>/dev/null) || { echo "man -l $MAN failed"; exit 1; }
section() { awk -v s="$1" '/^[A-Z]/ { on = ($0 == s); next } on' <<<"$page"; }
description=$(section DESCRIPTION)
commands_section=$(section COMMANDS)

# A name as a word of its own: "kingsisle" is not found in "kingsisle-xml".
has_word() { grep -Eq "(^|[^a-z0-9-])$2([^a-z0-9-]|\$)" <<<"$1"; }
# A COMMANDS entry: a line of the list's tags, indented 7 spaces.
has_entry() { grep -Eq "^       $1( |,|\$)" <<<"$commands_section"; }
# "resonite tree" anywhere in COMMANDS, as such or among alternatives
# ("o3de load|store": o3de store), line breaks removed.
has_phrase() {
    tr -s ' \n' '  ' <<<"$commands_section" |
        grep -Eq "(^|[^a-z0-9-])$1 ([a-z0-9-]+\|)*$2([^a-z0-9-]|\$)"
}

# What the bash completion offers for the words given (the last one is being
# completed).
bash_offers() {
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _serval
             printf "%s\n" "${COMPREPLY[@]}"' _ "$BASH_COMP" serval "$@"
}
in_list() { grep -qx -- "$1" <<<"$2"; }

# The zsh completion's command list: the 'name:summary' entries of commands=(...).
zsh_commands=$(awk '/^[ \t]*commands=\(/ { on = 1; next } on && /^[ \t]*\)/ { on = 0 }
                    on { if (match($0, /'"'"'[a-z0-9-]+:/)) print substr($0, RSTART + 1, RLENGTH - 2) }' "$ZSH_COMP")
# The subcommands zsh offers after COMMAND: its "COMMAND) _values 'subcommand' a b ;;" line.
zsh_subcommands() {
    sed -n "s/^[ \t]*$1) _values '[^']*' \\(.*\\) ;;\$/\\1/p" "$ZSH_COMP" | tr ' ' '\n'
}
# The formats zsh offers: the pipeline inside "$(...)" of _serval_formats, run.
zsh_pipeline=$(sed -n 's/.*(\${(f)"\$(\(serval formats.*\))"}).*/\1/p' "$ZSH_COMP")
[ -n "$zsh_pipeline" ] || { echo "not ok - the zsh completion lists no formats through 'serval formats'"; exit 1; }
zsh_formats=$(bash -c "$zsh_pipeline")

# ---- formats --------------------------------------------------------------------
listing=$(serval formats) || { echo "serval formats failed"; exit 1; }
all_formats=$(awk '/^[a-z]/ { print $1 }' <<<"$listing")
codec_formats=$(awk '/^[a-z]/ && $2 ~ /^(read|write|read\/write)$/ { print $1 }' <<<"$listing")
[ -n "$codec_formats" ] || { echo "serval formats lists no format"; exit 1; }
bash_from=$(bash_offers conv --from "")
bash_to=$(bash_offers conv --to "")
for f in $all_formats; do
    check "man page DESCRIPTION names format $f" has_word "$description" "$f"
done
for f in $codec_formats; do
    check "bash completes --from $f" in_list "$f" "$bash_from"
    check "bash completes --to $f" in_list "$f" "$bash_to"
    check "zsh completes --from/--to $f" in_list "$f" "$zsh_formats"
done
for f in $(grep -vx -F -f <(echo "$codec_formats") <<<"$all_formats"); do
    check "bash does not offer $f (no codec) after --from" eval '! in_list "$f" "$bash_from"'
    check "zsh does not offer $f (no codec) after --from" eval '! in_list "$f" "$zsh_formats"'
done

# ---- commands and their subcommands -----------------------------------------------
help=$(serval --help) || { echo "serval --help failed"; exit 1; }
commands=$(awk '/^Commands:/ { on = 1; next } on && /^$/ { on = 0 } on { print $1 }' <<<"$help")
[ -n "$commands" ] || { echo "serval --help lists no command"; exit 1; }
bash_commands=$(bash_offers "")
for c in $commands; do
    check "man page COMMANDS has $c" has_entry "$c"
    check "bash completes command $c" in_list "$c" "$bash_commands"
    check "zsh completes command $c" in_list "$c" "$zsh_commands"
    # "usage: serval resonite tree FILE" and "       serval resonite package ...":
    # the lower-case word after the command is a subcommand.
    subs=$(serval "$c" --help | sed -n "s/^\\(usage:\\)\\{0,1\\} *serval $c \\([a-z][a-z0-9-]*\\).*/\\2/p" | sort -u)
    [ -n "$subs" ] || continue
    bash_subs=$(bash_offers "$c" "")
    zsh_subs=$(zsh_subcommands "$c")
    for s in $subs; do
        check "man page COMMANDS has $c $s" has_phrase "$c" "$s"
        check "bash completes $c $s" in_list "$s" "$bash_subs"
        check "zsh completes $c $s" in_list "$s" "$zsh_subs"
    done
done

# ---- kingsisle wad: its actions and each action's options ----------------------
# The actions are the words after "serval kingsisle wad" in its usage lines;
# an option's actions are the words before ':' in its help line ("cat,
# extract: ...", "extract: ...; pack: ..."). Bash must offer each action
# after "kingsisle wad" and each option after "kingsisle wad ACTION -", and
# no option of another action; zsh's action list must have each action, and
# its branch for the action (in _serval_kingsisle_wad) each option.
wad_help=$(serval kingsisle wad --help) || { echo "serval kingsisle wad --help failed"; exit 1; }
wad_actions=$(sed -n 's/^\(usage:\)\{0,1\} *serval kingsisle wad \([a-z]*\).*/\2/p' <<<"$wad_help" | sort -u)
bash_wad=$(bash_offers kingsisle wad "")
zsh_wad=$(sed -n "s/^[ \t]*_values 'action' \(.*\)\$/\1/p" "$ZSH_COMP" | tr ' ' '\n')
zsh_branch() { # the text of ACTION's branch in _serval_kingsisle_wad, to its ;;
    awk -v a="$1" '/^_serval_kingsisle_wad\(\)/ { f = 1 } f && $0 ~ "^[ \t]*" a "\\)" { on = 1 }
                   on { print } on && /;;[ \t]*$/ { exit }' "$ZSH_COMP"
}
# "  -o, --output PATH   extract: the directory; pack: the archive" -> "-o --output<TAB>extract pack"
wad_options=$(awk '/^Options:/ { on = 1; next } on && /^  -/ {
        names = ""; rest = $0; sub(/^  /, "", rest)
        while (match(rest, /^-[-a-z]+/)) { names = names " " substr(rest, 1, RLENGTH); rest = substr(rest, RLENGTH + 1)
            sub(/^(,| [A-Z]+)*,? */, "", rest) }
        acts = ""; n = split(rest, parts, "; ")
        for (k = 1; k <= n; k++) if (match(parts[k], /^[a-z, ]+:/)) acts = acts " " substr(parts[k], 1, RLENGTH - 1)
        gsub(/,/, "", acts); if (acts != "") print substr(names, 2) "\t" substr(acts, 2) }' <<<"$wad_help")
[ -n "$wad_actions" ] && [ -n "$wad_options" ] || { echo "not ok - kingsisle wad --help lists no actions or options"; exit 1; }
for s in $wad_actions; do
    check "bash completes kingsisle wad $s" in_list "$s" "$bash_wad"
    check "zsh completes kingsisle wad $s" in_list "$s" "$zsh_wad"
    bash_opts=$(bash_offers kingsisle wad "$s" -)
    branch=$(zsh_branch "$s")
    while IFS=$'\t' read -r names acts; do
        for o in $names; do
            if in_list "$s" "$(tr ' ' '\n' <<<"$acts")"; then
                check "bash completes kingsisle wad $s $o" in_list "$o" "$bash_opts"
                check "zsh completes kingsisle wad $s $o" grep -qE -- "(\\{|'|,)$o[=+[]" <<<"$branch"
            else
                check "bash does not offer kingsisle wad $s $o (another action's)" eval '! in_list "$o" "$bash_opts"'
            fi
        done
    done <<<"$wad_options"
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
