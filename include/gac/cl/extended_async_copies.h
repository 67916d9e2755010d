/* cl_khr_extended_async_copies for OpenCL C compiled by clang-15 for gac.
 *
 * The builtins keep their 1.0 signatures (all counts in elements). They are
 * declared under gac_-prefixed names because llvm-spirv-15 takes any call
 * named async_work_group_* for the core 1D builtin and aborts; gac-opt's
 * --raise-async-copies turns calls to these declarations into
 * NonSemantic.Codeplay.GroupAsyncCopies instructions.
 *
 * Use: clang-15 -cc1 ... -finclude-default-header -include gac/cl/extended_async_copies.h */
#ifndef GAC_CL_EXTENDED_ASYNC_COPIES_H
#define GAC_CL_EXTENDED_ASYNC_COPIES_H

#define cl_khr_extended_async_copies 1
#define GAC_OVERLOAD __attribute__((overloadable))

event_t GAC_OVERLOAD gac_async_work_group_copy_2D2D(
    __local void *dst, size_t dst_offset, const __global void *src, size_t src_offset,
    size_t num_bytes_per_element, size_t num_elements_per_line, size_t num_lines,
    size_t src_total_line_length, size_t dst_total_line_length, event_t event);
event_t GAC_OVERLOAD gac_async_work_group_copy_2D2D(
    __global void *dst, size_t dst_offset, const __local void *src, size_t src_offset,
    size_t num_bytes_per_element, size_t num_elements_per_line, size_t num_lines,
    size_t src_total_line_length, size_t dst_total_line_length, event_t event);

event_t GAC_OVERLOAD gac_async_work_group_copy_3D3D(
    __local void *dst, size_t dst_offset, const __global void *src, size_t src_offset,
    size_t num_bytes_per_element, size_t num_elements_per_line, size_t num_lines,
    size_t num_planes, size_t src_total_line_length, size_t src_total_plane_area,
    size_t dst_total_line_length, size_t dst_total_plane_area, event_t event);
event_t GAC_OVERLOAD gac_async_work_group_copy_3D3D(
    __global void *dst, size_t dst_offset, const __local void *src, size_t src_offset,
    size_t num_bytes_per_element, size_t num_elements_per_line, size_t num_lines,
    size_t num_planes, size_t src_total_line_length, size_t src_total_plane_area,
    size_t dst_total_line_length, size_t dst_total_plane_area, event_t event);

/* cl_khr_async_work_group_copy_fence: the copies before the fence access
 * the memories `flags` names (CLK_LOCAL_MEM_FENCE, CLK_GLOBAL_MEM_FENCE or
 * both, a constant) before the copies after it do, without the work-items
 * waiting for them. Met by the whole work-group, like the copies. It
 * becomes AsyncCopyFence of NonSemantic.Gac.AsyncPipeline. */
#define cl_khr_async_work_group_copy_fence 1
/* Registers the names with clang, so that a kernel's "#pragma OPENCL
 * EXTENSION ... : enable" does not warn of an unknown extension. */
#pragma OPENCL EXTENSION cl_khr_async_work_group_copy_fence : begin
#pragma OPENCL EXTENSION cl_khr_async_work_group_copy_fence : end
#pragma OPENCL EXTENSION cl_khr_extended_async_copies : begin
#pragma OPENCL EXTENSION cl_khr_extended_async_copies : end
void GAC_OVERLOAD gac_async_work_group_copy_fence(cl_mem_fence_flags flags);

/* Async queues (NonSemantic.Gac.AsyncPipeline, docs/ASYNC_PIPELINE.md):
 * commit the group of copies that share `event` to queue `queue` (a
 * constant), and wait until at most `in_flight` of the most recently committed
 * groups of the queue are in flight. Met by the whole work-group, like the
 * copies. */
void GAC_OVERLOAD gac_async_commit(uint queue, event_t event);
void GAC_OVERLOAD gac_async_wait(uint queue, uint in_flight);

/* Software-pipeline annotations (docs/ASYNC_PIPELINE.md), for gac-opt
 * --pipeline-loops. In the body of a counted loop:
 *   gac_pipeline_loop(GAC_ASYNC_STAGE(0));   which stages are async (a mask)
 *   gac_pipeline_stage(0, 0);                a statement: stage 0, order 0
 *   ...copies into __local arrays, then wait_group_events...
 *   gac_pipeline_stage(1, 1);                the next statement
 *   ...compute on them, barrier...
 * A statement runs from its marker to the next one or the end of the body.
 * Constants only. Without --pipeline-loops the loop runs as written. */
void GAC_OVERLOAD gac_pipeline_loop(uint async_stages);
void GAC_OVERLOAD gac_pipeline_stage(uint stage, uint order);
#define GAC_ASYNC_STAGE(s) (1u << (s))

#define async_work_group_copy_2D2D gac_async_work_group_copy_2D2D
#define async_work_group_copy_3D3D gac_async_work_group_copy_3D3D
#define async_work_group_copy_fence gac_async_work_group_copy_fence

#undef GAC_OVERLOAD
#endif
