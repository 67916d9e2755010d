#!/usr/bin/env bash
# device_campaign.sh TOOLCHAIN SEED FIRST BATCHES PER [TARGETS]: a random
# campaign built and run on the GPU machine, in a folder staged by
# `stage_gpu.sh BUILD STAGE SEED 0` (sources, scripts, no batches).
# TOOLCHAIN: a folder where pack_toolchain.sh's two archives were unpacked
# (`device_campaign.sh --unpack ARCHIVE TOOLCHAIN` once per archive; /tmp
# outlives calls while the machine stays warm). It compiles gac-random-gen
# and the runner with gcc, writes batches FIRST .. FIRST+BATCHES-1 of PER
# cases (--noinline unless GAC_RANDOM_NOINLINE=0, plus GAC_RANDOM_GEN_OPTS), builds each for every target
# (default "sm80 sm90 sm90ws"; gfx90a and gfx942 build AMDGCN code objects
# and prove their waits with gac-isa-check, as build_batch.sh does, nothing
# run) with the packed gac-cc on every core, lists the batches gac could not
# build in build-failures.txt and runs device.sh, which counts them all.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = --unpack ]; then
  mkdir -p "$3" && xz -dc "$2" | tar -C "$3" -xf - && echo "unpacked $2 into $3"
  exit
fi
[ $# -ge 5 ] || { echo "usage: device_campaign.sh TOOLCHAIN SEED FIRST BATCHES PER [TARGETS]" >&2; exit 2; }
tc=$(cd "$1" && pwd) seed=$2 first=$3 batches=$4 per=$5 targets=${6:-sm80 sm90 sm90ws}
for f in bin/gac-cc bin/llvm-spirv-15 llvm-15/bin/clang lib/libLLVM.so.19.1 lib/libgac-llvm.so; do
  [ -e "$tc/$f" ] || { echo "device_campaign.sh: $tc/$f is missing: unpack both toolchain archives" >&2; exit 2; }
done
export LD_LIBRARY_PATH="$tc/lib:$tc/llvm-15/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export GAC_CLANG="$tc/llvm-15/bin/clang" GAC_LLVM_SPIRV="$tc/bin/llvm-spirv-15" \
  GAC_LLVM_SPIRV_FORWARD="$tc/bin/llvm-spirv-15" GAC_LIBDEVICE="$tc/lib/libdevice.10.bc" \
  GAC_LIBCLC="$tc/lib/nvptx64--nvidiacl.bc" GAC_LIBCLC_AMDGCN="$tc/lib/amdgcn--amdhsa.bc" GAC_LLD="$tc/bin/ld.lld" \
  GAC_LLVM_LIBRARY="$tc/lib/libgac-llvm.so"
export PATH="$tc/bin:$PATH" # gac-isa-check runs llvm-objdump-19
cd "$here"
gcc -std=c17 -O2 -I src src/gen.c src/emit.c src/model.c src/driver.c src/gen_main.c -o gac-random-gen || exit 1
: > build-failures.txt
start=$(date +%s)
for ((b = first; b < first + batches; b++)); do
  noinline=--noinline
  [ "${GAC_RANDOM_NOINLINE:-1}" = 0 ] && noinline=
  ./gac-random-gen $noinline ${GAC_RANDOM_GEN_OPTS:-} "$seed" $((b * per)) "$per" "b$b.cl" || exit 1
  for t in $targets; do echo "$b $t"; done
done | xargs -r -P "$(nproc)" -L 1 bash -c '
  b=$0 t=$1
  if ./build_batch.sh "'"$tc"'/bin" b$b.cl $t b$b.$t > b$b.$t.build.log 2>&1; then
    rm -f b$b.$t.build.log
    # AMDGCN: built and its waits proved is the whole test (not run)
    case $t in gfx*) echo "RESULT $t '"$per"' '"$per"' 0" > b$b.$t.result; rm -f b$b.$t.hsaco b$b.$t.isa.log ;; esac
  else
    echo "b$b $t: gac did not build it (log b$b.$t.build.log)" >> build-failures.txt
    rm -f b$b.$t.ptx
    case $t in gfx*) echo "FAIL-ISA $t b$b: $(grep -m 2 -i "violat\|error" b$b.$t.build.log | tr "\n" " ")"
      echo "RESULT $t '"$per"' 0 '"$per"'" > b$b.$t.result ;; esac
  fi'
rm -f b*.raised.spv b*.raised.spv.log
echo "built $batches batches of $per cases (seed $seed, from batch $first) for: $targets in $(($(date +%s) - start)) s on $(nproc) cores"
bash ./device.sh
