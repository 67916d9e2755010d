; PoCL 3.1 miscompile, no gac in it: case 34 of seed 2411269 (open-2411269-34.cl)
; as gac lowered it, cut down with llvm-reduce and by hand to this SPIR 1.2
; module. After a barrier, work-items copy lt0[i] to out0[2875 + i] for
; i = lid, lid + size, ... < 140, then branch on lid == 0 into an empty block
; that rejoins before the final barrier. PoCL's work-group compilation (the
; loops and cbs methods alike) peels work-item 0 for the region and
; assumes that branch uniform (llvm.assume(lid == 0) for every work-item in
; its parallel.bc): work-items 1..139 never store, and out0[2875] gets
; lt0[255]. Both paths reach the barrier, so the kernel is valid OpenCL.
; (llvm-reduce cut the exitless loop PoCL's -O3 made of the read-out
; `for (i = lid; i < 1u; i += size)`, split on (uint)size == 0, down to
; `ret void`: that exitless loop is why PoCL took the barrier for a
; conditional one; README.md, "Known limits".) gac now clamps the local
; size for PoCL (lowering/opencl/pocl_local_size.c) and the full case is
; right; this module keeps PoCL's half of the bug.
; Reproduce (only out0[2875..3015) counts; GAC_RANDOM_DIFF=bytes shows
; expected/got/initial, here 83/fa/72 0c/a1/a1 ...: one store, wrong value):
;   llvm-as-14 pocl31-peeled-branch.ll -o /tmp/p.bc
;   cp open-2411269-34.cl /tmp/case.cl
;   GAC_RANDOM_EDITED=1 GAC_RANDOM_DIFF=bytes build/conformance/random/gac-random-cl \
;     /tmp/case.cl --bc /tmp/p.bc --target cooperative
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

%opencl.event_t = type opaque

@k34.lt0 = internal addrspace(3) global [960 x i8] undef

; Function Attrs: nounwind
define spir_kernel void @k34(i8 addrspace(1)* nocapture readonly align 1 %in0, i8 addrspace(1)* nocapture readonly align 1 %in1, i8 addrspace(1)* align 1 %out0, i64 %p3, i64 %p4, i64 %p5, i32 %p6, i32 %p7) #0 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_type_qual !3 {
entry:
  %mul5 = mul i64 0, %p5
  %add.ptr6 = getelementptr inbounds i8, i8 addrspace(1)* %out0, i64 %mul5
  %0 = call spir_func i64 @_Z12get_local_idj(i32 0) #3
  %1 = insertelement <3 x i64> undef, i64 %0, i32 0
  %2 = insertelement <3 x i64> %1, i64 undef, i32 1
  %3 = insertelement <3 x i64> %2, i64 undef, i32 2
  %call7 = extractelement <3 x i64> %3, i32 0
  %conv = trunc i64 %call7 to i32
  %cmp167 = icmp ult i32 %conv, 960
  br i1 %cmp167, label %for.body, label %for.cond.cleanup21

for.body:                                         ; preds = %for.body, %entry
  %i.0168 = phi i32 [ %conv14, %for.body ], [ %conv, %entry ]
  %4 = trunc i32 %i.0168 to i8
  %5 = mul i8 %4, -119
  %conv10 = add i8 %5, -125
  %idxprom = zext i32 %i.0168 to i64
  %arrayidx = getelementptr inbounds [960 x i8], [960 x i8] addrspace(3)* @k34.lt0, i64 0, i64 %idxprom
  store i8 %conv10, i8 addrspace(3)* %arrayidx, align 1
  %6 = call spir_func i64 @_Z14get_local_sizej(i32 0) #3
  %7 = insertelement <3 x i64> undef, i64 %6, i32 0
  %8 = insertelement <3 x i64> %7, i64 undef, i32 1
  %9 = insertelement <3 x i64> %8, i64 undef, i32 2
  %call11 = extractelement <3 x i64> %9, i32 0
  %10 = trunc i64 %call11 to i32
  %conv14 = add i32 %i.0168, %10
  %cmp = icmp ult i32 %conv14, 960
  br i1 %cmp, label %for.body, label %for.cond18.preheader

for.cond18.preheader:                             ; preds = %for.body
  br label %for.cond.cleanup21

for.cond.cleanup21:                               ; preds = %for.cond18.preheader, %entry
  call spir_func void @_Z7barrierj(i32 3) #2
  br label %for.cond60.preheader

for.cond60.preheader:                             ; preds = %for.cond.cleanup21
  %cmp61173 = icmp ult i32 %conv, 624
  br i1 %cmp61173, label %for.body64, label %for.cond.cleanup63

