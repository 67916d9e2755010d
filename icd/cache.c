/* The layer's cache, by content: <cache>/<hash>.spv holds the input
 * (compared in full on a hit, so a hash collision cannot return the wrong
 * program) and <hash>.bc what was built (bitcode, SPIR-V or PTX; the
 * target's options are in the hash). The hash covers the layer's own file,
 * so a rebuilt or upgraded gac never takes bitcode an older one made. The
 * cache is $GAC_LAYER_CACHE_DIR, else $XDG_CACHE_HOME/gac, else
 * ~/.cache/gac; GAC_LAYER_CACHE_DIR=off disables it. An entry is written
 * result first, then the input that makes it count, each through a rename:
 * a reader never sees one half-written. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "layer.h"

bool gac_layer_cache_dir(char *out, size_t len) {
  const char *dir = getenv("GAC_LAYER_CACHE_DIR");
  if (dir && strcmp(dir, "off") == 0)
    return false;
  if (dir && *dir)
    snprintf(out, len, "%s", dir);
  else if (getenv("XDG_CACHE_HOME") && *getenv("XDG_CACHE_HOME"))
    snprintf(out, len, "%s/gac", getenv("XDG_CACHE_HOME"));
  else if (getenv("HOME"))
    snprintf(out, len, "%s/.cache/gac", getenv("HOME"));
  else
    return false;
  mkdir(out, 0755); /* its parent must exist; an error shows up at first write */
  return true;
}

uint64_t gac_layer_hash(const void *data, size_t size, uint64_t h) {
  const unsigned char *p = data;
  for (size_t i = 0; i < size; i++)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

/* Where every key starts: the version and the bytes of the layer's file
 * (the library it links is in it), once per process. */
static uint64_t build_hash;
static void hash_build(void) {
  uint64_t h = gac_layer_hash(GAC_LAYER_VERSION, strlen(GAC_LAYER_VERSION), 0xcbf29ce484222325ull);
  Dl_info info;
  FILE *f = dladdr((void *)hash_build, &info) && info.dli_fname ? fopen(info.dli_fname, "rb") : NULL;
  if (f) {
    unsigned char buf[1 << 16];
    for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;)
      h = gac_layer_hash(buf, n, h);
    fclose(f);
  }
  build_hash = h;
}

/* The cache path prefix for this input and salt (what else the result
 * depends on: the lowering argument, the front end's options):
 * "<dir>/<hash>-<size>". */
bool gac_layer_cache_key(const char *salt, const void *input, size_t size, char *out, size_t len) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  char dir[900];
  if (!gac_layer_cache_dir(dir, sizeof dir))
    return false;
  pthread_once(&once, hash_build);
  uint64_t h = build_hash;
  h = gac_layer_hash(salt, strlen(salt), h);
  h = gac_layer_hash(input, size, h);
  snprintf(out, len, "%s/%016llx-%zu", dir, (unsigned long long)h, size);
  return true;
}

bool gac_layer_cache_lookup(const char *key, const char *in_ext, const char *out_ext, const void *input, size_t size,
                            unsigned char **out, size_t *out_size) {
  char path[1100];
  size_t stored_size;
  snprintf(path, sizeof path, "%s%s", key, in_ext);
  char *stored = gac_read_file(path, &stored_size);
  bool same = stored && stored_size == size && memcmp(stored, input, size) == 0;
  free(stored);
  if (!same)
    return false;
  snprintf(path, sizeof path, "%s%s", key, out_ext);
  *out = (unsigned char *)gac_read_file(path, out_size);
  return *out != NULL;
}

void gac_layer_cache_store(const char *key, const char *in_ext, const char *out_ext, const void *input, size_t size,
                           const void *result, size_t result_size) {
  char path[1100], tmp[1200];
  /* The result first, then the input that makes the entry count: a reader
   * never sees an entry whose result is missing or partial. */
  snprintf(path, sizeof path, "%s%s", key, out_ext);
  snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
  if (!gac_write_file(tmp, result, result_size) || rename(tmp, path) != 0) {
    unlink(tmp);
    return;
  }
  snprintf(path, sizeof path, "%s%s", key, in_ext);
  snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
  if (!gac_write_file(tmp, input, size) || rename(tmp, path) != 0)
    unlink(tmp);
}
