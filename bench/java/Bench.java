// Bench.java - the Java driver: ForkJoinPool(workers) with RecursiveTask /
// RecursiveAction, the same recursion and leaves as bench/kernels.c, timed
// in-process after a JIT warm-up on a smaller input.
//
//   java -cp build/bench/java Bench PROGRAM SIZE WORKERS RUNS
//
// Prints "run i seconds verified" per run and the harness's RESULT line.
import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.RecursiveTask;

public final class Bench {
    // ---- splitmix64, as kern_mix64 ----
    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    static final long GOLDEN = 0x9e3779b97f4a7c15L;

    // ---- fib ----
    static final class Fib extends RecursiveTask<Long> {
        final int n;
        Fib(int n) { this.n = n; }
        protected Long compute() {
            if (n < 2) return (long) n;
            Fib a = new Fib(n - 1);
            a.fork();
            long b = new Fib(n - 2).compute();
            return a.join() + b;
        }
    }

    // ---- nqueens (BOTS) ----
    static boolean ok(int n, byte[] board) {
        for (int i = 0; i < n; i++) {
            byte p = board[i];
            for (int j = i + 1; j < n; j++) {
                byte q = board[j];
                if (q == p || q == p - (j - i) || q == p + (j - i)) return false;
            }
        }
        return true;
    }

    static final class NQueens extends RecursiveTask<Long> {
        final byte[] parent;
        final int n, row, col;
        NQueens(byte[] parent, int n, int row, int col) { this.parent = parent; this.n = n; this.row = row; this.col = col; }
        protected Long compute() {
            byte[] board = Arrays.copyOf(parent, n);
            board[row] = (byte) col;
            if (!ok(row + 1, board)) return 0L;
            if (row + 1 == n) return 1L;
            return children(board, n, row + 1);
        }
        static long children(byte[] board, int n, int row) {
            NQueens[] kids = new NQueens[n];
            for (int i = 0; i < n - 1; i++) {
                kids[i] = new NQueens(board, n, row, i);
                kids[i].fork();
            }
            long count = new NQueens(board, n, row, n - 1).compute();
            for (int i = n - 2; i >= 0; i--) count += kids[i].join();
            return count;
        }
    }

    static final class NQueensRoot extends RecursiveTask<Long> {
        final int n;
        NQueensRoot(int n) { this.n = n; }
        protected Long compute() { return NQueens.children(new byte[n], n, 0); }
    }

