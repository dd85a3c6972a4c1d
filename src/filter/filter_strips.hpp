#pragma once
// One-channel float filters of radius 1 and 2 on a GPU (3x3 and 5x5 convolutions, separable
// kernels, Sobel), as strips: no team scratch and no barrier. Each thread owns 4 neighbouring
// columns (a quad) of a strip of StripRows output rows and walks down it one image row at a
// time, keeping the window in registers:
//
//        columns x .. x+3 of thread l, its neighbours' quads either side
//        ....+-----+-----+-----+....
//   row y    | l-1 |  l  | l+1 |       one 16-byte load a row (its own quad); the R columns
//        ....+-----+-----+-----+....   either side come from the neighbouring lanes' loads
//                                      (warp shuffles), the warp's first and last lanes load them
//
// Each input row adds to the 2R+1 output rows it reaches (sums of the outputs not yet complete,
// 4 x (2R+1) registers), and the output row the window leaves is stored as one 16-byte store.
// Per 4 outputs a 3x3 costs 36 FMAs, one load, two shuffles and one store (the staged register
// tiles of filter_register_tiles.hpp: 33-37 instructions a pixel on the H200), and the image is
// read once plus 2R rows a strip. Loads are issued Prefetch rows ahead, so every thread keeps
// that many 16-byte loads in flight all the time instead of staging a tile and waiting at a
// barrier (bench/results/h200.md, step 19).
//
// Even strips walk down, odd strips up: two neighbouring strips then read the 2R rows they
// share at the same time (both at their start or both at their end), from L2 the second time.
//
// On a host (Lanes == 1) a thread loads the R columns either side itself; tests run it there.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <pk/kokkos/views.hpp>

#include "core/unroll.hpp"
#include "filter/border_index.hpp"
#include "filter/filter_tile.hpp"
#include "filter/tile_pipeline.hpp"

