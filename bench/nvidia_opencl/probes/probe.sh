#!/usr/bin/env bash
# probe.sh OUT [GAC_PROBE_PTX...]: on the GPU machine, what NVIDIA's OpenCL
# driver is and makes: its device info, the PTX its compiler writes for
# ptx_abi_probe.cl (OUT/nvidia-probe*.ptx), and for each PTX given (gac's
# build of ptx_abi_probe.cl, --ptx-abi=opencl) whether the driver loads it
# and whether its kernels write what NVIDIA's own build writes
# (nvcl-abi-check). docs/VENDOR.md reads these.
set -uo pipefail
out=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
top=$here/.. # bench/nvidia_opencl: the driver's setup and nvcl.c
. "$top/nvidia_opencl.sh" || exit 1
mkdir -p "$out"
echo "NVIDIA OpenCL: $nv_lib"
gcc -std=c17 -O2 -Wall $NVCL_CFLAGS -I"$top" "$here/nvcl_dump.c" "$top/nvcl.c" -o "$out/nvcl-dump" $NVCL_LIBS || exit 1
gcc -std=c17 -O2 -Wall $NVCL_CFLAGS -I"$top" "$here/abi_check.c" "$top/nvcl.c" -o "$out/nvcl-abi-check" $NVCL_LIBS || exit 1
status=0
"$out/nvcl-dump" --info
"$out/nvcl-dump" "$here/ptx_abi_probe.cl" "$out/nvidia-probe.ptx" ""
"$out/nvcl-dump" "$here/ptx_abi_probe.cl" "$out/nvidia-probe-cl30.ptx" "-cl-std=CL3.0"
"$out/nvcl-dump" "$here/ptx_abi_probe.cl" "$out/nvidia-probe-nv.ptx" "-cl-nv-verbose -cl-nv-arch sm_90"
for ptx in "$@"; do
  kernels=$(grep -o '^\.visible \.entry [A-Za-z0-9_]*' "$ptx" | awk '{print $3}')
  echo "== loading $ptx"
  "$out/nvcl-dump" --load "$ptx" $kernels
  "$out/nvcl-abi-check" "$here/ptx_abi_probe.cl" "$ptx" || status=1
done
rm -f "$out/nvcl-dump" "$out/nvcl-abi-check"
exit $status
