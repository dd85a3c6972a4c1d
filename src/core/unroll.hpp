#pragma once
// Loop-unrolling pragmas for the kernels, and PK_NOINLINE.
//
// PK_UNROLL: full unrolling of the loops over a thread's register tile. The accumulators are a
// fixed-size array indexed only by compile-time constants, so that they live in registers (a
// run-time index would put the array in (GPU local / CPU stack) memory).
//
// PK_NO_UNROLL: a loop the compiler must not unroll, where copies of its body would each keep
// their own registers live (on a GPU: more registers than the launch bounds allow, so spills).
#if defined(__CUDACC__) || defined(__clang__)
#define PK_UNROLL _Pragma("unroll")
#define PK_NO_UNROLL _Pragma("unroll 1")
#elif defined(__GNUC__)
#define PK_UNROLL _Pragma("GCC unroll 64")
#define PK_NO_UNROLL _Pragma("GCC unroll 1")
#else
#define PK_UNROLL
#define PK_NO_UNROLL
#endif

// PK_UNROLL_GPU: a loop that a GPU thread unrolls into registers and a CPU leaves to its compiler:
// the loops over a stencil of a size known only at run time there, and over the consecutive
// elements of a thread's block of results, which a CPU's block has many of (a loop the compiler
// vectorizes; unrolling it first would leave that to the SLP vectorizer).
#if defined(__CUDACC__)
#define PK_UNROLL_GPU _Pragma("unroll")
#else
#define PK_UNROLL_GPU
#endif

// PK_NOINLINE: a function the compiler must not inline (host code whose register allocation
// suffers inside a larger function; a GPU kernel's code is always inlined instead).
#if defined(__GNUC__) || defined(__clang__) || defined(__CUDACC__)
#define PK_NOINLINE __attribute__((noinline))
#else
#define PK_NOINLINE
#endif
