#!/usr/bin/env bash
# The Khronos CTS's offline compiler (test_common/harness/
# cl_offline_compiler-interface.txt) for its `--compilation-mode spir-v`:
# each kernel's OpenCL C to SPIR-V with gac-cc --raw, which is clang-15 and
# llvm-spirv-15 with gac's header declaring the 2D/3D builtins and nothing
# of gac's passes: the module a user's own toolchain writes. The CTS then
# hands it to clCreateProgramWithIL, and the gac layer raises and lowers it.
#
#   cts-offline-compiler.sh --source FILE --output FILE --cl-device-info FILE
#                           --mode spir-v -- [BUILD_OPTIONS...]
# GAC_CC names gac-cc (default: on PATH, else next to this script's build).
set -euo pipefail
source= output= mode=spir-v
while [ $# -gt 0 ]; do
  case $1 in
    --source=*) source=${1#*=}; shift ;;
    --output=*) output=${1#*=}; shift ;;
    --mode=*) mode=${1#*=}; shift ;;
    --cl-device-info=*) shift ;;
    --source | --output | --mode | --cl-device-info)
      [ $# -ge 2 ] || { echo "cts-offline-compiler: $1 needs a value" >&2; exit 2; }
      case $1 in --source) source=$2 ;; --output) output=$2 ;; --mode) mode=$2 ;; esac
      shift 2 ;;
    --) shift; break ;;
    *) echo "cts-offline-compiler: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "$mode" = spir-v ] || { echo "cts-offline-compiler: only --mode spir-v (not $mode)" >&2; exit 2; }
[ -n "$source" ] && [ -n "$output" ] || { echo "cts-offline-compiler: --source and --output are required" >&2; exit 2; }
cc=${GAC_CC:-$(command -v gac-cc || true)}
[ -n "$cc" ] || { echo "cts-offline-compiler: no gac-cc (set GAC_CC)" >&2; exit 2; }
# The CTS's options (-cl-std=..., -D..., -cl-...) are clang's; gac-cc passes
# them on. The output's name says the device's address bits (.spv32, .spv64).
bits=()
case $output in *.spv32) bits=(-m32) ;; esac
exec "$cc" --raw "${bits[@]}" "$@" "$source" -o "$output"
