#!/usr/bin/env bash
# Installs what the browser viewer (web/) needs to build and be tested on
# Debian 12: emscripten (the WebAssembly build), chromium (the browser the
# tests drive), Node.js and npm, then playwright-core from web/test's lock
# file (npm ci). apt-get runs only for what is missing; npm ci only when the
# installed packages do not match the lock file. Safe to run again.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

packages=(emscripten chromium)
command -v node >/dev/null || packages+=(nodejs)
command -v npm >/dev/null || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-web-deps: installing ${missing[*]}" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm ci writes node_modules/.package-lock.json; when it equals the lock
# file's packages, the install is current.
cd "$root/web/test"
if ! cmp -s <(node -e 'const l=require("./package-lock.json");delete l.packages[""];console.log(JSON.stringify(l.packages))' 2>/dev/null) \
            <(node -e 'console.log(JSON.stringify(require("./node_modules/.package-lock.json").packages))' 2>/dev/null); then
  echo "install-web-deps: npm ci in web/test" >&2
  npm ci --no-audit --no-fund --silent
fi
