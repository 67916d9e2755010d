/* The runtime of --lower-async-copies=opencl,strategy=late (a testing
 * strategy, like a sanitizer): a copy does not land when it is issued. The
 * leading work-item records it in a table in local memory and fills its
 * destination with 0xA5 bytes; the data lands when a wait that covers it
 * runs (wait_group_events on its event, AsyncWait with the right count, the
 * end of the kernel), read from the source as it is then. Events are group
 * numbers. lowering/opencl/lower_late.c calls these functions; the module it links
 * in is this file compiled (late_runtime.spvasm, made by regenerate.sh).
 *
 * Every function is called by all work-items of the work-group in uniform
 * control flow (as the copies and waits are); only the leading work-item
 * touches the table, and the barriers order it with the others.
 *
 * The leader's work is in functions that are never inlined (LEADER), each
 * called by every work-item with leads() as an argument (PoCL defines the
 * local id only in the kernel's own code), so that what PoCL
 * inlines into the kernel is barriers and calls only, with no branch on the
 * local id. PoCL 3.1 drops the barrier side of a uniform if/else when the
 * other side branches on the local id (the pipelined kernels' prologues
 * are such if/elses: docs/LOWERING.md, tests/late/pocl_cond_barrier.cl). */

#define CAPACITY 16  /* copies in flight */
#define COMMITS 8    /* committed groups in flight */
#define FIELDS 13
#define ENTRY(i) (2 + (i) * FIELDS)
#define COMMIT(j) (2 + CAPACITY * FIELDS + (j) * 3)
#define REPORTS (2 + CAPACITY * FIELDS + COMMITS * 3)
#define RACED (REPORTS + 1)
#define STATE_WORDS (REPORTS + 2)
/* state[0]: the last group number; state[1]: the last commit's sequence number;
 * state[REPORTS]: how many accesses to memory in flight the work-group made;
 * state[RACED]: 1 when the last copy issued was the work-group's first that
 * read what a copy in flight writes (gac_late_copy_check prints it).
 * Entry fields: */
enum { GROUP, TO_LOCAL, DST, SRC, BPE, PER_LINE, LINES, PLANES, SRC_LINE, SRC_PLANE, DST_LINE, DST_PLANE, FENCED };
/* FENCED: the flags of the copy fences since the copy was issued
 * (CLK_LOCAL_MEM_FENCE 1, CLK_GLOBAL_MEM_FENCE 2). */
/* Commit fields: queue + 1 (0: free), group, sequence number. */
#define POISON 0xA5

#define LEADER __attribute__((noinline))

/* Without && (a branch on the local id, see above). */
static bool leads(void) { return (get_local_id(0) | get_local_id(1) | get_local_id(2)) == 0; }

/* Moves (or poisons) the bytes of entry e: planes x lines x line bytes. */
static void move(local ulong *e, bool poison) {
  ulong bpe = e[BPE], line = e[PER_LINE] * bpe;
  for (ulong p = 0; p < e[PLANES]; p++)
    for (ulong l = 0; l < e[LINES]; l++) {
      ulong from = (p * e[SRC_PLANE] + l * e[SRC_LINE]) * bpe, to = (p * e[DST_PLANE] + l * e[DST_LINE]) * bpe;
      if (e[TO_LOCAL]) {
        local uchar *d = (local uchar *)(uintptr_t)e[DST] + to;
        global const uchar *s = (global const uchar *)(uintptr_t)e[SRC] + from;
        for (ulong b = 0; b < line; b++)
          d[b] = poison ? POISON : s[b];
      } else {
        global uchar *d = (global uchar *)(uintptr_t)e[DST] + to;
        local const uchar *s = (local const uchar *)(uintptr_t)e[SRC] + from;
        for (ulong b = 0; b < line; b++)
          d[b] = poison ? POISON : s[b];
      }
    }
}

/* Lands every copy of group g (every copy, when `all`). Group 0 is the
 * empty group (an event no copy made): it has nothing to land. */
static void land(local ulong *state, ulong g, bool all) {
  for (int i = 0; i < CAPACITY; i++) {
    local ulong *e = state + ENTRY(i);
    if (e[GROUP] && (all || e[GROUP] == g)) {
      move(e, false);
      e[GROUP] = 0;
    }
  }
}

static LEADER void clear(local ulong *state, bool lead) {
  if (lead)
    for (int i = 0; i < STATE_WORDS; i++)
      state[i] = 0;
}

void gac_late_init(local ulong *state) {
  clear(state, leads());
  barrier(CLK_LOCAL_MEM_FENCE);
}

static bool holds(local const ulong *e, ulong base, ulong line_stride, ulong plane_stride, ulong a);

