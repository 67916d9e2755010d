# lit configuration for gac's pass/print/validate tests (LLVM and spirv-opt style).
# CTest passes the build's tool folder and a scratch folder through the environment.
import os

import lit.formats

config.name = "gac"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".spvasm", ".test", ".cl"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.environ.get("GAC_LIT_EXEC_ROOT", os.path.join(config.test_source_root, "Output"))

tools = os.environ["GAC_TOOLS_DIR"]
llvm_bin = os.environ.get("GAC_LLVM_BIN", "/usr/lib/llvm-15/bin")
config.environment["PATH"] = os.pathsep.join([tools, llvm_bin, os.environ.get("PATH", "")])
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%gac-include", os.path.join(config.test_source_root, "..", "..", "include")))
config.substitutions.append(("%expect-exit", os.path.join(config.test_source_root, "expect-exit")))
# OpenCL C (with gac's builtins) to SPIR-V, as the conformance kernels are built.
config.substitutions.append(("%clang-spir", "clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 "
                             "-emit-llvm-bc -finclude-default-header -include %s -no-opaque-pointers -O2" %
                             os.path.join(config.test_source_root, "..", "..", "include", "gac", "cl",
                                          "extended_async_copies.h")))
# CUDA's libdevice, where the machine has the CUDA toolkit (the PTX path's
# math; without it libclc's serves).
if os.path.exists(os.environ.get("GAC_LIBDEVICE") or "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"):
    config.available_features.add("libdevice")
# CUDA's ptxas (scripts/install-deps.sh installs it): emitted PTX must assemble.
_ptxas = os.environ.get("GAC_PTXAS") or "/usr/local/cuda/bin/ptxas"
if os.path.exists(_ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", _ptxas))
