/* fj_timeline - draws a trace that fj wrote (FJ_TRACE=out.json) as one
 * self-contained SVG picture: a lane per worker, tasks as bars (stacked by
 * nesting depth, coloured by depth or by how the task was obtained), steals
 * and leapfrogs as arrows from victim to thief, time spent idle (searching),
 * parked and waiting in joins shaded, time the OS took a worker off its CPU
 * (descheduled: from the per-worker CPU-time samples of the trace) hatched
 * over whatever the worker was doing, a legend and a summary line.
 *
 *   fj_timeline [--color depth|kind] [--width PIXELS] [--title TEXT]
 *               [-o out.svg] trace.json
 *
 * No dependencies: the JSON reader is tools/trace_json.h.  Exit status 0, 1 if
 * the trace cannot be read, 2 for a usage error. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_json.h"

#define MAX_ROWS 24        /* deeper tasks share the last row */
#define MAX_ARROWS 4000    /* beyond this, arrows are counted but not drawn */
#define LABEL_WIDTH 150.0
#define MARGIN 16.0

enum slice_kind { KIND_TASK, KIND_JOIN, KIND_PARK };

/* How a task was obtained: the suffix of its slice name "task:HOW". */
static const char *const how_names[] = {"inline", "local", "stolen", "leapfrog", "injected", "serial"};
static const char *const how_colors[] = {"#4e79a7", "#59a14f", "#e15759", "#f28e2b", "#b07aa1", "#76b7b2"};
static const char *const how_meaning[] = {"run by its joiner (taken back)", "popped from own deque", "stolen",
                                          "leapfrog (joiner stole back)", "taken from the injector",
                                          "serial elision"};
#define HOW_COUNT (sizeof how_names / sizeof how_names[0])
static const char *const depth_colors[] = {"#3b528b", "#2c728e", "#21918c", "#28ae80", "#5ec962",
                                           "#addc30", "#fde725", "#f89540", "#e16462", "#b12a90"};
#define DEPTH_COLORS (sizeof depth_colors / sizeof depth_colors[0])

typedef struct slice {
    int lane;
    unsigned char kind, how, row;
    double t0, t1;
} slice;

typedef struct open_slice {
    unsigned char kind, how, row;
    double t0;
} open_slice;

typedef struct lane {
    unsigned pid, tid;
    char name[64];
    open_slice *stack;
    size_t depth, room;
    unsigned task_depth, rows;
    double last_ts, busy, waiting, parked, off_cpu;
    bool seen_time;
    double y, height;  /* layout */
} lane;

/* A worker's on-CPU share from `t0` to its next sample (trace.c, point 6). */
typedef struct cpu_sample {
    int lane;
    double t0, percent;
} cpu_sample;

typedef struct flow {
    double id;
    int lane_s, lane_f;
    double ts_s, ts_f;
    bool leapfrog;
} flow;

typedef struct timeline {
    lane *lanes;
    size_t lane_count;
    slice *slices;
    size_t slice_count, slice_room;
    flow *flows;
    size_t flow_count, flow_room;
    cpu_sample *samples;
    size_t sample_count, sample_room;
    double t_min, t_max;
    unsigned long tasks, steals, leapfrogs, helps, dropped;
    bool by_kind;
} timeline;

static void *grow(void *array, size_t *room, size_t count, size_t size)
{
    if (count < *room)
        return array;
    size_t more = *room ? 2 * *room : 64;
    void *bigger = realloc(array, more * size);
    if (!bigger) {
        fprintf(stderr, "fj_timeline: out of memory\n");
        exit(1);
    }
    *room = more;
    return bigger;
}

static int lane_of(timeline *tl, unsigned pid, unsigned tid)
{
    for (size_t i = 0; i < tl->lane_count; i++)
        if (tl->lanes[i].pid == pid && tl->lanes[i].tid == tid)
            return (int)i;
    tl->lanes = realloc(tl->lanes, (tl->lane_count + 1) * sizeof *tl->lanes);
    if (!tl->lanes) {
        fprintf(stderr, "fj_timeline: out of memory\n");
        exit(1);
    }
    lane *l = &tl->lanes[tl->lane_count];
    memset(l, 0, sizeof *l);
    l->pid = pid;
    l->tid = tid;
    snprintf(l->name, sizeof l->name, "worker %u", tid);
    return (int)tl->lane_count++;
}

