#pragma once
// The filter kernels for GPUs as Kokkos team functors (chosen by Tiles::RegisterTiles, e.g. in
// backends/cuda/filter_tiles_cuda.hpp). Same contract as filter_functors.hpp: a team stages an
// output tile plus halo in team scratch (shared memory), meets at a barrier, and computes every
// output of the tile from scratch. What differs:
//
//   - the tiles a team computes come from tile_pipeline.hpp (one tile per team, or persistent
//     teams that prefetch their next tile: Tiles::Pipelined), how they are staged from
//     tile_staging.hpp (by packs, cp.async or element by element) or tile_tensor_copy.hpp (TMA);
//   - the radius R is a template parameter, so every loop over the stencil unrolls and each
//     weight is a compile-time index into the functor (on a GPU the kernel's parameters, a
//     constant bank, read by every thread of a warp at once);
//   - a thread owns a column of Rows outputs (a register tile) and slides down it: each staged
//     value it reads is used by up to 2R+1 of its outputs, so a K x K stencil costs
//     (Rows + 2R) * K scratch reads per Rows outputs instead of K * K per output;
//   - the Lanes threads of a warp take consecutive elements of a row (coalesced global loads and
//     stores, conflict-free scratch reads); the warps take groups of Rows rows;
//   - float one-channel convolutions go by quads: a thread owns 4 neighbouring columns (Rows x 4
//     outputs), reads each window row as 16-byte quads of scratch and stores each output row as
//     one 16-byte store, so the address arithmetic of a window row serves 4 outputs (on the
//     H200 that halved the instructions a pixel; bench/results/h200.md, step 10).
//
//        staged tile (rows of tile_w + 2R pixels, channels interleaved)
//        +---------------------------------------+
//        |  halo                                 |   warp w, lane l: element e = l, l + Lanes, ...
//        |     +---+                             |   of the row groups w, w + Warps, ...; for each,
//        |     | e | <- Rows outputs of one      |   the Rows + 2R staged rows from the group's
//        |     |   |    thread, in registers     |   first row down, K values from each
//        |     +---+                             |
//        +---------------------------------------+
//
// Only tiles at the image's edge look up border sources, per row or per border pixel.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include <pk/kokkos/views.hpp>

#include "core/unroll.hpp"
#include "filter/filter_tile.hpp"
#include "filter/tile_pipeline.hpp"
#include "filter/tile_tensor_copy.hpp"

