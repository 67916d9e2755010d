#!/usr/bin/env bash
# Stages fuzz campaigns for a machine where nothing is installed (the GPU
# machine's 16 cores, say): the targets built without LLVM (they need only
# glibc 2.34 or later and libstdc++), their seeds, the kept corpora and the
# dictionary, into STAGE_DIR (about 25 MB).
# device_campaign.sh runs them there.
# Usage: [STAGE_BITCODE=1] tests/fuzz/stage.sh BUILD_DIR STAGE_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(realpath "${1:?usage: stage.sh BUILD_DIR STAGE_DIR}")
stage=${2:?usage: stage.sh BUILD_DIR STAGE_DIR}
rm -rf "$stage" && mkdir -p "$stage"
for target in fuzz_read_validate_write fuzz_lower_gpu; do
  case $target in fuzz_read_validate_write) suffix= ;; *) suffix=_${target#fuzz_} ;; esac
  [ -x "$build/tests/fuzz/$target" ] || { echo "stage.sh: $target is not built; left out" >&2; continue; }
  cp "$build/tests/fuzz/$target" "$stage/"
  cp -r "$build/tests/fuzz/seeds$suffix" "$stage/seeds$suffix"
  cp -r "$here/corpus$suffix" "$stage/corpus$suffix"
done
cp "$here/spirv.dict" "$here/device_campaign.sh" "$stage/"
# With STAGE_BITCODE=1, fuzz_emit_bitcode too (built with LLVM): its seeds and
# kept corpus, and in llvm-libs.tar.xz the shared libraries it needs beyond
# glibc (libLLVM-19 and its dependencies, libstdc++) with libclc's NVPTX and
# AMDGPU libraries and libdevice, which device_campaign.sh unpacks there.
# About 55 MB: stage it into a folder of its own, from a build where the
# other two targets are not built (or delete them from the stage).
if [ "${STAGE_BITCODE:-0}" = 1 ]; then
  cp "$build/tests/fuzz/fuzz_emit_bitcode" "$stage/"
  cp -r "$here/seeds_emit_bitcode" "$stage/"
  mkdir -p "$stage/corpus_emit_bitcode"
  cp "$here"/corpus_emit_bitcode/* "$stage/corpus_emit_bitcode/" 2>/dev/null || true
  libs=$(mktemp -d)
  ldd "$build/tests/fuzz/fuzz_emit_bitcode" | awk '/=> \// { print $3 }' |
    grep -Ev '/(libc|libm|libpthread|libdl|librt|ld-linux-x86-64)\.so' | xargs -I{} cp -L {} "$libs/"
  for f in /usr/lib/clc/nvptx64--nvidiacl.bc /usr/lib/clc/amdgcn--amdhsa.bc \
           /usr/local/cuda/nvvm/libdevice/libdevice.10.bc; do
    [ -f "$f" ] && cp "$f" "$libs/"
  done
  # xz -9e: 45 MB (gzip: 73 MB, over what a device call carries); minutes.
  tar -C "$libs" -cf - . | xz -T1 -9e > "$stage/llvm-libs.tar.xz"
  rm -rf "$libs"
fi
du -sh "$stage"
