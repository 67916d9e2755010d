#!/usr/bin/env bash
# smoke_test.sh PACKAGE_DIR SOURCE_DIR: the Debian packages that
# `cmake --build BUILD --target package-deb` made (packaging.cmake),
# unpacked into a scratch root with dpkg -x and used from there:
#  1. the four packages are there, with their dependencies, and apt could
#     install them on this machine (apt-get --simulate);
#  2. the installed tools: --version, an example module assembled,
#     validated, lowered (spirv-val), a kernel with 2D copies through gac-cc,
#     and its PTX (ptxas where found);
#  3. examples/api/install_test.sh --installed: the library, its CMake
#     package and gac.pc, and --emit=ptx from the installed libgac-llvm.so;
#  4. the installed layer: clinfo lists the extensions through it, and a host
#     program (tests/icd/layer_test.c, built here without sanitizers) runs
#     its kernels on PoCL through it.
set -euo pipefail
packages=$(realpath "$1") src=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
fail() { echo "smoke_test: FAIL: $*" >&2; exit 1; }
# has TEXT REGEX: TEXT has a line matching REGEX. (Not `cmd | grep -q`: grep
# stops reading at the first match, and with pipefail the writer's SIGPIPE
# would fail the pipeline.)
has() { grep -Eq "$2" <<< "$1"; }

# 1. The packages.
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
debs=()
for name in libgac0 libgac-dev gac-tools gac-opencl-layer; do
  deb=$(ls "$packages"/${name}_*_"$arch".deb 2>/dev/null | head -1)
  [ -n "$deb" ] || fail "no ${name}_*_$arch.deb in $packages"
  debs+=("$deb")
  dpkg-deb -x "$deb" "$root"
  echo "package $(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version): depends $(dpkg-deb -f "$deb" Depends)"
done
has "$(dpkg-deb -f "$packages"/libgac0_*.deb Depends)" "libllvm19" || fail "libgac0 does not depend on libllvm19"
has "$(dpkg-deb -f "$packages"/gac-tools_*.deb Depends)" "clang-15" || fail "gac-tools does not depend on clang-15"
has "$(dpkg-deb -f "$packages"/gac-opencl-layer_*.deb Depends)" "ocl-icd-libopencl1" ||
  fail "gac-opencl-layer does not depend on an ICD loader"
# Every dependency resolves against this machine's package lists (nothing is installed).
if [ "$(id -u)" -eq 0 ] && command -v apt-get > /dev/null; then
  apt-get install --simulate --no-install-recommends "${debs[@]}" > "$tmp/apt.log" 2>&1 ||
    { cat "$tmp/apt.log" >&2; fail "apt-get cannot install the packages here"; }
  echo "apt-get --simulate: the four packages install here"
fi
bin=$root/usr/bin lib=$root/usr/lib/$multiarch
for f in "$bin/gac-opt" "$bin/gac-as" "$bin/gac-cc" "$bin/gac-isa-check" "$lib/libgac.so.0" "$lib/libgac-llvm.so" \
         "$lib/libgac-layer.so" "$lib/libgac.a" "$root/usr/include/gac/module.h" "$lib/pkgconfig/gac.pc" \
         "$lib/cmake/gac/gacConfig.cmake"; do
  [ -e "$f" ] || fail "${f#"$root"} is in no package"
done

# 2. The installed tools.
for tool in gac-opt gac-as gac-cc gac-isa-check; do
  has "$("$bin/$tool" --version)" "^$tool [0-9]+\.[0-9]+\.[0-9]+ \(commit [^)]+\)$" || fail "$tool --version"
done
"$bin/gac-opt" --version
"$bin/gac-as" "$src/examples/copies-physical64.spvasm" -o "$tmp/copies.spv"
"$bin/gac-opt" --validate "$tmp/copies.spv"
"$bin/gac-opt" --lower-async-copies=opencl "$tmp/copies.spv" -o "$tmp/copies.lowered.spv"
spirv-val --target-env opencl1.2 "$tmp/copies.lowered.spv"
PATH=$bin:$PATH "$bin/gac-cc" "$src/conformance/kernels/copies.cl" -o "$tmp/copies.raised.spv"
has "$("$bin/gac-opt" --print "$tmp/copies.raised.spv")" "GroupAsyncCopy2D2D" || fail "gac-cc: no GroupAsyncCopy2D2D"
"$bin/gac-opt" --emit=ptx --sm=80 "$tmp/copies.raised.spv" -o "$tmp/copies.ptx"
ptxas=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
if [ -x "$ptxas" ]; then
  "$ptxas" -arch=sm_80 "$tmp/copies.ptx" -o "$tmp/copies.cubin"
  echo "ptxas: the installed gac-opt's PTX assembles for sm_80"
fi
echo "tools: --version, assemble, validate, lower, gac-cc and --emit=ptx from $bin"

# 3. The library, its CMake package and gac.pc, and the tools' LLVM side
# (the installed gac-opt opens the installed libgac-llvm.so), as an install
# from the build tree is checked.
bash "$src/examples/api/install_test.sh" --installed "$root/usr" "$src"

# 4. The layer, enabled as the package says: OPENCL_LAYERS=<libdir>/libgac-layer.so.
layer=$lib/libgac-layer.so
if command -v clinfo > /dev/null; then
  out=$(POCL_CACHE_DIR=$tmp/pocl-clinfo OPENCL_LAYERS=$layer clinfo)
  grep -Eq "Device Extensions .*cl_khr_extended_async_copies" <<< "$out" ||
    fail "clinfo lists no cl_khr_extended_async_copies through the installed layer"
fi
"$bin/gac-as" "$src/tests/lit/validate/line-overlap-source.spvasm" -o "$tmp/invalid.spv"
llvm-as-19 "$src/tests/icd/broken-library.ll" -o "$tmp/broken-library.bc"
cc -std=c17 "$src/tests/icd/layer_test.c" -lOpenCL -o "$tmp/layer_test"
PATH=$bin:$PATH OPENCL_LAYERS=$layer POCL_CACHE_DIR=$tmp/pocl POCL_WORK_GROUP_METHOD=loops \
  GAC_LAYER_CACHE_DIR=$tmp/layer-cache "$tmp/layer_test" "$tmp/copies.raised.spv" "$tmp/invalid.spv" \
  "$src/conformance/kernels/copies.cl" "$tmp/broken-library.bc" > "$tmp/layer.log" 2>&1 ||
  { cat "$tmp/layer.log" >&2; fail "layer_test through the installed layer"; }
tail -1 "$tmp/layer.log"
echo "smoke_test: the packages install, and the installed tools, library and layer work"
