# bash completion for serval(1). Installed as
# share/bash-completion/completions/serval.
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
    local commands="formats detect dump conv validate noesis resonite schema version help"
    local formats
    formats=$(serval formats 2>/dev/null | awk '/^[a-z]/ {print $1}')
    case $prev in
        --from | --to) COMPREPLY=($(compgen -W "$formats" -- "$cur")); return ;;
        --output-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        -j | --jobs | -T | --threads | -O | --option | -I | --input-option | --max-depth | --max-alloc | --max-string | --max-decompressed | --max-total | --max-input) return ;;
        -o | --output | --schema) COMPREPLY=($(compgen -f -- "$cur")); return ;;
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
        dump) opts="$opts --from -o --output --output-dir --sync --compact -O -I -r -j -T -q -v --progress --no-progress --max-depth --max-alloc --max-string --max-decompressed --max-input" ;;
        conv) opts="$opts --from --to -o --output --output-dir -f --force --sync --lossy --report-all -O -I -r -j -T -q -v --progress --no-progress --max-depth --max-alloc --max-string --max-decompressed --max-input" ;;
        validate) opts="$opts --from -O -I -r -j -T -q -v --progress --no-progress --max-depth --max-alloc --max-string --max-decompressed --max-input" ;;
        detect) opts="$opts -v --verbose" ;;
        noesis) [ "$COMP_CWORD" -eq $((i + 1)) ] && { COMPREPLY=($(compgen -W "info" -- "$cur")); return; } ;;
        resonite)
            [ "$COMP_CWORD" -eq $((i + 1)) ] && { COMPREPLY=($(compgen -W "tree package" -- "$cur")); return; }
            [ "${COMP_WORDS[i + 1]}" = package ] && [ "${COMP_WORDS[i + 2]}" = extract ] &&
                opts="$opts -o --output --sync --max-total --max-depth --max-alloc --max-string --max-decompressed" ;;
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
