// A uniform if/else as LLVM's structurizer lays it out (isa-check-flow.test):
// `then` and `else` each drain with vmcnt(0); the flow block between them
// branches on a pair set to -1 (else) or 0 (then). With UNKNOWN defined,
// the way around `then` sets the pair by s_cselect_b64: not known.
	.text
	.globl k
	.p2align 8
	.type k,@function
k:
	global_load_lds_dword v[0:1], off
__gac_c0_1:
	s_nop 0
	s_cmp_eq_u32 s2, 0
.ifdef UNKNOWN
	s_cselect_b64 s[0:1], -1, 0
.else
	s_mov_b64 s[0:1], -1
.endif
	s_cbranch_scc1 .Lflow
	s_waitcnt vmcnt(0)
	s_mov_b64 s[0:1], 0
.Lflow:
	s_and_b64 vcc, exec, s[0:1]
	s_cbranch_vccz .Lend
	s_waitcnt vmcnt(0)
.Lend:
__gac_w0_0_1:
	s_waitcnt vmcnt(5)
	s_barrier
	ds_read_b32 v1, v2
	s_endpgm
