#!/usr/bin/env bash
# Checks the naming rule of the functions defined in src/: an sv_ function is
# public (declared in a header under include/serval/), and an internal one is
# named sv__<module>_<name>, where <module> is a folder of src/ or of
# src/formats/ (or ki, zip). Lists each function that breaks the rule with the
# file defining it, prints the counts, and exits 1 if there is any.
# scripts/rename-internal.sh renames them all to follow the rule.
#
#   bash scripts/check-names.sh [ROOT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec python3 "$here/internal_names.py" check "${1:-$here/..}"
