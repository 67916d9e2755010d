#!/usr/bin/env bash
# Installs gac from BUILD into a temporary prefix and builds lower_module.c
# against it both ways (the CMake package, pkg-config), then lowers a module
# with each build. Usage: install_test.sh BUILD_DIR SOURCE_DIR [CFLAGS]
# (CFLAGS: what a sanitized build's libgac needs of its users, e.g.
# -fsanitize=address,undefined.)
set -euo pipefail
build=$(realpath "$1") src=$(realpath "$2") cflags=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" > "$tmp/install.log"
test -f "$prefix/lib/libgac.a" -a -f "$prefix/include/gac/module.h" -a -f "$prefix/lib/pkgconfig/gac.pc"
soname=$(readelf -d "$prefix"/lib/libgac.so | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = libgac.so.0 ] || { echo "install_test: soname is '$soname'" >&2; exit 1; }
"$build/tools/gac-as" "$src/examples/copies-physical64.spvasm" -o "$tmp/in.spv"
# 1. The CMake package.
cmake -S "$src/examples/api" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS="$cflags" -DCMAKE_EXE_LINKER_FLAGS="$cflags" > "$tmp/cmake.log"
cmake --build "$tmp/cmake" > "$tmp/cmake-build.log"
LD_LIBRARY_PATH="$prefix/lib" "$tmp/cmake/lower_module" "$tmp/in.spv" "$tmp/out-cmake.spv"
spirv-val --target-env opencl1.2 "$tmp/out-cmake.spv"
# 2. pkg-config.
flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs gac)
cc -std=c17 $cflags "$src/examples/api/lower_module.c" $flags -o "$tmp/lower_module_pc"
LD_LIBRARY_PATH="$prefix/lib" "$tmp/lower_module_pc" "$tmp/in.spv" "$tmp/out-pc.spv"
cmp "$tmp/out-cmake.spv" "$tmp/out-pc.spv"
echo "install_test: installed, built both ways, lowered $(stat -c %s "$tmp/in.spv") -> $(stat -c %s "$tmp/out-pc.spv") bytes"
