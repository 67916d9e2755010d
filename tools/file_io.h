/* Reading whole files and writing them atomically, "-" meaning stdin/stdout. */
#ifndef GAC_TOOLS_FILE_IO_H
#define GAC_TOOLS_FILE_IO_H

#include <stdbool.h>
#include <stddef.h>

/* Reads all of path ("-" for stdin); *data is malloc'd and NUL-terminated. */
bool read_file(const char *path, char **data, size_t *size);

/* Writes data to path through a temporary file in the same folder renamed
 * over path, so that path is never left partial; "-" writes to stdout. */
bool write_file_atomic(const char *path, const void *data, size_t size);

#endif
