/* Fibonacci - the RecursiveTask API documentation example, with a main that
 * checks it (the original of fibonacci.c).  Usage: java Fibonacci procs n */
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

public class Fibonacci extends RecursiveTask<Integer> {
    final int n;
    Fibonacci(int n) { this.n = n; }
    protected Integer compute() {
        if (n <= 1)
            return n;
        Fibonacci f1 = new Fibonacci(n - 1);
        f1.fork();
        Fibonacci f2 = new Fibonacci(n - 2);
        return f2.compute() + f1.join();
    }
    static int serial(int n) { return n <= 1 ? n : serial(n - 1) + serial(n - 2); }
    public static void main(String[] args) {
        int procs = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        ForkJoinPool pool = procs == 0 ? new ForkJoinPool() : new ForkJoinPool(procs);
        int value = pool.invoke(new Fibonacci(n));
        System.out.printf("Fibonacci: fib(%d) = %d: %s%n", n, value, value == serial(n) ? "correct" : "WRONG");
    }
}
