/** @file fj.hpp
 * fj.hpp - a C++17 face over fj's C runtime (include/fj.h): lambdas instead of
 * task structs.  Header-only: link libfj as a C program would.
 *
 *     #include "fj.hpp"
 *
 *     long fib(int n)
 *     {
 *         if (n < 2)
 *             return n;
 *         auto [a, b] = fj::join([=] { return fib(n - 1); }, [=] { return fib(n - 2); });
 *         return a + b;
 *     }
 *
 *     fj::pool pool(4);                                  // 4 workers; 0: one per CPU
 *     long f = pool.invoke([] { return fib(30); });      // runs on the pool, returns fib(30)
 *     long g = fib(30);                                  // outside a pool: on the common pool
 *
 * What is here, and the C it is built on:
 *   fj::pool            fj_pool_create / fj_pool_destroy / fj_pool_invoke
 *   fj::join(f, g)      a typed spawn of g, f(), its sync (fj.h's fastest path):
 *                       Rayon's join
 *   fj::join(f0, ..., fn)  typed spawns of fn ... f1, f0(), their syncs:
 *                       TBB's parallel_invoke, Java's invokeAll(tasks...)
 *   fj::join(cx, f, g), fj::join(cx, f0, ..., fn)  the same through an
 *                       fj::context, which carries the worker and the deque's
 *                       top as a typed task does; sides take an fj::context
 *   fj::task_group      fj_fork per run(), fj_join of each at wait()
 *   fj::parallel_for    fj_parallel_for
 *   fj::parallel_reduce fj_parallel_reduce
 *   fj::error           a negative FJ_E* code, thrown where a call has no other way to report it
 * fj.h's typed tasks (FJ_TASK, FJ_SPAWN, FJ_CALL, FJ_SYNC, FJ_RUN on
 * pool.native_handle()) compile as C++ too and mix with join.  join costs
 * about what a typed task costs in instructions (fib with gcc: 34.8 against
 * 31.9 per fork+join, Lace 35.7), but takes longer on the finest binary
 * recursions (fib: 1.00-1.07 times Lace's time where typed tasks took
 * 0.87-0.95): join, callable from any function, reads the worker from
 * thread-local storage and the deque's top from memory, the word the join
 * before had just stored, where a typed task carries both through the
 * recursion in registers.  fj::join(cx, ...) carries them too, in an
 * fj::context that each function of the recursion takes and passes on: dfs
 * (a node's 8 children in one join) 0.65-0.68 times Lace's time, against
 * join's 0.73-0.84, knapsack 0.99-1.03; but fib 1.08-1.12 and pi 1.08-1.12
 * (2 cores, each cell timed at four code placements, the last two full runs;
 * docs/performance.md, "fj::join against Lace").
 *
 * Where work runs.  Called on a worker of a pool (inside pool.invoke, inside a
 * task), join, task_group and the loops use that worker's pool.  Called from any
 * other thread they use the common pool (fj_common_pool: FJ_WORKERS or one
 * worker per CPU) and block the caller until done.
 *
 * Exceptions.  The C runtime never sees one: every lambda that fj.hpp hands to
 * it runs inside a catch-all on its worker.  The exception is kept and rethrown
 * by the join, wait or loop that waits for the lambda, on the waiting thread,
 * once nothing it waits for is still running.  When both sides of a join
 * throw, f's exception is rethrown and g's dropped, whichever was thrown first
 * (as Rayon's join and Java's invokeAll(t1, t2) report their first operand's);
 * of a join of more, the exception of the first side in argument order that
 * threw.
 * When several lambdas of a group or a loop throw, the first to be caught is
 * rethrown and the others are dropped (as Java's ForkJoinTask and oneTBB do).
 * Nothing is cancelled by a throw: both sides of
 * a join and every task of a group run to the end; a loop skips the grains
 * (sub-ranges) it has not started yet, since which indices ran is then
 * unspecified anyway.
 *
 * -fno-exceptions.  The header compiles without exceptions: the catch machinery
 * is compiled out (a throw in user code is then the compiler's error), and an
 * FJ_E* failure that would have thrown fj::error prints one line on stderr and
 * calls std::abort(), as the standard library does in that mode.
 *
 * Memory.  join and pool.invoke keep their task on the caller's stack: no
 * allocation.  A task_group keeps its task records in an arena, the first 1 KiB
 * inside the group object and the rest in blocks from operator new (a group's
 * count is dynamic, so it may allocate, but not once per task).  Loops allocate
 * what fj_parallel_for / fj_parallel_reduce allocate; a reduce over a type that
 * is not trivially copyable boxes one value per stolen run (see parallel_reduce).
 *
 * Ordering: everything the caller wrote before a join, run, invoke or loop
 * happens-before the lambdas run; everything they wrote happens-before the
 * join, wait, invoke or loop returns (or rethrows).  These are fj_fork/fj_join's
 * guarantees (release when a task completes, acquire in the join).
 */
#ifndef FJ_HPP
#define FJ_HPP

#if !defined(__cplusplus) || __cplusplus < 201703L
#error "fj.hpp needs C++17 (-std=c++17); C programs include fj.h"
#endif

#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include "fj.h"

/** @def FJ_HPP_EXCEPTIONS
 * 1 when the compiler has exceptions on (-fexceptions, the default): lambdas'
 * exceptions are caught on their worker and rethrown at the join.  0 under
 * -fno-exceptions: the catch machinery is compiled out. */
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#define FJ_HPP_EXCEPTIONS 1
#include <exception>
#else
#define FJ_HPP_EXCEPTIONS 0
#endif

