#!/bin/sh
# Regenerates xgemm.cl from a CLBlast git directory (bare or not).
# Usage: make_xgemm_cl.sh <CLBlast git dir> > xgemm.cl
# Mirrors what CLBlast's src/utilities/compile.cpp + src/routine.cpp build at run time for
# routine GEMM, single precision, an NVIDIA post-Volta GPU, with the Xgemm tuning entry below.
set -e
G="$1"
C=$(git --git-dir="$G" rev-parse HEAD)
strip() {  # print a file without its C++11 raw-string wrapper lines R"( and )"
  git --git-dir="$G" show "HEAD:$1" | awk '$0=="R\"(" || $0==")\"" {next} {print}'
}
part() {
  echo
  echo "// ################################################################################################"
  echo "// ## BEGIN $1"
  echo "// ## from https://github.com/CNugteren/CLBlast, path $1, commit $C"
  echo "// ## (copied verbatim; only the C++11 raw-string wrapper lines R\"( and )\" removed)"
  echo "// ################################################################################################"
  strip "$1"
  echo "// ## END $1"
}
cat <<HDR
// =================================================================================================
// CLBlast Xgemm OpenCL kernel (GEMMK=0), as one standalone OpenCL C file, single precision.
//
// This file is assembled from the CLBlast project:
//   repository: https://github.com/CNugteren/CLBlast
//   commit:     $C
//   parts:      src/kernels/common.opencl, src/kernels/level3/level3.opencl,
//               src/kernels/level3/xgemm_part1.opencl .. xgemm_part4.opencl
//   order:      as in src/utilities/compile.cpp (header defines, common.opencl) followed by
//               src/routine.cpp (database defines) and src/routines/level3/xgemm.cpp (sources)
//   parameters: src/database/kernels/xgemm/xgemm_32.hpp, entry XgemmSingle / kDeviceTypeGPU /
//               "NVIDIA" / architecture "SM8.0" / device "A100-PCIE-40GB" (no SM9.0/H100 entry exists)
// The kernel sources are unmodified apart from removing the raw-string wrapper lines. Each part is
// delimited by BEGIN/END markers below. See README.md in this directory for the calling convention.
//
// CLBlast license notice (from CLBlast's LICENSE file):
//
//   Copyright 2015 Cedric Nugteren
//
//   Licensed under the Apache License, Version 2.0 (the "License");
//   you may not use this file except in compliance with the License.
//   You may obtain a copy of the License at
//
//       http://www.apache.org/licenses/LICENSE-2.0
//
//   Unless required by applicable law or agreed to in writing, software
//   distributed under the License is distributed on an "AS IS" BASIS,
//   WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
//   See the License for the specific language governing permissions and
//   limitations under the License.
// =================================================================================================

// ---- Header defines, as CompileFromSource (src/utilities/compile.cpp) emits them for GEMM,
// ---- Precision::kSingle, on an NVIDIA GPU that is post-Volta.
#define PRECISION 32
#define ROUTINE_GEMM
// CLBlast also emits "#define USE_INLINE_KEYWORD 1" for NVIDIA devices. It is deliberately NOT
// defined here: then INLINE_FUNC expands to nothing. With it, INLINE_FUNC is a plain C99 "inline",
// and clang (OpenCL C 1.2) emits no definition for functions it does not inline (e.g. XgemmBody),
// leaving an unresolved external call. NVIDIA's compiler inlines everything either way.
// (Inert here: xgemm_part1 switches subgroup shuffling back off because NWI=4 != SUBGROUP_SIZE=32,
//  and it is only used by GEMMK=1 anyway.)
#define USE_SUBGROUP_SHUFFLING 1
#define SUBGROUP_SHUFFLING_NVIDIA_POST_VOLTA 1
HDR
part src/kernels/common.opencl
cat <<'DEFS'

// ---- Database defines for kernel "Xgemm", as Database::GetDefines (src/database/database.cpp)
// ---- emits them (alphabetical). Entry: xgemm_32.hpp, NVIDIA GPU, "SM8.0", "A100-PCIE-40GB".
// ---- (CLBlast also emits the Copy/Pad/Transpose/Padtranspose/XgemmDirect/GemmRoutine defines
// ---- here; they only affect kernels not included in this file and are omitted.)
#define GEMMK 0
#define KREG 1
#define KWG 32
#define KWI 2
#define MDIMA 8
#define MDIMC 8
#define MWG 32
#define NDIMB 16
#define NDIMC 16
#define NWG 64
#define SA 1
#define SB 1
#define STRM 0
#define STRN 0
#define VWM 4
#define VWN 4
DEFS
part src/kernels/level3/level3.opencl
part src/kernels/level3/xgemm_part1.opencl
part src/kernels/level3/xgemm_part2.opencl
part src/kernels/level3/xgemm_part3.opencl
part src/kernels/level3/xgemm_part4.opencl
