/* report.c - reads build/bench/results.csv (and micro.csv), prints the table
 * and writes the SVG chart.
 *
 *   report RESULTS.csv CHART.svg [MICRO.csv]
 *
 * Table, per program: each system at each worker count with its median and
 * min-max, time / serial, speedup over its own 1-worker time, and "fj adv.":
 * this system's time / fj's time at the same worker count (> 1: fj is faster);
 * "/lace": this system's time / Lace's (< 1: faster than Lace); "cpu run/idle":
 * cores' worth of CPU the process used while timed and while idle afterwards
 * (results.csv's cpu_busy and cpu_idle; Lace's idle workers spin, fj's park).
 * Chart: grouped bars, one group per program and worker count, one bar per
 * system, height = time / serial time on a log scale. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS 512
#define MAX_SYS 12

typedef struct row {
    char program[32], system[16];
    long size;
    int workers, runs, verified;
    double median, min, max;
    char cpu_busy[16], cpu_idle[16]; /* "-" where the binary does not say */
} row;

static row rows[MAX_ROWS];
static int nrows;
static const char *systems[MAX_SYS] = {"serial", "fj",       "fj++",       "libgomp", "libomp", "tbb",
                                       "java",   "fj-typed", "fj-classic", "fj++cx",  "lace"};
static const char *colors[MAX_SYS] = {"#777777", "#d62728", "#ff9896", "#1f77b4", "#17becf", "#2ca02c",
                                      "#ff7f0e", "#8c0000", "#e377c2", "#bcbd22", "#9467bd"};
static const int nsys = 11;

static const row *find(const char *program, long size, const char *system, int workers)
{
    for (int i = 0; i < nrows; i++)
        if (strcmp(rows[i].program, program) == 0 && rows[i].size == size && strcmp(rows[i].system, system) == 0 &&
            rows[i].workers == workers && rows[i].runs > 0)
            return &rows[i];
    return NULL;
}

/* Distinct (program, size) pairs and worker counts, in order of appearance. */
static int programs[MAX_ROWS], nprograms;
static int workers_list[8], nworkers;

static void index_rows(void)
{
    for (int i = 0; i < nrows; i++) {
        int seen = 0;
        for (int j = 0; j < nprograms; j++)
            if (strcmp(rows[programs[j]].program, rows[i].program) == 0 && rows[programs[j]].size == rows[i].size)
                seen = 1;
        if (!seen)
            programs[nprograms++] = i;
        seen = 0;
        for (int j = 0; j < nworkers; j++)
            if (workers_list[j] == rows[i].workers)
                seen = 1;
        if (!seen && nworkers < 8)
            workers_list[nworkers++] = rows[i].workers;
    }
    for (int i = 1; i < nworkers; i++)
        for (int j = i; j > 0 && workers_list[j - 1] > workers_list[j]; j--) {
            int t = workers_list[j];
            workers_list[j] = workers_list[j - 1];
            workers_list[j - 1] = t;
        }
}

/* fib at 1 worker against the call-for-call serial fib (fib-calls), whose
 * calls match the runtimes' one call per task, unlike gcc -O2's serial fib. */
static void print_fib_calls_ratios(long size)
{
    const row *calls = find("fib-calls", size, "serial", 1);
    if (!calls)
        return;
    printf("  1 worker / call-for-call serial fib-calls (%.4f s):", calls->median);
    for (int s = 1; s < nsys; s++) {
        const row *r = find("fib", size, systems[s], 1);
        if (r)
            printf(" %s %.2f", systems[s], r->median / calls->median);
    }
    printf("\n");
}

