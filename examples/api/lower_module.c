/* The C API a driver uses (docs/API.md): read a SPIR-V module, validate it,
 * raise the 2D/3D builtin calls, software-pipeline the annotated loops,
 * lower the copies for OpenCL, validate the result and write it, printing
 * every diagnostic with the rule it names.
 * Usage: lower_module in.spv out.spv */
#include <stdio.h>
#include <stdlib.h>

#include <gac/module.h>
#include <gac/pass.h>
#include <gac/validate.h>

static void *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  void *data = n > 0 ? malloc((size_t)n) : NULL;
  *size = data && fread(data, 1, (size_t)n, f) == (size_t)n ? (size_t)n : 0;
  fclose(f);
  return data;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: lower_module in.spv out.spv\n");
    return 2;
  }
  size_t size = 0;
  void *bytes = read_all(argv[1], &size);
  if (!bytes || !size) {
    fprintf(stderr, "lower_module: cannot read %s\n", argv[1]);
    return 1;
  }
  gac_diag diag;
  gac_diag_init(&diag);
  gac_module *m = gac_module_read_bytes(bytes, size, &diag);
  free(bytes);
  /* The set's rules and SPIRV-Tools' core rules, for the OpenCL 1.2 environment. */
  gac_validate_options opts = {.core = true, .target_env = gac_target_env_parse("opencl1.2")};
  bool ok = m && gac_validate(m, &opts, &diag);
  /* gac_run_pass: false when the pass reported an error (in diag). */
  static const char *const passes[][2] = {
      {"raise-async-copies", NULL}, {"pipeline-loops", NULL}, {"lower-async-copies", "opencl"}};
  for (size_t i = 0; ok && i < sizeof passes / sizeof passes[0]; i++) {
    ok = gac_run_pass(m, passes[i][0], passes[i][1], &diag) && gac_validate(m, &opts, &diag);
  }
  uint32_t *words = NULL;
  size_t num_words = 0;
  ok = ok && gac_module_write(m, &words, &num_words);
  FILE *out = ok ? fopen(argv[2], "wb") : NULL;
  ok = out && fwrite(words, sizeof *words, num_words, out) == num_words;
  if (out && fclose(out) != 0)
    ok = false;
  gac_diag_print(&diag, stderr, argv[1]);
  if (ok)
    printf("lower_module: %s -> %s, %zu words\n", argv[1], argv[2], num_words);
  free(words);
  gac_module_destroy(m);
  gac_diag_free(&diag);
  return ok ? 0 : 1;
}