/* The inline code of this header names its parameters as any code would; a
 * program built with -Wshadow whose globals have those names is not warned
 * about code it did not write (the Makefile's header-check builds one). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"

/** The C++ face of fj: pool, join, task_group, parallel_for, parallel_reduce, error. */
namespace fj {

/* ======================================================================== */
/* Errors                                                                   */
/* ======================================================================== */

/** A negative FJ_E* code from the C layer, where the C++ call has no other way
 * to report it (a constructor, a call that returns the lambda's result).
 * what() is fj_strerror(code()), followed by what was wrong where a pool could
 * not be created (fj_last_error_detail: the setting, its value and the
 * accepted range).  Without exceptions it is never thrown: the failure aborts
 * (see the file comment). */
class error : public std::runtime_error {
public:
    /** An error for `code`, a negative FJ_E* value. */
    explicit error(int code) : std::runtime_error(fj_strerror(code)), code_(code) {}
    /** An error for `code` whose what() adds `detail` after a colon (none if empty). */
    error(int code, const char *detail)
        : std::runtime_error(detail && *detail ? std::string(fj_strerror(code)) + ": " + detail : fj_strerror(code)),
          code_(code)
    {
    }
    /** The FJ_E* code. */
    int code() const noexcept { return code_; }

private:
    int code_;
};

/* ======================================================================== */
/* context                                                                  */
/* ======================================================================== */

namespace detail {
/* Two pointers' width (__extension__: ISO C++ has no 128-bit integer). */
#if __SIZEOF_POINTER__ == 4
typedef std::uint64_t context_bits;
#else
__extension__ typedef unsigned __int128 context_bits;
#endif
constexpr int context_top_shift = 8 * __SIZEOF_POINTER__;
} // namespace detail

/** Where a task stands in its worker's deque, carried from join to join
 * through a recursion as a typed task carries it (fj.h's FJ_TASK): a join
 * through a context, fj::join(cx, f, g), reads neither the worker from
 * thread-local storage nor its frame's place from the deque's top in memory.
 * Its spawn still compares that word with the context's copy, which a typed
 * spawn does not (it is what stops a stale context, below, from writing over
 * a pending fork), so it makes two tests where a typed spawn makes one: on
 * the finest recursions that costs it 15-17 % of its time (fib;
 * docs/performance.md, "fj::join against Lace").  Each
 * side receives the context it passes on to its own joins:
 *
 *     long fib(fj::context cx, int n)
 *     {
 *         if (n < 2)
 *             return n;
 *         auto [a, b] = fj::join(cx, [n](fj::context c) { return fib(c, n - 1); },
 *                                    [n](fj::context c) { return fib(c, n - 2); });
 *         return a + b;
 *     }
 *     long f = pool.invoke([](fj::context cx) { return fib(cx, 30); });
 *
 * A context is valid on the thread it was given to, inside the call it was
 * given to (a side, or the lambda of pool.invoke), and not inside the sides
 * of a join it started: each side uses its own.  Builds without NDEBUG stop
 * the program with a message naming fj::context when a join is given a
 * context on another thread than its worker's, or one that lies below forks
 * still pending (a side joining through the context of the join that forked
 * it); release builds stop the second case at that join's sync, with a
 * message naming FJ_SYNC, and do not check the first: a context used on
 * another thread in a release build is undefined behaviour (it hung or
 * crashed in probes).  A context kept past its call is not always caught.  An opaque value (a scoped enum: no arithmetic, no
 * conversions) of two pointers' width, the worker and the copy of top: an
 * integer, not a struct, so that a function taking one passes it on in two
 * registers, and gcc still splits a leaf test off into its callers (it does
 * not split a function that passes on a struct parameter). */
enum class context : detail::context_bits {};

/** The context of the calling thread's worker at the current top of its
 * deque: for code on a worker that has none passed in (an fj::join lambda, a
 * typed task, an fj_task body).  Fails (fj::error) with FJ_ENOTWORKER on a
 * thread that is not a worker. */
context current_context();

namespace detail {

/* Reports an FJ_E* code: throws fj::error, or without exceptions prints it and
 * aborts (there is no other way out of a constructor or a value-returning call). */
[[noreturn]] inline void fail(int code)
{
#if FJ_HPP_EXCEPTIONS
    throw error(code);
#else
    std::fprintf(stderr, "fj: %s (%d)\n", fj_strerror(code), code);
    std::abort();
#endif
}

/* Passes 0 and positive values through; fails on a negative FJ_E* code. */
inline int check(int rc)
{
    if (rc < 0)
        fail(rc);
    return rc;
}

/* fail() for a call that says in fj_last_error_detail() what was wrong (the
 * setting or argument and its value): a pool's creation, the loops. */
[[noreturn]] inline void fail_detailed(int code)
{
#if FJ_HPP_EXCEPTIONS
    throw error(code, fj_last_error_detail());
#else
    std::fprintf(stderr, "fj: %s (%d): %s\n", fj_strerror(code), code, fj_last_error_detail());
    std::abort();
#endif
}

/* check() for the calls fail_detailed names. */
inline int check_detailed(int rc)
{
    if (rc < 0)
        fail_detailed(rc);
    return rc;
}

/* ---- the first exception of a group of lambdas ---- */

#if FJ_HPP_EXCEPTIONS
/* Shared by the lambdas of one join, group or loop.  Each one that throws calls
 * capture() inside its catch; the first keeps its exception.  The waiter reads
 * it after the joins that wait for every lambda, so only the claim needs to be
 * atomic: the exception_ptr written by the claimer is ordered before the read
 * by the task's completion (release) and fj_join (acquire).  The exception_ptr
 * is constructed by the claimer only, and the waiter's reads of the claim are
 * plain ones: a join whose lambdas threw nothing then stores one byte and
 * tests it once (an exception_ptr member cost a store, and a test in its
 * destructor, per join). */
class first_exception {
public:
    first_exception() noexcept {}
    first_exception(const first_exception &) = delete;
    first_exception &operator=(const first_exception &) = delete;
    /* The waiter's, as rethrow_if_any. */
    ~first_exception()
    {
        if (claimed_)
            stored()->~exception_ptr();
    }
    /* Inside a catch block, on any thread. */
    void capture() noexcept
    {
        /* Atomicity only (relaxed): exactly one thrower wins the claim; the
         * partner of its write to the exception is fj_join's acquire, not
         * this flag. */
        if (!__atomic_exchange_n(&claimed_, true, __ATOMIC_RELAXED))
            ::new (static_cast<void *>(storage_)) std::exception_ptr(std::current_exception());
    }
    /* A hint for loops, while lambdas run: some lambda threw.  Relaxed: a
     * stale false only means one more grain runs. */
    bool raised() const noexcept { return __atomic_load_n(&claimed_, __ATOMIC_RELAXED); }
    /* The waiter, once every lambda sharing this object completed: rethrows the
     * first exception, and forgets it so that the object can be used again.
     * A plain read: no lambda runs any more. */
    void rethrow_if_any()
    {
        if (!claimed_)
            return;
        std::exception_ptr first = std::move(*stored());
        forget();
        std::rethrow_exception(first);
    }
    /* Forgets an exception nobody will rethrow (a destructor's wait). */
    void drop() noexcept
    {
        if (claimed_)
            forget();
    }

private:
    void forget() noexcept
    {
        stored()->~exception_ptr();
        claimed_ = false;
    }
    std::exception_ptr *stored() noexcept { return std::launder(reinterpret_cast<std::exception_ptr *>(storage_)); }

