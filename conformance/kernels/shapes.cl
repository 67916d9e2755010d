/* Copies whose shapes are compile-time constants (-D ELEM=..., -D PER_LINE=...,
 * -D LINES=..., -D SRC_LINE=...), of a typed element: constant operands and
 * vector element types. Two copies share one event; the copy back runs under
 * a branch that is uniform in the work-group, its event joining in an OpPhi. */
kernel void shapes(global const ELEM *src, global ELEM *dst, local ELEM *a, local ELEM *b, int flip) {
  size_t g = get_group_id(0) * (SRC_LINE * LINES);
  event_t e = async_work_group_copy_2D2D(a, 0, src, g, sizeof(ELEM), PER_LINE, LINES, SRC_LINE,
                                         PER_LINE, 0);
  e = async_work_group_copy_2D2D(b, 0, src, g, sizeof(ELEM), PER_LINE, LINES, SRC_LINE, PER_LINE, e);
  wait_group_events(1, &e);
  event_t back;
  if (flip)
    back = async_work_group_copy_2D2D(dst, g, b, 0, sizeof(ELEM), PER_LINE, LINES, PER_LINE,
                                      SRC_LINE, 0);
  else
    back = async_work_group_copy_2D2D(dst, g, a, 0, sizeof(ELEM), PER_LINE, LINES, PER_LINE,
                                      SRC_LINE, 0);
  wait_group_events(1, &back);
}
