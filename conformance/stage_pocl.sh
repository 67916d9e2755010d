#!/usr/bin/env bash
# stage_pocl.sh BUILD DEST [SEED BATCHES [PER_BATCH]]: what run_pocl.sh needs
# to run gac's OpenCL output on another machine's PoCL (Ubuntu's PoCL 5.0 on
# the GPU machine, which has none of gac's Debian packages), from a build
# tree here:
#   DEST/kernels   the conformance suite's modules: per program and strategy
#                  the SPIR 1.2 bitcode and the lowered SPIR-V it came from,
#                  and the raised module (for the layer)
#   DEST/lib       libgac-layer.so
#   DEST/tools     llvm-spirv-15 with its libraries (the layer's bitcode
#                  route, for a PoCL that takes no SPIR-V, as Ubuntu's 5.0)
#   DEST/sgemm     bench/cuda/sgemm_fast.cl as gac-cc writes it (raised, its
#                  pipeline annotations kept), for gac-sgemm-il
#   DEST/random    with SEED: BATCHES batches of PER_BATCH (default 100)
#                  random cases, built for cooperative, leader, auto, lines
#                  and late (conformance/random/build_batch.sh), JOBS at a
#                  time (default nproc)
# GAC_LOWER_OPTIONS (e.g. units=one,events=generic, what the layer asks for on PoCL 5 and
# later): the suite's modules are lowered again from BUILD's checked modules
# with these options added, and the random cases built with them.
# GAC_STAGE_TARGETS: the random cases' strategies (default cooperative leader
# auto lines late).
# The folder goes to the other machine beside a checkout of the same commit
# (run_pocl.sh compiles the runners there with gcc).
set -euo pipefail
build=$(realpath "$1") dest=$2
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dest/kernels" "$dest/lib" "$dest/sgemm"
cp "$build"/conformance/kernels/*.bc "$build"/conformance/kernels/*.lowered.spv \
  "$build"/conformance/kernels/*.raised.spv "$dest/kernels/"
if [ -n "${GAC_LOWER_OPTIONS:-}" ]; then
  for lowered in "$dest"/kernels/*.lowered.spv; do
    name=$(basename "$lowered" .lowered.spv)
    echo "$build/conformance/kernels/${name%.*} ${name##*.} $dest/kernels/$name.bc"
  done | xargs -P "${JOBS:-$(nproc)}" -n 3 sh -c \
    '"$0/conformance/build_kernel.sh" --lower "$1/tools/gac-opt" "$2" "$3" "$4" || echo "lowering failed: $2 $3"' \
    "$root" "$build"
fi
cp "$build/icd/libgac-layer.so" "$dest/lib/"
mkdir -p "$dest/tools/bin" "$dest/tools/lib"
cp -L /usr/bin/llvm-spirv-15 "$dest/tools/bin/"
for l in libLLVM-15.so.1 libLLVMSPIRVLib.so.15 libz3.so.4; do cp -L "/usr/lib/x86_64-linux-gnu/$l" "$dest/tools/lib/"; done
"$build/tools/gac-cc" "$root/bench/cuda/sgemm_fast.cl" -o "$dest/sgemm/sgemm_fast.raised.spv"
[ $# -ge 4 ] || exit 0
seed=$3 batches=$4 per=${5:-100}
mkdir -p "$dest/random"
for ((b = 0; b < batches; b++)); do
  "$build/conformance/random/gac-random-gen" "$seed" $((b * per)) "$per" "$dest/random/b$b.cl"
  for t in ${GAC_STAGE_TARGETS:-cooperative leader auto lines late}; do echo "$b $t"; done
done | xargs -P "${JOBS:-$(nproc)}" -n 2 sh -c \
  '"$0/conformance/random/build_batch.sh" "$1/tools" "$2/random/b$3.cl" "$4" "$2/random/b$3.$4" > "$2/random/b$3.$4.build.log" 2>&1 || echo "build failed: batch $3 $4"' \
  "$root" "$build" "$dest"
rm -f "$dest"/random/*.raised.spv "$dest"/random/*.raised.spv.log
du -sh "$dest"
