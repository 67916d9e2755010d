/* Running the toolchain (clang-15, llvm-spirv-15, spirv-link) as subprocesses. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "subprocess.h"

extern char **environ;

bool gac_run(char *const argv[], const char *log_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log_path, O_WRONLY | O_CREAT | O_APPEND, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid;
  int status = -1;
  if (posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ) == 0)
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
      ;
  else {
    FILE *log = fopen(log_path, "a");
    if (log) {
      fprintf(log, "gac: cannot run %s: %s\n", argv[0], strerror(errno));
      fclose(log);
    }
  }
  posix_spawn_file_actions_destroy(&actions);
  return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

char *gac_read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *data = NULL;
  long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n + 1))) {
    if (fread(data, 1, (size_t)n, f) == (size_t)n) {
      data[n] = '\0';
      if (size)
        *size = (size_t)n;
    } else {
      free(data);
      data = NULL;
    }
  }
  fclose(f);
  return data;
}

bool gac_write_file(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return false;
  bool ok = fwrite(data, 1, size, f) == size;
  return fclose(f) == 0 && ok;
}

bool gac_scratch_dir(char dir[32]) {
  snprintf(dir, 32, "/tmp/gac-XXXXXX");
  return mkdtemp(dir) != NULL;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  remove(path);
  return 0;
}

void gac_scratch_remove(const char *dir) { nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS); }

/* llvm-spirv-15 -r in a scratch folder. */
bool gac_spirv_to_bitcode(const uint32_t *words, size_t n, const char *tool, unsigned char **bc, size_t *bc_size,
                          char **log) {
  char dir[32];
  if (!gac_scratch_dir(dir)) {
    *log = strdup("gac: cannot create a scratch folder in /tmp");
    return false;
  }
  char in[64], out[64], err_path[64];
  snprintf(in, sizeof in, "%s/in.spv", dir);
  snprintf(out, sizeof out, "%s/out.bc", dir);
  snprintf(err_path, sizeof err_path, "%s/stderr", dir);
  /* llvm-spirv-15 reads modules in little-endian order only ("invalid magic
   * number" otherwise): a big-endian module (gac keeps the input's byte
   * order when it writes) goes to it in host order. */
  uint32_t *swapped = NULL;
  if (n > 0 && words[0] == __builtin_bswap32(0x07230203u)) {
    if (!(swapped = malloc(n * sizeof(uint32_t)))) {
      *log = strdup("gac: out of memory");
      gac_scratch_remove(dir);
      return false;
    }
    for (size_t i = 0; i < n; i++)
      swapped[i] = __builtin_bswap32(words[i]);
    words = swapped;
  }
  bool ok = gac_write_file(in, words, n * sizeof(uint32_t));
  free(swapped);
  if (!tool)
    tool = getenv("GAC_LLVM_SPIRV") ? getenv("GAC_LLVM_SPIRV") : "llvm-spirv-15";
  char *argv[] = {(char *)tool, "-r", "--spirv-target-env=CL1.2", in, "-o", out, NULL};
  ok = ok && gac_run(argv, err_path) && (*bc = (unsigned char *)gac_read_file(out, bc_size));
  if (!ok) {
    size_t len = 0;
    char *err = gac_read_file(err_path, &len);
    if (asprintf(log, "gac: %s -r failed:\n%s", tool, err ? err : "") < 0)
      *log = NULL;
    free(err);
  }
  gac_scratch_remove(dir);
  return ok;
}

const char *gac_gpu_path(const char *name, const char *fallback) {
  const char *p = getenv(name);
  return p && *p ? p : fallback;
}
