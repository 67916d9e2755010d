/* Running the toolchain (clang-15, llvm-spirv-15, spirv-link) as
 * subprocesses, for the OpenCL layer, gac-cc and the PTX path. */
#ifndef GAC_SUPPORT_SUBPROCESS_H
#define GAC_SUPPORT_SUBPROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* argv run with stdout and stderr appended to log_path; true if it exits 0.
 * Whole-file reads (NUL-terminated; size may be NULL) and writes. */
bool gac_run(char *const argv[], const char *log_path);
char *gac_read_file(const char *path, size_t *size);
bool gac_write_file(const char *path, const void *data, size_t size);
/* A fresh folder under /tmp for one job's files, and its removal with all in it. */
bool gac_scratch_dir(char dir[32]);
void gac_scratch_remove(const char *dir);

/* SPIR-V words (either byte order) to SPIR 1.2 bitcode with `llvm-spirv-15 -r
 * --spirv-target-env=CL1.2` (tool: NULL for $GAC_LLVM_SPIRV, else
 * llvm-spirv-15). On failure false with a message and the tool's output in
 * *log (malloc'd); *bc is malloc'd. */
bool gac_spirv_to_bitcode(const uint32_t *words, size_t n, const char *tool, unsigned char **bc, size_t *bc_size,
                          char **log);

/* $name if set and not empty, else fallback: the GPU paths' tools and
 * libraries ($GAC_LLD, $GAC_LIBCLC, ...). */
const char *gac_gpu_path(const char *name, const char *fallback);

/* OpenCL C -> SPIR-V 1.0 (support/opencl_c.c): clang_args are clang-15 -cc1's
 * arguments (triple, -cl-std, -O, -include, options, the source; NULL-ended)
 * without an output action; `freeze` is taken out between clang and
 * llvm-spirv-15. Intermediate files go to scratch, tool output to log_path.
 * $GAC_CLANG and $GAC_LLVM_SPIRV_FORWARD override the tools. */
bool gac_opencl_c_to_spirv(char *const clang_args[], const char *scratch, const char *spv_out, const char *log_path);
/* include/gac/cl/extended_async_copies.h, embedded. */
extern const char gac_header_text[];

#endif