/* The bytes from base to the last one a side of entry e spans. */
static ulong span(local const ulong *e, ulong line_stride, ulong plane_stride) {
  ulong bpe = e[BPE], line = e[PER_LINE] * bpe;
  if (!line || !e[LINES] || !e[PLANES])
    return 0;
  return (e[PLANES] - 1) * plane_stride * bpe + (e[LINES] - 1) * line_stride * bpe + line;
}

/* Whether side `as` (0 destination, 1 source) of entry a and side `bs` of
 * entry b share a byte: their spans first, then byte by byte over the
 * common part. */
static bool sides_meet(local const ulong *a, int as, local const ulong *b, int bs) {
  ulong abase = as ? a[SRC] : a[DST], bbase = bs ? b[SRC] : b[DST];
  ulong aline = as ? a[SRC_LINE] : a[DST_LINE], aplane = as ? a[SRC_PLANE] : a[DST_PLANE];
  ulong bline = bs ? b[SRC_LINE] : b[DST_LINE], bplane = bs ? b[SRC_PLANE] : b[DST_PLANE];
  ulong aend = abase + span(a, aline, aplane), bend = bbase + span(b, bline, bplane);
  ulong lo = abase > bbase ? abase : bbase, hi = aend < bend ? aend : bend;
  for (ulong x = lo; x < hi; x++)
    if (holds(a, abase, aline, aplane, x) && holds(b, bbase, bline, bplane, x))
      return true;
  return false;
}

/* Whether the copies of entries p (issued first) and n conflict in the
 * memories of `flags`: in local memory an import on either side, in global
 * memory an export on either side (lowering/common/copy_fences.h), their
 * bytes there shared. */
static bool copies_conflict(local const ulong *p, local const ulong *n, ulong flags) {
  for (int space = 0; space < 2; space++) { /* 0: local, 1: global */
    if (!(flags & (space ? 2 : 1)))
      continue;
    bool p_writes = space ? !p[TO_LOCAL] : p[TO_LOCAL] != 0, n_writes = space ? !n[TO_LOCAL] : n[TO_LOCAL] != 0;
    if (!p_writes && !n_writes)
      continue;
    /* The side of each in that memory: an import's destination is local. */
    int ps = (p[TO_LOCAL] != 0) == (space == 0) ? 0 : 1, ns = (n[TO_LOCAL] != 0) == (space == 0) ? 0 : 1;
    if (sides_meet(p, ps, n, ns))
      return true;
  }
  return false;
}

/* Records a copy and poisons its destination (the leader). A copy in
 * flight that a fence since orders before this one lands first; one that
 * no fence orders and whose destination this one reads is a race, which
 * state[RACED] reports (gac_late_copy_check prints it: no printf here or in
 * what PoCL inlines with barriers, see the top). */
static LEADER void record(local ulong *state, bool lead, ulong event, bool to_local, ulong dst, ulong src, ulong bpe,
                          ulong per_line, ulong lines, ulong planes, ulong src_line, ulong src_plane,
                          ulong dst_line, ulong dst_plane) {
  if (!lead)
    return;
  int slot = -1;
  for (int i = CAPACITY - 1; i >= 0; i--)
    if (!state[ENTRY(i) + GROUP])
      slot = i;
  if (slot < 0) { /* full: what is in flight lands early */
    land(state, 0, true);
    slot = 0;
  }
  local ulong *e = state + ENTRY(slot);
  e[TO_LOCAL] = to_local;
  e[DST] = dst;
  e[SRC] = src;
  e[BPE] = bpe;
  e[PER_LINE] = per_line;
  e[LINES] = lines;
  e[PLANES] = planes;
  e[SRC_LINE] = src_line;
  e[SRC_PLANE] = src_plane;
  e[DST_LINE] = dst_line;
  e[DST_PLANE] = dst_plane;
  e[FENCED] = 0;
  uint raced = 0;
  for (int i = 0; i < CAPACITY; i++) {
    local ulong *p = state + ENTRY(i);
    if (i == slot || !p[GROUP])
      continue;
    if (p[FENCED] && copies_conflict(p, e, p[FENCED])) {
      move(p, false);
      p[GROUP] = 0;
    } else if (p[TO_LOCAL] != e[TO_LOCAL] && sides_meet(p, 0, e, 1)) {
      raced = 1; /* reads what a copy in flight writes, no wait or fence between */
    }
  }
  e[GROUP] = event ? event : ++state[0];
  move(e, true);
  state[RACED] = raced && !atomic_inc((volatile local uint *)(state + REPORTS));
}

/* Returns the copy's group: `event` when the copy joins one, else a new
 * group. The first barrier: what the work-items did before the copy is done
 * before the poison; the last keeps the leader from starting the next group
 * before all have read this one. */