static void print_table(void)
{
    printf("\n%-10s %-9s %-10s %3s %10s %23s %9s %8s %8s %6s %12s %3s\n", "program", "size", "system", "w",
           "median_s", "min-max", "x serial", "speedup", "fj adv.", "/lace", "cpu run/idle", "ok");
    for (int p = 0; p < nprograms; p++) {
        const row *pr = &rows[programs[p]];
        const row *ser = find(pr->program, pr->size, "serial", 1);
        printf("%.*s\n", 124, "--------------------------------------------------------------------------------------------------------------------------------");
        for (int s = 0; s < nsys; s++)
            for (int w = 0; w < nworkers; w++) {
                const row *r = find(pr->program, pr->size, systems[s], workers_list[w]);
                if (!r)
                    continue;
                const row *one = find(pr->program, pr->size, systems[s], 1);
                const row *fj = find(pr->program, pr->size, "fj", r->workers);
                const row *lace = find(pr->program, pr->size, "lace", r->workers);
                char range[64], vs[16] = "-", sp[16] = "-", adv[16] = "-", vl[16] = "-", cpu[40];
                snprintf(range, sizeof range, "%.4f-%.4f", r->min, r->max);
                if (ser)
                    snprintf(vs, sizeof vs, "%.2f", r->median / ser->median);
                if (one && r->workers > 1)
                    snprintf(sp, sizeof sp, "%.2f", one->median / r->median);
                if (fj && strcmp(r->system, "fj") != 0 && strcmp(r->system, "serial") != 0)
                    snprintf(adv, sizeof adv, "%.2f", r->median / fj->median);
                if (lace && r != lace)
                    snprintf(vl, sizeof vl, "%.2f", r->median / lace->median);
                snprintf(cpu, sizeof cpu, "%s/%s", r->cpu_busy, r->cpu_idle);
                printf("%-10s %-9ld %-10s %3d %10.4f %23s %9s %8s %8s %6s %12s %3s\n", r->program, r->size, r->system,
                       r->workers, r->median, range, vs, sp, adv, vl, cpu, r->verified ? "yes" : "NO");
            }
        /* fib: the cost of one fork+join over serial, per system at 1 worker. */
        if (strcmp(pr->program, "fib") == 0 && ser) {
            double n = 0, a = 0, b = 1; /* fib(size+1) - 1 internal nodes fork once each */
            for (long i = 0; i < pr->size + 1; i++) {
                double c = a + b;
                a = b;
                b = c;
            }
            n = a - 1;
            printf("  fork+join over serial at 1 worker (ns per fork, %.3g forks):", n);
            for (int s = 1; s < nsys; s++) {
                const row *r = find(pr->program, pr->size, systems[s], 1);
                if (r)
                    printf(" %s %.1f", systems[s], (r->median - ser->median) * 1e9 / n);
            }
            printf("\n");
            print_fib_calls_ratios(pr->size);
        }
    }
}

static void print_micro(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[256];
    printf("\nfj microbenchmarks (median, p10-p90):\n");
    while (fgets(line, sizeof line, f)) {
        char name[32], unit[32];
        int w, n;
        double med, p10, p90;
        if (sscanf(line, "MICRO,%31[^,],%d,%lf,%lf,%lf,%d,%31s", name, &w, &med, &p10, &p90, &n, unit) == 7)
            printf("  %-15s workers %d  %10.1f %s   (%.1f-%.1f, %d samples)\n", name, w, med, unit, p10, p90, n);
        else if (line[0] == '#')
            printf("  %s", line + 2);
    }
    fclose(f);
}

/* A serial-only reference (fib-calls): printed under its program in the
 * table, but not a program of the chart, where it would be a group of one bar. */
static int is_reference(const char *program) { return strcmp(program, "fib-calls") == 0; }

static void write_svg(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return;
    }
    int charted = 0;
    for (int p = 0; p < nprograms; p++)
        charted += !is_reference(rows[programs[p]].program);
    int groups = charted * nworkers;
    double bar = 12, gap = 18, left = 70, top = 60, height = 360;
    double width = left + groups * (nsys * bar + gap) + 160;
    /* log10 scale from 0.1x to the largest ratio */
    double hi = 1;
    for (int i = 0; i < nrows; i++) {
        const row *ser = find(rows[i].program, rows[i].size, "serial", 1);
        if (ser && rows[i].runs > 0 && rows[i].median / ser->median > hi)
            hi = rows[i].median / ser->median;
    }
    double lo_exp = -1, hi_exp = ceil(log10(hi));
    if (hi_exp < 1)
        hi_exp = 1;
