#!/usr/bin/env bash
# byte_identity.sh: proof that a change to the lowering changed no output.
#
#   scripts/byte_identity.sh [--spirv-only] BUILD_DIR OUT_DIR
#       Builds every module (the conformance programs, the kernel corpus
#       plain and async, the bench kernels, the math suite) with BUILD_DIR's
#       gac-cc and gac-opt, and writes under OUT_DIR/<group>/<module>/:
#         raised.spv            gac-cc (clang-15, llvm-spirv-15, raise)
#         checked.spv           the program's passes, --check-async, --validate
#         opencl.<S>.spv        --lower-async-copies=opencl,strategy=S (every
#                               strategy, and cooperative with helpers=always|never)
#         <T>.spv               the GPU lowering in SPIR-V, before LLVM:
#                               ptx (sm_80), ptx-sm90, ptx-sm90ws, amdgcn-gfx90a,
#                               amdgcn-gfx942, pingpong-gfx90a, pingpong-gfx942
#         <T>.ptx, <T>.s        the emitted PTX (sm80, sm90, sm90ws) and AMDGCN
#                               assembly (gfx90a, gfx942, pingpong-gfx90a,
#                               pingpong-gfx942); not with --spirv-only
#         <output>.log          each command's stdout and stderr and its exit
#                               status (remarks, diagnostics and failures count too)
#       Commands run in the module's folder on relative names, so the logs
#       do not name OUT_DIR. Two modules at a time (JOBS), under nice.
#
#   scripts/byte_identity.sh --compare [--spirv-only] BEFORE_DIR AFTER_DIR
#       Compares two such trees file by file; prints the count of files
#       compared and every difference (a file that differs, or that only one
#       tree has); exit 0 when all are identical. --spirv-only: only the
#       files a --spirv-only run writes (a quick check between the steps of
#       a change; the full run proves the emitted PTX and AMDGCN too).
#
# Typical use: BUILD_DIR built at the commit before a change, its outputs
# into /tmp/before; rebuilt with the change, into /tmp/after; then
# --compare /tmp/before /tmp/after. The module lists are
# read from the CMake files that build the same modules, so a new
# conformance program or corpus entry is covered without editing this.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

if [ "${1:-}" = --compare ]; then
  # --compare [--spirv-only] BEFORE AFTER: --spirv-only compares the files a
  # --spirv-only run writes (AFTER's), and checks that it has all of them.
  shift
  only=0
  if [ "${1:-}" = --spirv-only ]; then
    only=1
    shift
  fi
  [ $# -eq 2 ] || { echo "usage: $0 --compare [--spirv-only] BEFORE_DIR AFTER_DIR" >&2; exit 2; }
  before=$1 after=$2
  # One diff over both trees; --spirv-only drops what only BEFORE has of
  # the emitted outputs (a --spirv-only AFTER does not make them).
  report=$({ diff -rq "$before" "$after" || true; } | { if [ $only = 1 ]; then
    grep -Ev "^Only in $before[^:]*: [^ ]*\.(ptx|s)(\.log)?\$" || true; else cat; fi; })
  n=$(find "$after" -type f | wc -l)
  if [ -z "$report" ]; then
    echo "byte identity: $n files compared, all identical"
    exit 0
  fi
  echo "byte identity: $n files compared; $(wc -l <<< "$report") differences:"
  echo "$report"
  exit 1
fi

spirv_only=0
if [ "${1:-}" = --spirv-only ]; then
  spirv_only=1
  shift
fi
# One module (the worker xargs calls): GROUP NAME SOURCE PASSES OPTIONS...
if [ "${1:-}" = --module ]; then
  shift
  build=$1 out=$2 spirv_only=$3 group=$4 name=$5 source=$6 passes=$7
  shift 7
  gac_cc=$build/tools/gac-cc gac_opt=$build/tools/gac-opt
  dir=$out/$group/$name
  mkdir -p "$dir"
  cd "$dir"
  # run OUTPUT CMD...: the command's output and status in OUTPUT.log.
  run() {
    local o=$1
    shift
    rc=0
    "$@" > "$o.log" 2>&1 || rc=$?
    echo "exit $rc" >> "$o.log"
    return 0
  }
  run raised.spv "$gac_cc" "$@" "$source" -o raised.spv
  [ -f raised.spv ] || exit 0
  # shellcheck disable=SC2086 # PASSES are words
  run checked.spv "$gac_opt" $passes --check-async --validate raised.spv -o checked.spv
  [ -f checked.spv ] || exit 0
  # The target environment conformance/build_kernel.sh validates for.
  env=opencl1.2
  case " $* " in *" -cl-std=CL2.0 "* | *" -cl-std=CL3.0 "*) env=opencl2.0 ;; esac
  if "$gac_opt" --print checked.spv | grep "OpCapability Int64Atomics$" > /dev/null; then env=spv1.0; fi
  for s in lines cooperative serial late leader auto cooperative,helpers=always cooperative,helpers=never; do
    run "opencl.${s/,helpers=/.helpers-}.spv" "$gac_opt" --lower-async-copies=opencl,strategy=$s --validate \
      --target-env=$env checked.spv -o "opencl.${s/,helpers=/.helpers-}.spv"
  done
  # The GPU lowerings in SPIR-V: what --emit does before llvm-spirv-15
  # (gac_gpu_lower_spirv). Warp-specialised: from the raised
  # module, whose annotated loops --pipeline-loops=warp-specialize takes.
  run ptx-sm80.spv "$gac_opt" --raise-async-copies --lower-async-copies=ptx checked.spv -o ptx-sm80.spv
  run ptx-sm90.spv "$gac_opt" --raise-async-copies --lower-async-copies=ptx,sm=90 checked.spv -o ptx-sm90.spv
  # shellcheck disable=SC2086
  run ptx-sm90ws.spv "$gac_opt" ${passes:+--pipeline-loops=warp-specialize} --check-async --raise-async-copies \
    --lower-async-copies=ptx,sm=90 raised.spv -o ptx-sm90ws.spv
  for cpu in gfx90a gfx942; do
    run amdgcn-$cpu.spv "$gac_opt" --raise-async-copies --lower-async-copies=amdgcn,mcpu=$cpu checked.spv \
      -o amdgcn-$cpu.spv
    run pingpong-$cpu.spv "$gac_opt" --raise-async-copies --lower-async-copies=amdgcn,mcpu=$cpu,pingpong checked.spv \
      -o pingpong-$cpu.spv
  done
  [ "$spirv_only" = 0 ] || exit 0
  fast=""
  case " $* " in *" -cl-fast-relaxed-math "*) fast=--fast-relaxed-math ;; esac
  run sm80.ptx "$gac_opt" --emit=ptx --sm=80 $fast checked.spv -o sm80.ptx
  run sm90.ptx "$gac_opt" --emit=ptx --sm=90 $fast checked.spv -o sm90.ptx
  run sm90ws.ptx "$gac_opt" --emit=ptx --sm=90,warp-specialize $fast raised.spv -o sm90ws.ptx
  for cpu in gfx90a gfx942; do
    run $cpu.s "$gac_opt" --emit=amdgcn --mcpu=$cpu $fast checked.spv -o $cpu.s
    run pingpong-$cpu.s "$gac_opt" --emit=amdgcn,pingpong --mcpu=$cpu $fast checked.spv -o pingpong-$cpu.s
  done
  exit 0