static ulong issue(local ulong *state, ulong event, bool to_local, ulong dst, ulong src, ulong bpe, ulong per_line,
                   ulong lines, ulong planes, ulong src_line, ulong src_plane, ulong dst_line, ulong dst_plane) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  record(state, leads(), event, to_local, dst, src, bpe, per_line, lines, planes, src_line, src_plane, dst_line,
         dst_plane);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  ulong last = state[0];
  ulong group = event ? event : last;
  barrier(CLK_LOCAL_MEM_FENCE);
  return group;
}

ulong gac_late_to_local(local ulong *state, ulong event, local uchar *dst, ulong dst_offset,
                        global const uchar *src, ulong src_offset, ulong bpe, ulong per_line, ulong lines,
                        ulong planes, ulong src_line, ulong src_plane, ulong dst_line, ulong dst_plane) {
  return issue(state, event, true, (ulong)(uintptr_t)(dst + dst_offset * bpe),
               (ulong)(uintptr_t)(src + src_offset * bpe), bpe, per_line, lines, planes, src_line, src_plane,
               dst_line, dst_plane);
}

ulong gac_late_to_global(local ulong *state, ulong event, global uchar *dst, ulong dst_offset,
                         local const uchar *src, ulong src_offset, ulong bpe, ulong per_line, ulong lines,
                         ulong planes, ulong src_line, ulong src_plane, ulong dst_line, ulong dst_plane) {
  return issue(state, event, false, (ulong)(uintptr_t)(dst + dst_offset * bpe),
               (ulong)(uintptr_t)(src + src_offset * bpe), bpe, per_line, lines, planes, src_line, src_plane,
               dst_line, dst_plane);
}

static LEADER void land_events(local ulong *state, bool lead, uint count, private const ulong *events) {
  if (lead)
    for (uint k = 0; k < count; k++)
      if (events[k])
        land(state, events[k], false);
}

/* The waits: every work-item's reads before the wait come before the data
 * lands (the first barrier), and every read after it sees the data. */
void gac_late_wait_events(local ulong *state, uint count, private const ulong *events) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  land_events(state, leads(), count, events);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

static LEADER void commit(local ulong *state, bool lead, uint queue, ulong group) {
  if (!lead)
    return;
  int slot = -1, oldest = 0;
  for (int j = COMMITS - 1; j >= 0; j--) {
    if (!state[COMMIT(j)])
      slot = j;
    if (state[COMMIT(j) + 2] < state[COMMIT(oldest) + 2])
      oldest = j;
  }
  if (slot < 0) { /* full: the oldest group lands early */
    land(state, state[COMMIT(oldest) + 1], false);
    slot = oldest;
  }
  state[COMMIT(slot)] = (ulong)queue + 1;
  state[COMMIT(slot) + 1] = group;
  state[COMMIT(slot) + 2] = ++state[1];
}

void gac_late_commit(local ulong *state, uint queue, ulong group) { commit(state, leads(), queue, group); }

/* Lands the groups of `queue` but the `in_flight` most recently committed. */
static LEADER void land_queue(local ulong *state, bool lead, uint queue, ulong in_flight) {
  if (lead)
    for (int j = 0; j < COMMITS; j++) {
      if (state[COMMIT(j)] != (ulong)queue + 1)
        continue;
      ulong newer = 0;
      for (int k = 0; k < COMMITS; k++)
        newer += state[COMMIT(k)] == (ulong)queue + 1 && state[COMMIT(k) + 2] > state[COMMIT(j) + 2];
      if (newer >= in_flight) {
        land(state, state[COMMIT(j) + 1], false);
        state[COMMIT(j)] = 0;
      }
    }
}

void gac_late_wait_queue(local ulong *state, uint queue, ulong in_flight) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  land_queue(state, leads(), queue, in_flight);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

/* A copy fence: the copies in flight are ordered, in the memories of
 * `flags`, before the copies issued after it, which land them first where
 * they conflict (record()). Nothing lands here: the work-items do not wait. */
static LEADER void fence(local ulong *state, bool lead, uint flags) {
  if (lead)
    for (int i = 0; i < CAPACITY; i++)
      if (state[ENTRY(i) + GROUP])
        state[ENTRY(i) + FENCED] |= flags;
}

void gac_late_fence(local ulong *state, uint flags) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  fence(state, leads(), flags);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

static LEADER void land_all(local ulong *state, bool lead) {
  if (lead)
    land(state, 0, true);
}

/* Whether byte `a` is one that entry e's copy writes (at the destination)
 * or reads (at the source): base, line and plane strides of that side. */