namespace pk::detail {

// Stores one thread's column of results: rows y .. y+Rows-1 of the tile (those inside it).
template <int Rows, class T>
KOKKOS_INLINE_FUNCTION void store_column(T* image, const tile_grid& g, const tile_box& t, int y, int e,
                                         const float (&acc)[Rows]) {
  T* dst = image + g.offset(t.y0 + y, t.x0) + e;
  const std::int64_t row_stride = g.width * g.channels;
  PK_UNROLL
  for (int o = 0; o < Rows; ++o) {
    if (y + o < t.h) dst[o * row_stride] = to_pixel<T>(acc[o]);
  }
}

// n floats of team scratch on a 16-byte boundary (tiles are staged, and quads read, as 16-byte
// packs); a functor's scratch_bytes counts 16 more per buffer for it.
template <class Member>
KOKKOS_INLINE_FUNCTION float* aligned_scratch(const Member& team, std::int64_t n) {
  return static_cast<float*>(team.team_scratch(0).get_shmem_aligned(n * std::int64_t(sizeof(float)), 16));
}
template <class Exec>
std::size_t aligned_scratch_bytes(std::int64_t n) {
  return scratch_floats<Exec>::shmem_size(n) + 16;
}

// Four neighbouring outputs of a row, stored together (16 bytes of float, 4 of uint8).
template <class T>
struct alignas(4 * sizeof(T)) output_quad {
  T v[4];
};

// Stores a thread's quads of results: elements e .. e+3 of rows y .. y+Rows-1 of the tile (those
// inside it), as one store a row where the quad is whole and aligned.
template <int Rows, class T>
KOKKOS_INLINE_FUNCTION void store_quads(T* image, const tile_grid& g, const tile_box& t, int y, int e,
                                        const float (&acc)[Rows][4]) {
  T* dst = image + g.offset(t.y0 + y, t.x0) + e;
  const std::int64_t row_stride = g.width;  // one channel
  const bool whole = e + 4 <= t.w && reinterpret_cast<std::uintptr_t>(dst) % sizeof(output_quad<T>) == 0 &&
                     row_stride % 4 == 0;
  PK_UNROLL
  for (int o = 0; o < Rows; ++o) {
    if (y + o >= t.h) continue;
    T* at = dst + o * row_stride;
    if (whole) {
#if defined(__CUDA_ARCH__)
      // Float results are stored "evict first" (st.global.cs): the kernel never reads them back.
      // On the H200 this took the 3x3 from 0.82-0.84 to 0.87-0.88 of copy bandwidth and the 5x5
      // from 0.76 to 0.79 (bench/results/h200.md, step 21); presumably L2 then keeps the staged
      // rows that neighbouring tiles read again (not profiled). Single-column stores gained nothing.
      if constexpr (std::is_same_v<T, float>) {
        __stcs(reinterpret_cast<float4*>(at), make_float4(acc[o][0], acc[o][1], acc[o][2], acc[o][3]));
        continue;
      }
#endif
      *reinterpret_cast<output_quad<T>*>(at) =
          output_quad<T>{{to_pixel<T>(acc[o][0]), to_pixel<T>(acc[o][1]), to_pixel<T>(acc[o][2]), to_pixel<T>(acc[o][3])}};
    } else {
      PK_UNROLL
      for (int q = 0; q < 4; ++q)
        if (e + q < t.w) at[q] = to_pixel<T>(acc[o][q]);
    }
  }
}

// Where a one-channel image's staged rows hold the window of a quad: the staged row starts Lead
// elements before the halo (tile_grid::lead, when tiles are staged by packs of T), so output
// element e's first tap is at staged element Lead + e; a quad's window is the Quads 16-byte
// quads of scratch from (Lead + e) rounded down to a quad, its taps from Offset on.
template <class T, class Tiles, int R>
struct quad_window {
  static constexpr int Lead = staged_lead(R, staging_pack<Tiles, T>);
  static constexpr int Skip = Lead / 4 * 4, Offset = Lead % 4;
  static constexpr int Quads = (Offset + 3 + 2 * R) / 4 + 1;
  // Whether the quad path applies to this grid: one channel, the lead above, rows of whole quads,
  // 16-byte aligned scratch.
  KOKKOS_INLINE_FUNCTION static bool fits(const tile_grid& g, const float* staged) {
    return g.channels == 1 && g.lead == Lead && g.staged_pitch % 4 == 0 && g.tile_w % 4 == 0 &&
           reinterpret_cast<std::uintptr_t>(staged) % 16 == 0;
  }
  // The window's values of one staged row, from row + e (e a multiple of 4): v[Offset + q + j] is
  // tap j of output e + q.
  KOKKOS_INLINE_FUNCTION static void load(const float* row, int e, float (&v)[4 * Quads]) {
    using quad = element_pack<float>;
    PK_UNROLL
    for (int b = 0; b < Quads; ++b) {
      const quad x = *reinterpret_cast<const quad*>(row + Skip + e + 4 * b);
      PK_UNROLL
      for (int q = 0; q < 4; ++q) v[4 * b + q] = x.v[q];
    }
  }
};

// out = in (*) w, w of (2R+1) x (2R+1) weights.
template <class T, class Exec, class Tiles, int R>
struct Conv2DRegisterTile {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using threads = register_tile_threads<Tiles>;
  static constexpr int radius = R, K = 2 * R + 1, Rows = threads::Rows;
  using window = quad_window<T, Tiles, R>;
  // Staged by the tensor memory accelerator where Tiles says so (tile_tensor_copy.hpp).
  static constexpr bool tensor_staged = Tiles::template tensor_staging<T, R>;
  using boxes = tensor_tile_layout<window, Tiles::Lanes>;
  static_assert(!tensor_staged || !Tiles::Pipelined, "tensor staging is for one tile a team");

