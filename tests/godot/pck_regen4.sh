#!/usr/bin/env bash
# Godot 4.6 PCK and GDEC vectors, written and read back by the engine itself:
# pck_gen4.gd, run by the official Godot 4.6 web export template in headless
# Chromium (godot4_run.mjs with GODOT4_GEN=pck_gen4.gd; godot4_engine.sh
# fetches and checks the engine). One browser session does everything.
#
#   bash tests/godot/pck_regen4.sh                    # rewrite the vectors
#   bash tests/godot/pck_regen4.sh --check [--serval PATH-TO-SERVAL]
#
# --check compares a fresh run with the committed vectors: what the engine
# read back (engine.tsv of both folders) and the bytes of every output that
# has no random IV (the plain packs, the GDEC files written with a fixed IV);
# the encrypted packs differ on every run (PCKPacker draws their IVs), so with
# --serval their fresh listing by serval must equal the committed one.
# --serval also has serval write packs (formats 2 and 3, several alignments,
# a pack --like of an encrypted engine pack with a changed member) that the
# engine mounts with ProjectSettings.load_resource_pack in the same session,
# before any pack of its own; every member it reads back (size, MD5) must be
# the file serval packed. And encrypted saves serval wrote (the engine's, a
# value edited): get_var() must give the engine's value with that edit. Exit 0 = all the same, 1 = a difference, 77 =
# Chromium, node or the engine package unavailable.
#
# Output:
#   tests/vectors/godot-pck/engine4/    PCKPacker packs; engine.tsv: the sources
#                                       (S), load_resource_pack (L) and every
#                                       member read back (M); keys.tsv: the key
#                                       each encrypted pack needs
#   tests/vectors/godot-gdec/engine4/   FileAccess.open_encrypted saves, key.txt,
#                                       password.txt, engine.tsv (G: each get_var(),
#                                       N: how many values it read)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
V="$ROOT/tests/vectors"
CHECK=0 S=""
while [ $# -gt 0 ]; do
    case "$1" in
    --check) CHECK=1 ;;
    --serval) S=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift ;;
    *) echo "usage: pck_regen4.sh [--check] [--serval PATH-TO-SERVAL]" >&2; exit 2 ;;
    esac
    shift
done
# shellcheck source=godot4_engine.sh
. "$HERE/godot4_engine.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/serval-pck4.XXXXXX")
trap 'rm -rf "$work"' EXIT
key=$(sed -n 's/^const KEY_HEX = "\(.*\)"$/\1/p' "$HERE/pck_gen4.gd")
pass=$(sed -n 's/^const PASSWORD = "\(.*\)"$/\1/p' "$HERE/pck_gen4.gd")
ZERO=$(printf '%064d' 0)

