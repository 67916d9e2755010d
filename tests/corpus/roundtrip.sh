#!/usr/bin/env bash
# Round-trips one corpus module through gac's tools.
#
# Usage: roundtrip.sh GAC_OPT GAC_AS SPIRV_AS SPIRV_VAL SPIRV_DIS WORKDIR INPUT [--no-validate]
#
# INPUT is either
#   *.spv     a module compiled from tests/corpus/cl by clang-15 + llvm-spirv-15, or
#   *.spvasm  a hand-written module using NonSemantic.Codeplay.GroupAsyncCopies,
#             first assembled with gac-as.
# Checks:
#   (a) gac-opt IN -o OUT writes the identical binary;
#   (b) gac-opt --print IN | gac-as - -o OUT gives the identical binary;
#   (c) gac-opt --validate accepts it (see below for the environments);
#       --no-validate skips (c), for llvm-spirv-15 output that no spirv-val
#       environment accepts (its debug info: see CMakeLists.txt);
#   (d) .spv:    spirv-dis --raw-id of IN and OUT agree, and gac-opt --print is
#                spirv-dis --raw-id but for the "; Generator:" line (no copies);
#       .spvasm: --print names every copy, and spirv-as assembles the same
#                text with the copies written numerically to the same binary.
set -euo pipefail

if [[ $# -lt 7 || $# -gt 8 || ($# -eq 8 && $8 != --no-validate) ]]; then
  echo "usage: $0 GAC_OPT GAC_AS SPIRV_AS SPIRV_VAL SPIRV_DIS WORKDIR INPUT [--no-validate]" >&2
  exit 2
fi
gac_opt=$1 gac_as=$2 spirv_as=$3 spirv_val=$4 spirv_dis=$5 work=$6 input=$7
check_validity=$([[ $# -eq 8 ]] && echo no || echo yes)
name=$(basename "$input")
mkdir -p "$work"
w=$work/$name

fail() {
  echo "FAIL [$name] $*" >&2
  exit 1
}

case $input in
  *.spvasm)
    kind=spvasm
    in_spv=$w.in.spv
    "$gac_as" "$input" -o "$in_spv" || fail "gac-as cannot assemble it"
    ;;
  *.spv)
    kind=cl
    in_spv=$input
    ;;
  *) fail "unknown input kind (want .spv or .spvasm)" ;;
esac

# (a) read + write. gac-opt IN -o OUT validates (universal SPIR-V 1.6) before it
# writes; (c) validates in each module's environments, so (a) skips it.
"$gac_opt" --skip-validation "$in_spv" -o "$w.a.spv" || fail "(a) gac-opt cannot read it"
cmp "$in_spv" "$w.a.spv" || fail "(a) gac-opt IN -o OUT changed the binary"

# (b) print + assemble.
"$gac_opt" --print "$in_spv" >"$w.txt" || fail "(b) gac-opt --print failed"
"$gac_as" - -o "$w.b.spv" <"$w.txt" || fail "(b) gac-as cannot assemble the output of --print ($w.txt)"
cmp "$in_spv" "$w.b.spv" || fail "(b) --print | gac-as changed the binary (text in $w.txt)"

# (c) validation.
validate() { # env...
  for env in "$@"; do
    if [[ $env == default ]]; then
      "$gac_opt" --validate "$in_spv" || fail "(c) gac-opt --validate rejects it"
    else
      "$gac_opt" --validate --target-env="$env" "$in_spv" ||
        fail "(c) gac-opt --validate --target-env=$env rejects it"
    fi
  done
}
if [[ $check_validity == no ]]; then
  echo "(c) skipped: --no-validate"
elif [[ $kind == spvasm ]]; then
  # Hand-written modules are SPIR-V 1.0 and meant for OpenCL. (spirv-val itself
  # rejects them: OpGroupWaitEvents and OpPhi use a NonSemantic result.)
  validate default opencl1.2 opencl2.0
else
  # Every OpenCL environment of spirv-val (2023.1) takes SPIR-V 1.0 only
  # (opencl2.2: up to 1.2). llvm-spirv-15 writes SPIR-V 1.4 as soon as it
  # keeps LLVM's nsw/nuw flags as NoSignedWrap/NoUnsignedWrap decorations
  # (core only from 1.4), and then lists the globals a kernel uses in its
  # OpEntryPoint, as 1.4 requires. No OpenCL environment accepts those, so a
  # module is validated for OpenCL 1.2 and 2.0 if it is SPIR-V 1.0, and as
  # universal SPIR-V of its own version otherwise. spirv-val must accept it
  # first: a failure there is the toolchain's, not gac's.
  version=$(od -An -tx1 -j4 -N4 "$in_spv" | tr -d ' \n') # little-endian word
  case $version in
    00000100) envs=(opencl1.2 opencl2.0) ;;
    00??0100) envs=("spv1.$((16#${version:2:2}))") ;;
    *) fail "(c) unexpected SPIR-V version word bytes $version" ;;
  esac
  for env in "${envs[@]}"; do
    "$spirv_val" --target-env "$env" "$in_spv" ||
      fail "(c) spirv-val --target-env $env rejects the llvm-spirv-15 output (toolchain, not gac)"
  done
  validate "${envs[@]}"
fi

# (d)
if [[ $kind == cl ]]; then
  "$spirv_dis" --raw-id "$in_spv" -o "$w.in.dis"
  "$spirv_dis" --raw-id "$w.a.spv" -o "$w.a.dis"
  diff -u "$w.in.dis" "$w.a.dis" || fail "(d) spirv-dis of IN and of gac-opt's output differ"
  diff -u <(grep -v '^; Generator:' "$w.in.dis") <(grep -v '^; Generator:' "$w.txt") ||
    fail "(d) gac-opt --print differs from spirv-dis --raw-id"
else
  # Lines of the source that issue a copy (comments dropped) vs named copies printed.
  want=$(sed 's/;.*//' "$input" | grep -c 'GroupAsyncCopy[23]D[23]D' || true)
  got=$(grep -c '= OpExtInst .* GroupAsyncCopy[23]D[23]D Destination=' "$w.txt" || true)
  [[ $want -gt 0 && $got -eq $want ]] ||
    fail "(d) the source has $want copies, --print names $got"
  # The named form rewritten by hand to the numeric one SPIRV-Tools knows.
  sed -e 's/ GroupAsyncCopy2D2D / 1 /' -e 's/ GroupAsyncCopy3D3D / 2 /' \
    -e '/= OpExtInst /s/ [A-Za-z]*=%/ %/g' "$input" >"$w.numeric.spvasm"
  "$spirv_as" --target-env spv1.0 "$w.numeric.spvasm" -o "$w.numeric.spv" ||
    fail "(d) spirv-as cannot assemble the numeric form ($w.numeric.spvasm)"
  cmp "$in_spv" "$w.numeric.spv" || fail "(d) gac-as and spirv-as (numeric form) disagree"
fi
echo "PASS [$name]"