static unsigned char how_of(const char *name)
{
    const char *colon = strchr(name, ':');
    for (unsigned i = 0; colon && i < HOW_COUNT; i++)
        if (strcmp(colon + 1, how_names[i]) == 0)
            return (unsigned char)i;
    return 1;
}

/* Time since the lane's previous begin/end goes to its innermost open slice. */
static void lane_account(lane *l, double ts)
{
    if (l->seen_time && l->depth > 0) {
        double dt = ts - l->last_ts;
        unsigned char kind = l->stack[l->depth - 1].kind;
        if (kind == KIND_TASK)
            l->busy += dt;
        else if (kind == KIND_JOIN)
            l->waiting += dt;
        else
            l->parked += dt;
    }
    l->last_ts = ts;
    l->seen_time = true;
}

static void on_begin(timeline *tl, lane *l, const json_value *e, double ts)
{
    const char *cat = json_text(json_get(e, "cat"));
    open_slice s = {KIND_TASK, 0, 0, ts};
    if (strcmp(cat, "task") == 0) {
        s.how = how_of(json_text(json_get(e, "name")));
        tl->tasks++;
        if (json_num(json_get(json_get(e, "args"), "help"), 0) != 0)
            tl->helps++;
    } else {
        s.kind = strcmp(cat, "join") == 0 ? KIND_JOIN : KIND_PARK;
    }
    s.row = (unsigned char)(l->task_depth < MAX_ROWS ? l->task_depth : MAX_ROWS - 1);
    if (s.kind == KIND_TASK) {
        l->task_depth++;
        if (s.row + 1u > l->rows)
            l->rows = s.row + 1u;
    }
    l->stack = grow(l->stack, &l->room, l->depth, sizeof *l->stack);
    l->stack[l->depth++] = s;
}

static void on_end(timeline *tl, int lane_index, lane *l, double ts)
{
    if (l->depth == 0)
        return;
    open_slice s = l->stack[--l->depth];
    if (s.kind == KIND_TASK)
        l->task_depth--;
    tl->slices = grow(tl->slices, &tl->slice_room, tl->slice_count, sizeof *tl->slices);
    tl->slices[tl->slice_count++] = (slice){lane_index, s.kind, s.how, s.row, s.t0, ts};
}

static void on_flow(timeline *tl, const json_value *e, int lane_index, double ts, bool is_start)
{
    double id = json_num(json_get(e, "id"), -1);
    bool leapfrog = strcmp(json_text(json_get(e, "cat")), "leapfrog") == 0;
    for (size_t i = tl->flow_count; i-- > 0 && i + 64 >= tl->flow_count;)
        if (tl->flows[i].id == id) {  /* s and f of one steal are written together */
            if (is_start) {
                tl->flows[i].lane_s = lane_index;
                tl->flows[i].ts_s = ts;
            } else {
                tl->flows[i].lane_f = lane_index;
                tl->flows[i].ts_f = ts;
            }
            return;
        }
    tl->flows = grow(tl->flows, &tl->flow_room, tl->flow_count, sizeof *tl->flows);
    flow f = {id, -1, -1, ts, ts, leapfrog};
    if (is_start)
        f.lane_s = lane_index;
    else
        f.lane_f = lane_index;
    tl->flows[tl->flow_count++] = f;
}

static void on_metadata(timeline *tl, const json_value *e, unsigned pid, unsigned tid)
{
    if (strcmp(json_text(json_get(e, "name")), "thread_name") != 0)
        return;
    int index = lane_of(tl, pid, tid);  /* may move tl->lanes */
    lane *l = &tl->lanes[index];
    snprintf(l->name, sizeof l->name, "%s", json_text(json_get(json_get(e, "args"), "name")));
}

