// karatsuba.cpp - polynomial multiplication by Karatsuba's divide and conquer,
// through fj.hpp: the three half-size products a step needs run in parallel,
// one fj::join of three lambdas where the serial recursion makes three calls.
//
// With a = a_lo + x^h a_hi and b = b_lo + x^h b_hi (n coefficients each, h = n/2):
//   z0 = a_lo b_lo,  z2 = a_hi b_hi,  z1 = (a_lo + a_hi)(b_lo + b_hi) - z0 - z2,
//   a b = z0 + x^h z1 + x^n z2:
// three products of size h instead of the schoolbook's four.  Below a cut-off
// the schoolbook product is quicker than splitting.  The product is checked
// against the schoolbook product of the whole polynomials.
//
// Usage: karatsuba_cxx [--workers N] [LOG2_N]   (n = 2^LOG2_N coefficients)
#include <cstdio>
#include <vector>

#include "example_util.h"
#include "fj.hpp"

using poly = std::vector<long>;

static const size_t cutoff = 32;

// The product of a and b, n coefficients each: 2n - 1 coefficients.
static poly schoolbook(const long *a, const long *b, size_t n)
{
    poly c(2 * n - 1, 0);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            c[i + j] += a[i] * b[j];
    return c;
}

// c = z0 + x^h (z1 - z0 - z2) + x^2h z2, each z of 2h - 1 coefficients.
static poly combine(const poly &z0, const poly &z1, const poly &z2, size_t h)
{
    poly c(4 * h - 1, 0);
    for (size_t i = 0; i < 2 * h - 1; i++) {
        c[i] += z0[i];
        c[i + h] += z1[i] - z0[i] - z2[i];
        c[i + 2 * h] += z2[i];
    }
    return c;
}

// The low half plus the high half: the operand of the middle product.
static poly halves_summed(const long *p, size_t h)
{
    poly sum(h);
    for (size_t i = 0; i < h; i++)
        sum[i] = p[i] + p[i + h];
    return sum;
}

static poly karatsuba(const long *a, const long *b, size_t n)
{
    if (n <= cutoff)
        return schoolbook(a, b, n);
    size_t h = n / 2;
    poly a_sum = halves_summed(a, h), b_sum = halves_summed(b, h);
    auto [z0, z1, z2] = fj::join([=] { return karatsuba(a, b, h); },
                                 [&] { return karatsuba(a_sum.data(), b_sum.data(), h); },
                                 [=] { return karatsuba(a + h, b + h, h); });
    return combine(z0, z1, z2, h);
}

// Coefficients in -9..9 from a fixed linear congruential sequence.
static poly sample(size_t n, unsigned long seed)
{
    poly p(n);
    for (size_t i = 0; i < n; i++) {
        seed = seed * 6364136223846793005UL + 1442695040888963407UL;
        p[i] = (long)((seed >> 33) % 19) - 9;
    }
    return p;
}

int main(int argc, char **argv)
{
    example_args args = example_parse(argc, argv, 13, 1, 20);
    size_t n = (size_t)1 << args.size;
    poly a = sample(n, 1), b = sample(n, 2);
    fj::pool pool(args.workers);

    double t0 = example_seconds();
    poly product = pool.invoke([&] { return karatsuba(a.data(), b.data(), n); });
    double t1 = example_seconds();
    poly expected = schoolbook(a.data(), b.data(), n);
    double t2 = example_seconds();
    std::printf("karatsuba: %zu coefficients times %zu on %u workers, x^%zu coefficient %ld\n", n, n,
                pool.workers(), n - 1, product[n - 1]);
    return example_verdict("karatsuba_cxx", product == expected, t1 - t0, t2 - t1);
}
