/* IncrementTask - the RecursiveAction API documentation example, with a main
 * that checks it (the original of increment_task.c).
 * Usage: java IncrementTask procs n */
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

public class IncrementTask extends RecursiveAction {
    static final int THRESHOLD = 5000;
    final long[] array; final int lo, hi;
    IncrementTask(long[] array, int lo, int hi) { this.array = array; this.lo = lo; this.hi = hi; }
    protected void compute() {
        if (hi - lo < THRESHOLD) {
            for (int i = lo; i < hi; ++i)
                array[i]++;
        }
        else {
            int mid = (lo + hi) >>> 1;
            invokeAll(new IncrementTask(array, lo, mid), new IncrementTask(array, mid, hi));
        }
    }
    public static void main(String[] args) {
        int procs = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 10000000;
        long[] array = new long[n];
        for (int i = 0; i < n; i++) array[i] = i;
        ForkJoinPool pool = procs == 0 ? new ForkJoinPool() : new ForkJoinPool(procs);
        pool.invoke(new IncrementTask(array, 0, n));
        boolean ok = true;
        for (int i = 0; i < n; i++) ok &= array[i] == i + 1;
        System.out.printf("IncrementTask: %d elements incremented 1 times: %s%n", n, ok ? "correct" : "WRONG");
    }
}