#define Y(v) (top + height - (log10(v) - lo_exp) / (hi_exp - lo_exp) * height)
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" font-size=\"11\">\n",
            width, top + height + 90);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"%.0f\" y=\"22\" font-size=\"16\" font-weight=\"bold\">fj vs peers: time normalised to serial C (log scale, lower is better)</text>\n", left);
    fprintf(f, "<text x=\"%.0f\" y=\"40\">median of runs; each group is one program at one worker count; the dashed line is serial (1.0)</text>\n", left);
    for (double e = lo_exp; e <= hi_exp; e += 1) {
        double v = pow(10, e), y = Y(v);
        fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", left, width - 160, y, y);
        fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%gx</text>\n", left - 6, y + 4, v);
    }
    fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" stroke-dasharray=\"4 3\"/>\n", left,
            width - 160, Y(1.0), Y(1.0));
    fprintf(f, "<text transform=\"translate(18 %.0f) rotate(-90)\" text-anchor=\"middle\">time / serial time</text>\n",
            top + height / 2);
    double x = left + gap / 2;
    for (int p = 0; p < nprograms; p++)
        for (int w = 0; w < nworkers && !is_reference(rows[programs[p]].program); w++) {
            const row *pr = &rows[programs[p]];
            const row *ser = find(pr->program, pr->size, "serial", 1);
            for (int s = 0; s < nsys; s++) {
                const row *r = find(pr->program, pr->size, systems[s], workers_list[w]);
                if (r && ser) {
                    double v = r->median / ser->median, y = Y(v < 0.1 ? 0.1 : v), base = top + height;
                    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s %ld %s w=%d: %.4f s, %.2fx serial</title></rect>\n",
                            x + s * bar, y, bar - 1, base - y, colors[s], r->program, r->size, r->system, r->workers,
                            r->median, v);
                }
            }
            double cx = x + nsys * bar / 2;
            fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>\n", cx, top + height + 16, pr->program);
            fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\" fill=\"#555\">%ld, w=%d</text>\n", cx,
                    top + height + 30, pr->size, workers_list[w]);
            x += nsys * bar + gap;
        }
    for (int s = 0; s < nsys; s++) {
        double ly = top + 10 + s * 18;
        fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", width - 140, ly, colors[s]);
        fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">%s</text>\n", width - 122, ly + 10, systems[s]);
    }
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" fill=\"#555\">w = workers; serial runs once (w=1)</text>\n", left,
            top + height + 60);
    fprintf(f, "</svg>\n");
    fclose(f);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s RESULTS.csv CHART.svg [MICRO.csv]\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    char line[512];
    while (fgets(line, sizeof line, f) && nrows < MAX_ROWS) {
        row *r = &rows[nrows];
        strcpy(r->cpu_busy, "-");
        strcpy(r->cpu_idle, "-");
        if (sscanf(line, "%31[^,],%ld,%15[^,],%d,%lf,%lf,%lf,%d,%d,%15[^,],%15[^,\n]", r->program, &r->size, r->system,
                   &r->workers, &r->median, &r->min, &r->max, &r->runs, &r->verified, r->cpu_busy, r->cpu_idle) >= 9)
            nrows++;
    }
    fclose(f);
    index_rows();
    print_table();
    if (argc > 3)
        print_micro(argv[3]);
    write_svg(argv[2]);
    int bad = 0;
    for (int i = 0; i < nrows; i++)
        bad += !rows[i].verified;
    printf("\n%d results, %d not verified; chart: %s\n", nrows, bad, argv[2]);
    return bad != 0;
}
