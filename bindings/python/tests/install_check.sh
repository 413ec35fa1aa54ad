#!/usr/bin/env bash
# `pip install bindings/python` works offline: the package installs into a
# fresh virtual environment with no package index (--no-index), and the
# installed module loads the given libserval and decodes a value.
#
# usage: install_check.sh PYTHON LIBSERVAL_SO
# Exits 77 (skipped) when PYTHON has no venv or pip module.
set -euo pipefail
python=$1
lib=$2
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! "$python" -m venv "$tmp/venv" >/dev/null 2>&1 || [[ ! -x $tmp/venv/bin/pip ]]; then
    echo "skipped: $python cannot make a virtual environment with pip (Debian: python3-venv)"
    exit 77
fi
"$tmp/venv/bin/pip" install --no-index --quiet --disable-pip-version-check "$src"
cd "$tmp"   # not the source tree: the installed copy is the one imported
SERVAL_LIBRARY=$lib "$tmp/venv/bin/python" - <<'PY'
import serval, os
assert os.path.dirname(serval.__file__).endswith(os.path.join("site-packages", "serval")), serval.__file__
v = serval.loads(bytes.fromhex("090000009a9931419a99b14133330542"), "godot4")
assert type(v) is serval.Vector3 and len(v) == 3, v
assert serval.dumps(v, "godot4") == bytes.fromhex("090000009a9931419a99b14133330542")
here = os.path.dirname(serval.__file__)
for typed in ("py.typed", "__init__.pyi", "kingsisle.pyi", "resonite.pyi", "dask.pyi"):
    assert os.path.isfile(os.path.join(here, typed)), typed  # the type stubs ship too
assert serval.to_json(v) == '{"$vector3": [11.1, 22.2, 33.3]}\n', serval.to_json(v)  # serval dump's bytes
print("installed:", serval.__file__)
PY