namespace pk::detail {

// How the image is cut into strips: StripRows output rows a strip, the quads of a row spread
// over the threads of a strip row (rounded up to whole warps, so a warp never spans two strips).
struct strip_grid {
  std::int64_t height = 0, width = 0;  // one channel; width a multiple of 4
  std::int64_t row_threads = 0;        // width / 4 rounded up to a multiple of Lanes
  std::int64_t strips = 0;
  int strip_rows = 0;
  std::int64_t threads() const { return strips * row_threads; }
};

// The value lane - 1 (from_left) or lane + 1 (from_right) of the warp holds; on a host, where a
// "warp" is one thread (Lanes == 1), never asked for.
KOKKOS_INLINE_FUNCTION float from_left_lane(float v) {
#if defined(__CUDA_ARCH__)
  return __shfl_up_sync(0xffffffffu, v, 1);
#else
  return v;
#endif
}
KOKKOS_INLINE_FUNCTION float from_right_lane(float v) {
#if defined(__CUDA_ARCH__)
  return __shfl_down_sync(0xffffffffu, v, 1);
#else
  return v;
#endif
}

// sqrt for the Sobel magnitude (filter_register_tiles.hpp says why the approximate one on a GPU).
KOKKOS_INLINE_FUNCTION float strip_magnitude_sqrt(float x) {
#if defined(__CUDA_ARCH__)
  float r;
  asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
#else
  return sqrtf(x);
#endif
}

// What a stencil does with one window row v (4 + 2R values: tap j of output q is v[q + j]):
// terms(v) is what the row gives every output row it reaches (the row itself, or a horizontal
// pass over it), add() weighs it into the sums of one output row for kernel row i, and finish()
// turns complete sums into the 4 outputs.
template <int R>
struct strip_convolution {
  static constexpr int K = 2 * R + 1;
  kernel_weights weights;  // K x K, row-major
  struct terms {
    float v[4 + 2 * R];
  };
  struct sums {
    float v[4];
  };
  KOKKOS_INLINE_FUNCTION terms row_terms(const float (&v)[4 + 2 * R]) const {
    terms t;
    PK_UNROLL
    for (int j = 0; j < 4 + 2 * R; ++j) t.v[j] = v[j];
    return t;
  }
  KOKKOS_INLINE_FUNCTION void add(sums& s, const terms& t, int i) const {
    PK_UNROLL
    for (int q = 0; q < 4; ++q)
      PK_UNROLL
      for (int j = 0; j < K; ++j) s.v[q] += weights.w[i * K + j] * t.v[q + j];
  }
  KOKKOS_INLINE_FUNCTION float finish(const sums& s, int q) const { return s.v[q]; }
};

// weights(i, j) = column[i] * row[j]: the row pass once per window row, then one FMA an output
// for each output row it reaches.
template <int R>
struct strip_separable {
  static constexpr int K = 2 * R + 1;
  kernel_taps row, column;
  struct terms {
    float v[4];
  };
  struct sums {
    float v[4];
  };
  KOKKOS_INLINE_FUNCTION terms row_terms(const float (&v)[4 + 2 * R]) const {
    terms t;
    PK_UNROLL
    for (int q = 0; q < 4; ++q) {
      t.v[q] = 0.f;
      PK_UNROLL
      for (int j = 0; j < K; ++j) t.v[q] += row.t[j] * v[q + j];
    }
    return t;
  }
  KOKKOS_INLINE_FUNCTION void add(sums& s, const terms& t, int i) const {
    PK_UNROLL
    for (int q = 0; q < 4; ++q) s.v[q] += column.t[i] * t.v[q];
  }
  KOKKOS_INLINE_FUNCTION float finish(const sums& s, int q) const { return s.v[q]; }
};

// Sobel magnitude: d/dx = [1 2 1]^T (x) [-1 0 1], d/dy = [-1 0 1]^T (x) [1 2 1].
struct strip_sobel {
  struct terms {
    float difference[4], smoothed[4];
  };
  struct sums {
    float gx[4], gy[4];
  };
  KOKKOS_INLINE_FUNCTION terms row_terms(const float (&v)[6]) const {
    terms t;
    PK_UNROLL
    for (int q = 0; q < 4; ++q) {
      t.difference[q] = v[q + 2] - v[q];
      t.smoothed[q] = v[q] + 2.f * v[q + 1] + v[q + 2];
    }
    return t;
  }
  KOKKOS_INLINE_FUNCTION void add(sums& s, const terms& t, int i) const {
    PK_UNROLL
    for (int q = 0; q < 4; ++q) {
      s.gx[q] += (i == 1 ? 2.f : 1.f) * t.difference[q];
      // (The middle row's d/dy weight is 0: not read, so a NaN there does not reach the output,
      // as with the other kernels and the reference.)
      if (i != 1) s.gy[q] += static_cast<float>(i - 1) * t.smoothed[q];
    }
  }
  KOKKOS_INLINE_FUNCTION float finish(const sums& s, int q) const {
    return strip_magnitude_sqrt(s.gx[q] * s.gx[q] + s.gy[q] * s.gy[q]);
  }
};

struct alignas(8) float_pair {
  float v[2];
};

constexpr int strip_gcd(int a, int b) { return b == 0 ? a : strip_gcd(b, a % b); }

// The strip walk of one thread, for any stencil of radius R above. Teams of Tiles::StripTeam
// threads; thread g of the launch takes quad g % row_threads of strip g / row_threads.
template <class Exec, class Tiles, int R, class Stencil>
struct StripFilter {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  static constexpr int radius = R, K = 2 * R + 1, Lanes = Tiles::Lanes;
  // Rows loaded ahead of the one computed; the walk unrolls by a whole number of both K (the sums
  // of the K output rows a window row reaches rotate) and Prefetch (the rows in flight rotate),
  // so that every register index is a compile-time constant.
  static constexpr int Prefetch = Tiles::template strip_prefetch<R>;
  static constexpr int Unroll = K / strip_gcd(K, Prefetch) * Prefetch;
  // Columns a thread loads besides its quad: the warp's first lane the R left of it, its last
  // lane (and the last lane inside the image) the R right of it; one thread alone, both.
  static constexpr int Sides = Lanes == 1 ? 2 * R : R;
  static_assert(R == 1 || R == 2, "8-byte side loads: the R columns either side of a quad");
  using sums = typename Stencil::sums;

