#!/usr/bin/env bash
# exports.sh LAYER NM: the layer exports the four entry points of
# cl_loader_layers and no other symbol (SPIRV-Tools' and libgac's stay hidden).
set -euo pipefail
layer=$1
nm=$2
got=$("$nm" -D --defined-only "$layer" | awk '{print $NF}' | sort | tr '\n' ' ')
want="clDeinitLayer clGetLayerInfo clInitLayer clInitLayerWithProperties "
if [ "$got" = "$want" ]; then
  echo "PASS exports: $got"
else
  echo "FAIL exports: got '$got', want '$want'"
  exit 1
fi
