#pragma once
// How a K step of one GEMM operand reaches scratch on CPUs (a team of one thread): packed into
// panels (the Layout's, one per thread tile), panel by panel, each loop running along the stored
// matrix's rows, zeros outside the matrix; only the kc rows of the step that the multiply reads.
// fetch only notes the step: with one thread there is nothing to overlap. X is the operand
// (gemm_operands.hpp: a matrix, or a convolution's windows).
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "matmul/gemm_operands.hpp"

namespace pk::detail {

template <class Gemm, class Layout, class X>
struct copy_panels {
  using T = typename Gemm::value_type;
  static constexpr int Panel = Layout::panel_width, Row = Layout::row_stride, Width = Layout::width;
  static constexpr int TileK = Layout::depth;
  static_assert(Gemm::TeamSize == 1, "panels are packed by a team of one thread");

  operand_reader<X> x;
  bool along_k;  // K runs along X's rows: element (kk, c) of the step is X(x0 + c, k_begin + k0 + kk)
  std::int64_t x0, x_end, k_begin, k, k0 = 0;  // K from k_begin, k of it; the step's start in it

  template <class Member>
  KOKKOS_INLINE_FUNCTION copy_panels(const Member&, const X& x_, bool along_k_, std::int64_t x0_, std::int64_t x_end_,
                                     std::int64_t k_begin_, std::int64_t k_)
      : x(x_, along_k_, TileK), along_k(along_k_), x0(x0_), x_end(x_end_), k_begin(k_begin_), k(k_) {}

  KOKKOS_INLINE_FUNCTION void fetch(std::int64_t s) { k0 = s * TileK; }

  // Panels wholly past x_end are skipped: the thread tiles that would read them are.
  KOKKOS_INLINE_FUNCTION void store(T* tile) const {
    const int kc = k - k0 < TileK ? static_cast<int>(k - k0) : TileK;
    if (along_k) {  // panel column c is stored row px0 + c of X, gathered along K
      for (int p = 0; p < Width / Panel; ++p) {
        T* dst = tile + p * Layout::panel_stride;
        const std::int64_t px0 = x0 + p * Panel;
        const int inside = x_end - px0 >= Panel ? Panel : (x_end > px0 ? static_cast<int>(x_end - px0) : 0);
        if (inside == 0) continue;
        for (int c = 0; c < Panel; ++c) {
          if (c < inside) {
            x.template row<Row>(px0 + c, k_begin + k0, kc, dst + c);
          } else {
            for (int kk = 0; kk < kc; ++kk) dst[kk * Row + c] = T(0);
          }
        }
      }
    } else {
      // Rows of X are rows of the panels: each row of the step read once, front to back, its runs
      // going to the panels in turn (panel by panel, every run would start a row of its own).
      const int inside = x_end - x0 >= Width ? Width : (x_end > x0 ? static_cast<int>(x_end - x0) : 0);
      const int whole = inside / Panel, rest = inside - whole * Panel;
      for (int kk = 0; kk < kc; ++kk) {
        for (int p = 0; p < whole; ++p)
          x.template row<1>(k_begin + k0 + kk, x0 + p * Panel, Panel, tile + p * Layout::panel_stride + kk * Row);
        if (rest > 0) {
          T* dst = tile + whole * Layout::panel_stride + kk * Row;
          x.template row<1>(k_begin + k0 + kk, x0 + whole * Panel, rest, dst);
          for (int c = rest; c < Panel; ++c) dst[c] = T(0);
        }
      }
    }
  }
};

}  // namespace pk::detail
