# bash completion for serval(1). Installed as
# share/bash-completion/completions/serval.
# serval kingsisle wad ACTION ...: each action takes only its own options
# (serval refuses another action's), and their values: a directory after
# extract's -o and pack's DIR, versions and levels from their ranges.
_serval_kingsisle_wad() {
    local limits="--max-depth --max-alloc --max-string --max-decompressed --max-input"
    local opts="--help --schema $limits"
    case $prev in
        --max-depth | --max-alloc | --max-string | --max-decompressed | --max-input | --max-total) return ;;
        --version) COMPREPLY=($(compgen -W "1 2" -- "$cur")); return ;;
        --flags) COMPREPLY=($(compgen -W "0 1" -- "$cur")); return ;;
        --level) COMPREPLY=($(compgen -W "1 2 3 4 5 6 7 8 9" -- "$cur")); return ;;
        --schema | --like) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -o | --output)
            if [ "$1" = extract ]; then COMPREPLY=($(compgen -d -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
            return ;;
    esac
    case $1 in
        list) opts="$opts -v --verbose --verify --strict" ;;
        cat) opts="$opts --verify --strict --no-verify" ;;
        extract) opts="$opts -o --output --verify --strict --no-verify --max-total --decode --sync -f --force" ;;
        pack) opts="$opts -o --output --version --flags --level --like --sync -f --force" ;;
        *) return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    elif [ "$1" = pack ]; then
        COMPREPLY=($(compgen -d -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}

_serval() {
    local cur prev cmd i
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --schema) ((i++)) ;;
            -*) ;;
            *) cmd=${COMP_WORDS[i]}; break ;;
        esac
    done
    local commands="formats detect dump conv validate noesis o3de resonite schema kingsisle godot version help"
    local formats
    # Only the formats that read or write: o3de (load/store) is not one of
    # --from/--to's.
    formats=$(serval formats 2>/dev/null | awk '/^[a-z]/ && $2 ~ /^(read|write)/ {print $1}')
    # serval kingsisle wad ACTION: the action's own options and values.
    if [ "$cmd" = kingsisle ] && [ "${COMP_WORDS[i + 1]}" = wad ] && [ "$COMP_CWORD" -gt $((i + 2)) ]; then
        _serval_kingsisle_wad "${COMP_WORDS[i + 2]}"
        return
    fi
    case $prev in
        --from | --to) COMPREPLY=($(compgen -W "$formats" -- "$cur")); return ;;
        --output-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        -j | --jobs | -T | --threads | -O | --option | --max-depth | --max-alloc | --max-string | --max-decompressed | --max-input | --max-total | --type) return ;;
        -o | --output | --schema | --report) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    esac
    if [ -z "$cmd" ]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--help --version --schema" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        fi
        return
    fi
    local opts="--help --schema"
    case $cmd in
        dump) opts="$opts --from -o --output --output-dir --sync --compact --strict -O -I -r -j -T -q -v --progress --no-progress --max-depth --max-alloc --max-string --max-decompressed --max-input" ;;
        conv) opts="$opts --from --to -o --output --output-dir -f --force --sync --lossy --report-all -O -I -r -j -T -q -v --progress --no-progress --max-depth --max-alloc --max-string --max-decompressed --max-input" ;;
        validate) opts="$opts --from --strict -O -I -r -j -T -q -v --progress --no-progress --max-depth --max-alloc --max-string --max-decompressed --max-input" ;;
        detect) opts="$opts -v --verbose" ;;
        noesis) [ "$COMP_CWORD" -eq $((i + 1)) ] && { COMPREPLY=($(compgen -W "info" -- "$cur")); return; } ;;
        resonite)
            [ "$COMP_CWORD" -eq $((i + 1)) ] && { COMPREPLY=($(compgen -W "tree package" -- "$cur")); return; }
            [ "$COMP_CWORD" -eq $((i + 2)) ] && [ "${COMP_WORDS[i + 1]}" = package ] &&
                { COMPREPLY=($(compgen -W "list extract dump pack" -- "$cur")); return; }
            opts="$opts -o --output --sync --compact -O --max-total --max-depth --max-alloc --max-string --max-decompressed" ;;
        kingsisle)
            [ "$COMP_CWORD" -eq $((i + 1)) ] && { COMPREPLY=($(compgen -W "hash types wad" -- "$cur")); return; }
            [ "$COMP_CWORD" -eq $((i + 2)) ] && [ "${COMP_WORDS[i + 1]}" = wad ] &&
                { COMPREPLY=($(compgen -W "list cat extract pack" -- "$cur")); return; }
            opts="$opts --properties" ;;
        godot)
            [ "$COMP_CWORD" -eq $((i + 1)) ] && { COMPREPLY=($(compgen -W "pck" -- "$cur")); return; }
            [ "$COMP_CWORD" -eq $((i + 2)) ] && [ "${COMP_WORDS[i + 1]}" = pck ] &&
                { COMPREPLY=($(compgen -W "list cat extract pack" -- "$cur")); return; }
            opts="$opts -o --output --key --no-verify --max-total --format-version --godot --alignment --like --sync --max-alloc" ;;
        o3de)
            [ "$COMP_CWORD" -eq $((i + 1)) ] && { COMPREPLY=($(compgen -W "load store validate strip-defaults setreg prefab" -- "$cur")); return; }
            [ "$COMP_CWORD" -eq $((i + 2)) ] && [ "${COMP_WORDS[i + 1]}" = setreg ] &&
                { COMPREPLY=($(compgen -W "merge get origin" -- "$cur")); return; }
            [ "${COMP_WORDS[i + 1]}" = setreg ] && opts="$opts --specialization --platform --anchor"
            [ "$COMP_CWORD" -eq $((i + 2)) ] && [ "${COMP_WORDS[i + 1]}" = prefab ] &&
                { COMPREPLY=($(compgen -W "check clean" -- "$cur")); return; }
            [ "${COMP_WORDS[i + 1]}" = prefab ] && opts="$opts --templates --dry-run -o --output"
            opts="$opts --type --clear-containers --keep-defaults --report --report-all --no-imports --allow-partial --max-depth --max-alloc --max-string --max-decompressed" ;;
        schema) [ "$COMP_CWORD" -eq $((i + 1)) ] && { COMPREPLY=($(compgen -W "check show" -- "$cur")); return; } ;;
        help) COMPREPLY=($(compgen -W "$commands" -- "$cur")); return ;;
        version) return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _serval serval
