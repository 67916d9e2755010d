#!/usr/bin/env bash
# clinfo.sh LAYER [PRELOAD]: clinfo, through the layer, lists both extensions
# and the SPIR-V versions. PRELOAD is the sanitizer runtime when the layer was
# built with it (clinfo itself is not).
set -euo pipefail
layer=$1
preload=${2:-}
out=$(env OPENCL_LAYERS="$layer" ${preload:+LD_PRELOAD="$preload"} ASAN_OPTIONS=detect_leaks=0 clinfo)
status=0
for want in "Platform Extensions .*cl_khr_il_program" "Platform Extensions .*cl_khr_extended_async_copies" \
            "Device Extensions .*cl_khr_il_program" "Device Extensions .*cl_khr_extended_async_copies" \
            "IL version .*SPIR-V_1.0"; do
  if grep -Eq "$want" <<<"$out"; then echo "PASS $want"; else echo "FAIL $want"; status=1; fi
done
exit $status