# ---- packs serval writes, for the engine to mount ----------------------------
mkdir -p "$work/in"
declare -A SRC_OF
serval_pack() { # NAME ROOT-DIR SERVAL-ARGS...: the pack NAME of the files under ROOT-DIR
    local name=$1 dir=$2
    shift 2
    "$S" godot pck pack "$dir" -o "$work/in/$name" "$@"
    SRC_OF[$name]=$dir
}
if [ -n "$S" ]; then
    for v in v3 v3_a1 v3_a64 v2 v2_422; do
        d="$work/src_$v/sv/$v"
        mkdir -p "$d/sub/deeper"
        printf 'written by serval (%s)\n' "$v" >"$d/hello.txt"
        : >"$d/empty.txt"
        head -c 5000 /dev/urandom >"$d/sub/random.bin"
        head -c 16 /dev/urandom >"$d/sub/deeper/sixteen.bin"
        head -c 200000 /dev/urandom >"$d/sub/deeper/big file.bin"
        printf 'non-ASCII name\n' >"$d/sub/é.txt"
    done
    serval_pack sv_v3.pck "$work/src_v3" --format-version 3 --godot 4.6.0
    serval_pack sv_v3_a1.pck "$work/src_v3_a1" --format-version 3 --godot 4.6.0 --alignment 1
    serval_pack sv_v3_a64.pck "$work/src_v3_a64" --format-version 3 --godot 4.6.0 --alignment 64
    serval_pack sv_v2.pck "$work/src_v2" --format-version 2 --godot 4.6.0
    serval_pack sv_v2_422.pck "$work/src_v2_422" --format-version 2 --godot 4.2.2
    # an encrypted pack (directory and members) the engine wrote, one member
    # changed and serval re-encrypting it; and the same for a plain one
    for p in enc_both plain32; do
        "$S" godot pck extract --key "$ZERO" "$V/godot-pck/engine4/$p.pck" -o "$work/src_like_$p"
        printf 'changed by serval, and longer than before\n' >"$work/src_like_$p/pk/$p/hello.txt"
        serval_pack "sv_like_$p.pck" "$work/src_like_$p" --like "$V/godot-pck/engine4/$p.pck" --key "$ZERO"
    done
    for n in "${!SRC_OF[@]}"; do
        r=$(cd "${SRC_OF[$n]}" && find . -mindepth 2 -maxdepth 2 -type d | head -n 1)
        printf 'pack\t%s\t%s\n' "$n" "${r#./}"
    done | sort >"$work/in/load.txt"
    # encrypted saves serval wrote: the engine's, a value changed with jq and
    # encrypted again (with the IV read, and with another IV); what get_var()
    # then gives must be the engine's own var_to_bytes with that value changed
    GD="$V/godot-gdec/engine4"
    declare -A GDEC_WANT
    gdec_in() { # NAME key|password JQ-EDIT HEX-FROM HEX-TO: the engine's save edited
        local name=$1 how=$2 edit=$3 from=$4 to=$5 opt src
        if [ "$how" = key ]; then opt="key=$key" src=save_key.gdec; else opt="password=$pass" src=save_pass.gdec; fi
        "$S" dump -I "$opt" "$GD/$src" | jq "$edit" | "$S" conv --from json -O "$opt" --to godot-enc -o "$work/in/$name" -
        printf 'gdec\t%s\t%s\n' "$name" "$how" >>"$work/in/load.txt"
        GDEC_WANT[$name]=$(awk -F'\t' -v n="$src" '$1 == "G" && $2 == n {print $4}' "$GD/engine.tsv" | sed "s/$from/$to/")
    }
    # gold 1234 -> 999: the Dictionary entry "gold" (u32 length 4, the name, INT 2, d2040000)
    gdec_in sv_key.gdec key '."$map".data."$map".gold = 999' 676f6c6402000000d2040000 676f6c6402000000e7030000
    gdec_in sv_key_iv.gdec key '."$map".data."$map".gold = 999 | ."$meta".iv."$bytes" = "AAECAwQFBgcICQoLDA0ODw=="' \
        676f6c6402000000d2040000 676f6c6402000000e7030000
    # the second value, 42 -> 43
    gdec_in sv_pass.gdec password '."$map".data."$array"[1] = 43' '^020000002a000000$' 020000002b000000
fi

# ---- the session ------------------------------------------------------------
GODOT4_GEN=pck_gen4.gd GODOT4_INPUT="$work/in" node "$HERE/godot4_run.mjs" "$ENGINE4" "$work"
mkdir -p "$work/new/godot-pck/engine4" "$work/new/godot-gdec/engine4"
python3 - "$work/stdout.txt" "$work/new" <<'EOF'
import os, sys
out = sys.argv[2]
for line in open(sys.argv[1], encoding="utf-8"):
    f = line.rstrip("\n").split("\t")
    if f[0] == "F":
        sub = "godot-pck/engine4" if f[1].endswith(".pck") else "godot-gdec/engine4"
        with open(os.path.join(out, sub, f[1]), "wb") as o:
            o.write(bytes.fromhex(f[2]))
EOF
hdr='# written by tests/godot/pck_regen4.sh from what Godot 4.6 read back; do not edit.'
{ echo "$hdr"; grep -E $'^(S|L|M)\t' "$work/stdout.txt"; } >"$work/new/godot-pck/engine4/engine.tsv"
{ echo "$hdr"; grep -E $'^(G|N)\t' "$work/stdout.txt"; } >"$work/new/godot-gdec/engine4/engine.tsv"
{
    echo "# the key (64 hex digits) each encrypted pack of this folder was written with"
    for p in enc_files enc_dir enc_both; do printf '%s.pck\t%s\n' "$p" "$ZERO"; done
    printf 'enc_key.pck\t%s\n' "$key"
} >"$work/new/godot-pck/engine4/keys.tsv"
printf '%s\n' "$key" >"$work/new/godot-gdec/engine4/key.txt"
printf '%s\n' "$pass" >"$work/new/godot-gdec/engine4/password.txt"
n=$(grep -c $'^M\t' "$work/new/godot-pck/engine4/engine.tsv" || true)
if [ "$n" -lt 45 ] || ! grep -q '^END' "$work/stdout.txt"; then
    echo "only $n member read-backs came out; the engine's last lines:"
    grep -v '^F' "$work/stdout.txt" | tail -n 20
    exit 1
