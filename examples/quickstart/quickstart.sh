#!/usr/bin/env bash
# quickstart.sh BIN LAYER SCALE_TILES: README.md's quick start, its commands
# as written there, with the tools in BIN, the layer LAYER and scale_tiles.c
# built as SCALE_TILES (the test examples.quickstart).
set -euo pipefail
bin=$(realpath "$1") layer=$(realpath "$2") scale_tiles=$(realpath "$3")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export PATH=$bin:$PATH
cp "$here/tile.cl" .

# 1. For any OpenCL device: the copies lowered to core SPIR-V (and, for
#    PoCL 3.1, which takes no SPIR-V, SPIR 1.2 bitcode).
gac-cc tile.cl -o tile.spv
gac-opt --print tile.spv | grep -c "GroupAsyncCopy2D2D"
gac-opt --lower-async-copies=opencl tile.spv -o tile.lowered.spv
spirv-val --target-env opencl1.2 tile.lowered.spv
llvm-spirv-15 -r --spirv-target-env=CL1.2 tile.lowered.spv -o tile.bc
# 2. PTX for an NVIDIA GPU (sm_80: cp.async).
gac-cc --emit=ptx --sm=80 tile.cl -o tile.ptx
grep -c "cp.async" tile.ptx
# 3. An unmodified host program through the layer, on the first OpenCL device.
OPENCL_LAYERS=$layer "$scale_tiles" tile.cl
