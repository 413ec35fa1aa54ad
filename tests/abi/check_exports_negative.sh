#!/usr/bin/env bash
# check_exports.sh must fail, naming the symbol, when a library exports an
# internal sv__ function or a name outside the sv_ namespace, even when a
# header declares it with SV_API, and must pass a library that exports exactly
# its sv_ declarations. The libraries are small fakes built here with the C
# compiler, so the test does not depend on the real library's contents.
#
# usage: check_exports_negative.sh CHECK_EXPORTS_SH [CC]
set -euo pipefail
check=$1
cc=${2:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/inc/serval"

# build NAME SYMBOL...: a shared library exporting each SYMBOL as a function,
# and a public header declaring each with SV_API.
build() {
    local name=$1
    shift
    : >"$tmp/$name.c"
    {
        echo '#define SV_API __attribute__((visibility("default")))'
    } >"$tmp/inc/serval/$name.h"
    for s in "$@"; do
        echo "__attribute__((visibility(\"default\"))) int $s(void) { return 1; }" >>"$tmp/$name.c"
        echo "SV_API int $s(void);" >>"$tmp/inc/serval/$name.h"
    done
    "$cc" -shared -fPIC -fvisibility=hidden -o "$tmp/$name.so" "$tmp/$name.c"
}

failures=0
# expect STATUS NAME [SYMBOL_NAMED]: check_exports on library NAME with its
# header exits STATUS and, when given, names SYMBOL_NAMED in its report.
expect() {
    local want=$1 name=$2 named=${3:-} got=0
    "$check" "$tmp/$name.so" "$tmp/inc/serval/$name.h" >"$tmp/out" 2>&1 || got=$?
    if [[ $got -ne $want ]]; then
        echo "FAIL $name: check_exports exited $got, expected $want:"
        sed 's/^/    /' "$tmp/out"
        failures=$((failures + 1))
    elif [[ -n $named ]] && ! grep -qw -- "$named" "$tmp/out"; then
        echo "FAIL $name: the report does not name $named:"
        sed 's/^/    /' "$tmp/out"
        failures=$((failures + 1))
    else
        echo "ok   $name"
    fi
}

build clean sv_public_one sv_public_two
expect 0 clean
build internal sv_public_one sv__core_helper
expect 1 internal sv__core_helper
build foreign sv_public_one gd_helper
expect 1 foreign gd_helper

[[ $failures -eq 0 ]] || exit 1