for.body64:                                       ; preds = %for.body64, %for.cond60.preheader
  %i57.0174 = phi i32 [ %conv78, %for.body64 ], [ %conv, %for.cond60.preheader ]
  %idxprom66 = zext i32 %i57.0174 to i64
  %arrayidx67 = getelementptr inbounds [960 x i8], [960 x i8] addrspace(3)* @k34.lt0, i64 0, i64 %idxprom66
  %11 = load i8, i8 addrspace(3)* %arrayidx67, align 1
  %add71 = add i32 %i57.0174, 2251
  %idxprom72 = zext i32 %add71 to i64
  %arrayidx73 = getelementptr inbounds i8, i8 addrspace(1)* %add.ptr6, i64 %idxprom72
  store i8 %11, i8 addrspace(1)* %arrayidx73, align 1
  %12 = call spir_func i64 @_Z14get_local_sizej(i32 0) #3
  %13 = insertelement <3 x i64> undef, i64 %12, i32 0
  %14 = insertelement <3 x i64> %13, i64 undef, i32 1
  %15 = insertelement <3 x i64> %14, i64 undef, i32 2
  %call75 = extractelement <3 x i64> %15, i32 0
  %16 = trunc i64 %call75 to i32
  %conv78 = add i32 %i57.0174, %16
  %cmp61 = icmp ult i32 %conv78, 624
  br i1 %cmp61, label %for.body64, label %for.cond.cleanup63

for.cond.cleanup63:                               ; preds = %for.body64, %for.cond60.preheader
  br label %17

17:                                               ; preds = %for.cond.cleanup63
  br label %18

18:                                               ; preds = %17
  %cmp85175 = icmp ult i32 %conv, 140
  br i1 %cmp85175, label %for.body88, label %for.cond.cleanup110

for.body88:                                       ; preds = %for.body88, %18
  %i81.0176 = phi i32 [ %conv102, %for.body88 ], [ %conv, %18 ]
  %idxprom90 = zext i32 %i81.0176 to i64
  %arrayidx91 = getelementptr inbounds [960 x i8], [960 x i8] addrspace(3)* @k34.lt0, i64 0, i64 %idxprom90
  %19 = load i8, i8 addrspace(3)* %arrayidx91, align 1
  %add95 = add i32 %i81.0176, 2875
  %idxprom96 = zext i32 %add95 to i64
  %arrayidx97 = getelementptr inbounds i8, i8 addrspace(1)* %add.ptr6, i64 %idxprom96
  store i8 %19, i8 addrspace(1)* %arrayidx97, align 1
  %20 = call spir_func i64 @_Z14get_local_sizej(i32 0) #3
  %21 = insertelement <3 x i64> undef, i64 %20, i32 0
  %22 = insertelement <3 x i64> %21, i64 undef, i32 1
  %23 = insertelement <3 x i64> %22, i64 undef, i32 2
  %call99 = extractelement <3 x i64> %23, i32 0
  %24 = trunc i64 %call99 to i32
  %conv102 = add i32 %i81.0176, %24
  %cmp85 = icmp ult i32 %conv102, 140
  br i1 %cmp85, label %for.body88, label %for.cond107.preheader

for.cond107.preheader:                            ; preds = %for.body88
  %cmp108177 = icmp eq i32 %conv, 0
  br i1 %cmp108177, label %for.body111.lr.ph, label %for.cond.cleanup110

for.body111.lr.ph:                                ; preds = %for.cond107.preheader
  ret void

for.cond.cleanup110:                              ; preds = %for.body111.lr.ph, %for.cond107.preheader, %18
  call spir_func void @_Z7barrierj(i32 3) #2
  ret void
}

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture) #1

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.end.p0i8(i64 immarg, i8* nocapture) #1

; Function Attrs: nounwind
declare spir_func void @_Z17wait_group_eventsiP9ocl_event(i32, %opencl.event_t**) #0

; Function Attrs: convergent nounwind
declare spir_func void @_Z7barrierj(i32) #2

; Function Attrs: nounwind readnone willreturn
declare spir_func i64 @_Z12get_group_idj(i32) #3

; Function Attrs: nounwind readnone willreturn
declare spir_func i64 @_Z12get_local_idj(i32) #3

; Function Attrs: nounwind readnone willreturn
declare spir_func i64 @_Z14get_local_sizej(i32) #3

; Function Attrs: nounwind
declare spir_func %opencl.event_t* @_Z29async_work_group_strided_copyPU3AS1hPU3AS3Khmm9ocl_event(i8 addrspace(1)*, i8 addrspace(3)*, i64, i64, %opencl.event_t*) #0

; uselistorder directives
uselistorder void (i32)* @_Z7barrierj, { 1, 0 }
uselistorder i64 (i32)* @_Z14get_local_sizej, { 2, 1, 0 }

attributes #0 = { nounwind }
attributes #1 = { argmemonly nofree nosync nounwind willreturn }
attributes #2 = { convergent nounwind }
attributes #3 = { nounwind readnone willreturn }

!0 = !{i32 1, i32 1, i32 1, i32 0, i32 0, i32 0, i32 0, i32 0}
!1 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!2 = !{!"char*", !"char*", !"char*", !"long", !"long", !"long", !"int", !"int"}
!3 = !{!"", !"", !"", !"", !"", !"", !"", !""}
