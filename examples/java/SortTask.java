/* SortTask - the RecursiveAction API documentation example (a parallel
 * mergesort), with a main that checks it (the original of sort_task.c).
 * Usage: java SortTask procs n */
import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

public class SortTask extends RecursiveAction {
    final long[] array; final int lo, hi;
    SortTask(long[] array, int lo, int hi) { this.array = array; this.lo = lo; this.hi = hi; }
    SortTask(long[] array) { this(array, 0, array.length); }
    protected void compute() {
        if (hi - lo < THRESHOLD)
            sortSequentially(lo, hi);
        else {
            int mid = (lo + hi) >>> 1;
            invokeAll(new SortTask(array, lo, mid), new SortTask(array, mid, hi));
            merge(lo, mid, hi);
        }
    }
    // implementation details follow:
    static final int THRESHOLD = 1000;
    void sortSequentially(int lo, int hi) { Arrays.sort(array, lo, hi); }
    void merge(int lo, int mid, int hi) {
        long[] buf = Arrays.copyOfRange(array, lo, mid);
        for (int i = 0, j = lo, k = mid; i < buf.length; j++)
            array[j] = (k == hi || buf[i] < array[k]) ? buf[i++] : array[k++];
    }
    public static void main(String[] args) {
        int procs = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 2000000;
        long[] array = new java.util.Random(42).longs(n, -500000000L, 500000000L).toArray();
        long[] expected = array.clone();
        Arrays.sort(expected);
        ForkJoinPool pool = procs == 0 ? new ForkJoinPool() : new ForkJoinPool(procs);
        pool.invoke(new SortTask(array));
        System.out.printf("SortTask: sorted %d longs: %s%n", n, Arrays.equals(array, expected) ? "correct" : "WRONG");
    }
}
