#!/usr/bin/env bash
# device_run.sh PTX_DIR OUT_DIR: the corpus on an NVIDIA GPU (CUDA toolkit,
# no gac build): builds gac-corpus-cuda and runs every entry and variant
# from <PTX_DIR>/<entry>.<variant>.sm{80,90}.ptx (`corpus-ptx`, gathered in
# build/device/corpus by `ninja ptx-device-bundle`). Tables and outputs go
# to OUT_DIR (outputs of sm_80 in OUT_DIR/runs, for `gac-corpus compare`
# next to the OpenCL paths' runs).
set -uo pipefail
ptx=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$out"
gcc -std=c17 -O2 -Wall -Wextra -I"$cuda/include" -I"$here/../../support" "$here"/cuda_runner.c "$here"/corpus.c \
  "$here"/values.c "$here"/compare.c "$here"/specs_*.c "$here/../../support/subprocess.c" -L"$cuda/lib64/stubs" -lcuda -lm -o "$out/gac-corpus-cuda" || exit 1
status=0
for sm in 80 90; do
  save=()
  [ $sm = 80 ] && save=(--save "$out/runs")
  timeout 300 "$out/gac-corpus-cuda" "$ptx" $sm "${save[@]}" > "$out/corpus-sm$sm.txt" 2>&1 || status=1
  tail -n 1 "$out/corpus-sm$sm.txt" | sed "s/^/sm_$sm: /"
done
rm -f "$out/gac-corpus-cuda"
exit $status