  image_view<const T, Exec> in;
  image_view<T, Exec> out;
  tile_grid grid;
  border mode;
  kernel_weights weights;  // K x K, row-major
  const void* tensor_map = nullptr;  // with tensor_staged: the image's, or null (attach_tensor_map)

  std::size_t scratch_bytes() const {
    if constexpr (tensor_staged) return tensor_scratch_floats() * sizeof(float) + 128;
    return aligned_scratch_bytes<Exec>(grid.staged_floats());
  }

  // Host, once the grid is final (run_tiles): the tensor map where this grid's tiles can use one.
  void attach_tensor_map() {
    if constexpr (tensor_staged)
      tensor_map = boxes::fits(grid) ? cuda_tile_tensor_map(in.data(), grid.height, grid.width, boxes::BoxW, grid.staged_rows)
                                     : nullptr;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    float* const staged = staged_scratch(team);
    // (float only: with the uint8 conversions the quads took those kernels past 100 registers)
    if constexpr (std::is_same_v<T, float>) {
#if defined(PK_TENSOR_STAGING)
      if constexpr (tensor_staged) {
        const tile_box t = grid.tile(team.league_rank());
        if (tensor_map && boxes::stages(grid, t, mode)) {
          // The staged area as boxes of BoxOutputs outputs' windows, copied by the hardware.
          const std::int64_t stride = boxes::box_stride(grid);
          const int n = boxes::boxes(grid);
          // Where the boxes start in the image, and the mbarrier's shared-memory address after them.
          const auto box_x = [&] { return static_cast<int>(t.x0) - R - window::Lead; };
          const auto box_y = [&] { return static_cast<int>(t.y0) - R; };
          const auto landed = [&] { return static_cast<unsigned>(__cvta_generic_to_shared(staged + n * stride)); };
          if (team.team_rank() == 0)
            tensor_copy_start(tensor_map, staged, stride, n, box_x(), boxes::BoxOutputs, box_y(),
                              static_cast<unsigned>(grid.staged_rows * boxes::BoxW * sizeof(float)), landed());
          team.team_barrier();  // the mbarrier is initialized before anyone waits on it
          tensor_copy_wait(landed());
          // (border::zero's values are the zeros the copies brought for outside the image.)
          if (!staged_inside_image(grid, t) && mode != border::zero)
            fill_box_borders<boxes::BoxW, Tiles::Lanes>(team, grid, mode, staged, static_cast<int>(stride), n, box_x(),
                                                        boxes::BoxOutputs, box_y());
          for_each_output_quad<Tiles>(team, t, [&](int y, int e) {
            const int b = e / boxes::BoxOutputs;
            float acc[Rows][4];
            convolve_quad<boxes::Pitch>(staged + b * stride + y * boxes::Pitch, boxes::Pitch, e - b * boxes::BoxOutputs,
                                        acc);
            store_quads<Rows>(out.data(), grid, t, y, e, acc);
          });
          return;
        }
      }
#endif
      if (window::fits(grid, staged)) {
        // One channel: each thread computes quads of 4 x Rows outputs from 16-byte scratch reads,
        // so a window row's loads and the address arithmetic serve 4 outputs.
        for_each_staged_tile<Tiles, R>(team, in.data(), grid, mode, staged, [&](const tile_box& t) {
          for_each_output_quad<Tiles>(team, t, [&](int y, int e) {
            float acc[Rows][4];
            convolve_quad<0>(staged + static_cast<std::int64_t>(y) * grid.staged_pitch, grid.staged_pitch, e, acc);
            store_quads<Rows>(out.data(), grid, t, y, e, acc);
          });
        });
        return;
      }
    }
    for_each_staged_tile<Tiles, R>(team, in.data(), grid, mode, staged, [&](const tile_box& t) {
      for_each_output_column<Tiles>(team, t, grid.channels, [&](int y, int e) {
        const int C = grid.channels;
        const float* src = staged + static_cast<std::int64_t>(y) * grid.staged_pitch + grid.lead + e;
        float acc[Rows];
        PK_UNROLL
        for (int o = 0; o < Rows; ++o) acc[o] = 0.f;
        // Staged row i of the window feeds output o through weight row i - o.
        PK_UNROLL
        for (int i = 0; i < Rows + 2 * R; ++i) {
          float v[K];
          PK_UNROLL
          for (int j = 0; j < K; ++j) v[j] = src[i * grid.staged_pitch + j * C];
          PK_UNROLL
          for (int o = 0; o < Rows; ++o) {
            if (i - o < 0 || i - o >= K) continue;
            PK_UNROLL
            for (int j = 0; j < K; ++j) acc[o] += weights.w[(i - o) * K + j] * v[j];
          }
        }
        store_column<Rows>(out.data(), grid, t, y, e, acc);
      });
    });
  }