static bool holds(local const ulong *e, ulong base, ulong line_stride, ulong plane_stride, ulong a) {
  ulong bpe = e[BPE], line = e[PER_LINE] * bpe, lines = e[LINES], planes = e[PLANES];
  ulong ls = line_stride * bpe, ps = plane_stride * bpe;
  if (a < base || !line || !lines || !planes)
    return false;
  ulong off = a - base;
  if (off >= (planes - 1) * ps + (lines - 1) * ls + line) /* past the last byte */
    return false;
  /* Lines apart and planes apart (what the set's rules make of most copies):
   * the line and plane by division. */
  if ((lines == 1 || ls >= line) && (planes == 1 || ps >= (lines - 1) * ls + line)) {
    ulong p = planes == 1 ? 0 : off / ps;
    if (p >= planes)
      return false;
    off -= p * ps;
    ulong l = lines == 1 ? 0 : off / ls;
    return l < lines && off - l * ls < line;
  }
  for (ulong p = 0; p < planes; p++)
    for (ulong l = 0; l < lines; l++) {
      ulong start = p * ps + l * ls;
      if (off >= start && off - start < line)
        return true;
    }
  return false;
}

static bool touches(local const ulong *e, ulong base, ulong line_stride, ulong plane_stride, ulong a, ulong bytes) {
  for (ulong b = 0; b < bytes; b++)
    if (holds(e, base, line_stride, plane_stride, a + b))
      return true;
  return false;
}

/* kind: bit 0 a write, bit 1 an access to local memory. */
#define WRITE 1u
#define LOCAL 2u

/* Whether an access by any work-item, anywhere in the kernel's code, is to
 * memory a copy in flight writes (its destination) or, for a write, reads
 * (its source), and the work-group's first such: then its kind | FOUND, and
 * | AT_DST for the destination; else 0. No barrier: the table changes only
 * between the barriers of issue() and the waits. */
#define FOUND 4u
#define AT_DST 8u
static LEADER uint check(local ulong *state, ulong address, ulong bytes, uint kind) {
  bool local_access = (kind & LOCAL) != 0, write = (kind & WRITE) != 0;
  for (int i = 0; i < CAPACITY; i++) {
    local const ulong *e = state + ENTRY(i);
    if (!e[GROUP])
      continue;
    bool dst_local = e[TO_LOCAL] != 0;
    bool at_dst = dst_local == local_access && touches(e, e[DST], e[DST_LINE], e[DST_PLANE], address, bytes);
    bool at_src = !at_dst && write && dst_local != local_access &&
                  touches(e, e[SRC], e[SRC_LINE], e[SRC_PLANE], address, bytes);
    if (at_dst || at_src)
      return atomic_inc((volatile local uint *)(state + REPORTS)) ? 0 : kind | FOUND | (at_dst ? AT_DST : 0);
  }
  return 0;
}

/* The work-group's first access to memory in flight is printed: `site`
 * names the instruction (lower_late.c makes the text). Printed here, not in
 * check(): PoCL 3.1 hangs a kernel whose DontInline callee calls printf, and
 * defines the ids only in code inlined into the kernel. */
void gac_late_check(local ulong *state, ulong address, ulong bytes, uint kind, constant char *site) {
  uint found = check(state, address, bytes, kind);
  if (found)
    printf("gac late: %s %s %s memory that an async copy still in flight %s: no wait has covered the copy "
           "(work-group %u,%u,%u, work-item %u,%u,%u)\n",
           site, found & WRITE ? "writes" : "reads", found & LOCAL ? "local" : "global",
           found & AT_DST ? "writes" : "reads", (uint)get_group_id(0), (uint)get_group_id(1),
           (uint)get_group_id(2), (uint)get_local_id(0), (uint)get_local_id(1), (uint)get_local_id(2));
}

/* Whether the copy just issued raced (record()), for the leader; cleared. */
static LEADER uint take_race(local ulong *state, bool lead) {
  if (!lead)
    return 0;
  uint raced = state[RACED] != 0;
  state[RACED] = 0;
  return raced;
}

/* After each copy: the work-group's first copy that read memory a copy in
 * flight writes, with no wait or copy fence between, is printed (`site`
 * names the copy). One branch, as in gac_late_check, and no barrier. */
void gac_late_copy_check(local ulong *state, constant char *site) {
  if (take_race(state, leads()))
    printf("gac late: %s reads memory that an async copy still in flight writes: no wait or copy fence orders "
           "them (work-group %u,%u,%u)\n",
           site, (uint)get_group_id(0), (uint)get_group_id(1), (uint)get_group_id(2));
}

/* The end of the kernel: everything still in flight lands. */
void gac_late_finish(local ulong *state) { land_all(state, leads()); }
