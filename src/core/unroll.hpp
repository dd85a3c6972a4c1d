#pragma once
// Loop-unrolling pragmas for the kernels.
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
