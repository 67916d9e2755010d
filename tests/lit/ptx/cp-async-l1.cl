// --ptx-cp-async-l1: 16-byte cp.async units fill L1 (.ca) instead of
// bypassing it (.cg, the default); the 8- and 4-byte units are .ca either
// way (cp.async.cg takes 16 bytes only). Nothing else of the PTX changes.
// Under NVIDIA's OpenCL driver .ca ran sgemm_fast 6% faster and the 32x32
// sgemm 5% slower on the H200
// (docs/results/VENDOR.md#the-same-ptx-through-both-drivers-cg-and-ca),
// hence an option.
// RUN: gac-cc --emit=ptx --sm=80 %s -o %t.cg.ptx
// RUN: FileCheck --check-prefix=CG %s < %t.cg.ptx
// RUN: gac-cc --emit=ptx --sm=80 --ptx-cp-async-l1 %s -o %t.ca.ptx
// RUN: FileCheck --check-prefix=CA --implicit-check-not=cp.async.cg %s < %t.ca.ptx
// RUN: sed -e 's/cp\.async\.ca\.shared\.global \(.*\), 16;/cp.async.cg.shared.global \1, 16;/' %t.ca.ptx | diff - %t.cg.ptx
// CG-DAG: cp.async.cg.shared.global [{{%r[0-9]+}}], [{{%rd[0-9]+}}], 16;
// CG-DAG: cp.async.ca.shared.global [{{%r[0-9]+}}], [{{%rd[0-9]+}}], 8;
// CG-DAG: cp.async.ca.shared.global [{{%r[0-9]+}}], [{{%rd[0-9]+}}], 4;
// CA-DAG: cp.async.ca.shared.global [{{%r[0-9]+}}], [{{%rd[0-9]+}}], 16;
// CA-DAG: cp.async.ca.shared.global [{{%r[0-9]+}}], [{{%rd[0-9]+}}], 8;
// CA-DAG: cp.async.ca.shared.global [{{%r[0-9]+}}], [{{%rd[0-9]+}}], 4;
kernel void rows(global const float *in, global float *out, int w) {
  local float tile[2 * 64];
  event_t e = async_work_group_copy_2D2D(tile, 0, in, get_group_id(0) * 2 * w, sizeof(float), w, 2, w, w, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[get_local_id(0)];
}
