; A stand-in for PoCL's kernel library in which vload4 of a global pointer is
; defined but calls a function the library only declares (as PoCL 3.1's
; generic wait_group_events calls an undefined _cl_wait_group_events).
target triple = "x86_64-pc-linux-gnu"

declare <4 x float> @_Z10_cl_vload4mPU3AS1Kf(i64, ptr addrspace(1))

define <4 x float> @_Z6vload4mPU3AS1Kf(i64 %i, ptr addrspace(1) %p) {
  %v = call <4 x float> @_Z10_cl_vload4mPU3AS1Kf(i64 %i, ptr addrspace(1) %p)
  ret <4 x float> %v
}
