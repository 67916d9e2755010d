#!/usr/bin/env bash
# stage_gpu.sh BUILD_DIR STAGE_DIR SEED BATCHES [PER_BATCH [TARGETS]]
# Prepares a random campaign for the GPU machine, which has no gac: the
# batches (gac-random-gen --noinline, plus GAC_RANDOM_GEN_OPTS), their PTX
# from gac-cc for each target (default "sm80 sm90 sm90ws"), the runner's
# sources and device.sh, all in STAGE_DIR. Batches gac cannot build are
# listed in STAGE_DIR/build-failures.txt (gac failures to report); the PTX
# is packed in STAGE_DIR/ptx.tar.gz (about 1.5 MB per 100 cases and target). Then, with
# STAGE_DIR inside the repository (build*/ is ignored, so carry it):
#   run(command="bash build-rt/random-stage/device.sh", carry=["build-rt/random-stage"])
# GAC_RANDOM_FIRST=F stages batches F on. BATCHES 0 stages the sources and scripts alone, for device_campaign.sh,
# which generates and builds the batches there with gac's packed toolchain
# (pack_toolchain.sh; README.md, "On an NVIDIA GPU").
set -uo pipefail
build=$(cd "$1" && pwd) stage=$2 seed=$3 batches=$4 per=${5:-100} targets=${6:-sm80 sm90 sm90ws}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$stage/src"
stage=$(cd "$stage" && pwd)
cp "$here"/rt.h "$here"/gen.c "$here"/emit.c "$here"/model.c "$here"/driver.c "$here"/gen_main.c "$here"/runner_cuda.c "$stage/src/"
cp "$here/device.sh" "$here/device_campaign.sh" "$here/build_batch.sh" "$here/resume.sh" "$stage/"
gen=$build/conformance/random/gac-random-gen
: > "$stage/build-failures.txt"
# GAC_RANDOM_FIRST=F: batches F .. F+BATCHES-1 (the rest of a campaign)
first=${GAC_RANDOM_FIRST:-0}
for ((b = first; b < first + batches; b++)); do
  "$gen" --noinline ${GAC_RANDOM_GEN_OPTS:-} "$seed" $((b * per)) "$per" "$stage/b$b.cl" || exit 1
  for t in $targets; do echo "$b $t"; done
done | xargs -r -P "${JOBS:-$(nproc)}" -L 1 bash -c '
  b=$0 t=$1
  if ! "'"$here"'/build_batch.sh" "'"$build"'/tools" "'"$stage"'/b$b.cl" $t "'"$stage"'/b$b.$t" > "'"$stage"'/b$b.$t.build.log" 2>&1; then
    echo "b$b $t: gac did not build it (log b$b.$t.build.log)" >> "'"$stage"'/build-failures.txt"
    rm -f "'"$stage"'/b$b.$t.ptx"
  else
    rm -f "'"$stage"'/b$b.$t.build.log"
  fi'
# The regression cases (regressions.txt), one file each: r<SEED>-<INDEX>.cl
if [ "${GAC_RANDOM_REGRESSIONS:-1}" != 0 ]; then
  sed 's/#.*//' "$here/regressions.txt" | while read -r rseed rindex ropts; do
    [ -n "$rseed" ] || continue
    r=r$rseed-$rindex
    # shellcheck disable=SC2086
    "$gen" $ropts "$rseed" "$rindex" 1 "$stage/$r.cl" || exit 1
    for t in $targets; do
      "$here/build_batch.sh" "$build/tools" "$stage/$r.cl" "$t" "$stage/$r.$t" > "$stage/$r.$t.build.log" 2>&1 &&
        rm -f "$stage/$r.$t.build.log" ||
        { echo "$r $t: gac did not build it (log $r.$t.build.log)" >> "$stage/build-failures.txt"; rm -f "$stage/$r.$t.ptx"; }
    done
  done
fi
rm -f "$stage"/[br]*.raised.spv "$stage"/[br]*.raised.spv.log
# PTX is large (about 6 MB for 100 cases and a target) and packs about 8:1;
# the device carries 64 MiB: one archive, which device.sh unpacks.
# BATCHES 0 stages sources and scripts only (device_campaign.sh builds there).
if ls "$stage"/[br]*.ptx > /dev/null 2>&1; then
  (cd "$stage" && tar czf ptx.tar.gz [br]*.ptx && rm -f [br]*.ptx)
fi
echo "staged $batches batches of $per cases for: $targets in $stage ($(du -sh "$stage" | cut -f1))"
[ -s "$stage/build-failures.txt" ] && { echo "gac build failures:"; cat "$stage/build-failures.txt"; }
exit 0
