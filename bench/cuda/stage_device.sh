#!/usr/bin/env bash
# stage_device.sh BUILD DEST: gathers what bench/cuda/device_run.sh needs on
# a GPU machine that has no gac build: the PTX of `ninja ptx-device-bundle`
# and the sources of the CUDA runner and the benchmarks, in DEST's layout
# (DEST/ptx, DEST/src/...). Run it there as DEST/src/bench/cuda/device_run.sh DEST/ptx OUT.
set -euo pipefail
build=$1 dest=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$dest"
mkdir -p "$dest/ptx" "$dest/src/support" "$dest/src/conformance/cuda" "$dest/src/conformance/math" "$dest/src/bench/cuda"
cp "$build"/device/*.ptx "$dest/ptx/"
cp "$root"/conformance/suite.[ch] "$dest/src/conformance/"
cp "$root"/support/subprocess.[ch] "$dest/src/support/" # the runners read files with gac_read_file
mkdir -p "$dest/src/conformance/gpu"
cp "$root"/conformance/gpu/{runner.c,gpu_api.h} "$dest/src/conformance/gpu/"
# The kernel corpus: conformance/corpus/device_run.sh DEST/ptx/corpus OUT.
mkdir -p "$dest/ptx/corpus" "$dest/src/conformance/corpus"
cp "$build"/device/corpus/* "$dest/ptx/corpus/"
cp "$root"/conformance/corpus/{*.c,*.h,kernels.def,device_run.sh} "$dest/src/conformance/corpus/"
mkdir -p "$dest/src/conformance/corpus/kernels" # their sources, for NVIDIA's builds (vendor_corpus.c)
cp "$root"/conformance/corpus/kernels/*.cl "$dest/src/conformance/corpus/kernels/"
cp "$root"/conformance/math/{math_cuda.c,math_opencl.c,math_suite.c,math_suite.h,math_functions.h,math.cl} "$dest/src/conformance/math/"
# The OpenCL runner, for NVIDIA's OpenCL driver (bench/nvidia_opencl/device_run.sh).
cp "$root"/conformance/{runner.c,cl_device.c,cl_device.h} "$dest/src/conformance/"
cp "$root"/bench/cuda/{bench.cu,compute.cu,cuda_bench.h,device_run.sh,profile.sh,sass_loops.awk} "$dest/src/bench/cuda/"
# The vendor benchmark (NVIDIA's OpenCL): DEST/src/bench/nvidia_opencl/device_run.sh DEST/ptx OUT.
cp "$root"/bench/cuda/{sgemm,sgemm_fast,stencil}.cl "$dest/src/bench/cuda/"
# CLBlast's Xgemm for NVIDIA's compiler: as it is, and with 2D copies (made in the build).
cp "$root"/third_party/clblast/xgemm.cl "$build"/device/xgemm_2d.cl "$dest/src/bench/cuda/"
cp -r "$root"/bench/nvidia_opencl "$dest/src/bench/" # its probes/ and xgemm/ too