static void read_event(timeline *tl, const json_value *e)
{
    const char *ph = json_text(json_get(e, "ph"));
    unsigned pid = (unsigned)json_num(json_get(e, "pid"), 0), tid = (unsigned)json_num(json_get(e, "tid"), 0);
    if (ph[0] == 'M') {
        on_metadata(tl, e, pid, tid);
        return;
    }
    double ts = json_num(json_get(e, "ts"), 0);
    if (ts < tl->t_min)
        tl->t_min = ts;
    if (ts > tl->t_max)
        tl->t_max = ts;
    int index = lane_of(tl, pid, tid);
    lane *l = &tl->lanes[index];
    const char *cat = json_text(json_get(e, "cat"));
    switch (ph[0]) {
    case 'B':
        lane_account(l, ts);
        on_begin(tl, l, e, ts);
        break;
    case 'E':
        lane_account(l, ts);
        on_end(tl, index, l, ts);
        break;
    case 'i':
        tl->steals += strcmp(cat, "steal") == 0;
        tl->leapfrogs += strcmp(cat, "leapfrog") == 0;
        if (strcmp(cat, "trace") == 0)
            tl->dropped += (unsigned long)json_num(json_get(json_get(e, "args"), "dropped"), 0);
        break;
    case 's':
    case 'f':
        on_flow(tl, e, index, ts, ph[0] == 's');
        break;
    case 'C':
        if (strcmp(cat, "cpu") == 0) {
            tl->samples = grow(tl->samples, &tl->sample_room, tl->sample_count, sizeof *tl->samples);
            tl->samples[tl->sample_count++] =
                (cpu_sample){index, ts, json_num(json_get(json_get(e, "args"), "percent"), 100)};
        }
        break;
    }
}

static int sample_order(const void *a, const void *b)
{
    const cpu_sample *x = a, *y = b;
    if (x->lane != y->lane)
        return x->lane < y->lane ? -1 : 1;
    return x->t0 < y->t0 ? -1 : x->t0 > y->t0;
}

/* The end of sample i's interval: the lane's next sample, or the trace's end. */
static double sample_end(const timeline *tl, size_t i)
{
    if (i + 1 < tl->sample_count && tl->samples[i + 1].lane == tl->samples[i].lane)
        return tl->samples[i + 1].t0;
    return tl->t_max;
}

/* Sorts the samples and adds each lane's descheduled time. */
static void account_off_cpu(timeline *tl)
{
    if (tl->sample_count > 1)  /* qsort must not be given NULL, even for 0 items */
        qsort(tl->samples, tl->sample_count, sizeof *tl->samples, sample_order);
    for (size_t i = 0; i < tl->sample_count; i++) {
        const cpu_sample *s = &tl->samples[i];
        tl->lanes[s->lane].off_cpu += (1 - s->percent / 100) * (sample_end(tl, i) - s->t0);
    }
}


static int slice_order(const void *a, const void *b)
{
    const slice *x = a, *y = b;
    if (x->lane != y->lane)
        return x->lane - y->lane;
    if (x->kind != y->kind)  /* parked first, then join waits, then tasks on top */
        return (int)y->kind - (int)x->kind;
    if (x->row != y->row)
        return (int)x->row - (int)y->row;
    return x->t0 < y->t0 ? -1 : x->t0 > y->t0;
}

