/* mandelbrot.c - the Mandelbrot set, one row per loop index: irregular work.
 *
 * Rows through the set cost up to MAX_ITER iterations a pixel, rows outside it
 * a few, so equal static shares would leave workers idle.  fj_parallel_for_each
 * with grain 1 hands rows out one at a time and lets idle workers steal runs
 * of rows.  Each worker also counts the rows and iterations it ran; the table
 * at the end shows the load balance.  The image (a PPM: open it with any image
 * viewer, or `convert` it to PNG) goes to build/mandelbrot.ppm, or to the path
 * given on the command line.
 *
 * usage: mandelbrot [--workers N] [WIDTH] [OUTPUT.ppm] */
#include <stdint.h>

#include "example_util.h"

#define MAX_ITER 1000
#define MAX_WORKERS 1024

typedef struct worker_load {
    long long rows, iterations;
    double seconds;
    char pad[64];  /* each worker writes its own row of the table: no false sharing */
} worker_load;

typedef struct image {
    int width, height;
    unsigned short *iter;  /* iterations per pixel */
    worker_load *load;     /* per worker; NULL in the serial twin */
} image;

/* Iterations until z escapes |z| > 2, at most MAX_ITER, for pixel (x, y). */
static int pixel_iterations(const image *img, int x, int y)
{
    double cr = -2.2 + 3.0 * x / img->width, ci = -1.2 + 2.4 * y / img->height;
    double zr = 0, zi = 0;
    int n = 0;
    while (n < MAX_ITER && zr * zr + zi * zi <= 4.0) {
        double t = zr * zr - zi * zi + cr;
        zi = 2 * zr * zi + ci;
        zr = t;
        n++;
    }
    return n;
}

static long long compute_row(image *img, int y)
{
    long long total = 0;
    for (int x = 0; x < img->width; x++) {
        int n = pixel_iterations(img, x, y);
        img->iter[(size_t)y * img->width + x] = (unsigned short)n;
        total += n;
    }
    return total;
}

/* The loop body: one row, and its cost charged to the worker running it. */
static void row_body(int64_t y, void *ctx)
{
    image *img = ctx;
    double t0 = example_seconds();
    long long iterations = compute_row(img, (int)y);
    int w = fj_current_worker_index();
    if (w >= 0) {
        img->load[w].rows++;
        img->load[w].iterations += iterations;
        img->load[w].seconds += example_seconds() - t0;
    }
}

static void mandelbrot_serial(image *img)
{
    for (int y = 0; y < img->height; y++)
        compute_row(img, y);
}

static int write_ppm(const image *img, const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    fprintf(f, "P6\n%d %d\n255\n", img->width, img->height);
    for (size_t k = 0; k < (size_t)img->width * img->height; k++) {
        int n = img->iter[k];
        unsigned char rgb[3] = {0, 0, 0};
        if (n < MAX_ITER) { /* outside: a smooth blue-to-gold palette by escape time */
            double t = (double)n / 64.0 - (int)(n / 64);
            rgb[0] = (unsigned char)(255 * t * t);
            rgb[1] = (unsigned char)(200 * t);
            rgb[2] = (unsigned char)(255 * (1 - t) * 0.8 + 40);
        }
        fwrite(rgb, 1, 3, f);
    }
    return fclose(f);
}

static void print_balance(const image *img, unsigned workers)
{
    long long total = 0;
    for (unsigned w = 0; w < workers; w++)
        total += img->load[w].iterations;
    printf("load balance (iterations are the work; an even split is %.1f%% each):\n", 100.0 / workers);
    printf("  worker   rows   iterations   share   busy s\n");
    for (unsigned w = 0; w < workers; w++)
        printf("  %6u %6lld %12lld %6.1f%% %8.3f\n", w, img->load[w].rows, img->load[w].iterations,
               total ? 100.0 * (double)img->load[w].iterations / (double)total : 0.0, img->load[w].seconds);
}

int main(int argc, char **argv)
{
    /* Take the output path out of argv; the rest is "[--workers N] [WIDTH]". */
    const char *path = "build/mandelbrot.ppm";
    int explicit_path = 0;
    char *rest[8];
    int nrest = 0;
    for (int i = 0; i < argc && nrest < 8; i++) {
        if (i > 0 && (strchr(argv[i], '.') || strchr(argv[i], '/')))
            path = argv[i], explicit_path = 1;
        else
            rest[nrest++] = argv[i];
    }
    example_args args = example_parse(nrest, rest, 640, 1, 16384);
    image img = {(int)args.size, (int)args.size * 4 / 5, NULL, NULL};
    image twin = img;
    img.iter = calloc((size_t)img.width * img.height, sizeof *img.iter);
    twin.iter = calloc((size_t)img.width * img.height, sizeof *twin.iter);
    img.load = calloc(MAX_WORKERS, sizeof *img.load);
    if (img.width < 1 || !img.iter || !twin.iter || !img.load) {
        fprintf(stderr, "mandelbrot: bad size or out of memory\n");
        return 1;
    }
    fj_pool *pool = example_pool(&args);
    unsigned workers = fj_pool_worker_count(pool);

    double t0 = example_seconds();
    int rc = fj_parallel_for_each(pool, 0, img.height, 1, row_body, &img);
    double t1 = example_seconds();
    mandelbrot_serial(&twin);
    double t2 = example_seconds();

    fj_pool_destroy(pool);
    printf("mandelbrot %dx%d, up to %d iterations a pixel, on %u workers\n", img.width, img.height, MAX_ITER, workers);
    print_balance(&img, workers);
    /* Run from elsewhere than the source tree (make test runs it in build/<variant>),
     * build/ may not exist: then the image goes to the current directory. */
    int written = write_ppm(&img, path) == 0;
    if (!written && !explicit_path) {
        path = "mandelbrot.ppm";
        written = write_ppm(&img, path) == 0;
    }
    if (written)
        printf("image written to %s\n", path);
    else
        fprintf(stderr, "mandelbrot: cannot write %s\n", path);
    if (rc != 0)
        fprintf(stderr, "fj_parallel_for_each: %s\n", fj_strerror(rc));
    int same = memcmp(img.iter, twin.iter, (size_t)img.width * img.height * sizeof *img.iter) == 0;
    free(img.iter);
    free(twin.iter);
    free(img.load);
    return example_verdict("mandelbrot", rc == 0 && same, t1 - t0, t2 - t1);
}
