/* The schedule of a pipelined loop as an SVG picture: one column per step
 * (prologue, the body's repeated step, epilogue), in each the statements
 * (coloured by stage, with the iteration they run), the commits, and the
 * waits with the groups in flight before and after them. */
#include <stdio.h>

#include "pipeline_schedule.h"

enum { COLUMN = 236, ROW = 30, TOP = 64, LEFT = 12 };

static const char *const stage_colours[] = {"#cfe8ff", "#d9f2d0", "#ffe6c7", "#f3d4f5", "#fff3b0", "#e0e0e0"};

static void step_column(FILE *out, const gac_pipe_step *step, const gac_pipe_statement *stmts, unsigned x,
                        const char *title, char kind, int index) {
  fprintf(out, "<text x=\"%u\" y=\"%d\" font-weight=\"bold\">%s</text>\n", x + 4, TOP - 10, title);
  unsigned y = TOP;
  for (unsigned a = 0; a < step->num_actions; a++, y += ROW) {
    const gac_pipe_action *act = &step->actions[a];
    if (act->kind == GAC_PIPE_RUN) {
      const gac_pipe_statement *st = &stmts[act->statement];
      char iteration[32];
      if (kind == 'p')
        snprintf(iteration, sizeof iteration, "%d", index - (int)st->stage);
      else if (kind == 'b')
        snprintf(iteration, sizeof iteration, "k-%u", st->stage);
      else
        snprintf(iteration, sizeof iteration, "n+%d", index - (int)st->stage);
      fprintf(out, "<rect x=\"%u\" y=\"%u\" width=\"%d\" height=\"%d\" rx=\"4\" fill=\"%s\" stroke=\"#555\"/>\n", x, y,
              COLUMN - 16, ROW - 6, stage_colours[st->stage % 6]);
      fprintf(out, "<text x=\"%u\" y=\"%u\">s%u (stage %u%s): iteration %s</text>\n", x + 6, y + 17, act->statement,
              st->stage, st->async ? ", async" : "", iteration);
    } else if (act->kind == GAC_PIPE_COMMIT) {
      fprintf(out, "<text x=\"%u\" y=\"%u\" fill=\"#1a5fb4\">&#8594; commit to queue %u</text>\n", x + 6, y + 17,
              act->queue);
    } else {
      fprintf(out, "<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" stroke=\"#c01c28\" stroke-width=\"2\"/>\n", x, y + 12,
              x + COLUMN - 16, y + 12);
      fprintf(out, "<text x=\"%u\" y=\"%u\" fill=\"#c01c28\">wait(%u, %u%s): %u &#8594; %u in flight</text>\n", x + 6,
              y + 8, act->queue, act->count, act->unknown ? ", unknown" : "", act->in_flight,
              act->in_flight < act->count ? act->in_flight : act->count);
    }
  }
}

static unsigned height(const gac_pipe_step *step) { return step->num_actions; }

void gac_pipe_schedule_svg(const gac_pipe_schedule *s, const gac_pipe_statement *stmts, FILE *out,
                           const char *title) {
  unsigned S = s->max_stage, columns = 2 * S + 1, rows = height(&s->body);
  for (unsigned p = 0; p < S; p++) {
    rows = height(&s->prologue[p]) > rows ? height(&s->prologue[p]) : rows;
    rows = height(&s->epilogue[p]) > rows ? height(&s->epilogue[p]) : rows;
  }
  fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" font-family=\"sans-serif\" "
          "font-size=\"12\">\n", LEFT + columns * COLUMN, TOP + rows * ROW + 30);
  fprintf(out, "<text x=\"%d\" y=\"20\" font-size=\"14\" font-weight=\"bold\">%s</text>\n", LEFT, title);
  fprintf(out, "<text x=\"%d\" y=\"38\" fill=\"#555\">prologue (steps 0..%u), body (step k = %u..n-1, repeated), "
          "epilogue (steps n..n+%u); groups in flight per queue before and after each wait</text>\n", LEFT,
          S ? S - 1 : 0, S, S ? S - 1 : 0);
  unsigned x = LEFT;
  char name[32];
  for (unsigned p = 0; p < S; p++, x += COLUMN) {
    snprintf(name, sizeof name, "prologue %u", p);
    step_column(out, &s->prologue[p], stmts, x, name, 'p', (int)p);
  }
  fprintf(out, "<rect x=\"%u\" y=\"%d\" width=\"%d\" height=\"%u\" fill=\"none\" stroke=\"#1a5fb4\" "
          "stroke-dasharray=\"4 3\"/>\n", x - 4, TOP - 28, COLUMN - 8, rows * ROW + 34);
  step_column(out, &s->body, stmts, x, "body (k = S .. n-1)", 'b', 0);
  x += COLUMN;
  for (unsigned e = 0; e < S; e++, x += COLUMN) {
    snprintf(name, sizeof name, "epilogue %u", e);
    step_column(out, &s->epilogue[e], stmts, x, name, 'e', (int)e);
  }
  fprintf(out, "</svg>\n");
}
