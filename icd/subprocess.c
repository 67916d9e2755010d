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

#include "layer.h"

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
      fprintf(log, "gac layer: cannot run %s: %s\n", argv[0], strerror(errno));
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
  snprintf(dir, 32, "/tmp/gac-layer-XXXXXX");
  return mkdtemp(dir) != NULL;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  remove(path);
  return 0;
}

void gac_scratch_remove(const char *dir) { nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS); }
