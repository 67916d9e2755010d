// A builtin call whose constant operands break the set's rules (8 elements
// per line from source lines 4 elements long: the lines overlap) is refused
// by --raise-async-copies with the rule, instead of being raised into an
// invalid instruction with exit 0. The input (a plain call) is valid.
// RUN: gac-cc --raw %s -o %t.spv
// RUN: gac-opt --validate %t.spv
// RUN: %expect-exit 1 gac-opt --raise-async-copies %t.spv -o %t.raised.spv 2>&1 | FileCheck %s
// RUN: not test -e %t.raised.spv
// CHECK: error: {{.*}}GroupAsyncCopy2D2D: 'Source Line Length' (4) is smaller than 'Num Elements Per Line' (8){{.*}}[GroupAsyncCopies.LineOverlap]
kernel void k(global float *g, local float *t) {
  event_t e = async_work_group_copy_2D2D(t, 0, g, 0, sizeof(float), 8, 2, 4, 8, 0);
  wait_group_events(1, &e);
}