static int lane_order(const void *a, const void *b)
{
    const lane *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* ---- drawing ---- */

typedef struct canvas {
    FILE *out;
    double width, plot_x, plot_w, row_h;
    double t_min, t_span;
} canvas;

static double x_of(const canvas *c, double ts) { return c->plot_x + (ts - c->t_min) / c->t_span * c->plot_w; }

/* Descheduled time hatched over the lane, darker the less the worker ran. */
static void draw_off_cpu(const timeline *tl, const canvas *c)
{
    for (size_t i = 0; i < tl->sample_count; i++) {
        const cpu_sample *s = &tl->samples[i];
        if (s->percent >= 95)
            continue;
        const lane *l = &tl->lanes[s->lane];
        double x0 = x_of(c, s->t0), x1 = x_of(c, sample_end(tl, i));
        if (x1 < x0 + 0.6)
            x1 = x0 + 0.6;
        fprintf(c->out,
                "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"url(#descheduled)\" "
                "fill-opacity=\"%.2f\"/>\n",
                x0, l->y, x1 - x0, l->height, 0.25 + 0.75 * (1 - s->percent / 100));
    }
}

static const char *slice_color(const timeline *tl, const slice *s)
{
    if (s->kind == KIND_PARK)
        return "url(#parked)";
    if (s->kind == KIND_JOIN)
        return "#f6c9c4";
    return tl->by_kind ? how_colors[s->how] : depth_colors[s->row < DEPTH_COLORS ? s->row : DEPTH_COLORS - 1];
}

static void slice_box(const canvas *c, const lane *l, const slice *s, double *y, double *h)
{
    if (s->kind == KIND_PARK) {
        *y = l->y;
        *h = l->height;
    } else {
        *y = l->y + 2 + s->row * c->row_h;
        *h = c->row_h - (c->row_h >= 4 ? 1 : 0);
    }
}

/* Bars narrower than a pixel merge with their neighbour of the same colour
 * and row, so a million tiny tasks make a picture, not a million rects. */
static void draw_slices(const timeline *tl, const canvas *c)
{
    double px0 = 0, px1 = -1, py = 0, ph = 0;
    const char *pcolor = NULL;
    for (size_t i = 0; i <= tl->slice_count; i++) {
        const slice *s = i < tl->slice_count ? &tl->slices[i] : NULL;
        double x0 = 0, x1 = 0, y = 0, h = 0;
        const char *color = NULL;
        if (s) {
            slice_box(c, &tl->lanes[s->lane], s, &y, &h);
            x0 = x_of(c, s->t0);
            x1 = x_of(c, s->t1);
            if (x1 < x0 + 0.4)
                x1 = x0 + 0.4;
            color = slice_color(tl, s);
            if (pcolor && color == pcolor && y == py && x0 <= px1 + 0.5) {
                if (x1 > px1)
                    px1 = x1;
                continue;
            }
        }
        if (pcolor)
            fprintf(c->out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>\n", px0, py,
                    px1 - px0, ph, pcolor);
        px0 = x0, px1 = x1, py = y, ph = h, pcolor = color;
    }
}

static void draw_arrows(const timeline *tl, const canvas *c)
{
    size_t drawn = 0;
    for (size_t i = 0; i < tl->flow_count && drawn < MAX_ARROWS; i++) {
        const flow *f = &tl->flows[i];
        if (f->lane_s < 0 || f->lane_f < 0 || f->lane_s == f->lane_f)
            continue;
        const lane *from = &tl->lanes[f->lane_s], *to = &tl->lanes[f->lane_f];
        double y0 = from->y + from->height / 2, y1 = to->y + to->height / 2;
        y1 += y1 > y0 ? -to->height / 2 + 2 : to->height / 2 - 2;  /* the tip touches the thief's lane */
        fprintf(c->out,
                "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"1.2\" "
                "marker-end=\"url(#%s)\"/>\n",
                x_of(c, f->ts_s), y0, x_of(c, f->ts_f), y1, f->leapfrog ? "#c55a00" : "#b00020",
                f->leapfrog ? "tip-leapfrog" : "tip-steal");
        drawn++;
    }
}

/* Tick spacing of 1, 2 or 5 times a power of ten, about `goal` ticks. */
static double nice_step(double span, int goal)
{
    double raw = span / goal, power = pow(10, floor(log10(raw)));
    double unit = raw / power;
    return power * (unit < 1.5 ? 1 : unit < 3.5 ? 2 : unit < 7.5 ? 5 : 10);
}

static void draw_axis(const canvas *c, double y)
{
    double step = nice_step(c->t_span, 8);
    bool in_ms = c->t_span >= 5000;
    fprintf(c->out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n", c->plot_x, y,
            c->plot_x + c->plot_w, y);
    for (double t = 0; t <= c->t_span * 1.0001; t += step) {
        double x = x_of(c, c->t_min + t);
        fprintf(c->out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n", x, y, x, y + 4);
        fprintf(c->out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g %s</text>\n", x, y + 16,
                in_ms ? t / 1000 : t, in_ms ? "ms" : "\xc2\xb5s");
    }
}

static double legend_item(FILE *out, double x, double y, const char *fill, const char *label)
{
    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\" stroke=\"#888\" stroke-width=\"0.5\"/>\n",
            x, y - 9, fill);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", x + 18, y, label);
    return x + 26 + 6.6 * (double)strlen(label);
}

static double draw_legend(const timeline *tl, const canvas *c, double y)
{
    double x = c->plot_x, right = c->width - MARGIN;
    if (tl->by_kind) {
        for (unsigned i = 0; i < HOW_COUNT; i++) {
            char label[80];
            snprintf(label, sizeof label, "task %s", how_meaning[i]);
            if (x + 26 + 6.6 * (double)strlen(label) > right)
                x = c->plot_x, y += 16;
            x = legend_item(c->out, x, y, how_colors[i], label);
        }
    } else {
        fprintf(c->out, "<text x=\"%.1f\" y=\"%.1f\">task nesting depth:</text>\n", x, y);
        x += 130;
        for (unsigned d = 0; d < DEPTH_COLORS; d++) {
            char label[16];
            snprintf(label, sizeof label, d + 1 == DEPTH_COLORS ? "%u+" : "%u", d);
            x = legend_item(c->out, x, y, depth_colors[d], label);
        }
    }
    x = c->plot_x, y += 18;
    x = legend_item(c->out, x, y, "#f1f1f1", "idle (searching for work)");
    x = legend_item(c->out, x, y, "url(#parked)", "parked (asleep)");
    x = legend_item(c->out, x, y, "#f6c9c4", "waiting in a join (tasks on it: helping)");
    x = c->plot_x, y += 18;
    x = legend_item(c->out, x, y, "url(#descheduled)", "descheduled: the OS ran something else (wall minus CPU time)");
    x = c->plot_x, y += 18;
    fprintf(c->out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#b00020\" marker-end=\"url(#tip-steal)\"/>\n",
            x, y - 4, x + 22, y - 4);
    fprintf(c->out, "<text x=\"%.1f\" y=\"%.1f\">steal (victim to thief)</text>\n", x + 28, y);
    x += 190;
    fprintf(c->out,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c55a00\" marker-end=\"url(#tip-leapfrog)\"/>\n",
            x, y - 4, x + 22, y - 4);
    fprintf(c->out, "<text x=\"%.1f\" y=\"%.1f\">leapfrog</text>\n", x + 28, y);
    return y;
}

static void draw_summary(const timeline *tl, const canvas *c, double y)
{
    double busy = 0, off = 0;
    for (size_t i = 0; i < tl->lane_count; i++) {
        busy += tl->lanes[i].busy;
        off += tl->lanes[i].off_cpu;
    }
    double util = tl->lane_count ? 100 * busy / (c->t_span * (double)tl->lane_count) : 0;
    double off_share = tl->lane_count ? 100 * off / (c->t_span * (double)tl->lane_count) : 0;
    fprintf(c->out,
            "<text x=\"%.1f\" y=\"%.1f\" font-weight=\"bold\">%zu workers, %.0f%% busy on average, %.0f%% descheduled; "
            "%lu tasks, %lu steals, %lu leapfrogs, %lu helps; %.3f ms traced%s</text>\n",
            c->plot_x, y, tl->lane_count, util, off_share, tl->tasks, tl->steals, tl->leapfrogs, tl->helps, c->t_span / 1000,
            tl->dropped ? " (TRACE BUFFER FULL: events were dropped)" : "");
}

static void draw_lanes(const timeline *tl, const canvas *c)
{
    for (size_t i = 0; i < tl->lane_count; i++) {
        const lane *l = &tl->lanes[i];
        double total = c->t_span > 0 ? c->t_span : 1;
        fprintf(c->out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f1f1f1\"/>\n", c->plot_x,
                l->y, c->plot_w, l->height);
        fprintf(c->out, "<text x=\"%.1f\" y=\"%.1f\" font-weight=\"bold\">%s</text>\n", MARGIN, l->y + 13, l->name);
        fprintf(c->out, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#333\">busy %.0f%%, wait %.0f%%</text>\n", MARGIN, l->y + 27,
                100 * l->busy / total, 100 * l->waiting / total);
        if (l->height >= 40)
            fprintf(c->out, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#333\">parked %.0f%%, off CPU %.0f%%</text>\n",
                    MARGIN, l->y + 41, 100 * l->parked / total, 100 * l->off_cpu / total);
    }
}

static void draw(timeline *tl, FILE *out, double width, const char *title)
{
    canvas c = {out, width, LABEL_WIDTH, width - LABEL_WIDTH - MARGIN, 0, tl->t_min, tl->t_max - tl->t_min};
    if (c.t_span <= 0)
        c.t_span = 1;
    unsigned deepest = 1;
    for (size_t i = 0; i < tl->lane_count; i++)
        deepest = tl->lanes[i].rows > deepest ? tl->lanes[i].rows : deepest;
    c.row_h = 120.0 / deepest > 14 ? 14 : 120.0 / deepest < 3 ? 3 : 120.0 / deepest;
    double y = 44;
    for (size_t i = 0; i < tl->lane_count; i++) {
        tl->lanes[i].y = y;
        tl->lanes[i].height = deepest * c.row_h + 4 < 44 ? 44 : deepest * c.row_h + 4;
        y += tl->lanes[i].height + 8;
    }
    double height = y + 136;
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            "font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"11\">\n",
            width, height, width, height);
    fprintf(out, "<defs>\n<pattern id=\"parked\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
                 "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#c8c8c8\"/>"
                 "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#9a9a9a\" stroke-width=\"2\"/></pattern>\n");
    fprintf(out, "<pattern id=\"descheduled\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\" "
                 "patternTransform=\"rotate(-45)\"><rect width=\"5\" height=\"5\" fill=\"#000000\" fill-opacity=\"0.15\"/>"
                 "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"5\" stroke=\"#000000\" stroke-width=\"2\"/></pattern>\n");
    fprintf(out, "<marker id=\"tip-steal\" markerWidth=\"8\" markerHeight=\"8\" refX=\"7\" refY=\"4\" orient=\"auto\">"
                 "<path d=\"M0,0 L8,4 L0,8 z\" fill=\"#b00020\"/></marker>\n");
    fprintf(out, "<marker id=\"tip-leapfrog\" markerWidth=\"8\" markerHeight=\"8\" refX=\"7\" refY=\"4\" orient=\"auto\">"
                 "<path d=\"M0,0 L8,4 L0,8 z\" fill=\"#c55a00\"/></marker>\n</defs>\n");
    fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(out, "<text x=\"%.1f\" y=\"24\" font-size=\"15\" font-weight=\"bold\">", MARGIN);
    for (const char *p = title; *p; p++)  /* escape XML */
        fputs(*p == '<' ? "&lt;" : *p == '&' ? "&amp;" : *p == '>' ? "&gt;" : (char[2]){*p, 0}, out);
    fputs("</text>\n", out);
    draw_lanes(tl, &c);
    draw_slices(tl, &c);
    draw_off_cpu(tl, &c);
    draw_arrows(tl, &c);
    draw_axis(&c, y - 2);
    double legend_y = draw_legend(tl, &c, y + 34);
    draw_summary(tl, &c, legend_y + 22);
    fputs("</svg>\n", out);
}

static int usage(void)
{
    fprintf(stderr, "usage: fj_timeline [--color depth|kind] [--width PIXELS] [--title TEXT] [-o out.svg] trace.json\n");
    return 2;
}

/* A usage error that names the option and the value given: exit status 2. */
static int refuse(const char *option, const char *value, const char *expected)
{
    fprintf(stderr, "fj_timeline: %s %s: expected %s\n", option, value, expected);
    return usage();
}

/* The widest picture drawn: a bound, so that a typo cannot ask for gigabytes. */
#define WIDTH_MAX 100000

int main(int argc, char **argv)
{
    const char *input = NULL, *output = NULL, *title = NULL;
    double width = 1200;
    bool by_kind = false;
    for (int i = 1; i < argc; i++) {
        const char *option = argv[i];
        bool takes_value = strcmp(option, "--color") == 0 || strcmp(option, "--width") == 0 ||
                           strcmp(option, "--title") == 0 || strcmp(option, "-o") == 0;
        if (takes_value && i + 1 == argc) {
            fprintf(stderr, "fj_timeline: %s needs a value\n", option);
            return usage();
        }
        if (strcmp(option, "--color") == 0) {
            const char *how = argv[++i];
            if (strcmp(how, "depth") != 0 && strcmp(how, "kind") != 0)
                return refuse(option, how, "depth or kind");
            by_kind = strcmp(how, "kind") == 0;
        } else if (strcmp(option, "--width") == 0) {
            char *end;
            width = strtod(argv[++i], &end);
            if (end == argv[i] || *end || !(width >= 400 && width <= WIDTH_MAX))
                return refuse(option, argv[i], "a number of pixels from 400 to 100000");
        } else if (strcmp(option, "--title") == 0) {
            title = argv[++i];
        } else if (strcmp(option, "-o") == 0) {
            output = argv[++i];
        } else if (option[0] == '-' && option[1] != '\0') {
            fprintf(stderr, "fj_timeline: unknown option %s\n", option);
            return usage();
        } else if (input) {
            fprintf(stderr, "fj_timeline: one trace at a time (given %s and %s)\n", input, option);
            return usage();
        } else {
            input = option;
        }
    }
    if (!input) {
        fprintf(stderr, "fj_timeline: no trace file given\n");
        return usage();
    }
    size_t length;
    char *text = json_read_file(input, &length);
    if (!text) {
        fprintf(stderr, "fj_timeline: cannot read %s: %s\n", input, strerror(errno));
        return 1;
    }
    char error[128];
    json_value *root = json_parse(text, length, error, sizeof error);
    free(text);
    const json_value *events = json_get(root, "traceEvents");
    if (!root || !events || events->type != JSON_ARRAY) {
        fprintf(stderr, "fj_timeline: %s: %s\n", input, root ? "no traceEvents array" : error);
        json_free(root);
        return 1;
    }
    timeline tl = {.t_min = 1e300, .t_max = -1e300, .by_kind = by_kind};
    for (size_t i = 0; i < events->count; i++)
        read_event(&tl, &events->items[i]);
    json_free(root);
    for (size_t i = 0; i < tl.lane_count; i++)  /* slices still open end with the trace */
        while (tl.lanes[i].depth > 0) {
            lane_account(&tl.lanes[i], tl.t_max);
            on_end(&tl, (int)i, &tl.lanes[i], tl.t_max);
        }
    if (tl.t_min > tl.t_max)
        tl.t_min = tl.t_max = 0;
    /* Lanes in pool, worker order; slices refer to lanes by index, so remap. */
    size_t *rank = calloc(tl.lane_count ? tl.lane_count : 1, sizeof *rank);
    lane *sorted = malloc((tl.lane_count ? tl.lane_count : 1) * sizeof *sorted);
    if (!rank || !sorted)
        return 1;
    memcpy(sorted, tl.lanes, tl.lane_count * sizeof *sorted);
    qsort(sorted, tl.lane_count, sizeof *sorted, lane_order);
    for (size_t i = 0; i < tl.lane_count; i++)
        for (size_t j = 0; j < tl.lane_count; j++)
            if (sorted[j].pid == tl.lanes[i].pid && sorted[j].tid == tl.lanes[i].tid)
                rank[i] = j;
    for (size_t i = 0; i < tl.slice_count; i++)
        tl.slices[i].lane = (int)rank[tl.slices[i].lane];
    for (size_t i = 0; i < tl.sample_count; i++)
        tl.samples[i].lane = (int)rank[tl.samples[i].lane];
    for (size_t i = 0; i < tl.flow_count; i++) {
        if (tl.flows[i].lane_s >= 0)
            tl.flows[i].lane_s = (int)rank[tl.flows[i].lane_s];
        if (tl.flows[i].lane_f >= 0)
            tl.flows[i].lane_f = (int)rank[tl.flows[i].lane_f];
    }
    free(tl.lanes);
    tl.lanes = sorted;
    if (tl.slice_count > 1)  /* qsort must not be given NULL, even for 0 items */
        qsort(tl.slices, tl.slice_count, sizeof *tl.slices, slice_order);
    account_off_cpu(&tl);

    FILE *out = output ? fopen(output, "w") : stdout;
    if (!out) {
        fprintf(stderr, "fj_timeline: cannot write %s: %s\n", output, strerror(errno));
        return 1;
    }
    char default_title[256];
    snprintf(default_title, sizeof default_title, "fj timeline: %s", input);
    draw(&tl, out, width, title ? title : default_title);
    int failed = ferror(out);
    if (output && fclose(out) != 0)
        failed = 1;
    for (size_t i = 0; i < tl.lane_count; i++)
        free(tl.lanes[i].stack);
    free(tl.lanes);
    free(tl.slices);
    free(tl.flows);
    free(tl.samples);
    free(rank);
    return failed ? 1 : 0;
}
