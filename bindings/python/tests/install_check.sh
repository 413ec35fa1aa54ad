#!/usr/bin/env bash
# `pip install bindings/python` works offline and compiles serval._native:
# the package installs into a fresh virtual environment with no package
# index (--no-index), for Debian's python3 (the first argument) and for
# every other python3 on the PATH, and the installed module runs on the
# extension (serval.BACKEND == "native"), imports it from site-packages and
# round-trips a Godot vector. Then without a compiler (CC names none) the
# install still succeeds, on the ctypes path, and says why on stderr.
# `make python`'s wheel is checked the same way when it exists.
#
# usage: install_check.sh PYTHON LIBSERVAL_SO
# Exits 77 (skipped) when PYTHON has no venv or pip module.
set -euo pipefail
python=$1
lib=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SERVAL_BUILD=$(dirname "$lib")   # the libserval the extension links
unset SERVAL_PYTHON_BACKEND SERVAL_NATIVE

# a copy of the library with no build tree around it, for the ctypes check
# (beside the build's own libserval the module would find its extension)
mkdir "$tmp/lib" && cp "$lib" "$tmp/lib/libserval.so"

check() {  # check VENV_PYTHON WANT_BACKEND
    local use=$lib
    [[ $2 == ctypes ]] && use=$tmp/lib/libserval.so
    (cd "$tmp" && SERVAL_LIBRARY=$use "$1" - "$2" <<'PY'
import os, sys
import serval
want = sys.argv[1]
assert os.path.dirname(serval.__file__).endswith(os.path.join("site-packages", "serval")), serval.__file__
assert serval.BACKEND == want, (serval.BACKEND, serval._native_loader.reason())
if want == "native":
    assert "site-packages" in serval._native.__file__, serval._native.__file__
data = bytes.fromhex("090000009a9931419a99b14133330542")  # gdtype_vector3
v = serval.loads(data, "godot4")
assert type(v) is serval.Vector3 and len(v) == 3, v
assert serval.dumps(v, "godot4") == data
here = os.path.dirname(serval.__file__)
for typed in ("py.typed", "__init__.pyi", "kingsisle.pyi", "resonite.pyi", "dask.pyi"):
    assert os.path.isfile(os.path.join(here, typed)), typed  # the type stubs ship too
assert serval.to_json(v) == '{"$vector3": [11.1, 22.2, 33.3]}\n', serval.to_json(v)  # serval dump's bytes
print("installed:", serval.__file__, serval.BACKEND, sys.version.split()[0])
PY
    )
}

pythons=("$python")
while read -r p; do
    real=$(readlink -f "$p")
    for q in "${pythons[@]}"; do [[ $(readlink -f "$q") == "$real" ]] && continue 2; done
    "$p" -c 'import sys; sys.exit(sys.version_info < (3, 8))' 2>/dev/null && pythons+=("$p")
done < <(type -a -p python3 2>/dev/null || true)

n=0
for py in "${pythons[@]}"; do
    venv="$tmp/venv$n"
    n=$((n + 1))
    if ! "$py" -m venv "$venv" >/dev/null 2>&1 || [[ ! -x $venv/bin/pip ]]; then
        [[ $py == "$python" ]] && { echo "skipped: $py cannot make a virtual environment with pip (Debian: python3-venv)"; exit 77; }
        echo "note: $py makes no virtual environment with pip; not checked"
        continue
    fi
    "$venv/bin/pip" install --no-index --quiet --disable-pip-version-check "$src"
    check "$venv/bin/python" native
done

# no compiler: still installed, on ctypes, and the reason on stderr
venv="$tmp/venv-nocc"
"$python" -m venv "$venv" >/dev/null
CC=/nonexistent/cc "$venv/bin/pip" install -v --no-index --disable-pip-version-check "$src" \
    >"$tmp/nocc.log" 2>&1
grep -q "no C compiler" "$tmp/nocc.log" || { echo "no reason given for the ctypes install:"; cat "$tmp/nocc.log"; exit 1; }
check "$venv/bin/python" ctypes

# make python's wheel, when built
for whl in "$SERVAL_BUILD"/python/dist/serval-*.whl; do
    [[ -f $whl ]] || continue
    venv="$tmp/venv-wheel"
    "$python" -m venv "$venv" >/dev/null
    "$venv/bin/pip" install --no-index --quiet --disable-pip-version-check "$whl"
    check "$venv/bin/python" native
done
