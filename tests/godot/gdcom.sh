#!/usr/bin/env bash
# Regenerates tests/vectors/godot/gdcom/index.tsv with the npm package
# @gd-com/utils 5.x (installed into a temporary directory).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/serval-gdcom.XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm install --silent --no-audit --no-fund @gd-com/utils@5.0.0 >/dev/null)
mkdir -p "$HERE/../vectors/godot/gdcom"
NODE_PATH="$work/node_modules" node "$HERE/gdcom_gen.js" >"$HERE/../vectors/godot/gdcom/index.tsv"
echo "wrote $(grep -vc '^#' "$HERE/../vectors/godot/gdcom/index.tsv") vectors"