    bool claimed_ = false;
    alignas(std::exception_ptr) unsigned char storage_[sizeof(std::exception_ptr)];
};

/* Calls f(), catching whatever it throws into `errors`. */
template <class F>
__attribute__((always_inline)) inline void run_capturing(F &&f, first_exception &errors) noexcept
{
    try {
        std::forward<F>(f)();
    } catch (...) {
        errors.capture();
    }
}
#else
class first_exception {
public:
    bool raised() const noexcept { return false; }
    void rethrow_if_any() noexcept {}
    void drop() noexcept {}
};

template <class F>
inline void run_capturing(F &&f, first_exception &) noexcept
{
    std::forward<F>(f)();
}
#endif

/* ---- a lambda's result, kept until the waiter takes it ---- */

/* What join returns for a lambda returning R: R itself, std::monostate for void. */
template <class R>
using returned_t = std::conditional_t<std::is_void_v<R>, std::monostate, R>;

/* Values are kept in an optional (R need not be default-constructible),
 * references as a pointer, void as nothing. */
template <class R, class = void>
class result_slot {
public:
    template <class F>
    void fill(F &f)
    {
        value_.emplace(std::invoke(f));
    }
    R take() { return std::move(*value_); }

private:
    std::optional<R> value_;
};

/* The address of what a reference refers to, an lvalue or an rvalue one
 * (a lambda returning T&& returns an xvalue, whose address `&` cannot take). */
template <class T>
inline std::remove_reference_t<T> *referred(T &&referent) noexcept
{
    return std::addressof(referent);
}

template <class R>
class result_slot<R, std::enable_if_t<std::is_reference_v<R>>> {
public:
    template <class F>
    void fill(F &f)
    {
        value_ = referred(std::invoke(f));
    }
    R take() { return static_cast<R>(*value_); }

private:
    std::remove_reference_t<R> *value_ = nullptr;
};

template <class R>
class result_slot<R, std::enable_if_t<std::is_void_v<R>>> {
public:
    template <class F>
    void fill(F &f)
    {
        std::invoke(f);
    }
    std::monostate take() { return {}; }
};

/* ---- fork/join of two callables: the one place that talks to fj.h's fork/join ---- */

/* join(f, g) forks g as a typed frame and runs f here.  The frame holds g in
 * one of two ways, chosen at compile time:
 *  - g itself, copied into the frame's data, when g is a temporary (nobody
 *    sees the copy), trivially copy-constructible and destructible and small,
 *    and its result trivially copyable and small too (or a
 *    reference, or void): g_in_frame.  The spawn stores g's captures and
 *    nothing else, no object of the join's lives in memory, and the thief
 *    writes g's result into the frame, as a typed task's thief does.
 *  - a pointer to an object on the joiner's stack that refers to g and has
 *    room for its result (any type): g_by_pointer.  For an lvalue g (a
 *    mutable lambda's state must change in the caller's object), or a large
 *    or non-trivial g or result.
 * Either way, when nobody took the frame (the usual case) the join calls g
 * itself, here, as a plain call: its result stays in registers, and the
 * fast path leaves nothing to destroy.
 *
 * How g ended, when a thief or the runtime ran it, is written beside its
 * result by that run, before the frame's completion is published (release),
 * and read by the joiner after the sync (acquire): g_error. */

/* A thrown g's exception, or that g did not throw.  Trivially copyable (the
 * runtime moves a frame run at its spawn with memcpy; the exception_ptr goes
 * with it, owned by whichever copy is read) and written whole by the run, so
 * the spawn initialises nothing. */
class g_error {
public:
    /* The run of g: it returned. */
    void none() noexcept { threw_ = false; }
#if FJ_HPP_EXCEPTIONS
    /* The run of g, inside its catch block. */
    void capture() noexcept
    {
        ::new (static_cast<void *>(storage_)) std::exception_ptr(std::current_exception());
        threw_ = true;
    }
    /* The joiner, after the sync: rethrows g's exception. */
    void rethrow_if_any()
    {
        if (!threw_)
            return;
        std::exception_ptr thrown = std::move(*stored());
        stored()->~exception_ptr();
        std::rethrow_exception(thrown);
    }
    /* The joiner, after the sync, when f's exception is the one rethrown. */
    void drop() noexcept
    {
        if (threw_)
            stored()->~exception_ptr();
    }

private:
    std::exception_ptr *stored() noexcept { return std::launder(reinterpret_cast<std::exception_ptr *>(storage_)); }
    alignas(std::exception_ptr) unsigned char storage_[sizeof(std::exception_ptr)];
#else
    void rethrow_if_any() noexcept {}
    void drop() noexcept {}

private:
#endif
    bool threw_;
};

/* Runs g into `result` (a result_slot or frame_result), recording how it ended in `error`. */
template <class G, class Result>
__attribute__((always_inline)) inline void run_recording(G &g, Result &result, g_error &error) noexcept
{
#if FJ_HPP_EXCEPTIONS
    try {
        result.fill(g);
    } catch (...) {
        error.capture();
        return;
    }
#else
    result.fill(g);
#endif
    error.none();
}

/* g(), with void as std::monostate (the member of join's pair). */
template <class G>
__attribute__((always_inline)) inline returned_t<std::invoke_result_t<G &>> call_returned(G &g)
{
    if constexpr (std::is_void_v<std::invoke_result_t<G &>>) {
        std::invoke(g);
        return {};
    } else {
        return std::invoke(g);
    }
}

/* The sync of the frame at `top` - 1 spawned with runner `run`: nullptr when
 * nobody took the frame, which is then off the deque and for the caller to
 * run; else the frame whose data holds g's outcome (where the thief ran it,
 * or a copy where the runtime ran it at the spawn).  fj.h's typed sync,
 * inlined up to its slow path.  Caller: `worker`, the spawning thread's. */
__attribute__((always_inline)) inline fj_frame *sync_taken(fj_worker *worker, fj_frame *&top, fj_frame_fn run)
{
    if (fj__sync_pop_at(worker, &top, run))
        return nullptr;
    fj_frame *frame = fj__sync_slow(worker, top - 1, run);
    /* The copy of top for the next sync below (a join of more than two):
     * the frame taken back, or where a spawn run at once left top. */
    top = fj__top(worker);
    /* The low bit: the frame was taken and its run has completed. */
    if (!(reinterpret_cast<uintptr_t>(frame) & 1u))
        return nullptr;
    return fj__sync_frame(frame);
}

/* The first half of a spawn: at the word top (AtTop), or at the caller's
 * copy of top, carried from the spawn or sync before (fj__spawn_begin). */
template <bool AtTop>
__attribute__((always_inline)) inline fj_frame *spawn_begin(fj_worker *worker, fj_frame *top, fj_frame_fn run)
{
    if constexpr (AtTop)
        return fj__spawn_begin_at_top(worker, run);
    else
        return fj__spawn_begin(worker, top, run);
}

/* The bytes of a frame's data: g's copy, then its result, then g_error. */
constexpr std::size_t frame_value_bytes = 32;
static_assert(frame_value_bytes + sizeof(g_error) <= FJ_FRAME_DATA_SIZE, "g_in_frame's layout fits a frame");

/* R (g's result type) as g_in_frame keeps it in the frame: a value by its
 * bytes, a reference as a pointer, void as nothing. */
template <class R>
class frame_result {
public:
    explicit frame_result(unsigned char *data) noexcept : data_(data) {}
    template <class G>
    void fill(G &g)
    {
        if constexpr (std::is_void_v<R>) {
            std::invoke(g);
        } else if constexpr (std::is_reference_v<R>) {
            std::remove_reference_t<R> *value = referred(std::invoke(g));
            __builtin_memcpy(data_, &value, sizeof value);
        } else {
            R value = std::invoke(g);
            __builtin_memcpy(data_, &value, sizeof value);
        }
    }
    returned_t<R> take() const noexcept
    {
        if constexpr (std::is_void_v<R>) {
            return {};
        } else if constexpr (std::is_reference_v<R>) {
            std::remove_reference_t<R> *value;
            __builtin_memcpy(&value, data_, sizeof value);
            return static_cast<R>(*value);
        } else {
            return *std::launder(reinterpret_cast<const R *>(data_));
        }
    }

private:
    unsigned char *data_;
};

template <class R>
constexpr bool fits_frame()
{
    if constexpr (std::is_void_v<R> || std::is_reference_v<R>)
        return true;
    else
        return std::is_trivially_copyable_v<R> && sizeof(R) <= frame_value_bytes && alignof(R) <= 16;
}

/* Whether a callable can travel in a frame: copied in by its copy
 * constructor, moved with the frame's bytes, never destroyed.  Not
 * is_trivially_copyable, which is what a lambda with captures is: gcc 12
 * answers false for it once its deleted copy assignment has been looked at
 * (by std::is_copy_assignable, or by a std::tuple of it, as join of three or
 * more makes), and true before. */
template <class G>
constexpr bool callable_fits_frame()
{
    if constexpr (std::is_reference_v<G> || std::is_function_v<G>)
        return false;
    else
        return std::is_trivially_copy_constructible_v<G> && std::is_trivially_destructible_v<G> &&
               sizeof(G) <= frame_value_bytes && alignof(G) <= 16;
}

/* Whether join keeps g (as join received it: a reference type for an lvalue)
 * in its frame. */
template <class G>
inline constexpr bool g_in_frame_v = !std::is_reference_v<G> && callable_fits_frame<G>() &&
                                     fits_frame<std::invoke_result_t<G &>>();

/* g copied into its frame (see above). */
template <class G>
class g_in_frame {
public:
    using R = std::invoke_result_t<G &>;

    /* The spawn: g's bytes into the frame at the word top (AtTop) or at the
     * caller's copy of top, which then moves past the frame (the word top's
     * spawn starts the copy).  Caller: `worker`, this thread's. */
    template <bool AtTop>
    __attribute__((always_inline)) g_in_frame(fj_worker *worker, G &g, fj_frame *&top, std::bool_constant<AtTop>) noexcept
    {
        write(worker, g, spawn_begin<AtTop>(worker, top, &run), top);
    }
    /* The sync, at the caller's copy of top, which becomes the frame's place:
     * nullptr when nobody took g (the caller calls it), else the frame of its
     * outcome. */
    __attribute__((always_inline)) static fj_frame *sync(fj_worker *worker, fj_frame *&top) noexcept
    {
        return sync_taken(worker, top, &run);
    }
    static g_error &error(fj_frame *frame) noexcept
    {
        return *std::launder(reinterpret_cast<g_error *>(frame->fj_data + frame_value_bytes));
    }
    static returned_t<R> take(fj_frame *frame) noexcept { return frame_result<R>(frame->fj_data).take(); }
    /* After a sync that found the frame untaken, from the copy in it: an
     * untaken frame lies at the word top then (as for a typed sync), and
     * the joiner's own g need not be in memory for this cold path. */
    static void run_here(fj_worker *worker)
    {
        alignas(G) unsigned char bytes[sizeof(G)];
        __builtin_memcpy(bytes, fj__top(worker)->fj_data, sizeof bytes);
        std::invoke(*std::launder(reinterpret_cast<G *>(bytes)));
    }

private:
    __attribute__((always_inline)) static void write(fj_worker *worker, G &g, fj_frame *frame, fj_frame *&top) noexcept
    {
        /* A copy construction, not a memcpy: the compiler then stores g's
         * captures one by one, as they are (a 32-byte memcpy read them back
         * from the stack in one vector load that no store could forward to:
         * knapsack through fj::join 45 % slower). */
        ::new (static_cast<void *>(frame->fj_data)) G(g);
        fj__spawn_end(worker, &top, frame);
    }

    /* A thief's, or the runtime's at the spawn: g is copied out first, since
     * its result goes where it was (and, run at the spawn, its own spawns
     * reuse the slot), then its outcome is written, then published. */
    static void run(fj_worker *worker, fj_frame *frame) noexcept
    {
        alignas(G) unsigned char bytes[sizeof(G)];
        __builtin_memcpy(bytes, frame->fj_data, sizeof bytes);
        frame_result<R> result(frame->fj_data);
        g_error *error = ::new (static_cast<void *>(frame->fj_data + frame_value_bytes)) g_error;
        run_recording(*std::launder(reinterpret_cast<G *>(bytes)), result, *error);
        fj__frame_finish(worker, frame);
    }
};

/* g where the caller keeps it, the frame pointing to `side_` (see above). */
template <class G>
class g_by_pointer {
public:
    using R = std::invoke_result_t<G &>;

