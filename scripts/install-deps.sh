#!/usr/bin/env bash
# Installs the Debian 12 packages serval needs to build, test and benchmark,
# calling apt-get only when something is missing. Safe to run again.
set -euo pipefail

# build: compilers and CMake; test: cmocka, jq for CLI examples;
# bench peers: jansson (C) and RapidJSON (C++, header-only).
packages=(
  build-essential cmake pkg-config clang
  libcmocka-dev
  libjansson-dev rapidjson-dev g++
  jq
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
