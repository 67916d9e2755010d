#!/usr/bin/env bash
# Makes the seeds of fuzz_emit_bitcode (README.md): SPIR 1.2 bitcode as the
# GPU paths hand it to gac's LLVM side, captured at the bridge. Each module
# (the GPU fuzz seeds, the conformance programs, the conformance corpus with
# GAC_ASYNC=1) goes through gac-opt --emit for sm_80, sm_90, gfx90a and
# gfx942 with $GAC_LLVM_SPIRV pointing at a wrapper of llvm-spirv-15 that
# keeps what llvm-spirv-15 -r writes. A seed is one target byte (0 sm_80,
# 1 sm_90, 2 gfx90a, 3 gfx942: fuzz_emit_bitcode.c) and that bitcode:
# OUT_DIR/<module>.<target>.fbc. Modules of the conformance corpus get two
# targets each (alternately), and bitcode over MAX_BYTES (default 24000) is
# left out, to keep the committed seeds small.
# Usage: tests/fuzz/make_bitcode_seeds.sh BUILD_DIR OUT_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(realpath "${1:?usage: make_bitcode_seeds.sh BUILD_DIR OUT_DIR}")
out=$(realpath -m "${2:?usage: make_bitcode_seeds.sh BUILD_DIR OUT_DIR}")
max=${MAX_BYTES:-24000}
gac_opt=$build/tools/gac-opt gac_cc=$build/tools/gac-cc
work=$(mktemp -d /tmp/gac-bitcode-seeds.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out" "$work/spv"

# The wrapper: llvm-spirv-15 as gac runs it (-r IN -o OUT), keeping OUT.
cat > "$work/llvm-spirv" <<EOF
#!/usr/bin/env bash
llvm-spirv-15 "\$@" || exit \$?
while [ \$# -gt 0 ]; do [ "\$1" = -o ] && cp "\$2" "$work/captured.bc"; shift; done
EOF
chmod +x "$work/llvm-spirv"

# The modules: name|spv|passes|targets
modules=()
for src in "$here"/seeds_gpu/*.spvasm "$here"/seeds/pipeline_loop.spvasm; do
  name=seed-$(basename "$src" .spvasm)
  spirv-as --target-env spv1.0 --preserve-numeric-ids "$src" -o "$work/spv/$name.spv"
  passes=
  [ "$name" = seed-pipeline_loop ] && passes=--pipeline-loops
  modules+=("$name|$work/spv/$name.spv|$passes|0 1 2 3")
done
# Conformance programs ("name|source|options|passes" in conformance/CMakeLists.txt).
while IFS='|' read -r name source options passes; do
  # shellcheck disable=SC2086
  "$gac_cc" $options "$root/conformance/$source" -o "$work/spv/$name.spv" 2> /dev/null || continue
  modules+=("conf-$name|$work/spv/$name.spv|$passes|0 1 2 3")
done < <(sed -n 's/^ *"\([a-z0-9-]*|kernels\/[^"]*\)".*/\1/p' "$root/conformance/CMakeLists.txt")
# The conformance corpus, copies on (CORPUS(entry, kernel, "file", "options")).
i=0
while IFS='|' read -r name source options; do
  # shellcheck disable=SC2086
  "$gac_cc" -DGAC_ASYNC=1 $options "$root/conformance/corpus/kernels/$source" -o "$work/spv/$name.spv" \
    2> /dev/null || continue
  targets=$((i % 4))
  modules+=("corpus-$name|$work/spv/$name.spv||$targets")
  i=$((i + 1))
done < <(sed -n 's/^CORPUS(\([a-z0-9_]*\), *[a-z0-9_]*, *"\([^"]*\)", *"\([^"]*\)").*/\1|\2|\3/p' \
           "$root/conformance/corpus/kernels.def")

target_names=(sm80 sm90 gfx90a gfx942)
target_args=("--emit=ptx --sm=80" "--emit=ptx --sm=90" "--emit=amdgcn --mcpu=gfx90a" "--emit=amdgcn --mcpu=gfx942")
kept=0 skipped=0
for m in "${modules[@]}"; do
  IFS='|' read -r name spv passes targets <<< "$m"
  for t in $targets; do
    rm -f "$work/captured.bc"
    # shellcheck disable=SC2086
    GAC_LLVM_SPIRV=$work/llvm-spirv "$gac_opt" $passes ${target_args[$t]} "$spv" -o "$work/out.s" \
      > /dev/null 2>&1 || true
    [ -s "$work/captured.bc" ] || { skipped=$((skipped + 1)); continue; }
    if [ "$(stat -c %s "$work/captured.bc")" -gt "$max" ]; then skipped=$((skipped + 1)); continue; fi
    f=$out/$name.${target_names[$t]}.fbc
    printf "\\x0$t" > "$f"
    cat "$work/captured.bc" >> "$f"
    kept=$((kept + 1))
  done
done
echo "make_bitcode_seeds.sh: $kept seeds in $out ($skipped left out: not bridged or over $max bytes); $(du -sh "$out" | cut -f1)"
