// 32-bit atomics on global and local memory.
kernel void atomics(volatile global int *counters, volatile global uint *bits,
                    volatile global float *fx, global const int *keys) {
  volatile local int hist[16];
  size_t lid = get_local_id(0);
  if (lid < 16)
    hist[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int k = keys[get_global_id(0)];
  atomic_inc(&hist[k & 15]);
  atomic_add(&counters[0], k);
  atomic_sub(&counters[1], 1);
  atomic_max(&counters[2], k);
  atomic_min(&counters[3], k);
  atomic_or(&bits[0], 1u << (k & 31));
  atomic_and(&bits[1], ~(1u << (k & 31)));
  atomic_xor(&bits[2], (uint)k);
  int old = atomic_cmpxchg(&counters[4], 0, k);
  atomic_xchg(&fx[0], (float)old);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 16)
    atomic_add(&counters[5 + lid], hist[lid]);
}
