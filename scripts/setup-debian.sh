#!/usr/bin/env bash
# Installs the Debian 12 packages the project needs, only those that are missing.
# Run as root (or with sudo). Nothing is downloaded outside Debian's archive.
set -euo pipefail
pkgs=(build-essential cmake pkg-config petsc-dev libslepc-real-dev libeigen3-dev libvtk9-dev
      libgtest-dev nlohmann-json3-dev python3-matplotlib python3-scipy python3-vtk9 xvfb xauth
      clang libclang-rt-14-dev valgrind) # fuzzing (libFuzzer) and the memcheck test
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"; exit 0
fi
echo "setup: installing ${missing[*]}"
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