fi

[ $# -eq 2 ] || { echo "usage: $0 [--spirv-only] BUILD_DIR OUT_DIR | --compare BEFORE AFTER" >&2; exit 2; }
build=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
for tool in gac-cc gac-opt; do
  [ -x "$build/tools/$tool" ] || { echo "$0: no $build/tools/$tool (ninja -C $1 gac-cc gac-opt)" >&2; exit 2; }
done

# One line per module: GROUP<TAB>NAME<TAB>SOURCE<TAB>PASSES<TAB>CLANG OPTIONS.
list=$out/modules.tsv
{
  # conformance/CMakeLists.txt: "name|kernels/source.cl|options[|passes]"
  sed -n 's/^ *"\([a-z0-9-]*\)|\(kernels\/[a-z_]*\.cl\)|\([^|"]*\)|\{0,1\}\([^"]*\)".*/conformance\t\1\t\2\t\4\t\3/p' \
    "$root/conformance/CMakeLists.txt" |
    awk -F'\t' -v r="$root/conformance/" 'BEGIN { OFS = "\t" } { $3 = r $3; print }'
  # conformance/corpus/kernels.def, each entry plain and async.
  sed -n 's/^CORPUS(\([a-z0-9_]*\), *[a-z0-9_]*, *"\([^"]*\)", *"\([^"]*\)").*/\1\t\2\t\3/p' \
    "$root/conformance/corpus/kernels.def" |
    while IFS=$'\t' read -r n src opts; do
      printf 'corpus\t%s.plain\t%s\t\t%s -DGAC_ASYNC=0\n' "$n" "$root/conformance/corpus/kernels/$src" "$opts"
      printf 'corpus\t%s.async\t%s\t\t%s -DGAC_ASYNC=1\n' "$n" "$root/conformance/corpus/kernels/$src" "$opts"
    done
  # bench/CMakeLists.txt: the PTX benchmarks and the PoCL tile sweep.
  printf 'bench\ttile_copy\t%s\t\t\n' "$root/bench/cuda/tile_copy.cl"
  for k in sgemm stencil; do
    printf 'bench\t%s.unpipelined\t%s\t\t\n' "$k" "$root/bench/cuda/$k.cl"
    printf 'bench\t%s.pipelined\t%s\t--pipeline-loops\t-DSTAGES=3\n' "$k" "$root/bench/cuda/$k.cl"
  done
  printf 'bench\ttiles\t%s\t\t-I %s\n' "$root/bench/pocl/tiles.cl" "$root/bench/pocl"
  # conformance/math/CMakeLists.txt: the math suite, and with fast math.
  printf 'math\tmath\t%s\t\t-I %s\n' "$root/conformance/math/math.cl" "$root/conformance/math"
  printf 'math\tmath-fast\t%s\t\t-cl-fast-relaxed-math -I %s\n' "$root/conformance/math/math.cl" "$root/conformance/math"
} > "$list"

echo "byte identity: $(wc -l < "$list") modules from $build into $out"
# shellcheck disable=SC2016 # expanded by the inner bash
tr '\t' '\037' < "$list" |
  nice -n 10 xargs -P "${JOBS:-2}" -d '\n' -I{} bash -c \
    'IFS=$'"'"'\037'"'"' read -r g n s p o <<< "$1"; exec "$0" --module "$2" "$3" "$4" "$g" "$n" "$s" "$p" $o' \
    "$0" {} "$build" "$out" "$spirv_only"
echo "byte identity: $(find "$out" -type f ! -name modules.tsv | wc -l) files written"