 private:
  // A quad's Rows x 4 outputs from the staged rows at `rows` (its first window row), `pitch`
  // floats apart (Pitch, when known at compile time), the quad's first element e of them.
  template <int Pitch>
  KOKKOS_INLINE_FUNCTION void convolve_quad(const float* rows, int pitch, int e, float (&acc)[Rows][4]) const {
    const int p = Pitch > 0 ? Pitch : pitch;
    PK_UNROLL
    for (int o = 0; o < Rows; ++o)
      PK_UNROLL
      for (int q = 0; q < 4; ++q) acc[o][q] = 0.f;
    PK_UNROLL
    for (int i = 0; i < Rows + 2 * R; ++i) {
      float v[4 * window::Quads];
      window::load(rows + i * p, e, v);
      PK_UNROLL
      for (int o = 0; o < Rows; ++o) {
        if (i - o < 0 || i - o >= K) continue;
        PK_UNROLL
        for (int q = 0; q < 4; ++q)
          PK_UNROLL
          for (int j = 0; j < K; ++j) acc[o][q] += weights.w[(i - o) * K + j] * v[window::Offset + q + j];
      }
    }
  }

  // Scratch: the staged tile, or with tensor_staged its boxes and their mbarrier if larger, on
  // the 128 bytes TMA asks for.
  KOKKOS_INLINE_FUNCTION std::int64_t tensor_scratch_floats() const {
    const std::int64_t b = boxes::fits(grid) ? boxes::floats(grid) : 0;
    return b > grid.staged_floats() ? b : grid.staged_floats();
  }
  KOKKOS_INLINE_FUNCTION float* staged_scratch(const member_type& team) const {
    if constexpr (tensor_staged)
      return static_cast<float*>(
          team.team_scratch(0).get_shmem_aligned(tensor_scratch_floats() * std::int64_t(sizeof(float)), 128));
    return aligned_scratch(team, grid.staged_floats());
  }
};

// out = in (*) column (x) row: a row pass over every staged row into a second scratch buffer,
// then the sliding column pass from it.
template <class T, class Exec, class Tiles, int R>
struct SeparableRegisterTile {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using threads = register_tile_threads<Tiles>;
  static constexpr int radius = R, K = 2 * R + 1, Rows = threads::Rows;

  image_view<const T, Exec> in;
  image_view<T, Exec> out;
  tile_grid grid;
  border mode;
  kernel_taps row, column;

