#pragma once
// Staging a whole tile with Hopper's tensor memory accelerator (TMA): one thread of the team asks
// for the tile's staged area as a few 2D boxes of the image (cp.async.bulk.tensor), the hardware
// copies them into shared memory and signals an mbarrier, and no other thread spends an
// instruction on staging. Used where Tiles::tensor_staging<T, R> (backends/cuda/filter_tiles_cuda.hpp)
// for one-channel float convolutions computed by quads (filter_register_tiles.hpp), on whole tiles
// (those at the image's edge then fill their border in scratch: fill_box_borders); partial tiles,
// wrap's edge tiles, and GPUs or builds without TMA stage by packs (tile_staging.hpp).
//
// The boxes: a warp's quads span BoxOutputs = 4 x Lanes outputs of a row, so box b holds the staged
// rows of the window those outputs read (columns b x BoxOutputs - R - Lead on, BoxW of them), dense
// at a pitch of BoxW floats. BoxW is a compile-time constant, so the quad loop's scratch reads are
// base + immediate. A box's place in scratch is a multiple of 128 bytes (what TMA asks of it).
//
//        tile: 256 outputs a row        box 0: outputs 0..127    box 1: outputs 128..255
//        staged: 264 floats a row  -->  136 floats a row         136 floats a row (8 columns in both)
//
// The tensor map (what the hardware needs to know of the image: address, sizes, pitch, box) is
// made on the host once per image (backends/cuda/cuda_tile_tensor_map.cpp) and lives in device
// global memory; the functor carries its address.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "filter/border_index.hpp"
#include "filter/filter_tile.hpp"
#include "filter/tile_staging.hpp"

namespace pk::detail {

// Host, cuda backend only: the device address of a 2D tensor map over a height x width float
// image (one channel, dense rows) with boxes of box_w x box_h, or null where the device, the
// driver or the image cannot have one (then the kernel stages as without it).
const void* cuda_tile_tensor_map(const float* image, std::int64_t height, std::int64_t width, int box_w, int box_h);

// Where the boxes of a tile lie in scratch, for the quad window Window (filter_register_tiles.hpp)
// read by warps of Lanes threads.
template <class Window, int Lanes>
struct tensor_tile_layout {
  static constexpr int BoxOutputs = 4 * Lanes;
  // The last quad of a box (element 4 x (Lanes - 1)) reads Window::Quads quads from Skip on.
  static constexpr int BoxW = Window::Skip + 4 * (Lanes - 1) + 4 * Window::Quads;
  static constexpr int Pitch = BoxW;
  static_assert(BoxW % 4 == 0 && BoxW <= 256, "a box row is whole 16-byte packs, at most 256 elements (TMA)");

  // Whether tiles of grid g can be staged this way: one channel, the window's lead, whole boxes
  // across a tile and at most 256 staged rows (a box's limit).
  KOKKOS_INLINE_FUNCTION static bool fits(const tile_grid& g) {
    return g.channels == 1 && g.lead == Window::Lead && g.tile_w % BoxOutputs == 0 && g.staged_rows <= 256;
  }
  KOKKOS_INLINE_FUNCTION static int boxes(const tile_grid& g) { return g.tile_w / BoxOutputs; }
  // Floats from one box to the next: whole 128-byte blocks.
  KOKKOS_INLINE_FUNCTION static std::int64_t box_stride(const tile_grid& g) {
    return (static_cast<std::int64_t>(g.staged_rows) * BoxW + 31) / 32 * 32;
  }
  // Scratch floats: the boxes, then their mbarrier (8 bytes).
  KOKKOS_INLINE_FUNCTION static std::int64_t floats(const tile_grid& g) { return boxes(g) * box_stride(g) + 2; }
  // Whether tile t of grid g can be staged this way: a whole tile, its boxes inside the image, or
  // at its edge with a border the boxes can fill themselves (fill_box_borders).
  KOKKOS_INLINE_FUNCTION static bool stages(const tile_grid& g, const tile_box& t, border mode) {
    return t.w == g.tile_w && t.h == g.tile_h && (mode != border::wrap || staged_inside_image(g, t));
  }
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define PK_TENSOR_STAGING 1

// One thread of the team: starts copying `boxes` boxes of staged_rows x BoxW floats, box b from
// image column x + b * step, row y, into scratch at `first` + b * stride (floats); they signal
// the mbarrier at shared address `barrier` when all have landed. What lies outside the image
// arrives as zeros.
KOKKOS_INLINE_FUNCTION void tensor_copy_start(const void* map, float* first, std::int64_t stride, int boxes, int x,
                                              int step, int y, unsigned bytes_per_box, unsigned barrier) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(barrier) : "memory");
  // The copies (the async proxy) must see the barrier initialized.
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(barrier), "r"(bytes_per_box * boxes)
               : "memory");
  for (int b = 0; b < boxes; ++b) {
    const auto dst = static_cast<unsigned>(__cvta_generic_to_shared(first + b * stride));
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
            dst),
        "l"(map), "r"(x + b * step), "r"(y), "r"(barrier)
        : "memory");
  }
}

