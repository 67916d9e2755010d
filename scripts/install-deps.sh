#!/usr/bin/env bash
# Installs the Debian packages gac needs, only those that are missing.
# Idempotent: a second run installs nothing and says so.
set -euo pipefail

packages=(
  cmake ninja-build gcc g++ pkg-config python3
  dpkg-dev file  # the Debian packages: dpkg-shlibdeps, and CPack's ELF test
  spirv-tools spirv-headers
  ocl-icd-opencl-dev opencl-headers ocl-icd-libopencl1 pocl-opencl-icd clinfo
  clang-15 llvm-spirv-15 llvm-15-tools
  llvm-19-dev llvm-19 libclc-19 lld-19 libamdhip64-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing: ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