    /* As g_in_frame's. */
    template <bool AtTop>
    __attribute__((always_inline)) g_by_pointer(fj_worker *worker, G &g, fj_frame *&top, std::bool_constant<AtTop>) noexcept
        : side_(g)
    {
        write(worker, spawn_begin<AtTop>(worker, top, &run), top);
    }
    __attribute__((always_inline)) static fj_frame *sync(fj_worker *worker, fj_frame *&top) noexcept
    {
        return sync_taken(worker, top, &run);
    }
    g_error &error(fj_frame *) noexcept { return side_.error; }
    returned_t<R> take(fj_frame *) { return side_.result.take(); }
    void run_here(fj_worker *) { std::invoke(side_.g); }

private:
    __attribute__((always_inline)) void write(fj_worker *worker, fj_frame *frame, fj_frame *&top) noexcept
    {
        side *pointer = &side_;
        __builtin_memcpy(frame->fj_data, &pointer, sizeof pointer);
        fj__spawn_end(worker, &top, frame);
    }

    struct side {
        explicit side(G &callable) noexcept : g(callable) {}
        G &g;
        result_slot<R> result;
        g_error error; /* written by the run of g */
    };

    static void run(fj_worker *worker, fj_frame *frame) noexcept
    {
        side *s;
        __builtin_memcpy(&s, frame->fj_data, sizeof s);
        run_recording(s->g, s->result, s->error);
        fj__frame_finish(worker, frame);
    }

    side side_;
};

/* ---- how a join calls its sides: with no argument, or with a context ---- */

/* A context's two halves: the worker (low) and the copy of top (high), both
 * in registers from join to join (fj::join without a context reads the
 * worker from thread-local storage and top from memory, the word a store of
 * the join before had just written). */
inline context context_at(fj_worker *worker, fj_frame *top) noexcept
{
    return static_cast<context>(
        static_cast<context_bits>(reinterpret_cast<std::uintptr_t>(top)) << context_top_shift |
        reinterpret_cast<std::uintptr_t>(worker));
}
inline fj_frame *context_top(context cx) noexcept
{
    return reinterpret_cast<fj_frame *>(static_cast<std::uintptr_t>(static_cast<context_bits>(cx) >> context_top_shift));
}
inline fj_worker *context_worker(context cx) noexcept
{
    return reinterpret_cast<fj_worker *>(static_cast<std::uintptr_t>(static_cast<context_bits>(cx)));
}

/* A side of context::join as the runtime runs it where no context is carried
 * (a thief, or the joiner when f threw): a callable of no argument that
 * calls the side with the running worker's context at the word top, its own
 * copy of top then.  Stored is the side itself (a copy that travels in its
 * frame, trivially copyable when the side is) or a reference to the caller's. */
template <class Stored>
class with_context {
public:
    explicit with_context(std::remove_reference_t<Stored> &side) noexcept(
        std::is_reference_v<Stored> || std::is_nothrow_copy_constructible_v<Stored>)
        : side_(side)
    {
    }
    decltype(auto) operator()() { return std::invoke(side_, context_at(fj__self, fj__top(fj__self))); }

private:
    Stored side_;
};

/* fj::join's sides: side(); the first spawn at the word top. */
struct plain_calls {
    template <class S>
    using result_t = std::invoke_result_t<S &>;
    static constexpr bool first_spawn_at_top = true;
    /* Whether side g (GDecl: its type as the join received it) travels in its frame. */
    template <class GDecl>
    static constexpr bool in_frame = g_in_frame_v<GDecl>;
    /* What the frame's runner calls: the side itself. */
    template <class GDecl, class G>
    using held_t = G &;
    template <class S>
    __attribute__((always_inline)) static decltype(auto) call(S &side, fj_worker *, fj_frame *)
    {
        return std::invoke(side);
    }
};

/* fj::join(cx, ...)'s sides: side(context); every spawn at the context's copy of top. */
struct context_calls {
    template <class S>
    using result_t = std::invoke_result_t<S &, context>;
    static constexpr bool first_spawn_at_top = false;
    template <class GDecl>
    static constexpr bool in_frame = !std::is_reference_v<GDecl> && callable_fits_frame<GDecl>() &&
                                     fits_frame<std::invoke_result_t<GDecl &, context>>();
    /* A copy of g when it travels in its frame, else a reference to it. */
    template <class GDecl, class G>
    using held_t = with_context<std::conditional_t<in_frame<GDecl>, G, G &>>;
    /* The side called where the join carries `top`: a register, not a load. */
    template <class S>
    __attribute__((always_inline)) static decltype(auto) call(S &side, fj_worker *worker, fj_frame *top)
    {
        return std::invoke(side, context_at(worker, top));
    }
};

/* The forked side of a join: g_in_frame or g_by_pointer of what the runner calls. */
template <class Calls, class GDecl, class Held>
using forked_t = std::conditional_t<Calls::template in_frame<GDecl>, g_in_frame<std::remove_reference_t<Held>>,
                                    g_by_pointer<std::remove_reference_t<Held>>>;

/* ---- one root task on a pool ---- */

template <class F>
struct root_frame : fj_task {
    using result_type = std::invoke_result_t<F &>;
    F *body;
    result_slot<result_type> result;
    first_exception errors;

    explicit root_frame(F &f) noexcept : fj_task FJ_TASK_INIT(&root_frame::run), body(&f) {}

