// Two rows of w floats, w apart, into a tile of rows w apart (the corpus'
// transpose_divmod): the rows follow one another on both sides, so the
// copy is one line of 2 x w (--collapse-async-copies, which the lowering
// runs first), and its units need no division by a run-time count of
// units a line: the unit loops have no div or rem. Without the collapse
// each of the three unit loops (16, 8, 4 bytes) divided each unit's index
// by w's units. Speed is the same either way (transpose_divmod, 0.980x
// NVIDIA's build without the collapse, 0.979x with it: the division was not
// the gap; docs/results/VENDOR.md#experiments).
// RUN: gac-cc %s -o %t.spv
// RUN: gac-opt --emit=ptx --sm=80 %t.spv -o %t.ptx
// RUN: FileCheck --implicit-check-not=div. --implicit-check-not=rem. %s < %t.ptx
// The line: a unit loop per width (16, 8, 4 bytes), none dividing.
// CHECK: .entry rows(
// CHECK: cp.async.{{c[ag]}}.shared.global [{{%r[0-9]+}}], [{{%rd[0-9]+}}], {{8|16|4}};
// CHECK: cp.async.{{c[ag]}}.shared.global [{{%r[0-9]+}}], [{{%rd[0-9]+}}], {{8|16|4}};
// CHECK: cp.async.{{c[ag]}}.shared.global [{{%r[0-9]+}}], [{{%rd[0-9]+}}], {{8|16|4}};
// CHECK: cp.async.wait_all;
kernel void rows(global const float *in, global float *out, int w) {
  local float tile[2 * 64];
  event_t e = async_work_group_copy_2D2D(tile, 0, in, get_group_id(0) * 2 * w, sizeof(float), w, 2, w, w, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[get_local_id(0)];
}
