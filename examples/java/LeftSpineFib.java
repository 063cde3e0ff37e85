/*
 * LeftSpineFib - jsr166's Fibonacci benchmark that forks along the left spine
 * into a linked list, written from the jsr166 program for timing against
 * left_spine_fib.c.  Usage: java LeftSpineFib procs n reps.  3 warm-up reps.
 */
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

public final class LeftSpineFib extends RecursiveAction {
    static final int sequentialThreshold = 13;

    public static void main(String[] args) throws Exception {
        int procs = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        int num = args.length > 1 ? Integer.parseInt(args[1]) : 38;
        int reps = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        ForkJoinPool g = procs == 0 ? new ForkJoinPool() : new ForkJoinPool(procs);
        double best = Double.MAX_VALUE;
        int ans = 0;
        for (int rep = -3; rep < reps; ++rep) {
            long t0 = System.nanoTime();
            LeftSpineFib f = new LeftSpineFib(num, null);
            g.invoke(f);
            ans = f.getAnswer();
            if (rep >= 0) best = Math.min(best, (System.nanoTime() - t0) * 1e-9);
        }
        System.out.printf("LeftSpineFib: Fib: Size: %d Answer: %d: %s (best of %d: %.4f s, %d workers)%n",
                          num, ans, ans == seqFib(num) ? "correct" : "WRONG", reps, best, g.getParallelism());
        g.shutdown();
    }

    int number;           // initialized with argument; replaced with result
    LeftSpineFib next;    // keeps track of right-hand-side tasks
    LeftSpineFib(int n, LeftSpineFib nxt) { number = n; next = nxt; }
    int getAnswer() { return number; }

    public final void compute() {
        int n = number;
        if (n > 1) {
            LeftSpineFib rt = null;
            while (n > sequentialThreshold) {
                (rt = new LeftSpineFib(n - 2, rt)).fork();
                n -= 1;
            }
            int r = seqFib(n);
            while (rt != null) {
                if (rt.tryUnfork()) rt.compute(); else rt.join();
                r += rt.number;
                rt = rt.next;
            }
            number = r;
        }
    }

    static int seqFib(int n) { return n <= 1 ? n : seqFib(n - 1) + seqFib(n - 2); }
}
