#pragma once
// Staging whole tiles by tensor copies (Primitives::tensor_copy: on Hopper the tensor memory
// accelerator, which copies 2-D boxes of the image into scratch with no staging instruction in
// the team's threads): for one-channel float tiles computed by quads (output_blocks.hpp). The
// boxes hold zeros where they leave the image, which is border::zero; for clamp and reflect101
// the team then fills those values from the pixels the boxes hold. Partial tiles, wrap's edge
// tiles, and devices or images the mechanism cannot serve go by the Fallback staging.
//
// The boxes: a group's quads span BoxOutputs = 4 x Lanes outputs of a row, so box b holds the
// staged rows of the window those outputs read (columns b x BoxOutputs - R - Lead on, BoxW of
// them), dense at a pitch of BoxW floats. BoxW is a compile-time constant, so the quad loop's
// scratch reads are base + immediate. A box's place in scratch is a multiple of 128 bytes.
//
//        tile: 256 outputs a row        box 0: outputs 0..127    box 1: outputs 128..255
//        staged: 264 floats a row  -->  136 floats a row         136 floats a row (8 columns in both)
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "filter/border_index.hpp"
#include "filter/output_blocks.hpp"
#include "filter/stencils.hpp"
#include "filter/tile_grid.hpp"

namespace pk::detail {

// Where the boxes of a tile lie in scratch, for quads of radius R whose staged rows have the lead
// Lead, read by groups of Lanes threads.
template <int R, int Lead_, int Lanes>
struct box_layout {
  static constexpr int Lead = Lead_, BoxOutputs = 4 * Lanes;
  static constexpr int Skip = Lead / 4 * 4, Quads = window_quads(2 * R + 1, 1, Lead % 4);
  // The last quad of a box (element 4 x (Lanes - 1)) reads Quads quads from Skip on.
  static constexpr int BoxW = Skip + 4 * (Lanes - 1) + 4 * Quads;
  static_assert(BoxW % 4 == 0 && BoxW <= 256, "a box row is whole 16-byte packs, at most 256 elements");