    static int run(fj_task *task) noexcept
    {
        root_frame *self = static_cast<root_frame *>(task);
        run_capturing([self] { self->result.fill(*self->body); }, self->errors);
        return 0;
    }
};

/* Runs f() as a root task of `pool` (inline when called on one of its workers),
 * returns its result or rethrows its exception; fails with FJ_ESHUTDOWN or
 * FJ_ENOMEM when the pool does not take it. */
template <class F>
inline std::invoke_result_t<F &> invoke_on(fj_pool *pool, F &f)
{
    root_frame<F> frame(f);
    check(fj_pool_invoke(pool, &frame));
    frame.errors.rethrow_if_any();
    if constexpr (std::is_void_v<std::invoke_result_t<F &>>)
        return;
    else
        return frame.result.take();
}

/* The common pool, or fail with why it cannot be created (fj_common_pool). */
inline fj_pool *common_pool()
{
    fj_pool *pool;
    if (int rc = fj__common_pool(&pool))
        fail_detailed(rc);
    return pool;
}

/* The pool a loop passes to fj_parallel_*: NULL (its own) on a worker, else
 * the common pool, whose failure to start is reported with what was wrong. */
inline fj_pool *pool_for_loops() { return fj__self ? nullptr : common_pool(); }

/* What a join of f and g returns, their sides called as Calls says. */
template <class Calls, class F, class G>
using two_result_t =
    std::conditional_t<std::is_void_v<typename Calls::template result_t<F>> &&
                           std::is_void_v<typename Calls::template result_t<G>>,
                       void,
                       std::pair<returned_t<typename Calls::template result_t<F>>,
                                 returned_t<typename Calls::template result_t<G>>>>;
template <class F, class G>
using join_result_t = two_result_t<plain_calls, F, G>;

#if FJ_HPP_EXCEPTIONS
/* The rest of a join whose f threw `thrown`: g runs to the end (here, if
 * nobody took it, its exception dropped), then f's exception is rethrown.
 * `top` is the join's copy of top after g's spawn.  Out of line: rare, and
 * the recursion's fast path stays short. */
template <class Forked>
[[noreturn]] __attribute__((noinline, cold)) void join_after_f_threw(fj_worker *worker, fj_frame *top,
                                                                     Forked &forked, std::exception_ptr thrown)
{
    if (fj_frame *frame = Forked::sync(worker, top)) {
        forked.error(frame).drop();
    } else {
        try {
            forked.run_here(worker);
        } catch (...) {
            /* f's exception is the one join reports */
        }
    }
    std::rethrow_exception(thrown);
}
#endif

/* A join of f and g on `worker`, the calling thread's: g forked, f here.
 * Calls says how the sides are called and where g's spawn goes: at the word
 * top (fj::join; `top` is unused), or at `top`, the context's copy.  GDecl is
 * g's type as the join received it (a reference for an lvalue).  Always
 * inlined into the join, so that a recursion through it (fib) is one function
 * per level, as it is with typed tasks, not two.  f's exception is caught,
 * since g must finish (here or on a thief) before the join leaves; g's, when
 * g runs here, leaves as from any call, f having returned. */
template <class Calls, class GDecl, class F, class G>
__attribute__((always_inline)) inline two_result_t<Calls, F, G> join_two(fj_worker *worker, fj_frame *top, F &f,
                                                                         G &g)
{
    using RF = typename Calls::template result_t<F>;
    typename Calls::template held_t<GDecl, G> held(g);
    using Forked = forked_t<Calls, GDecl, decltype(held)>;
    Forked forked(worker, held, top, std::bool_constant<Calls::first_spawn_at_top>{});
    auto call_f = [&]() -> decltype(auto) { return Calls::call(f, worker, top); };
    result_slot<RF> from_f;
#if FJ_HPP_EXCEPTIONS
    /* Raw bytes, constructed only on a throw: the fast path then has no
     * exception_ptr to destroy. */
    alignas(std::exception_ptr) unsigned char f_threw[sizeof(std::exception_ptr)];
    try {
        from_f.fill(call_f);
    } catch (...) {
        ::new (static_cast<void *>(f_threw)) std::exception_ptr(std::current_exception());
        goto after_f_threw; /* out of the handler: g's sync may help for long */
    }
#else
    from_f.fill(call_f);
#endif
    if (fj_frame *frame = Forked::sync(worker, top)) {
        forked.error(frame).rethrow_if_any();
        if constexpr (std::is_void_v<two_result_t<Calls, F, G>>)
            return;
        else
            return two_result_t<Calls, F, G>(from_f.take(), forked.take(frame));
    }
    /* Nobody took g: call it here, at the copy of top its sync left. */
    if constexpr (std::is_void_v<two_result_t<Calls, F, G>>) {
        Calls::call(g, worker, top);
        return;
    } else {
        auto call_g = [&]() -> decltype(auto) { return Calls::call(g, worker, top); };
        return two_result_t<Calls, F, G>(from_f.take(), call_returned(call_g));
    }
#if FJ_HPP_EXCEPTIONS
after_f_threw:
    std::exception_ptr *thrown = std::launder(reinterpret_cast<std::exception_ptr *>(f_threw));
    std::exception_ptr moved = std::move(*thrown);
    thrown->~exception_ptr();
    join_after_f_threw(worker, top, forked, std::move(moved));
#endif
}

/* join from a thread that is not a worker: both on the common pool, the
 * caller blocked.  Out of line, so that its root frame does not grow the
 * stack frame of a recursion through join, nor take its registers. */
template <class GDecl, class F, class G>
__attribute__((noinline, cold)) join_result_t<F, G> join_outside(F &f, G &g)
{
    auto both = [&] { return join_two<plain_calls, GDecl>(fj__self, nullptr, f, g); };
    return invoke_on(common_pool(), both);
}

/* Whether join hands join_outside copies of f and g, made on that cold path
 * only: two temporaries, trivially copyable.  The caller's own f and g then
 * need not be in memory on its fast path (an address taken on any path, or a
 * copy passed in memory, kept them there: a store per capture at every
 * join's entry, and loads of them after its calls). */
template <class... Fs>
inline constexpr bool copied_outside_v = ((!std::is_reference_v<Fs> && std::is_trivially_copy_constructible_v<Fs>) &&
                                          ...);

/* ---- fork/join of three or more callables ---- */

/* join(f0, f1, ..., fn): f1 ... fn are forked, fn first and f1 last, f0 runs
 * here, then f1 ... fn are synced in that order, each the newest frame by
 * then (syncs are LIFO).  One recursion level per forked side, each inlined
 * into the next: level i spawns f_i, lets the levels below it spawn and run
 * f0 and sync theirs, then syncs f_i.  Each side is g_in_frame or
 * g_by_pointer, as g of a join of two.
 *
 * fj::join's first spawn goes at the word top, context::join's at the
 * context's copy; every later spawn and every sync goes at the caller's copy
 * of top, carried from one to the next as a typed task carries it
 * (fj__spawn_begin): at most one load of the worker and one of top per join,
 * whatever its number of sides.
 *
 * Each side's outcome is taken out of its frame (or the joiner's stack) right
 * after its sync, into its result_slot: the sides synced after it run here,
 * and their spawns reuse its frame.  Exceptions go to one first_exception,
 * on this thread, in argument order: f0's, then each side's as it is synced,
 * so the one rethrown is that of the first side in argument order that
 * threw, and every side still runs to the end. */

template <class Calls, class... Fs>
using all_result_t = std::conditional_t<(std::is_void_v<typename Calls::template result_t<Fs>> && ...), void,
                                        std::tuple<returned_t<typename Calls::template result_t<Fs>>...>>;
template <class... Fs>
using join_all_result_t = all_result_t<plain_calls, Fs...>;

/* Takes the outcome of a forked side that a thief (or the runtime, at the
 * spawn) ran: its exception into `errors`, else its result into `slot`. */
template <class Forked, class R>
__attribute__((always_inline)) inline void take_outcome(Forked &forked, fj_frame *frame, result_slot<R> &slot,
                                                        first_exception &errors) noexcept
{
    run_capturing(
        [&] {
            forked.error(frame).rethrow_if_any();
            auto taken = [&]() -> R {
                if constexpr (!std::is_void_v<R>)
                    return static_cast<R>(forked.take(frame));
            };
            slot.fill(taken);
        },
        errors);
}

/* Level I of a join of f0, ..., fn (see above); Decls are the sides' types as
 * the join received them (a reference for an lvalue). */
template <std::size_t I, class Calls, class Decls, class Callables, class Results>
__attribute__((always_inline)) inline void join_from(fj_worker *worker, fj_frame *&top, Callables &callables,
                                                     Results &results, first_exception &errors)
{
    auto &side = std::get<I>(callables);
    auto &slot = std::get<I>(results);
    auto call = [&]() -> decltype(auto) { return Calls::call(side, worker, top); };
    if constexpr (I == 0) {
        run_capturing([&] { slot.fill(call); }, errors);
    } else {
        using G = std::remove_reference_t<decltype(side)>;
        using Decl = std::tuple_element_t<I, Decls>;
        typename Calls::template held_t<Decl, G> held(side);
        using Forked = forked_t<Calls, Decl, decltype(held)>;
        /* The outermost level of fj::join spawns at the word top and starts the copy. */
        constexpr bool at_top = Calls::first_spawn_at_top && I + 1 == std::tuple_size_v<Decls>;
        Forked forked(worker, held, top, std::bool_constant<at_top>{});
        join_from<I - 1, Calls, Decls>(worker, top, callables, results, errors);
        if (fj_frame *frame = Forked::sync(worker, top))
            take_outcome(forked, frame, slot, errors);
        else
            run_capturing([&] { slot.fill(call); }, errors);
    }
}

template <class Result, class Results, std::size_t... Is>
__attribute__((always_inline)) inline Result take_all(Results &results, std::index_sequence<Is...>)
{
    if constexpr (std::is_void_v<Result>)
        return;
    else
        return Result(std::get<Is>(results).take()...);
}

/* A join of f0, ..., fn on `worker`, the calling thread's, at `top` (see join_two). */
template <class Calls, class... Decls, class... Fs>
__attribute__((always_inline)) inline all_result_t<Calls, Fs...> join_all_here(fj_worker *worker, fj_frame *top,
                                                                               Fs &...fs)
{
    std::tuple<Fs &...> callables(fs...);
    std::tuple<result_slot<typename Calls::template result_t<Fs>>...> results;
    first_exception errors;
    join_from<sizeof...(Fs) - 1, Calls, std::tuple<Decls...>>(worker, top, callables, results, errors);
    errors.rethrow_if_any();
    return take_all<all_result_t<Calls, Fs...>>(results, std::index_sequence_for<Fs...>{});
}

/* The bodies of fj::join(cx, ...): a join at the context's worker and copy of
 * top.  Ordinary inline functions under an always-inline fj::join(cx, ...), for
 * gcc's partial inlining of the recursion that calls the join.  The public join
 * is then inlined into that function before gcc splits its leaf test off, so
 * the split falls at the call of the body; the inliner takes the body into the
 * split part first, which leaves the part too large to be inlined back into
 * the function it came from, and a leaf keeps costing no call of the whole
 * function.  With the public join itself ordinary inline, gcc ranked inlining
 * the small split part back first on pi (82.0 instructions per fork+join
 * against 71.5, 1.25 of Lace's time against 1.10; docs/performance.md,
 * "fj::join against Lace", finding 4).  A join of three or more sides gets the
 * same shape, for a recursion of that shape (dfs's code is the same either way). */
template <class Calls, class GDecl, class F, class G>
inline two_result_t<Calls, F, G> context_join_two(fj_worker *worker, fj_frame *top, F &f, G &g)
{
    return join_two<Calls, GDecl>(worker, top, f, g);
}

template <class Calls, class... Decls, class... Fs>
inline all_result_t<Calls, Fs...> context_join_all(fj_worker *worker, fj_frame *top, Fs &...fs)
{
    return join_all_here<Calls, Decls...>(worker, top, fs...);
}

/* join(f0, ..., fn) from a thread that is not a worker (as join_outside). */
template <class... Decls, class... Fs>
__attribute__((noinline, cold)) join_all_result_t<Fs...> join_all_outside(Fs &...fs)
{
    auto all = [&] { return join_all_here<plain_calls, Decls...>(fj__self, nullptr, fs...); };
    return invoke_on(common_pool(), all);
}

/* Builds without NDEBUG: stops the program when a join is given a context
 * that is not this thread's, or that lies below pending forks (a side used
 * the context of the join that forked it). */
inline void check_context(fj_worker *worker, fj_frame *top)
{
#ifndef NDEBUG
    fj__context_check(worker, top);
#else
    (void)worker;
    (void)top;
#endif
}

} // namespace detail

/* ======================================================================== */
/* join                                                                     */
/* ======================================================================== */

/** Runs f() and g() in parallel, possibly on two workers, and returns when both
 * are done: g is forked (it is the part a thief may take), f runs on this
 * thread, then g is joined: run inline if nobody took it, else helped with.
 * Returns std::pair{f(), g()}; nothing when both return void; a void side
 * appears in the pair as std::monostate.  References are returned as such.
 * Any thread: on a worker it runs on that worker's pool, elsewhere both run on
 * the common pool and the caller blocks.  If f or g throws, the other still
 * runs to the end; then the exception is rethrown here, f's when both threw.
 * Each of f and g is invoked once.  An lvalue is invoked as the caller's
 * object wherever it runs (a mutable lambda's state is the caller's after);
 * a temporary whose type is trivially copy-constructible may run as a copy of it (g's
 * copy in its frame, which a thief takes; both, outside a pool).
 * Fails (fj::error) only outside a pool, when the common pool cannot start
 * (fj_common_pool: FJ_EINVAL for a bad FJ_* variable, which what() names;
 * FJ_ENOMEM, FJ_ESYSTEM) or does not take the work.  No allocation. */
template <class F, class G>
inline detail::join_result_t<F, G> join(F &&f, G &&g)
{
    if (fj_worker *worker = fj__self)
        return detail::join_two<detail::plain_calls, G>(worker, nullptr, f, g);
    if constexpr (detail::copied_outside_v<F, G>) {
        F f_copy(f);
        G g_copy(g);
        return detail::join_outside<G>(f_copy, g_copy);
    } else {
        return detail::join_outside<G>(f, g);
    }
}

/** Runs three or more callables in parallel, as join(f, g) runs two (TBB's
 * parallel_invoke, Java's invokeAll(tasks...)): f1 ... fn are forked, f0 runs
 * on this thread, then f1 ... fn are joined in that order, each run inline if
 * nobody took it, else helped with.
 * Returns std::tuple{f0(), f1(), ..., fn()}; nothing when all return void; a
 * void side appears as std::monostate.  References are returned as such.
 * If sides throw, every side still runs to the end; then the exception of the
 * first of them in argument order is rethrown and the others are dropped.
 * Each side is invoked once; lvalues as the caller's objects, temporaries as
 * join(f, g)'s g (a copy in its frame when trivially copy-constructible and
 * destructible and small).
 * The same threads, failures and ordering as join(f, g); no allocation.
 * The spawns after the first and every join of the sides use the caller's
 * copy of the deque's top, carried from one to the next, so one call with
 * n + 1 sides costs less than n nested joins of two. */
template <class F0, class F1, class F2, class... More>
inline detail::join_all_result_t<F0, F1, F2, More...> join(F0 &&f0, F1 &&f1, F2 &&f2, More &&...more)
{
    if (fj_worker *worker = fj__self)
        return detail::join_all_here<detail::plain_calls, F0, F1, F2, More...>(worker, nullptr, f0, f1, f2, more...);
    if constexpr (detail::copied_outside_v<F0, F1, F2, More...>) {
        std::tuple<F0, F1, F2, More...> copies(f0, f1, f2, more...);
        return std::apply([](auto &...copy) { return detail::join_all_outside<F0, F1, F2, More...>(copy...); },
                          copies);
    } else {
        return detail::join_all_outside<F0, F1, F2, More...>(f0, f1, f2, more...);
    }
}

/** fj::join(f, g) through a context (see fj::context): g is forked, f runs
 * on this thread, then g is joined; each is called as side(context) with the
 * context it is to use.  Returns, throws and allocates as fj::join(f, g)
 * (std::pair{f(cx), g(cx)}, nothing when both return void, f's exception
 * when both throw, no allocation).  On the worker whose context cx is. */
template <class F, class G>
__attribute__((always_inline)) inline detail::two_result_t<detail::context_calls, F, G> join(context cx, F &&f,
                                                                                             G &&g)
{
    fj_worker *worker = detail::context_worker(cx);
    detail::check_context(worker, detail::context_top(cx));
    return detail::context_join_two<detail::context_calls, G>(worker, detail::context_top(cx), f, g);
}

/** fj::join(f0, f1, ..., fn) through a context: a std::tuple of the results in
 * argument order, as fj::join of three or more; each side called as
 * side(context). */
template <class F0, class F1, class F2, class... More>
__attribute__((always_inline)) inline detail::all_result_t<detail::context_calls, F0, F1, F2, More...>
join(context cx, F0 &&f0, F1 &&f1, F2 &&f2, More &&...more)
{
    fj_worker *worker = detail::context_worker(cx);
    detail::check_context(worker, detail::context_top(cx));
    return detail::context_join_all<detail::context_calls, F0, F1, F2, More...>(worker, detail::context_top(cx), f0,
                                                                                 f1, f2, more...);
}

namespace detail {
/* Whether some fj::join above takes these arguments: sides callable as
 * side() (two, or three and more), or a context and sides callable as
 * side(context) (two, or three and more). */
template <class... A>
constexpr bool plain_join_v = sizeof...(A) >= 2 && (std::is_invocable_v<A &> && ...);
template <class... A>
struct context_join : std::false_type {};
template <class C, class... Sides>
struct context_join<C, Sides...>
    : std::bool_constant<std::is_same_v<std::decay_t<C>, context> && sizeof...(Sides) >= 2 &&
                         (std::is_invocable_v<Sides &, context> && ...)> {};
template <class... A>
constexpr bool joinable_v = plain_join_v<A...> || context_join<A...>::value;
template <class... A>
constexpr bool never_v = false;
} // namespace detail

/** fj::join of arguments that no fj::join above takes (sides that take an
 * fj::context without one, a context with sides that take none, one side): a
 * compile error that says how a join calls its sides, where overload
 * resolution would list every candidate and the std::invoke_result each lacks.
 * Never part of a program that compiles. */
template <class... A, std::enable_if_t<!detail::joinable_v<A...>, int> = 0>
auto join(A &&...) /* deduced: the assertion below fires before the caller uses the result */
{
    static_assert(detail::never_v<A...>,
                  "fj::join: two or more sides, each callable as side() (fj::join(f, g, ...)), or an "
                  "fj::context first and sides callable as side(fj::context) (fj::join(cx, f, g, ...))");
}

inline context current_context()
{
    fj_worker *worker = fj__self;
    if (!worker)
        detail::fail(FJ_ENOTWORKER);
    return detail::context_at(worker, fj__top(worker));
}

/* ======================================================================== */
/* pool                                                                     */
/* ======================================================================== */

/** Owns an fj_pool: created (and its workers started) by the constructor,
 * destroyed (after all accepted work finished) by the destructor. */
class pool {
public:
    /** `workers` workers; 0: FJ_WORKERS or one per CPU the creating thread may
     * run on.  Fails (fj::error) with FJ_EINVAL (more than 1024, or a bad FJ_* variable: what() names it and
     * its value), FJ_ENOMEM or FJ_ESYSTEM.  Any thread. */
    explicit pool(unsigned workers = 0)
    {
        fj_config config;
        fj_config_init(&config);
        config.workers = workers;
        create(config);
    }

