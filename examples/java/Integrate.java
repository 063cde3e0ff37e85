/*
 * Integrate - jsr166's ForkJoin benchmark (adaptive Gaussian quadrature of
 * (x*x + 1)*x from 0 to 1536), written from the jsr166 program for timing
 * against integrate.c.  Usage: java Integrate procs policy reps
 * (policy -1 serial, 0 dynamic, 1 fork).  Runs 3 untimed warm-up reps, then
 * reports the best of `reps` in the same line format as the C port.
 */
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

public final class Integrate {
    static final double errorTolerance = 1.0e-11;
    static final int SERIAL = -1, DYNAMIC = 0, FORK = 1;
    static final double start = 0.0, end = 1536.0;

    static double computeFunction(double x) { return (x * x + 1.0) * x; }

    public static void main(String[] args) throws Exception {
        int procs = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        int policy = args.length > 1 ? Integer.parseInt(args[1]) : DYNAMIC;
        int reps = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        ForkJoinPool pool = procs == 0 ? new ForkJoinPool() : new ForkJoinPool(procs);
        double a = 0, best = Double.MAX_VALUE;
        for (int i = 0; i < 3; i++) a = test(pool, policy);          // JIT warm-up
        for (int i = 0; i < reps; i++) {
            long t0 = System.nanoTime();
            a = test(pool, policy);
            best = Math.min(best, (System.nanoTime() - t0) * 1e-9);
        }
        double exact = end * end * end * end / 4 + end * end / 2;
        boolean ok = Math.abs(a - exact) <= 1e-9 * exact;
        System.out.printf("Integrate: Integral from %5.1f to %5.1f is %10.3f: %s (best of %d: %.4f s, %d workers)%n",
                          start, end, a, ok ? "correct" : "WRONG", reps, best, pool.getParallelism());
        pool.shutdown();
    }

    static double test(ForkJoinPool pool, int policy) {
        if (policy == SERIAL) return SQuad.computeArea(pool, start, end);
        if (policy == FORK) return FQuad.computeArea(pool, start, end);
        return DQuad.computeArea(pool, start, end);
    }

    static final class SQuad extends RecursiveAction {
        static double computeArea(ForkJoinPool pool, double l, double r) {
            SQuad q = new SQuad(l, r, 0); pool.invoke(q); return q.area;
        }
        final double left, right; double area;
        SQuad(double l, double r, double a) { left = l; right = r; area = a; }
        public final void compute() {
            double l = left, r = right;
            area = recEval(l, r, computeFunction(l), computeFunction(r), area);
        }
        static final double recEval(double l, double r, double fl, double fr, double a) {
            double h = (r - l) * 0.5, c = l + h, fc = (c * c + 1.0) * c, hh = h * 0.5;
            double al = (fl + fc) * hh, ar = (fr + fc) * hh, alr = al + ar;
            if (Math.abs(alr - a) <= errorTolerance) return alr;
            return recEval(c, r, fc, fr, ar) + recEval(l, c, fl, fc, al);
        }
    }

    static final class DQuad extends RecursiveAction {
        static double computeArea(ForkJoinPool pool, double l, double r) {
            DQuad q = new DQuad(l, r, 0); pool.invoke(q); return q.area;
        }
        final double left, right; double area;
        DQuad(double l, double r, double a) { left = l; right = r; area = a; }
        public final void compute() {
            double l = left, r = right;
            area = recEval(l, r, computeFunction(l), computeFunction(r), area);
        }
        static final double recEval(double l, double r, double fl, double fr, double a) {
            double h = (r - l) * 0.5, c = l + h, fc = (c * c + 1.0) * c, hh = h * 0.5;
            double al = (fl + fc) * hh, ar = (fr + fc) * hh, alr = al + ar;
            if (Math.abs(alr - a) <= errorTolerance) return alr;
            DQuad q = null;
            if (getSurplusQueuedTaskCount() <= 3) (q = new DQuad(l, c, al)).fork();
            ar = recEval(c, r, fc, fr, ar);
            if (q != null && !q.tryUnfork()) { q.quietlyJoin(); return ar + q.area; }
            return ar + recEval(l, c, fl, fc, al);
        }
    }

    static final class FQuad extends RecursiveAction {
        static double computeArea(ForkJoinPool pool, double l, double r) {
            FQuad q = new FQuad(l, r, 0); pool.invoke(q); return q.area;
        }
        final double left, right; double area;
        FQuad(double l, double r, double a) { left = l; right = r; area = a; }
        public final void compute() {
            double l = left, r = right;
            area = recEval(l, r, computeFunction(l), computeFunction(r), area);
        }
        static final double recEval(double l, double r, double fl, double fr, double a) {
            double h = (r - l) * 0.5, c = l + h, fc = (c * c + 1.0) * c, hh = h * 0.5;
            double al = (fl + fc) * hh, ar = (fr + fc) * hh, alr = al + ar;
            if (Math.abs(alr - a) <= errorTolerance) return alr;
            FQuad q = new FQuad(l, c, al);
            q.fork();
            ar = recEval(c, r, fc, fr, ar);
            if (!q.tryUnfork()) { q.quietlyJoin(); return ar + q.area; }
            return ar + recEval(l, c, fl, fc, al);
        }
    }
}
