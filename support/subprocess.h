/* Running the toolchain (clang-15, llvm-spirv-15, spirv-link) as
 * subprocesses, for the OpenCL layer and the PTX path. */
#ifndef GAC_SUPPORT_SUBPROCESS_H
#define GAC_SUPPORT_SUBPROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* argv run with stdout and stderr appended to log_path; true if it exits 0.
 * Whole-file reads (NUL-terminated) and writes. */
bool gac_run(char *const argv[], const char *log_path);
char *gac_read_file(const char *path, size_t *size);
bool gac_write_file(const char *path, const void *data, size_t size);
/* A fresh folder under /tmp for one job's files, and its removal with all in it. */
bool gac_scratch_dir(char dir[32]);
void gac_scratch_remove(const char *dir);

/* SPIR-V words to SPIR 1.2 bitcode with `llvm-spirv-15 -r
 * --spirv-target-env=CL1.2` (tool: NULL for $GAC_LLVM_SPIRV, else
 * llvm-spirv-15). On failure false with a message and the tool's output in
 * *log (malloc'd); *bc is malloc'd. */
bool gac_spirv_to_bitcode(const uint32_t *words, size_t n, const char *tool, unsigned char **bc, size_t *bc_size,
                          char **log);

#endif