fi

status=0
# ---- the engine's view of serval's packs -------------------------------------
if [ -n "$S" ]; then
    while IFS=$'\t' read -r kind name root; do
        [ "$kind" = pack ] || continue
        got=$(awk -F'\t' -v n="$name" '($1 == "IL" || $1 == "IM") && $2 == n' "$work/stdout.txt" | sort)
        want=$(printf 'IL\t%s\ttrue\n' "$name"
            (cd "${SRC_OF[$name]}" && find "$root" -type f | sort | while IFS= read -r f; do
                printf 'IM\t%s\tres://%s\t%d\t%s\n' "$name" "$f" "$(wc -c <"$f")" "$(md5sum <"$f" | cut -d' ' -f1)"
            done))
        want=$(printf '%s\n' "$want" | sort)
        if [ "$got" = "$want" ]; then
            echo "ok: Godot 4.6 mounted $name (serval) and read its $(($(printf '%s\n' "$want" | wc -l) - 1)) members back"
        else
            echo "FAIL: $name: Godot 4.6 read"; printf '%s\n' "$got"; echo "expected"; printf '%s\n' "$want"
            grep $'^E\t' "$work/stdout.txt" | head -n 10
            status=1
        fi
    done <"$work/in/load.txt"
    for name in "${!GDEC_WANT[@]}"; do
        got=$(awk -F'\t' -v n="$name" '$1 == "IG" && $2 == n {print $4}' "$work/stdout.txt")
        if [ -n "$got" ] && [ "$got" = "${GDEC_WANT[$name]}" ]; then
            echo "ok: Godot 4.6 decrypted $name (serval) to the values expected"
        else
            echo "FAIL: $name: Godot 4.6 read"; awk -F'\t' -v n="$name" '$1 == "IG" && $2 == n' "$work/stdout.txt"
            echo "expected (var_to_bytes hex)"; printf '%s\n' "${GDEC_WANT[$name]}"
            grep $'^E\t' "$work/stdout.txt" | head -n 10
            status=1
        fi
    done
fi

if [ $CHECK -eq 1 ]; then
    for d in godot-pck/engine4 godot-gdec/engine4; do
        for f in engine.tsv; do
            diff "$V/$d/$f" "$work/new/$d/$f" >"$work/diff.txt" ||
                { echo "FAIL: the engine's read-back differs from $d/$f:"; head -n 20 "$work/diff.txt"; status=1; }
        done
    done
    # every pack without a key (keys.tsv) has no IV: the same bytes
    for p in "$V"/godot-pck/engine4/*.pck "$work"/new/godot-pck/engine4/*.pck; do
        f=$(basename "$p")
        grep -q "^$f"$'\t' "$V/godot-pck/engine4/keys.tsv" && continue
        cmp -s "$V/godot-pck/engine4/$f" "$work/new/godot-pck/engine4/$f" ||
            { echo "FAIL: Godot 4.6 wrote $f differently from the committed vector"; status=1; }
    done
    for f in save_key raw16; do
        cmp -s "$V/godot-gdec/engine4/$f.gdec" "$work/new/godot-gdec/engine4/$f.gdec" ||
            { echo "FAIL: Godot 4.6 wrote $f.gdec differently from the committed vector"; status=1; }
    done
    if [ -n "$S" ]; then
        while IFS=$'\t' read -r p k; do
            case "$p" in \#*) continue ;; esac
            if ! cmp -s <("$S" godot pck list --key "$k" "$V/godot-pck/engine4/$p") \
                <("$S" godot pck list --key "$k" "$work/new/godot-pck/engine4/$p"); then
                echo "FAIL: serval lists a fresh $p differently from the committed one"; status=1
            fi
        done <"$V/godot-pck/engine4/keys.tsv"
    fi
    [ $status -eq 0 ] && echo "Godot 4.6 regenerates the PCK and GDEC vectors (the random IVs excepted)"
    exit $status
fi
[ $status -eq 0 ] || exit 1
for d in godot-pck/engine4 godot-gdec/engine4; do
    rm -rf "${V:?}/$d"
    mkdir -p "$V/$d"
    cp -r "$work/new/$d/." "$V/$d/"
done
echo "pck_regen4: wrote $(find "$work/new" -type f | wc -l) files under tests/vectors/godot-{pck,gdec}/engine4"
