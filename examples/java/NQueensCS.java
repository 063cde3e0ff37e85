/*
 * NQueensCS - jsr166's N-queens benchmark (one task per safe square of the
 * next row), written from the jsr166 program for timing against nqueens_cs.c.
 * Usage: java NQueensCS procs toSize reps.  3 untimed warm-up reps; a rep
 * solves every size from 8 to toSize and is checked against
 * expectedSolutions.
 */
import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

public final class NQueensCS extends RecursiveAction {
    static final int[] expectedSolutions = new int[] {
        0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200,
        73712, 365596, 2279184, 14772512, 95815104, 666090624
    };
    static final int FROM_SIZE = 8;

    public static void main(String[] args) throws Exception {
        int procs = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        int toSize = args.length > 1 ? Integer.parseInt(args[1]) : 13;
        int reps = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        ForkJoinPool g = procs == 0 ? new ForkJoinPool() : new ForkJoinPool(procs);
        double best = Double.MAX_VALUE;
        boolean ok = true;
        for (int rep = -3; rep < reps; ++rep) {
            double total = 0;
            for (int size = FROM_SIZE; size <= toSize; size++) {
                long t0 = System.nanoTime();
                NQueensCS task = new NQueensCS(size, new int[0]);
                g.invoke(task);
                total += (System.nanoTime() - t0) * 1e-9;
                ok &= task.solutions == expectedSolutions[size];
            }
            if (rep >= 0) best = Math.min(best, total);
        }
        System.out.printf("NQueensCS: sizes %d..%d match expectedSolutions: %s (best of %d: %.4f s, %d workers)%n",
                          FROM_SIZE, toSize, ok ? "correct" : "WRONG", reps, best, g.getParallelism());
        g.shutdown();
    }

    final int boardSize;
    final int[] sections;
    int solutions;
    NQueensCS(int boardSize, int[] a) { this.boardSize = boardSize; this.sections = a; }

    public final void compute() {
        int row = sections.length;
        if (row >= boardSize) { solutions = 1; return; }
        NQueensCS[] tasks = new NQueensCS[boardSize];
        int ntasks = 0;
        for (int q = 0; q < boardSize; ++q) {
            boolean attacked = false;
            for (int i = 0; i < row; i++) {
                int p = sections[i] - q;
                if (p == 0 || p == (row - i) || p == -(row - i)) { attacked = true; break; }
            }
            if (!attacked) {
                int[] next = Arrays.copyOf(sections, row + 1);
                next[row] = q;
                NQueensCS t = new NQueensCS(boardSize, next);
                t.fork();
                tasks[ntasks++] = t;
            }
        }
        int s = 0;
        while (ntasks-- > 0) { tasks[ntasks].join(); s += tasks[ntasks].solutions; }
        solutions = s;
    }
}