  image_view<const float, Exec> in;
  image_view<float, Exec> out;
  strip_grid grid;
  border mode;
  Stencil stencil;

  struct loaded_row {
    float m[4];
    float side[Sides];
  };
  enum : int { left_lane = 1, right_lane = 2 };

  // R columns from c0 of an image row (nullptr: a row of zeros), border columns looked up.
  KOKKOS_INLINE_FUNCTION void load_side(const float* row, std::int64_t c0, float* dst) const {
    if (row == nullptr) {
      PK_UNROLL
      for (int k = 0; k < R; ++k) dst[k] = 0.f;
    } else if (c0 >= 0 && c0 + R <= grid.width) {
      if constexpr (R == 2) {  // c0 = x - 2 or x + 4, x a multiple of 4: 8-byte aligned
        const float_pair p = *reinterpret_cast<const float_pair*>(row + c0);
        dst[0] = p.v[0], dst[1] = p.v[1];
      } else {
        dst[0] = row[c0];
      }
    } else {
      PK_UNROLL
      for (int k = 0; k < R; ++k) {
        const std::int64_t c = border_index(c0 + k, grid.width, mode);
        dst[k] = c < 0 ? 0.f : row[c];
      }
    }
  }

  KOKKOS_INLINE_FUNCTION void load(loaded_row& r, std::int64_t y, std::int64_t x, int role) const {
    const std::int64_t sy = border_index(y, grid.height, mode);
    const float* row = sy < 0 ? nullptr : in.data() + sy * grid.width;
    if (row != nullptr && x < grid.width) {
      const auto p = *reinterpret_cast<const element_pack<float>*>(row + x);
      PK_UNROLL
      for (int q = 0; q < 4; ++q) r.m[q] = p.v[q];
    } else {
      PK_UNROLL
      for (int q = 0; q < 4; ++q) r.m[q] = 0.f;
    }
    if constexpr (Lanes == 1) {
      load_side(row, x - R, r.side);
      load_side(row, x + 4, r.side + R);
    } else if (role != 0) {
      load_side(row, role == left_lane ? x - R : x + 4, r.side);
    }
  }

  // The 4 + 2R values of a loaded row that the thread's outputs read.
  KOKKOS_INLINE_FUNCTION void window(const loaded_row& r, int role, float (&v)[4 + 2 * R]) const {
    PK_UNROLL
    for (int q = 0; q < 4; ++q) v[R + q] = r.m[q];
    if constexpr (Lanes == 1) {
      PK_UNROLL
      for (int k = 0; k < R; ++k) v[k] = r.side[k], v[R + 4 + k] = r.side[R + k];
    } else {
      PK_UNROLL
      for (int k = 0; k < R; ++k) {  // every lane shuffles, the side lanes then keep their own
        const float left = from_left_lane(r.m[4 - R + k]), right = from_right_lane(r.m[k]);
        v[k] = role == left_lane ? r.side[k] : left;
        v[R + 4 + k] = role == right_lane ? r.side[k] : right;
      }
    }
  }

  // A row inside the image, for a warp whose window columns are all inside it: no border lookups,
  // the side columns one predicated load (at - R or + 4 of the quad) for the side lanes.
  KOKKOS_INLINE_FUNCTION void load_inside(loaded_row& r, const float* p, int role) const {
    const auto m = *reinterpret_cast<const element_pack<float>*>(p);
    PK_UNROLL
    for (int q = 0; q < 4; ++q) r.m[q] = m.v[q];
    if constexpr (Lanes == 1) {
      PK_UNROLL
      for (int k = 0; k < R; ++k) r.side[k] = p[k - R], r.side[R + k] = p[4 + k];
    } else if (role != 0) {
      const float* s = p + (role == left_lane ? -R : 4);
      if constexpr (R == 2) {
        const float_pair v = *reinterpret_cast<const float_pair*>(s);
        r.side[0] = v.v[0], r.side[1] = v.v[1];
      } else {
        r.side[0] = s[0];
      }
    }
  }

