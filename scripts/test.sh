#!/usr/bin/env bash
# Every test: installs missing Debian packages, builds the Release tree and
# the Debian packages from it, builds everything with AddressSanitizer and
# UndefinedBehaviorSanitizer, and runs every test with CTest (unit,
# lit/FileCheck, round-trip corpus, malformed inputs, fuzz smoke runs, the
# layer, the conformance suite and kernel corpus on PoCL, the PTX and AMDGCN
# checks, the packages installed into a scratch root).
set -euo pipefail
cd "$(dirname "$0")/.."

start=$SECONDS
scripts/install-deps.sh
installed=$SECONDS
build=${GAC_TEST_BUILD_DIR:-build-test}
# The Release tree: the optimised build warns where the sanitized one does
# not (GCC -O3's overflow and uninitialised-use analyses), so the library,
# tools and layer must build there with -Werror too; the packages come from
# it (a tree for /usr).
cmake -S . -B "$build-release" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
  -DCMAKE_INSTALL_PREFIX=/usr > /dev/null
cmake --build "$build-release" --target package-deb
packaged=$SECONDS
# The GPU artefacts (PTX, AMDGCN code objects) come from the Release tree's
# gac-opt and gac-cc: their time is LLVM's, which ASan's allocator doubled;
# the test gpu.sanitized-emit runs the sanitized gac-opt's emitters over four
# programs and compares.
# -O1, as ASan's documentation advises: half of -O2's compile time; the
# Release tree above is the optimised build that must compile warning-free.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGAC_SANITIZE=ON \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g -DNDEBUG" \
  -DGAC_PACKAGE_DIR="$(realpath -m "$build-release")/packages" \
  -DGAC_GPU_TOOLS_DIR="$(realpath -m "$build-release")/tools"
cmake --build "$build"
built=$SECONDS
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" || status=$?
echo "time: packages $((installed - start)) s, release build and .debs $((packaged - installed)) s," \
  "sanitized build $((built - packaged)) s, tests $((SECONDS - built)) s"
exit $status
