#pragma once
// The device primitives of src/core/primitives.hpp for NVIDIA GPUs: the only place where pk's
// kernels use inline PTX and CUDA intrinsics. Each one replaces a portable definition; what a GPU
// compiled for an older architecture lacks falls back to it (or, for tensor copies, is never
// asked for: cuda_tile_tensor_map gives no map there).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "core/primitives.hpp"

namespace pk::detail {

// Host: the device address of a 2-D tensor map over a height x width float image (one channel,
// dense rows) with boxes of box_w x box_h, or null where the device, the driver or the image
// cannot have one (cuda_tile_tensor_map.cpp).
const void* cuda_tile_tensor_map(const float* image, std::int64_t height, std::int64_t width, int box_w, int box_h);

struct cuda_primitives {
  // cp.async.cg: 16 bytes from global to shared memory with no registers between (LDGSTS, bypassing
  // L1). .L2::128B asks L2 to fetch the whole 128-byte line the pack lies in: on the H200 that took
  // the 5x5 from 0.79 to 0.82 of copy bandwidth (256 bytes: 0.81; an evict-first policy on the
  // loads: 0.74).
  template <class E>
  KOKKOS_INLINE_FUNCTION static void copy_async(E* scratch, const E* global) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const auto to = static_cast<unsigned>(__cvta_generic_to_shared(scratch));
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;" ::"r"(to), "l"(global) : "memory");
#else
    portable_primitives::copy_async(scratch, global);
#endif
  }
  KOKKOS_INLINE_FUNCTION static void wait_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_all;" ::: "memory");
#endif
  }

  // Float results stored "evict first" (st.global.cs): on the H200 this took the 3x3 filter from
  // 0.82-0.84 to 0.87-0.88 of copy bandwidth and the 5x5 from 0.76 to 0.79; presumably L2 then
  // keeps the staged rows that neighbouring tiles read again (not profiled). Four uint8 results
  // go the same way as the one 32-bit word narrow_to_bytes packed them into: stored as a struct of
  // four bytes, nvcc took the word apart into four byte registers for an st.global.v4.u8 and
  // ptxas put it together again (six instructions a store).
  template <class P>
  KOKKOS_INLINE_FUNCTION static void store_streaming(P* dst, const P& value) {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<P, pack<float>>) {
      __stcs(reinterpret_cast<float4*>(dst), make_float4(value.v[0], value.v[1], value.v[2], value.v[3]));
      return;
    } else if constexpr (std::is_same_v<P, pack<std::uint8_t, 4>>) {
      __stcs(reinterpret_cast<unsigned*>(dst), *reinterpret_cast<const unsigned*>(&value));
      return;
    }
#endif
    *dst = value;
  }

  // Bytes to floats without the conversion unit (I2F: 16 a clock an SM on Hopper, against 128
  // FP32 lanes): PRMT places byte k under the exponent of 2^23 (0x4B000000), where the mantissa's
  // last bits are the integer itself, and a subtraction of 2^23 leaves it. Two full-rate
  // instructions a byte.
  KOKKOS_INLINE_FUNCTION static void widen_bytes(const pack<std::uint8_t, 4>& p, float (&v)[4]) {
#if defined(__CUDA_ARCH__)
    const unsigned w = *reinterpret_cast<const unsigned*>(&p);
    PK_UNROLL
    for (int k = 0; k < 4; ++k) v[k] = __uint_as_float(__byte_perm(w, 0x4B000000u, 0x7540u | k)) - 8388608.f;
#else
    portable_primitives::widen_bytes(p, v);
#endif
  }
  // Floats to bytes: cvt.rni.sat.u8.f32 is to_pixel's rule in one instruction (nearest, ties to
  // even; saturated to 0..255; NaN gives 0; SASS F2IP.U8.F32), where clamping and rounding on the
  // FP32 lanes took three (FMNMX, FMNMX, FADD of 1.5 x 2^23); PRMT gathers the four bytes.
  KOKKOS_INLINE_FUNCTION static pack<std::uint8_t, 4> narrow_to_bytes(const float (&v)[4]) {
#if defined(__CUDA_ARCH__)
    unsigned b[4];
    PK_UNROLL
    for (int k = 0; k < 4; ++k) asm("cvt.rni.sat.u8.f32 %0, %1;" : "=r"(b[k]) : "f"(v[k]));  // (PTX: a wider register)
    return low_bytes(b);
#else
    return portable_primitives::narrow_to_bytes(v);
#endif
  }
  // Byte k of the pack: the low byte of b[k] (two PRMT gather pairs, a third the pairs).
  KOKKOS_INLINE_FUNCTION static pack<std::uint8_t, 4> low_bytes(const unsigned (&b)[4]) {
    pack<std::uint8_t, 4> p;
#if defined(__CUDA_ARCH__)
    *reinterpret_cast<unsigned*>(&p) =
        __byte_perm(__byte_perm(b[0], b[1], 0x0040u), __byte_perm(b[2], b[3], 0x0040u), 0x5410u);
#else
    for (int k = 0; k < 4; ++k) p.v[k] = static_cast<std::uint8_t>(b[k]);
#endif
    return p;
  }

  // sqrt.approx.f32, what sqrtf is with -prec-sqrt=false: a few ulp at most (CUDA programming
  // guide), zero, infinity, NaN and subnormals as IEEE, one instruction. The IEEE-rounded sqrtf is
  // several plus a slow path that is a subroutine call, around which every live register is saved:
  // with it the Sobel magnitude measured 0.589 of copy bandwidth on the H200, 0.618 with this.
  KOKKOS_INLINE_FUNCTION static float sqrt_approx(float x) {
#if defined(__CUDA_ARCH__)
    float r;
    asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
#else
    return portable_primitives::sqrt_approx(x);
#endif
  }

  // The warp's matrix multiply-accumulate of doubles on the FP64 tensor cores (Hopper on):
  // mma.sync.aligned.m16n8k{4,8,16}.row.col.f64 (PTX ISA, "Matrix Fragments for mma.m16n8k*" of
  // .f64): per 4 of K, a lane holds A(lane/4, k) and A(lane/4 + 8, k) at k = 4q + lane % 4, and
  // B(k, lane/4); D as portable_warp_mma places it. Elsewhere (older GPUs, the host pass) the
  // portable definition, whose fragments hold what those need.
  template <int K_>
  struct warp_mma : portable_warp_mma<K_> {
    using base = portable_warp_mma<K_>;
    using typename base::a_fragment;
    using typename base::b_fragment;
    static constexpr int K = K_;
    KOKKOS_FORCEINLINE_FUNCTION static void load_a(a_fragment& f, const double* a, int lda, int lane) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
      const double* p = a + (lane % 4) * lda + lane / 4;
      PK_UNROLL
      for (int q = 0; q < K / 4; ++q) {
        f.v[2 * q] = p[4 * q * lda];
        f.v[2 * q + 1] = p[4 * q * lda + 8];
      }
#else
      base::load_a(f, a, lda, lane);
#endif
    }
    KOKKOS_FORCEINLINE_FUNCTION static void load_b(b_fragment& f, const double* b, int ldb, int lane) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
      const double* p = b + (lane % 4) * ldb + lane / 4;
      PK_UNROLL
      for (int q = 0; q < K / 4; ++q) f.v[q] = p[4 * q * ldb];