  // Walks the strip of h rows from y0: Dir = 1 down (window rows y0 - R, ...), -1 up. Inside: every
  // window row and column of the warp lies inside the image (no border lookups: most strips).
  template <int Dir, bool Inside>
  KOKKOS_INLINE_FUNCTION void walk(std::int64_t y0, int h, std::int64_t x, int role) const {
    const int steps = h + 2 * R;  // window rows
    // Window row t, and output row j (the j-th the walk completes).
    const auto input_row = [&](int t) -> std::int64_t { return Dir > 0 ? y0 - R + t : y0 + h - 1 + R - t; };
    const auto output_row = [&](int j) -> std::int64_t { return Dir > 0 ? y0 + j : y0 + h - 1 - j; };
    // (Inside: the address of window row t is first + t * step.)
    const float* const first = in.data() + (Inside ? input_row(0) * grid.width + x : 0);
    const std::int64_t step = Dir * grid.width;
    const auto fetch = [&](loaded_row& r, int t) {
      if constexpr (Inside)
        load_inside(r, first + t * step, role);
      else
        load(r, input_row(t), x, role);
    };
    loaded_row ahead[Prefetch];
    PK_UNROLL
    for (int p = 0; p < Prefetch; ++p)
      if (p < steps) fetch(ahead[p], p);
    sums acc[K] = {};
    const bool writes = x < grid.width;
    for (int t0 = 0; t0 < steps; t0 += Unroll) {
      PK_UNROLL
      for (int u = 0; u < Unroll; ++u) {
        const int t = t0 + u;
        const loaded_row now = ahead[u % Prefetch];
        if (t + Prefetch < steps) fetch(ahead[u % Prefetch], t + Prefetch);
        float v[4 + 2 * R];
        window(now, role, v);
        const auto terms = stencil.row_terms(v);
        // Window row t is row d of the window of output j = t - d (d = 0..2R), kept in
        // acc[j % K]; walking up, that is kernel row 2R - d.
        PK_UNROLL
        for (int d = 0; d < K; ++d) stencil.add(acc[(u - d + K * Unroll) % K], terms, Dir > 0 ? d : 2 * R - d);
        // Output j = t - 2R has all its rows now.
        sums& done = acc[(u + 1) % K];
        const int j = t - 2 * R;
        if (writes && j >= 0 && j < h) {
          element_pack<float> p;
          PK_UNROLL
          for (int q = 0; q < 4; ++q) p.v[q] = stencil.finish(done, q);
          *reinterpret_cast<element_pack<float>*>(out.data() + output_row(j) * grid.width + x) = p;
        }
        done = sums{};
      }
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const std::int64_t g = std::int64_t(team.league_rank()) * team.team_size() + team.team_rank();
    const std::int64_t strip = g / grid.row_threads;
    if (strip >= grid.strips) return;  // whole warps: row_threads and the team size are multiples of Lanes
    const std::int64_t x = 4 * (g - strip * grid.row_threads);
    const int lane = team.team_rank() % Lanes;
    const int role = Lanes == 1                                   ? 0
                     : lane == 0                                  ? int(left_lane)
                     : x < grid.width && (lane == Lanes - 1 || x + 4 >= grid.width) ? int(right_lane)
                                                                  : 0;
    const std::int64_t y0 = strip * grid.strip_rows;
    const int h = static_cast<int>(grid.height - y0 < grid.strip_rows ? grid.height - y0 : grid.strip_rows);
    // The warp's quads from x - 4 * lane: inside when its window (R columns either side, R rows
    // above and below the strip) is (the same for every lane of the warp).
    const std::int64_t warp_x = x - 4 * lane;
    const bool inside = y0 - R >= 0 && y0 + h + R <= grid.height && warp_x - R >= 0 &&
                        warp_x + 4 * Lanes + R <= grid.width;
    const bool down = strip % 2 == 0;
    if (inside && down)
      walk<1, true>(y0, h, x, role);
    else if (inside)
      walk<-1, true>(y0, h, x, role);
    else if (down)
      walk<1, false>(y0, h, x, role);
    else
      walk<-1, false>(y0, h, x, role);
  }
};

}  // namespace pk::detail
