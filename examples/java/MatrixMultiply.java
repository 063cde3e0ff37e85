/*
 * MatrixMultiply - jsr166's divide-and-conquer matrix multiply demo, written
 * from the jsr166 program for timing against matrix_multiply.c.
 * Usage: java MatrixMultiply procs n reps.  3 untimed warm-up reps.
 */
import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

public class MatrixMultiply {
    static final int granularity = 16;

    public static void main(String[] args) throws Exception {
        int procs = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 1024;
        int reps = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        float[][] a = new float[n][n], b = new float[n][n], c = new float[n][n];
        for (int i = 0; i < n; ++i) { Arrays.fill(a[i], 1.0F); Arrays.fill(b[i], 1.0F); }
        ForkJoinPool pool = procs == 0 ? new ForkJoinPool() : new ForkJoinPool(procs);
        double best = Double.MAX_VALUE;
        boolean ok = true;
        for (int rep = -3; rep < reps; ++rep) {   // negative reps: JIT warm-up
            for (float[] row : c) Arrays.fill(row, 0.0F);
            long t0 = System.nanoTime();
            pool.invoke(new Multiplier(a, 0, 0, b, 0, 0, c, 0, 0, n));
            double t = (System.nanoTime() - t0) * 1e-9;
            if (rep >= 0) best = Math.min(best, t);
            for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) ok &= c[i][j] == n;
        }
        System.out.printf("MatrixMultiply: %dx%d, every element of C is %d: %s (best of %d: %.4f s, %d workers)%n",
                          n, n, n, ok ? "correct" : "WRONG", reps, best, pool.getParallelism());
        pool.shutdown();
    }

    static class Multiplier extends RecursiveAction {
        final float[][] A; final int aRow, aCol;
        final float[][] B; final int bRow, bCol;
        final float[][] C; final int cRow, cCol;
        final int size;
        Multiplier(float[][] A, int aRow, int aCol, float[][] B, int bRow, int bCol,
                   float[][] C, int cRow, int cCol, int size) {
            this.A = A; this.aRow = aRow; this.aCol = aCol; this.B = B; this.bRow = bRow; this.bCol = bCol;
            this.C = C; this.cRow = cRow; this.cCol = cCol; this.size = size;
        }
        public void compute() {
            if (size <= granularity) { multiplyStride2(); return; }
            int h = size / 2;
            invokeAll(new Seq(new Multiplier(A, aRow,   aCol,   B, bRow,   bCol,   C, cRow,   cCol,   h),
                              new Multiplier(A, aRow,   aCol+h, B, bRow+h, bCol,   C, cRow,   cCol,   h)),
                      new Seq(new Multiplier(A, aRow,   aCol,   B, bRow,   bCol+h, C, cRow,   cCol+h, h),
                              new Multiplier(A, aRow,   aCol+h, B, bRow+h, bCol+h, C, cRow,   cCol+h, h)),
                      new Seq(new Multiplier(A, aRow+h, aCol,   B, bRow,   bCol,   C, cRow+h, cCol,   h),
                              new Multiplier(A, aRow+h, aCol+h, B, bRow+h, bCol,   C, cRow+h, cCol,   h)),
                      new Seq(new Multiplier(A, aRow+h, aCol,   B, bRow,   bCol+h, C, cRow+h, cCol+h, h),
                              new Multiplier(A, aRow+h, aCol+h, B, bRow+h, bCol+h, C, cRow+h, cCol+h, h)));
        }
        void multiplyStride2() {
            for (int j = 0; j < size; j += 2) {
                for (int i = 0; i < size; i += 2) {
                    float[] a0 = A[aRow+i], a1 = A[aRow+i+1];
                    float s00 = 0, s01 = 0, s10 = 0, s11 = 0;
                    for (int k = 0; k < size; k += 2) {
                        float[] b0 = B[bRow+k];
                        s00 += a0[aCol+k] * b0[bCol+j];   s10 += a1[aCol+k] * b0[bCol+j];
                        s01 += a0[aCol+k] * b0[bCol+j+1]; s11 += a1[aCol+k] * b0[bCol+j+1];
                        float[] b1 = B[bRow+k+1];
                        s00 += a0[aCol+k+1] * b1[bCol+j];   s10 += a1[aCol+k+1] * b1[bCol+j];
                        s01 += a0[aCol+k+1] * b1[bCol+j+1]; s11 += a1[aCol+k+1] * b1[bCol+j+1];
                    }
                    C[cRow+i][cCol+j] += s00;   C[cRow+i][cCol+j+1] += s01;
                    C[cRow+i+1][cCol+j] += s10; C[cRow+i+1][cCol+j+1] += s11;
                }
            }
        }
    }

    static class Seq extends RecursiveAction {
        final RecursiveAction fst, snd;
        Seq(RecursiveAction task1, RecursiveAction task2) { fst = task1; snd = task2; }
        public void compute() { fst.invoke(); snd.invoke(); }
    }
}
