#pragma once
// How a GEMM's K steps reach team scratch, for every backend: Stages buffers, each holding op(A)^T
// laid out by ALayout and op(B) by BLayout (staged_tile_layout), filled one K step at a time by one
// Copy per operand: the backend's choice of how a tile reaches scratch (copy_panels.hpp: one
// thread packs panels; copy_prefetch.hpp: the team's threads each fetch their share of 16-byte
// packs into registers). A Copy reads step s of its matrix in fetch(s) (or only notes s) and writes
// it into a stage in store(); zeros stand outside the matrix and past the team's part of K (K runs
// from k0, kc of it: steps count from k0).
//
// The team fetches step s+1 before it multiplies step s and stores it after (commit), so that the
// multiply hides the fetch's latency. With two stages, the stage it stores into was last read
// before the previous barrier; with one, the team first waits until everyone has read it.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "matmul/gemm_functor.hpp"

namespace pk::detail {

template <class Gemm, class ALayout, class BLayout, int Stages, int AlignBytes,
          template <class, class, class> class Copy>
struct staged_steps {
  using T = typename Gemm::value_type;
  using a_layout = ALayout;
  using b_layout = BLayout;
  static_assert(ALayout::width == Gemm::TileM && BLayout::width == Gemm::TileN && ALayout::depth == Gemm::TileK &&
                    BLayout::depth == Gemm::TileK,
                "a stage holds one K step of the block tile");
  static_assert(Stages == 1 || Stages == 2, "one stage, or two used in turn");
  static constexpr int StageElements = ALayout::size + BLayout::size;
  // Scratch is over-allocated so that the stages start AlignBytes-aligned (whole vector loads).
  static constexpr int AlignElements = AlignBytes / static_cast<int>(sizeof(T));
  static constexpr int ScratchElements = Stages * StageElements + AlignElements;
  using scratch_view = Kokkos::View<T*, typename Gemm::execution_space::scratch_memory_space,
                                    Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static std::size_t scratch_bytes() { return scratch_view::shmem_size(ScratchElements); }

  const typename Gemm::team_member& team;
  T* stages;
  Copy<Gemm, ALayout, typename Gemm::a_operand> copy_a;  // op(A): K runs along A's rows unless A is transposed
  Copy<Gemm, BLayout, typename Gemm::b_operand> copy_b;  // op(B): K runs along B's rows only if B is transposed

  // The block tile at (i0, j0) over K from k0, kc of it (a part of K under split-K).
  KOKKOS_INLINE_FUNCTION staged_steps(const typename Gemm::team_member& member, const Gemm& g, std::int64_t i0,
                                      std::int64_t j0, std::int64_t k0, std::int64_t kc)
      : team(member), stages(aligned(scratch_view(member.team_scratch(0), ScratchElements).data())),
        copy_a(member, g.a, !g.transpose_a, i0, g.m, k0, kc), copy_b(member, g.b, g.transpose_b, j0, g.n, k0, kc) {}

  KOKKOS_INLINE_FUNCTION static T* aligned(T* p) {
    const auto misalign = static_cast<int>(reinterpret_cast<std::uintptr_t>(p) % AlignBytes) / int(sizeof(T));
    return p + (misalign ? AlignElements - misalign : 0);
  }
  KOKKOS_INLINE_FUNCTION T* stage(std::int64_t s) const { return stages + (s % Stages) * StageElements; }
  KOKKOS_INLINE_FUNCTION const T* a(std::int64_t s) const { return stage(s); }
  KOKKOS_INLINE_FUNCTION const T* b(std::int64_t s) const { return stage(s) + ALayout::size; }

  KOKKOS_INLINE_FUNCTION void begin() {
    fetch(0);
    store(0);
  }
  KOKKOS_INLINE_FUNCTION void fetch(std::int64_t s) {
    copy_a.fetch(s);
    copy_b.fetch(s);
  }
  KOKKOS_INLINE_FUNCTION void commit(std::int64_t s) {
    if (Stages == 1) team.team_barrier();  // everyone has read the step this one replaces
    store(s);
  }
  KOKKOS_INLINE_FUNCTION void store(std::int64_t s) {
    copy_a.store(stage(s));
    copy_b.store(stage(s) + ALayout::size);
  }
};

}  // namespace pk::detail