  std::size_t scratch_bytes() const {
    return aligned_scratch_bytes<Exec>(grid.staged_floats()) + scratch_floats<Exec>::shmem_size(grid.row_pass_floats());
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    float* const staged = aligned_scratch(team, grid.staged_floats());
    scratch_floats<Exec> rows(team.team_scratch(0), grid.row_pass_floats());
    for_each_staged_tile<Tiles, R>(team, in.data(), grid, mode, staged, [&](const tile_box& t) {
      const threads th(team);
      const int C = grid.channels, used = t.w * C;
      for (int yy = th.warp; yy < grid.staged_rows; yy += threads::Warps) {
        const float* src = staged + static_cast<std::int64_t>(yy) * grid.staged_pitch + grid.lead;
        float* dst = rows.data() + static_cast<std::int64_t>(yy) * grid.out_pitch;
        for (int e = th.lane; e < used; e += threads::Lanes) {
          float acc = 0.f;
          PK_UNROLL
          for (int j = 0; j < K; ++j) acc += row.t[j] * src[e + j * C];
          dst[e] = acc;
        }
      }
      team.team_barrier();  // the column pass reads row-pass results of other threads' rows

      for_each_output_column<Tiles>(team, t, C, [&](int y, int e) {
        const float* src = rows.data() + static_cast<std::int64_t>(y) * grid.out_pitch + e;
        float acc[Rows];
        PK_UNROLL
        for (int o = 0; o < Rows; ++o) acc[o] = 0.f;
        PK_UNROLL
        for (int i = 0; i < Rows + 2 * R; ++i) {
          const float v = src[i * grid.out_pitch];
          PK_UNROLL
          for (int o = 0; o < Rows; ++o) {
            if (i - o >= 0 && i - o < K) acc[o] += column.t[i - o] * v;
          }
        }
        store_column<Rows>(out.data(), grid, t, y, e, acc);
      });
    });
  }
};

// sqrt(x) for the Sobel magnitude. On a CUDA device, the IEEE-rounded sqrtf is several
// instructions plus a slow path that is a subroutine call, around which every live register is
// saved (the pipelined kernel's prefetch registers included). PTX's sqrt.approx.f32 (what sqrtf
// is with -prec-sqrt=false: a few ulp at most, per the CUDA programming guide; zero, infinity,
// NaN and subnormals as IEEE) is one instruction; with it Sobel went from 0.589 to 0.618 of copy
// bandwidth on the H200 (bench/results/h200.md, step 6).
KOKKOS_INLINE_FUNCTION float magnitude_sqrt(float x) {
#if defined(__CUDA_ARCH__)
  float r;
  asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
#else
  return sqrtf(x);
#endif
}

// out = sqrt(gx^2 + gy^2), the 3x3 Sobel derivatives, from one sliding window.
template <class T, class Exec, class Tiles>
struct SobelRegisterTile {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using threads = register_tile_threads<Tiles>;
  static constexpr int radius = 1, Rows = threads::Rows;

  image_view<const T, Exec> in;
  image_view<T, Exec> out;
  tile_grid grid;  // radius 1
  border mode;

  std::size_t scratch_bytes() const { return aligned_scratch_bytes<Exec>(grid.staged_floats()); }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    // d/dx = [1 2 1]^T (x) [-1 0 1], d/dy = [-1 0 1]^T (x) [1 2 1]: per staged row, the
    // horizontal difference and the horizontal smoothing feed the outputs above and below it,
    // weighted by smooth(d) = 1, 2, 1 and slope(d) = -1, 0, 1 for the row d = 0, 1, 2 of the window.
    float* const staged = aligned_scratch(team, grid.staged_floats());
    for_each_staged_tile<Tiles, radius>(team, in.data(), grid, mode, staged, [&](const tile_box& t) {
      for_each_output_column<Tiles>(team, t, grid.channels, [&](int y, int e) {
        const int C = grid.channels;
        const float* src = staged + static_cast<std::int64_t>(y) * grid.staged_pitch + grid.lead + e;
        float gx[Rows], gy[Rows];
        PK_UNROLL
        for (int o = 0; o < Rows; ++o) gx[o] = gy[o] = 0.f;
        PK_UNROLL
        for (int i = 0; i < Rows + 2; ++i) {
          const float* p = src + i * grid.staged_pitch;
          const float left = p[0], mid = p[C], right = p[2 * C];
          const float difference = right - left, smoothed = left + 2.f * mid + right;
          PK_UNROLL
          for (int o = 0; o < Rows; ++o) {
            const int d = i - o;
            if (d < 0 || d > 2) continue;
            gx[o] += (d == 1 ? 2.f : 1.f) * difference;
            // (The middle row's d/dy weight is 0: not read, so a NaN there does not reach the
            // output, as with the host kernels and the reference.)
            if (d != 1) gy[o] += static_cast<float>(d - 1) * smoothed;
          }
        }
        float mag[Rows];
        PK_UNROLL
        for (int o = 0; o < Rows; ++o) mag[o] = magnitude_sqrt(gx[o] * gx[o] + gy[o] * gy[o]);
        store_column<Rows>(out.data(), grid, t, y, e, mag);
      });
    });
  }
};

}  // namespace pk::detail