// Waits until the copies have landed (the mbarrier's first phase). Every thread waits for itself:
// with one thread waiting and the others at a team barrier, ptxas spilled the 5x5 kernel at its
// 48 registers (-Xptxas -v: 152 bytes a thread).
KOKKOS_INLINE_FUNCTION void tensor_copy_wait(unsigned barrier) {
  unsigned done = 0;
  while (!done)
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
        "selp.u32 %0, 1, 0, p;\n"
        "}"
        : "=r"(done)
        : "r"(barrier)
        : "memory");
}
#endif

// Tiles at the image's edge: the boxes hold zeros where they leave the image, which is the
// border::zero border. For clamp and reflect101 each such value is a copy of a pixel the same box
// holds (a whole tile is wider and taller than its halo), so the team fills the columns outside
// the image from their rows, then, after a barrier, the rows outside it from whole box rows
// (corners included). box_x: the image column of box 0's first, step from one box to the next,
// y: the image row of every box's first. (32-bit: the tensor map exists only for images of
// fewer than 2^30 rows and columns, and 32-bit positions take half the registers.)
KOKKOS_INLINE_FUNCTION int box_border_source(int p, int n, border mode) {
  // p is at most a halo and a lead outside [0, n), and n is at least a tile: one reflection.
  if (mode == border::clamp) return p < 0 ? 0 : n - 1;
  return p < 0 ? -p : 2 * (n - 1) - p;  // reflect101
}

template <int BoxW, int Lanes, class Member>
KOKKOS_INLINE_FUNCTION void fill_box_borders(const Member& team, const tile_grid& g, border mode, float* first,
                                             int stride, int boxes, int box_x, int step, int y) {
  const int rows = g.staged_rows, width = static_cast<int>(g.width), height = static_cast<int>(g.height);
  // A thread a box row: its columns outside the image.
  for (int k = team.team_rank(); k < boxes * rows; k += team.team_size()) {
    const int b = k / rows, row = k - b * rows, x0 = box_x + b * step;
    float* r = first + b * stride + row * BoxW;
    for (int c = 0; c < BoxW && x0 + c < 0; ++c) r[c] = r[box_border_source(x0 + c, width, mode) - x0];
    for (int c = BoxW - 1; c >= 0 && x0 + c >= width; --c) r[c] = r[box_border_source(x0 + c, width, mode) - x0];
  }
  team.team_barrier();  // the rows below read columns filled above
  // A warp a row outside the image (in every box), its lanes along the row.
  const int lane = team.team_rank() % Lanes, warp = team.team_rank() / Lanes, warps = team.team_size() / Lanes;
  for (int row = warp; row < rows; row += warps) {
    if (y + row >= 0 && y + row < height) continue;
    const int source = box_border_source(y + row, height, mode) - y;
    for (int b = 0; b < boxes; ++b) {
      float* box = first + b * stride;
      for (int c = lane; c < BoxW; c += Lanes) box[row * BoxW + c] = box[source * BoxW + c];
    }
  }
  team.team_barrier();  // the quads read what other threads filled
}

}  // namespace pk::detail