    static final long[] NQ_SOLUTIONS = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
                                        14772512, 95815104, 666090624L};

    // ---- mergesort (values stored with the sign bit flipped: signed order = unsigned order) ----
    static final int SORT_CUTOFF = 2048;

    static void mergeLeaf(int[] x, int a, int na, int[] y, int b, int nb, int[] out, int o) {
        int i = 0, j = 0;
        while (i < na && j < nb) out[o++] = y[b + j] < x[a + i] ? y[b + j++] : x[a + i++];
        while (i < na) out[o++] = x[a + i++];
        while (j < nb) out[o++] = y[b + j++];
    }

    static int lowerBound(int[] v, int b, int n, int key) {
        int lo = 0, hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (v[b + mid] < key) lo = mid + 1; else hi = mid;
        }
        return lo;
    }

    static void sortPingPong(int[] src, int[] dst, int off, int n, boolean toDst) {
        if (n <= 16) {
            for (int i = 1; i < n; i++) {
                int v = src[off + i], j = i;
                while (j > 0 && src[off + j - 1] > v) { src[off + j] = src[off + j - 1]; j--; }
                src[off + j] = v;
            }
            if (toDst) System.arraycopy(src, off, dst, off, n);
            return;
        }
        int h = n / 2;
        sortPingPong(src, dst, off, h, !toDst);
        sortPingPong(src, dst, off + h, n - h, !toDst);
        if (toDst) mergeLeaf(src, off, h, src, off + h, n - h, dst, off);
        else mergeLeaf(dst, off, h, dst, off + h, n - h, src, off);
    }

    static final class Merge extends RecursiveAction {
        final int[] x, y, out; final int a, na, b, nb, o;
        Merge(int[] x, int a, int na, int[] y, int b, int nb, int[] out, int o) {
            this.x = x; this.a = a; this.na = na; this.y = y; this.b = b; this.nb = nb; this.out = out; this.o = o;
        }
        protected void compute() {
            int[] x = this.x, y = this.y; int a = this.a, na = this.na, b = this.b, nb = this.nb;
            if (na + nb <= SORT_CUTOFF) { mergeLeaf(x, a, na, y, b, nb, out, o); return; }
            if (na < nb) { int[] t = x; x = y; y = t; int ti = a; a = b; b = ti; ti = na; na = nb; nb = ti; }
            int ma = na / 2, mb = lowerBound(y, b, nb, x[a + ma]);
            Merge lo = new Merge(x, a, ma, y, b, mb, out, o);
            lo.fork();
            new Merge(x, a + ma, na - ma, y, b + mb, nb - mb, out, o + ma + mb).compute();
            lo.join();
        }
    }

    static final class Sort extends RecursiveAction {
        final int[] src, dst; final int off, n; final boolean toDst;
        Sort(int[] src, int[] dst, int off, int n, boolean toDst) { this.src = src; this.dst = dst; this.off = off; this.n = n; this.toDst = toDst; }
        protected void compute() {
            if (n <= SORT_CUTOFF) { sortPingPong(src, dst, off, n, toDst); return; }
            int h = n / 2;
            Sort lo = new Sort(src, dst, off, h, !toDst);
            lo.fork();
            new Sort(src, dst, off + h, n - h, !toDst).compute();
            lo.join();
            int[] from = toDst ? src : dst, to = toDst ? dst : src;
            new Merge(from, off, h, from, off + h, n - h, to, off).compute();
        }
    }

    static long fillSum, fillXor;
    static void sortFill(int[] a) {
        long s = 0x2545f4914f6cdd1dL, sum = 0, x = 0;
        for (int i = 0; i < a.length; i++) {
            s += GOLDEN;
            a[i] = (int) (mix64(s) >>> 32) ^ Integer.MIN_VALUE;
            sum += a[i]; x ^= a[i];
        }
        fillSum = sum; fillXor = x;
    }
    static boolean sortCheck(int[] a) {
        long sum = 0, x = 0;
        for (int i = 0; i < a.length; i++) {
            if (i > 0 && a[i - 1] > a[i]) return false;
            sum += a[i]; x ^= a[i];
        }
        return sum == fillSum && x == fillXor;
    }

    // ---- matmul ----
    static final int MM_BASE = 64;
    static void mmBase(double[] a, int ao, double[] b, int bo, double[] c, int co, int ld) {
        for (int i = 0; i < MM_BASE; i++) {
            int ci = co + i * ld;
            for (int k = 0; k < MM_BASE; k++) {
                double aik = a[ao + i * ld + k];
                int bk = bo + k * ld;
                for (int j = 0; j < MM_BASE; j++) c[ci + j] += aik * b[bk + j];
            }
        }
    }

    static final class MatMul extends RecursiveAction {
        final double[] a, b, c; final int ao, bo, co, n, ld;
        MatMul(double[] a, int ao, double[] b, int bo, double[] c, int co, int n, int ld) {
            this.a = a; this.ao = ao; this.b = b; this.bo = bo; this.c = c; this.co = co; this.n = n; this.ld = ld;
        }
        int q(int base, int r, int col, int h) { return base + r * h * ld + col * h; }
        protected void compute() {
            if (n <= MM_BASE) { mmBase(a, ao, b, bo, c, co, ld); return; }
            int h = n / 2;
            for (int k = 0; k < 2; k++) {
                MatMul q0 = new MatMul(a, q(ao, 0, k, h), b, q(bo, k, 0, h), c, q(co, 0, 0, h), h, ld);
                MatMul q1 = new MatMul(a, q(ao, 0, k, h), b, q(bo, k, 1, h), c, q(co, 0, 1, h), h, ld);
                MatMul q2 = new MatMul(a, q(ao, 1, k, h), b, q(bo, k, 0, h), c, q(co, 1, 0, h), h, ld);
                q0.fork(); q1.fork(); q2.fork();
                new MatMul(a, q(ao, 1, k, h), b, q(bo, k, 1, h), c, q(co, 1, 1, h), h, ld).compute();
                q2.join(); q1.join(); q0.join();
            }
        }
    }

    static void mmFill(double[] a, double[] b, double[] c) {
        long s = 12345;
        for (int i = 0; i < a.length; i++) {
            s += GOLDEN; a[i] = (double) (mix64(s) >>> 11) * 0x1.0p-52 - 1.0;
            s += GOLDEN; b[i] = (double) (mix64(s) >>> 11) * 0x1.0p-52 - 1.0;
            c[i] = 0.0;
        }
    }
    static boolean mmCheck(double[] a, double[] b, double[] c, int n) {
        double[] x = new double[n], bx = new double[n];
        for (int i = 0; i < n; i++) x[i] = (double) (mix64(i + 77) >>> 11) * 0x1.0p-53;
        for (int i = 0; i < n; i++) { double s = 0; for (int j = 0; j < n; j++) s += b[i * n + j] * x[j]; bx[i] = s; }
        double worst = 0, scale = 0;
        for (int i = 0; i < n; i++) {
            double s = 0, cx = 0;
            for (int j = 0; j < n; j++) { s += a[i * n + j] * bx[j]; cx += c[i * n + j] * x[j]; }
            worst = Math.max(worst, Math.abs(s - cx)); scale = Math.max(scale, Math.abs(s));
        }
        return worst <= 1e-9 * Math.max(scale, 1.0);
    }

    // ---- integrate (jsr166 Integrate, DQuad) ----
    static final double EPS = 1.0e-13;
    static double f(double x) { return (x * x + 1.0) * x; }

    static final class Quad extends RecursiveTask<Double> {
        final double l, r, fl, fr, area;
        Quad(double l, double r, double fl, double fr, double area) { this.l = l; this.r = r; this.fl = fl; this.fr = fr; this.area = area; }
        protected Double compute() { return eval(l, r, fl, fr, area); }
        static double eval(double l, double r, double fl, double fr, double area) {
            double h = (r - l) * 0.5, c = l + h, fc = f(c), hh = h * 0.5;
            double al = (fl + fc) * hh, ar = (fr + fc) * hh, alr = al + ar;
            if (Math.abs(alr - area) <= EPS) return alr;
            Quad left = new Quad(l, c, fl, fc, al);
            left.fork();
            ar = eval(c, r, fc, fr, ar);
            return ar + left.join();
        }
    }

    // ---- uts (kern_uts_child / kern_uts_arity) ----
    static final int UTS_M = 8;
    static final double UTS_Q = 0.124875;
    static final long UTS_ROOT = 39;

    static long utsChild(long parent, int i) {
        long s = parent ^ ((long) (i + 1) * GOLDEN);
        for (int r = 0; r < 8; r++) s = mix64(s + GOLDEN);
        return s;
    }
    static int utsArity(long state) { return (double) (state >>> 11) * 0x1.0p-53 < UTS_Q ? UTS_M : 0; }

    static final class Uts extends RecursiveTask<Long> {
        final long state; final int arity;
        Uts(long state, int arity) { this.state = state; this.arity = arity; }
        protected Long compute() {
            int n = arity;
            long count = 1;
            if (n == 0) return count;
            Uts[] kids = new Uts[n];
            for (int i = 0; i < n - 1; i++) {
                long s = utsChild(state, i);
                kids[i] = new Uts(s, utsArity(s));
                kids[i].fork();
            }
            long s = utsChild(state, n - 1);
            count += new Uts(s, utsArity(s)).compute();
            for (int i = n - 2; i >= 0; i--) count += kids[i].join();
            return count;
        }
    }
    static long utsSerial(long state, int arity) {
        long c = 1;
        for (int i = 0; i < arity; i++) { long s = utsChild(state, i); c += utsSerial(s, utsArity(s)); }
        return c;
    }

    // ---- harness ----
    interface Run { boolean once(long size); }

    static ForkJoinPool pool;
    static int[] keys, tmp;
    static double[] ma, mb, mc;

    static Run program(String name) {
        switch (name) {
        case "fib": return size -> {
            long f0 = 0, f1 = 1;
            for (long i = 0; i < size; i++) { long f2 = f0 + f1; f0 = f1; f1 = f2; }
            return pool.invoke(new Fib((int) size)) == f0;
        };
        case "nqueens": return size -> pool.invoke(new NQueensRoot((int) size)) == NQ_SOLUTIONS[(int) size];
        case "sort": return size -> {
            if (keys == null || keys.length != size) { keys = new int[(int) size]; tmp = new int[(int) size]; }
            sortFill(keys);
            long t0 = System.nanoTime();
            pool.invoke(new Sort(keys, tmp, 0, keys.length, false));
            timed = (System.nanoTime() - t0) * 1e-9;
            return sortCheck(keys);
        };
        case "matmul": return size -> {
            int n = (int) size;
            if (ma == null || ma.length != n * n) { ma = new double[n * n]; mb = new double[n * n]; mc = new double[n * n]; }
            mmFill(ma, mb, mc);
            long t0 = System.nanoTime();
            pool.invoke(new MatMul(ma, 0, mb, 0, mc, 0, n, n));
            timed = (System.nanoTime() - t0) * 1e-9;
            return mmCheck(ma, mb, mc, n);
        };
        case "integrate": return size -> {
            double hi = size, flo = f(0), fhi = f(hi);
            double area = pool.invoke(new Quad(0, hi, flo, fhi, (flo + fhi) * hi * 0.5));
            double exact = hi * hi * hi * hi / 4.0 + hi * hi / 2.0;
            return Math.abs(area - exact) <= 1e-9 * exact;
        };
        case "uts": return size -> {
            long root = mix64(UTS_ROOT);
            long expect = size == 500 ? 370517 : size == 2000 ? 3970465 : utsSerial(root, (int) size);
            return pool.invoke(new Uts(root, (int) size)) == expect;
        };
        default: return null;
        }
    }

    // Programs that prepare input inside once() report their own timed part here.
    static double timed = -1;

    static long warmSize(String name, long size) {
        switch (name) {
        case "fib": return Math.max(2, size - 6);
        case "nqueens": return Math.max(4, size - 2);
        case "sort": return Math.max(4096, size / 16);
        case "matmul": return Math.max(64, size / 4);
        case "integrate": return Math.max(16, size / 4);
        default: return Math.max(1, size / 4);
        }
    }

    static long processCpuNs() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean
            ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() : 0L;
    }

    // Cores' worth of CPU while the pool has no work: a settling pause, then
    // the process CPU clock over 200 ms of the main thread sleeping.
    static double idleCores() {
        try {
            Thread.sleep(50);
            long c0 = processCpuNs(), w0 = System.nanoTime();
            Thread.sleep(200);
            long c1 = processCpuNs(), w1 = System.nanoTime();
            return (double) (c1 - c0) / (w1 - w0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0.0;
        }
    }

    public static void main(String[] args) {
        if (args.length != 4) {
            System.err.println("usage: Bench fib|nqueens|sort|matmul|integrate|uts SIZE WORKERS RUNS");
            System.exit(2);
        }
        String name = args[0];
        long size = Long.parseLong(args[1]);
        int workers = Integer.parseInt(args[2]), runs = Integer.parseInt(args[3]);
        Run run = program(name);
        if (run == null) { System.err.println("unknown program " + name); System.exit(2); }
        pool = new ForkJoinPool(workers);
        // JIT warm-up: a smaller input, at least 5 times and at least
        // BENCH_JAVA_WARMUP_MS milliseconds (default one second).
        String wenv = System.getenv("BENCH_JAVA_WARMUP_MS");
        long warmNs = (wenv != null && !wenv.isEmpty() ? Long.parseLong(wenv) : 1000L) * 1_000_000L;
        long ws = warmSize(name, size), w0 = System.nanoTime();
        for (int i = 0; i < 5 || System.nanoTime() - w0 < warmNs; i++) {
            if (!run.once(ws)) { System.err.println("warm-up run gave a wrong result"); break; }
            if (i >= 50) break;
        }
        double[] secs = new double[runs];
        boolean all = true;
        // CPU of the process (all its threads: workers, JIT, GC) over each
        // whole run, and over a pause with no work after them (bench/harness.h).
        long busyCpu = 0, busyWall = 0;
        for (int r = 0; r < runs; r++) {
            timed = -1;
            long c0 = processCpuNs(), t0 = System.nanoTime();
            boolean ok = run.once(size);
            long t1 = System.nanoTime(), c1 = processCpuNs();
            busyCpu += c1 - c0;
            busyWall += t1 - t0;
            double s = (t1 - t0) * 1e-9;
            secs[r] = timed >= 0 ? timed : s;
            all &= ok;
            System.out.printf("run %d %.6f %s%n", r + 1, secs[r], ok ? "verified" : "WRONG");
        }
        double idle = System.getenv("BENCH_NO_IDLE") == null ? idleCores() : 0.0;
        pool.shutdown();
        Arrays.sort(secs);
        double median = runs % 2 == 1 ? secs[runs / 2] : 0.5 * (secs[runs / 2 - 1] + secs[runs / 2]);
        System.out.printf("RESULT,%s,%d,java,%d,%.6f,%.6f,%.6f,%d,%d%n", name, size, workers, median, secs[0],
                          secs[runs - 1], runs, all ? 1 : 0);
        System.out.printf("CPU %.2f %.2f%n", busyWall > 0 ? (double) busyCpu / busyWall : 0.0, idle);
        System.exit(all ? 0 : 1);
    }
}