  // Whether tiles of grid g can be staged this way: one channel, the quads' lead, whole boxes
  // across a tile and at most 256 staged rows (a box's limit).
  KOKKOS_INLINE_FUNCTION static bool fits(const tile_grid& g) {
    return g.channels == 1 && g.lead == Lead && g.tile_w % BoxOutputs == 0 && g.staged_rows <= 256;
  }
  KOKKOS_INLINE_FUNCTION static int boxes(const tile_grid& g) { return g.tile_w / BoxOutputs; }
  // Floats from one box to the next: whole 128-byte blocks.
  KOKKOS_INLINE_FUNCTION static std::int64_t box_stride(const tile_grid& g) {
    return (static_cast<std::int64_t>(g.staged_rows) * BoxW + 31) / 32 * 32;
  }
  // Scratch floats: the boxes, then 8 bytes for the copies' signal.
  KOKKOS_INLINE_FUNCTION static std::int64_t floats(const tile_grid& g) { return boxes(g) * box_stride(g) + 2; }
  // Whether tile t can be staged this way: a whole tile, its boxes inside the image, or at its edge
  // with a border the boxes can fill themselves (fill_box_borders).
  KOKKOS_INLINE_FUNCTION static bool stages(const tile_grid& g, const tile_box& t, border mode) {
    return t.w == g.tile_w && t.h == g.tile_h && (mode != border::wrap || staged_inside_image(g, t));
  }
};

// A tile staged as boxes: what output_blocks reads.
template <class Layout>
struct staged_boxes {
  static constexpr bool quads_only = true;  // (boxes are staged only for kernels computed by quads)
  const float* first;
  std::int64_t stride;
  template <int Lead>
  KOKKOS_INLINE_FUNCTION bool quads_fit(const tile_grid&) const {
    return true;
  }
  template <class Primitives, int Taps, int C, int Lead>
  KOKKOS_INLINE_FUNCTION quad_window<Primitives, float, Taps, C, Lead % 4, fixed<Layout::BoxW>> quads(int y, int e) const {
    static_assert(C == 1, "boxes hold one-channel tiles");
    const int b = e / Layout::BoxOutputs;
    return {first + b * stride + y * Layout::BoxW + Layout::Skip + (e - b * Layout::BoxOutputs), {}};
  }
};

// Tiles at the image's edge, border clamp or reflect101: every value a box holds outside the
// image is a copy of a pixel the same box holds (a whole tile is wider and taller than its halo),
// so the team fills the columns outside the image from their rows, then, after a barrier, the
// rows outside it from whole box rows (corners included). box_x: the image column of box 0's
// first, step from one box to the next, y: the image row of every box's first.
template <int BoxW, class Team, class Member>
KOKKOS_INLINE_FUNCTION void fill_box_borders(const Member& team, const tile_grid& g, border mode, float* first,
                                             std::int64_t stride, int boxes, int box_x, int step, int y) {
  const int rows = g.staged_rows;
  // A thread a box row: its columns outside the image.
  for (int k = team.team_rank(); k < boxes * rows; k += Team::Size) {
    const int b = k / rows, row = k - b * rows, x0 = box_x + b * step;
    float* r = first + b * stride + row * BoxW;
    for (int c = 0; c < BoxW && x0 + c < 0; ++c) r[c] = r[border_index(x0 + c, g.width, mode) - x0];
    for (int c = BoxW - 1; c >= 0 && x0 + c >= g.width; --c) r[c] = r[border_index(x0 + c, g.width, mode) - x0];
  }
  team.team_barrier();  // the rows below read columns filled above
  // A group a row outside the image (in every box), its lanes along the row.
  const Team th(team);
  for (int row = th.group; row < rows; row += Team::Groups) {
    if (y + row >= 0 && y + row < g.height) continue;
    const std::int64_t source = border_index(y + row, g.height, mode) - y;
    for (int b = 0; b < boxes; ++b) {
      float* box = first + b * stride;
      for (int c = th.lane; c < BoxW; c += Team::Lanes) box[row * BoxW + c] = box[source * BoxW + c];
    }
  }
  team.team_barrier();  // the quads read what other threads filled
}

// The staging mechanism "tensor copies" (a policy's staging type, filter_policy.hpp) for kernels
// of radius R whose Fallback stages packs of Pack elements; the tensor map is made on the host
// for each image (prepare).
template <class Primitives, class Team, int R, class Fallback>
struct staged_by_tensor_copies {
  static constexpr int Align = 128;  // what the tensor memory accelerator asks of a box's place
  template <class T>
  static constexpr int pack_elements = Fallback::template pack_elements<T>;
  using layout = box_layout<R, staged_lead(R, Fallback::template pack_elements<float>), Team::Lanes>;

  Fallback fallback;
  typename Primitives::tensor_map map{};

  // Scratch: the staged tile, or the boxes and their signal where larger.
  template <class T>
  using scratch_type = float;
  KOKKOS_INLINE_FUNCTION std::int64_t scratch_elements(const tile_grid& g) const {
    const std::int64_t b = layout::fits(g) ? layout::floats(g) : 0;
    return b > g.staged_elements() ? b : g.staged_elements();
  }
  template <class T>
  void prepare(const T* image, const tile_grid& g) {
    if (layout::fits(g)) map = Primitives::make_tensor_map(image, g.height, g.width, layout::BoxW, g.staged_rows);
  }
  template <int, class Member, class T, class Body>
  KOKKOS_INLINE_FUNCTION void stage(const Member& team, float* staged, const T* image, const tile_grid& g,
                                    const tile_box& t, border mode, Body&& body) const {
    if (Primitives::has(map) && layout::stages(g, t, mode)) {
      const std::int64_t stride = layout::box_stride(g);
      const int n = layout::boxes(g);
      // Where the boxes start in the image (recomputed where used: fewer registers held across
      // the copies' wait).
      const auto box_x = [&] { return static_cast<int>(t.x0) - R - layout::Lead; };
      const auto box_y = [&] { return static_cast<int>(t.y0) - R; };
      Primitives::tensor_copy(team, map, layout::BoxW, g.staged_rows, staged, stride, n, box_x(), layout::BoxOutputs,
                              box_y(), staged + n * stride);
      // (border::zero's values are the zeros the copies brought for outside the image.)
      if (!staged_inside_image(g, t) && mode != border::zero)
        fill_box_borders<layout::BoxW, Team>(team, g, mode, staged, stride, n, box_x(), layout::BoxOutputs, box_y());
      body(staged_boxes<layout>{staged, stride});
      return;
    }
    fallback.template stage<R>(team, staged, image, g, t, mode, body);
  }
};

}  // namespace pk::detail
