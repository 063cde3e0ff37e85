/*
 * DynamicFib - jsr166's Fibonacci benchmark that stops forking when
 * getSurplusQueuedTaskCount() says this worker has enough queued, written
 * from the jsr166 program for timing against dynamic_fib.c.
 * Usage: java DynamicFib procs n reps.  3 warm-up reps.
 */
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

public final class DynamicFib extends RecursiveAction {
    public static void main(String[] args) throws Exception {
        int procs = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        int num = args.length > 1 ? Integer.parseInt(args[1]) : 38;
        int reps = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        ForkJoinPool g = procs == 0 ? new ForkJoinPool() : new ForkJoinPool(procs);
        double best = Double.MAX_VALUE;
        int ans = 0;
        for (int rep = -3; rep < reps; ++rep) {
            long t0 = System.nanoTime();
            DynamicFib f = new DynamicFib(num);
            g.invoke(f);
            ans = f.number;
            if (rep >= 0) best = Math.min(best, (System.nanoTime() - t0) * 1e-9);
        }
        System.out.printf("DynamicFib: Fib: Size: %d Answer: %d: %s (best of %d: %.4f s, %d workers)%n",
                          num, ans, ans == seqFib(num) ? "correct" : "WRONG", reps, best, g.getParallelism());
        g.shutdown();
    }

    int number;
    DynamicFib(int n) { number = n; }
    public void compute() { number = fib(number); }

    static int fib(int n) {
        int r;
        if (n <= 1) r = n;
        else if (getSurplusQueuedTaskCount() >= 4) r = seqFib(n);
        else {
            DynamicFib f2 = new DynamicFib(n - 2);
            f2.fork();
            r = fib(n - 1);
            if (f2.tryUnfork()) r += fib(n - 2);
            else { f2.quietlyJoin(); r += f2.number; }
        }
        return r;
    }

    static int seqFib(int n) { return n <= 1 ? n : seqFib(n - 1) + seqFib(n - 2); }
}