#else
      base::load_b(f, b, ldb, lane);
#endif
    }
    KOKKOS_FORCEINLINE_FUNCTION static void mma(double (&c)[4], const a_fragment& a, const b_fragment& b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
      const double* x = a.v;
      const double* y = b.v;
      if constexpr (K == 4) {
        asm("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
            : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
            : "d"(x[0]), "d"(x[1]), "d"(y[0]));
      } else if constexpr (K == 8) {
        asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
            "{%0, %1, %2, %3};"
            : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
            : "d"(x[0]), "d"(x[1]), "d"(x[2]), "d"(x[3]), "d"(y[0]), "d"(y[1]));
      } else {
        asm("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, "
            "%11}, {%12, %13, %14, %15}, {%0, %1, %2, %3};"
            : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
            : "d"(x[0]), "d"(x[1]), "d"(x[2]), "d"(x[3]), "d"(x[4]), "d"(x[5]), "d"(x[6]), "d"(x[7]), "d"(y[0]),
              "d"(y[1]), "d"(y[2]), "d"(y[3]));
      }
#else
      base::mma(c, a, b);
#endif
    }
  };

  // Tensor copies by the tensor memory accelerator (Hopper on): one thread asks for the boxes
  // (cp.async.bulk.tensor), the hardware copies them into shared memory and signals an mbarrier
  // (at `signal`), and every thread waits on it for itself: with one thread waiting and the others
  // at a team barrier, ptxas spilled the 5x5 kernel at its 48 registers (152 bytes a thread).
  // A tensor map lives in device global memory (made once per image by cuda_tile_tensor_map): a
  // kernel parameter would be its natural home, but Kokkos passes the functor as an ordinary
  // parameter (not __grid_constant__), so the kernel could not take its address.
  using tensor_map = const void*;
  static tensor_map make_tensor_map(const float* image, std::int64_t height, std::int64_t width, int box_w, int box_h) {
    return cuda_tile_tensor_map(image, height, width, box_w, box_h);
  }
  KOKKOS_INLINE_FUNCTION static bool has(tensor_map m) { return m != nullptr; }
  template <class Member>
  KOKKOS_INLINE_FUNCTION static void tensor_copy(const Member& team, tensor_map map, int box_w, int box_h,
                                                 float* first, std::int64_t stride, int boxes, int x, int step, int y,
                                                 void* signal) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const auto barrier = [&] { return static_cast<unsigned>(__cvta_generic_to_shared(signal)); };
    if (team.team_rank() == 0) {
      const unsigned bytes = static_cast<unsigned>(box_w * box_h * sizeof(float)) * boxes;
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(barrier()) : "memory");
      // The copies (the async proxy) must see the barrier initialized.
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(barrier()), "r"(bytes) : "memory");
      for (int b = 0; b < boxes; ++b) {
        const auto dst = static_cast<unsigned>(__cvta_generic_to_shared(first + b * stride));
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
            "[%4];" ::"r"(dst),
            "l"(map), "r"(x + b * step), "r"(y), "r"(barrier())
            : "memory");
      }
    }
    team.team_barrier();  // the mbarrier is initialized before anyone waits on it
    unsigned done = 0;
    while (!done)
      asm volatile(
          "{\n"
          ".reg .pred p;\n"
          "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
          "selp.u32 %0, 1, 0, p;\n"
          "}"
          : "=r"(done)
          : "r"(barrier())
          : "memory");
#else
    // Never reached: cuda_tile_tensor_map gives no map where there is no tensor memory accelerator.
    (void)team, (void)map, (void)box_w, (void)box_h, (void)first, (void)stride, (void)boxes, (void)x, (void)step,
        (void)y, (void)signal;
    Kokkos::abort("pk: tensor copies need compute capability 9.0");
#endif
  }
};

}  // namespace pk::detail
