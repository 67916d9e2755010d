/* gac-as: assemble SPIR-V text, with GroupAsyncCopies instructions by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_io.h"
#include "gac/text.h"
#include "gac/version.h"

int main(int argc, char **argv) {
  const char *input = NULL, *output = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0) {
      puts("Usage: gac-as <input.spvasm | -> -o <output.spv | ->\n"
           "Assembles SPIR-V text; GroupAsyncCopy2D2D/3D3D may be written by name, with\n"
           "operands optionally labelled (Destination=%id ...). Header comments written by\n"
           "'gac-opt --print' (; Version, ; Generator, ; Bound, ; Schema) are honoured.\n"
           "--version shows the version and the commit.");
      return 0;
    } else if (strcmp(argv[i], "--version") == 0) {
      printf("gac-as %s\n", gac_version_text());
      return 0;
    } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
      output = argv[++i];
    } else if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "gac-as: unknown option '%s'\n", argv[i]);
      return 2;
    } else if (!input) {
      input = argv[i];
    } else {
      fprintf(stderr, "gac-as: more than one input\n");
      return 2;
    }
  }
  if (!input || !output) {
    fprintf(stderr, "gac-as: usage: gac-as <input> -o <output>\n");
    return 2;
  }
  char *text;
  size_t size;
  if (!read_file(input, &text, &size))
    return 1;
  gac_diag diag;
  gac_diag_init(&diag);
  uint32_t *words = NULL;
  size_t n = 0;
  bool ok = gac_assemble(text, size, &words, &n, &diag);
  gac_diag_print(&diag, stderr, strcmp(input, "-") ? input : "<stdin>");
  if (ok)
    ok = write_file_atomic(output, words, n * sizeof(uint32_t));
  free(words);
  free(text);
  gac_diag_free(&diag);
  return ok ? 0 : 1;
}