    /** Every setting of fj_config (fj_config_init first). */
    explicit pool(const fj_config &config) { create(config); }

    pool(const pool &) = delete;
    pool &operator=(const pool &) = delete;
    /** Takes over `other`'s pool; `other` is left without one (only its
     * destructor and assignment may be used). */
    pool(pool &&other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    /** Destroys this pool's own (as the destructor does), then takes over `other`'s. */
    pool &operator=(pool &&other) noexcept
    {
        if (this != &other) {
            destroy();
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }

    /** Waits for the accepted work and frees the pool.  Not on one of this
     * pool's own workers (fj_pool_destroy refuses with FJ_EDEADLK: a debug
     * build asserts, a release build leaves the pool running). */
    ~pool() { destroy(); }

    /** Runs f() as a root task of this pool and returns its result (or rethrows
     * its exception).  From a thread that is not one of its workers the caller
     * blocks until f returns; on one of its workers f runs inline.  An f that
     * takes an fj::context (and cannot be called with no argument) is called
     * as f(cx), cx the running worker's.  Fails (fj::error) with FJ_ESHUTDOWN
     * or FJ_ENOMEM if the pool does not take it. */
    template <class F>
    decltype(auto) invoke(F &&f)
    {
        if constexpr (std::is_invocable_v<F &>) {
            return detail::invoke_on(handle_, f);
        } else {
            auto with_context = [&f]() -> decltype(auto) { return std::invoke(f, current_context()); };
            return detail::invoke_on(handle_, with_context);
        }
    }

    /** Number of workers.  Any thread. */
    unsigned workers() const noexcept { return fj_pool_worker_count(handle_); }

    /** The C handle, for the calls of fj.h (statistics, shutdown, ...). */
    fj_pool *native_handle() const noexcept { return handle_; }

private:
    void create(const fj_config &config)
    {
        if (int rc = fj_pool_create(&handle_, &config))
            detail::fail_detailed(rc);
    }

    void destroy() noexcept
    {
        if (!handle_)
            return;
        int rc = fj_pool_destroy(handle_);
        assert(rc == 0 && "fj::pool destroyed on one of its own workers");
        (void)rc;
        handle_ = nullptr;
    }

    fj_pool *handle_ = nullptr;
};

/* ======================================================================== */
/* task_group                                                               */
/* ======================================================================== */

/** Any number of lambdas, started by run() and waited for together by wait()
 * (oneTBB's task_group).  run() forks each one at once (from a thread that is
 * not a worker: onto the common pool); wait() joins them, newest first, so on a
 * worker the ones nobody stole run inline.
 *
 * Who may call: run() and wait() from one thread at a time, the group's owner
 * (typically the thread that made it); not from the group's own tasks.
 * Exceptions: every task runs to the end whatever the others throw; wait()
 * rethrows the first exception caught.  After wait() the group can be reused.
 * Memory: each run() copies (or moves) its lambda into a task record in the
 * group's arena: the first 1 KiB lives in the group object, the rest in blocks
 * from operator new, doubling, freed at wait(). */
class task_group {
public:
    /** An empty group; allocates nothing. */
    task_group() noexcept = default;
    task_group(const task_group &) = delete;
    task_group &operator=(const task_group &) = delete;

    /** Waits for tasks not yet waited for; their exceptions are dropped (call
     * wait() to see them). */
    ~task_group()
    {
        join_all();
        errors_.drop();
        free_blocks();
    }

    /** Starts f() (a copy of f, or f moved) as a task of this group.  Fails
     * (fj::error) only from a thread that is not a worker, when the common pool
     * cannot start (fj_common_pool) or does not take the task (FJ_ENOMEM,
     * FJ_ESHUTDOWN); it does not run then.
     * An exception from copying f or from operator new propagates; the tasks
     * already started are unaffected. */
    template <class F>
    void run(F &&f)
    {
        if (!fj__self)
            (void)detail::common_pool();  /* fails naming what kept it from starting */
        using record_type = typed_record<std::decay_t<F>>;
        void *memory = allocate(sizeof(record_type), alignof(record_type));
        record_type *task = new (memory) record_type(std::forward<F>(f), &errors_);
        int rc = fj_fork(task);
        if (rc != 0) {
            task->destroy(task);
            detail::fail(rc);
        }
        task->previous = newest_;
        newest_ = task;
    }

    /** Waits until every task started by run() completed, frees their records,
     * then rethrows the first exception any of them threw.  A worker helps with
     * other work while it waits; another thread blocks. */
    void wait()
    {
        join_all();
        free_blocks();
        errors_.rethrow_if_any();
    }

private:
    struct record : fj_task {
        record *previous = nullptr;     /* the task run() started before this one */
        void (*destroy)(record *) noexcept; /* ~typed_record<F> */

        explicit record(fj_task_fn runner, void (*destroyer)(record *) noexcept) noexcept
            : fj_task FJ_TASK_INIT(runner), destroy(destroyer)
        {
        }
    };

    template <class F>
    struct typed_record : record {
        detail::first_exception *errors;
        F body; /* the lambda (fj_task's `fn` is the C entry point, run below) */

        template <class A>
        typed_record(A &&f, detail::first_exception *errs)
            : record(&typed_record::run, &typed_record::destroy_record), errors(errs), body(std::forward<A>(f))
        {
        }

        static int run(fj_task *task) noexcept
        {
            typed_record *self = static_cast<typed_record *>(task);
            detail::run_capturing(self->body, *self->errors);
            return 0;
        }

        static void destroy_record(record *r) noexcept { static_cast<typed_record *>(r)->~typed_record(); }
    };

    /* A heap block of the arena; its bytes follow the header. */
    struct arena_block {
        arena_block *next;
        std::size_t size;
    };

    static constexpr std::size_t inline_bytes = 1024;
    static constexpr std::size_t first_block_bytes = 4096;
    static constexpr std::size_t block_header =
        (sizeof(arena_block) + alignof(std::max_align_t) - 1) / alignof(std::max_align_t) * alignof(std::max_align_t);

    /* Joins every started task, newest first, and destroys its record. */
    void join_all() noexcept
    {
        while (newest_) {
            record *r = newest_;
            /* Our records are forked once and return 0: the outcome is 0. */
            int outcome = fj_join(r);
            assert(outcome == 0);
            (void)outcome;
            newest_ = r->previous;
            r->destroy(r);
        }
    }

    /* `size` bytes aligned to `align` from the arena; never moved, valid until
     * free_blocks(). */
    void *allocate(std::size_t size, std::size_t align)
    {
        if (void *p = carve(size, align))
            return p;
        std::size_t last = blocks_ ? blocks_->size : first_block_bytes / 2;
        std::size_t want = last * 2 > size + align ? last * 2 : size + align;
        arena_block *b = static_cast<arena_block *>(::operator new(block_header + want));
        b->next = blocks_;
        b->size = want;
        blocks_ = b;
        cursor_ = reinterpret_cast<unsigned char *>(b) + block_header;
        end_ = cursor_ + want;
        return carve(size, align);
    }

    void *carve(std::size_t size, std::size_t align) noexcept
    {
        std::uintptr_t at = reinterpret_cast<std::uintptr_t>(cursor_);
        std::uintptr_t aligned = (at + align - 1) & ~(static_cast<std::uintptr_t>(align) - 1);
        if (aligned + size > reinterpret_cast<std::uintptr_t>(end_))
            return nullptr;
        cursor_ = reinterpret_cast<unsigned char *>(aligned + size);
        return reinterpret_cast<void *>(aligned);
    }

    void free_blocks() noexcept
    {
        while (blocks_) {
            arena_block *next = blocks_->next;
            ::operator delete(blocks_);
            blocks_ = next;
        }
        cursor_ = inline_;
        end_ = inline_ + inline_bytes;
    }

    record *newest_ = nullptr;
    detail::first_exception errors_;
    arena_block *blocks_ = nullptr;
    unsigned char *cursor_ = inline_;
    unsigned char *end_ = inline_ + inline_bytes;
    alignas(std::max_align_t) unsigned char inline_[inline_bytes];
};

/* ======================================================================== */
/* Parallel loops                                                           */
/* ======================================================================== */

namespace detail {

template <class Index>
inline std::int64_t to_index64(Index i)
{
    static_assert(std::is_integral_v<Index>, "loop indices are integers");
    return static_cast<std::int64_t>(i);
}

template <class Index, class F>
struct for_context {
    F *body;
    first_exception errors;

    /* fj_range_fn: body(lo, hi) when it takes two indices, else body(i) for
     * each i in [lo, hi). */
    static void run(std::int64_t lo, std::int64_t hi, void *ctx) noexcept
    {
        for_context *c = static_cast<for_context *>(ctx);
        if (c->errors.raised())
            return; /* a throw elsewhere: skip the grains not started */
        run_capturing(
            [&] {
                if constexpr (std::is_invocable_v<F &, Index, Index>) {
                    (*c->body)(static_cast<Index>(lo), static_cast<Index>(hi));
                } else {
                    for (std::int64_t i = lo; i < hi; i++)
                        (*c->body)(static_cast<Index>(i));
                }
            },
            c->errors);
    }
};

/* A fold step over [lo, hi): fold(lo, hi, acc) when it takes three arguments,
 * else acc = fold(acc, i) for each i. */
template <class Index, class T, class Fold>
inline T fold_range(Fold &fold, std::int64_t lo, std::int64_t hi, T acc)
{
    if constexpr (std::is_invocable_r_v<T, Fold &, Index, Index, T>) {
        return fold(static_cast<Index>(lo), static_cast<Index>(hi), std::move(acc));
    } else {
        static_assert(std::is_invocable_r_v<T, Fold &, T, Index>,
                      "parallel_reduce's fold is T(Index lo, Index hi, T acc) or T(T acc, Index i)");
        for (std::int64_t i = lo; i < hi; i++)
            acc = fold(std::move(acc), static_cast<Index>(i));
        return acc;
    }
}

/* The accumulators live in the runtime's buffers, which it fills and moves
 * with memcpy: a trivially copyable T lives there itself; any other T is boxed
 * (the buffer holds a T*, nullptr standing for the identity, and the box is
 * made at the first fold of a run and freed when combined). */
template <class T>
inline constexpr bool reduce_in_place_v = std::is_trivially_copyable_v<T> && alignof(T) <= alignof(std::max_align_t);

template <class Index, class T, class Fold, class Combine>
struct reduce_context {
    const T *identity;
    Fold *fold;
    Combine *combine;
    first_exception errors;

    static void fold_in_place(std::int64_t lo, std::int64_t hi, void *acc, void *ctx) noexcept
    {
        reduce_context *c = static_cast<reduce_context *>(ctx);
        if (c->errors.raised())
            return;
        T *value = static_cast<T *>(acc);
        run_capturing([&] { *value = fold_range<Index, T>(*c->fold, lo, hi, std::move(*value)); }, c->errors);
    }

    static void combine_in_place(void *acc, const void *right, void *ctx) noexcept
    {
        reduce_context *c = static_cast<reduce_context *>(ctx);
        if (c->errors.raised())
            return;
        T *value = static_cast<T *>(acc);
        const T *other = static_cast<const T *>(right);
        run_capturing([&] { *value = (*c->combine)(std::move(*value), *other); }, c->errors);
    }

    static void fold_boxed(std::int64_t lo, std::int64_t hi, void *acc, void *ctx) noexcept
    {
        reduce_context *c = static_cast<reduce_context *>(ctx);
        if (c->errors.raised())
            return;
        T *&box = *static_cast<T **>(acc);
        run_capturing(
            [&] {
                if (!box)
                    box = new T(*c->identity);
                *box = fold_range<Index, T>(*c->fold, lo, hi, std::move(*box));
            },
            c->errors);
    }

    /* Runs on the caller's thread, over every run that folded something, so
     * every box is freed here, after a throw too. */
    static void combine_boxed(void *acc, const void *right, void *ctx) noexcept
    {
        reduce_context *c = static_cast<reduce_context *>(ctx);
        T *&box = *static_cast<T **>(acc);
        T *other = *static_cast<T *const *>(right);
        if (!other)
            return;
        if (!box || c->errors.raised()) {
            if (!box)
                box = other;
            else
                delete other;
            return;
        }
        run_capturing([&] { *box = (*c->combine)(std::move(*box), std::move(*other)); }, c->errors);
        delete other;
    }
};

} // namespace detail

/** Calls body for every index of [first, last), in parallel, in any order:
 * body(i) once per index, or, if body takes two indices, body(lo, hi) once per
 * sub-range [lo, hi) of at most `grain` indices, the sub-ranges covering
 * [first, last) exactly once.  grain 0: automatic (about 256 grains per
 * worker); docs/loops.md says how the work is shared.
 * Any thread: on a worker, on its pool; elsewhere on the common pool, the
 * caller blocking.  Loops nest.  first and last may be of different integer
 * types: the indices passed are of their common type, and must fit in int64_t.
 * A throw from body: the grains not yet started are skipped, then the first
 * exception caught is rethrown here.  Fails (fj::error) with FJ_EINVAL when
 * first > last or grain < 0, FJ_ENOMEM, FJ_ESHUTDOWN (see fj_parallel_for), or
 * off a worker when the common pool cannot start (fj_common_pool); what()
 * names the argument and its value, as fj_last_error_detail() does. */
template <class First, class Last, class F>
inline void parallel_for(First first, Last last, F &&body, std::int64_t grain = 0)
{
    using Index = std::common_type_t<First, Last>;
    static_assert(std::is_invocable_v<F &, Index, Index> || std::is_invocable_v<F &, Index>,
                  "parallel_for's body is void(Index i) or void(Index lo, Index hi)");
    using context = detail::for_context<Index, std::remove_reference_t<F>>;
    context c{&body, {}};
    detail::check_detailed(fj_parallel_for(detail::pool_for_loops(), detail::to_index64<Index>(first), detail::to_index64<Index>(last), grain,
                                  &context::run, &c));
    c.errors.rethrow_if_any();
}

/** Reduces [first, last) to one value of type T, in parallel:
 *   fold     T(T acc, Index i): acc with index i folded in; or
 *            T(Index lo, Index hi, T acc): acc with [lo, hi) folded in, left to right
 *   combine  T(T left, T right): the values of two adjacent runs of indices, in order
 * Each run of indices one worker takes starts from a copy of `identity`; the
 * runs' values are combined in index order on the calling thread.  For an
 * associative combine the result is the serial fold's, whatever the schedule
 * (integers: exactly; floating point: see docs/loops.md).  An empty range
 * returns `identity`.  T: any copyable type; trivially copyable ones live in the
 * runtime's buffers, others in one heap box per run of indices.
 * Where it runs, grain, exceptions and failures: as parallel_for. */
template <class First, class Last, class T, class Fold, class Combine>
inline T parallel_reduce(First first, Last last, const T &identity, Fold &&fold, Combine &&combine,
                         std::int64_t grain = 0)
{
    using Index = std::common_type_t<First, Last>;
    using context = detail::reduce_context<Index, T, std::remove_reference_t<Fold>, std::remove_reference_t<Combine>>;
    context c{&identity, &fold, &combine, {}};
    std::int64_t lo = detail::to_index64<Index>(first), hi = detail::to_index64<Index>(last);
    if constexpr (detail::reduce_in_place_v<T>) {
        T result = identity;
        detail::check_detailed(fj_parallel_reduce(detail::pool_for_loops(), lo, hi, grain, &result, sizeof(T), &identity,
                                         &context::fold_in_place, &context::combine_in_place, &c));
        c.errors.rethrow_if_any();
        return result;
    } else {
        T *const no_box = nullptr;
        T *box = nullptr;
        int rc = fj_parallel_reduce(detail::pool_for_loops(), lo, hi, grain, &box, sizeof box, &no_box, &context::fold_boxed,
                                    &context::combine_boxed, &c);
        std::unique_ptr<T> result(box);
        detail::check_detailed(rc);
        c.errors.rethrow_if_any();
        return result ? std::move(*result) : identity;
    }
}

} // namespace fj

#pragma GCC diagnostic pop

#endif /* FJ_HPP */
