/* Copy fences (cl_khr_async_work_group_copy_fence), in the six shapes of the
 * Khronos CTS's fence subtests: an import after an export, or an export
 * after an import, through a buffer they share in local memory, in global
 * memory, or in both, with a fence between them naming that memory and one
 * wait for both at the end. Each group works on its own parts of a, b and c
 * (E and I floats per group; G groups). -DTWO_D makes the import a 2D copy
 * of one line (cp.async or bulk copies on the GPU); -DNO_FENCE drops the
 * fences (the mutants of tests/late/fence_mutants.sh).
 *
 * The expected results are suite.c's run_fence. */
#pragma OPENCL EXTENSION cl_khr_async_work_group_copy_fence : enable

#ifdef NO_FENCE
#define FENCE(flags)
#else
#define FENCE(flags) async_work_group_copy_fence(flags)
#endif

#ifdef TWO_D
#define IMPORT(dst, src, n, ev) async_work_group_copy_2D2D(dst, 0, src, 0, sizeof(float), n, 1, n, n, ev)
#else
#define IMPORT(dst, src, n, ev) async_work_group_copy(dst, src, n, ev)
#endif
#define EXPORT(dst, src, n, ev) async_work_group_copy(dst, src, n, ev)

#define IDS                                                                                                    \
  size_t g = get_group_id(0), G = get_num_groups(0), l = get_local_id(0), ls = get_local_size(0);             \
  (void)G

/* l1 = a's part; export l1 -> b; fence; import a's second part -> the end
 * of l1; c = that end. */
kernel void import_after_export_local(global const float *a, global float *b, global float *c, local float *l1,
                                      local float *l2, ulong E, ulong I) {
  IDS;
  for (size_t i = l; i < E; i += ls)
    l1[i] = a[g * E + i];
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = EXPORT(b + g * E, (local const float *)l1, E, 0);
  FENCE(CLK_LOCAL_MEM_FENCE);
  e = IMPORT(l1 + (E - I), a + G * E + g * I, I, e);
  wait_group_events(1, &e);
  for (size_t i = l; i < I; i += ls)
    c[g * I + i] = l1[E - I + i];
}

/* l1 = a's part; export l1 -> b; fence; import the end of b's part -> l2;
 * c = l2: what the export wrote. */
kernel void import_after_export_global(global const float *a, global float *b, global float *c, local float *l1,
                                       local float *l2, ulong E, ulong I) {
  IDS;
  for (size_t i = l; i < E; i += ls)
    l1[i] = a[g * E + i];
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = EXPORT(b + g * E, (local const float *)l1, E, 0);
  FENCE(CLK_GLOBAL_MEM_FENCE);
  e = IMPORT(l2, (global const float *)b + g * E + (E - I), I, e);
  wait_group_events(1, &e);
  for (size_t i = l; i < I; i += ls)
    c[g * I + i] = l2[i];
}

/* Both: export l1 -> b; fence; import the end of b's part -> the end of l1. */
kernel void import_after_export_both(global const float *a, global float *b, global float *c, local float *l1,
                                     local float *l2, ulong E, ulong I) {
  IDS;
  for (size_t i = l; i < E; i += ls)
    l1[i] = a[g * E + i];
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = EXPORT(b + g * E, (local const float *)l1, E, 0);
  FENCE(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  e = IMPORT(l1 + (E - I), (global const float *)b + g * E + (E - I), I, e);
  wait_group_events(1, &e);
  for (size_t i = l; i < I; i += ls)
    c[g * I + i] = l1[E - I + i];
}

/* import a's part -> l1; fence; export the end of l1 -> b; c = l1. */
kernel void export_after_import_local(global const float *a, global float *b, global float *c, local float *l1,
                                      local float *l2, ulong E, ulong I) {
  IDS;
  event_t e = IMPORT(l1, a + g * E, E, 0);
  FENCE(CLK_LOCAL_MEM_FENCE);
  e = EXPORT(b + g * I, (local const float *)l1 + (E - I), I, e);
  wait_group_events(1, &e);
  for (size_t i = l; i < E; i += ls)
    c[g * E + i] = l1[i];
}

/* l2 = a's second part; import b's part -> l1; fence; export l2 -> the end
 * of b's part; c = l1: b as it was before the export. */
kernel void export_after_import_global(global const float *a, global float *b, global float *c, local float *l1,
                                       local float *l2, ulong E, ulong I) {
  IDS;
  for (size_t i = l; i < I; i += ls)
    l2[i] = a[G * E + g * I + i];
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = IMPORT(l1, (global const float *)b + g * E, E, 0);
  FENCE(CLK_GLOBAL_MEM_FENCE);
  e = EXPORT(b + g * E + (E - I), (local const float *)l2, I, e);
  wait_group_events(1, &e);
  for (size_t i = l; i < E; i += ls)
    c[g * E + i] = l1[i];
}

/* Both: import b's part -> l1; fence; export the end of l1 -> the end of
 * b's part (b keeps its values); c = l1. */
kernel void export_after_import_both(global const float *a, global float *b, global float *c, local float *l1,
                                     local float *l2, ulong E, ulong I) {
  IDS;
  event_t e = IMPORT(l1, (global const float *)b + g * E, E, 0);
  FENCE(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  e = EXPORT(b + g * E + (E - I), (local const float *)l1 + (E - I), I, e);
  wait_group_events(1, &e);
  for (size_t i = l; i < E; i += ls)
    c[g * E + i] = l1[i];
}

/* A stream through one local buffer: for each of T tiles, import it and
 * export it again; the fence orders each export (which reads l1) before the
 * next tile's import (which overwrites it), with no wait between them.
 * b = a, over G groups of T tiles of E floats. */
kernel void stream_tiles(global const float *a, global float *b, global float *c, local float *l1,
                         local float *l2, ulong E, ulong T) {
  IDS;
  event_t out = 0;
  for (size_t t = 0; t < T; t++) {
    event_t in = IMPORT(l1, a + (g * T + t) * E, E, 0);
    wait_group_events(1, &in);
    out = EXPORT(b + (g * T + t) * E, (local const float *)l1, E, out);
    FENCE(CLK_LOCAL_MEM_FENCE);
  }
  wait_group_events(1, &out);
}
