#pragma once
// The halo of a distributed filter's block (mpi_filter.cpp): the block's edge frame brought to the
// host, the halo rows and columns exchanged with the neighbours or made by the border rule, and
// the windows around the block's edge laid out for filtering again.
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include <pk/filter.hpp>
#include <pk/kokkos/views.hpp>

#include "filter/border_index.hpp"
#include "mpi/mpi_support.hpp"

namespace pk::mpi::detail {

// The block's edge frame in host memory: its first and last fr rows (all columns) and its first
// and last fc columns (all rows), fr = min(2r, bh), fc = min(2r, bw): every block pixel that the
// halo exchange, the border rule and the windows around the edge read.
template <class T>
struct edge_frame {
  int fr, fc;
  std::vector<T> top, bottom, left, right;  // fr x bw, fr x bw, bh x fc, bh x fc (x C)
};

// The halo of a block of bh x bw pixels (C channels): r rows above (top) and below (bottom) over the
// block's columns, then r columns left and right over the full height with the halo rows (corners
// included). Pixel (y, x), y in [-r, bh + r), x in [-r, bw + r), is the block's own for y in [0, bh)
// and x in [0, bw) (read from its edge frame), and lies in one of the four buffers otherwise.
template <class T>
struct halo {
  int r, bh, bw, C;
  const edge_frame<T>& frame;
  std::vector<T> top, bottom, left, right;
  halo(int r_, int bh_, int bw_, int C_, const edge_frame<T>& frame_)
      : r(r_), bh(bh_), bw(bw_), C(C_), frame(frame_), top(std::size_t(r_) * bw_ * C_), bottom(top.size()),
        left(std::size_t(bh_ + 2 * r_) * r_ * C_), right(left.size()) {}
  // Row y's pixels from column x on, up to the end of the frame piece holding (y, x) (x in [0, bw)).
  const T* row(int y, int x) const {
    if (y < 0) return top.data() + (std::size_t(y + r) * bw + x) * C;
    if (y >= bh) return bottom.data() + (std::size_t(y - bh) * bw + x) * C;
    if (y < frame.fr) return frame.top.data() + (std::size_t(y) * bw + x) * C;
    if (y >= bh - frame.fr) return frame.bottom.data() + (std::size_t(y - (bh - frame.fr)) * bw + x) * C;
    // (The pieces overlap where bw < 2 fc: a run that starts in the right one stays in it.)
    if (x >= bw - frame.fc) return frame.right.data() + (std::size_t(y) * frame.fc + x - (bw - frame.fc)) * C;
    return frame.left.data() + (std::size_t(y) * frame.fc + x) * C;
  }
  T* side(std::vector<T>& s, int y, int j) { return s.data() + (std::size_t(y + r) * r + j) * C; }
  const T* side(const std::vector<T>& s, int y, int j) const { return s.data() + (std::size_t(y + r) * r + j) * C; }

  // The pixels [ya, yb) x [xa, xb) (a window within r of the block's edge) into an image whose
  // rows are `pitch` pixels apart.
  void window(int ya, int yb, int xa, int xb, T* out, std::size_t pitch) const {
    for (int y = ya; y < yb; ++y) {
      T* dst = out + std::size_t(y - ya) * pitch * C;
      for (int x = xa; x < 0 && x < xb; ++x, dst += C) std::memcpy(dst, side(left, y, x + r), C * sizeof(T));
      const int m0 = std::max(xa, 0), m1 = std::min(xb, bw);
      if (m1 > m0) {
        std::memcpy(dst, row(y, m0), std::size_t(m1 - m0) * C * sizeof(T));
        dst += std::size_t(m1 - m0) * C;
      }
      for (int x = std::max(xa, bw); x < xb; ++x, dst += C) std::memcpy(dst, side(right, y, x - bw), C * sizeof(T));
    }
  }
};

// Rows of the halo above (above = true) or below the block from its own rows by the border rule:
// global row y0 + y reads the global row border_index gives (zeros where it gives none).
template <class T>
void border_rows(halo<T>& h, bool above, std::int64_t y0, std::int64_t height, border mode) {
  std::vector<T>& dst = above ? h.top : h.bottom;
  const std::size_t n = std::size_t(h.bw) * h.C;
  for (int i = 0; i < h.r; ++i) {
    const int y = above ? i - h.r : h.bh + i;
    const std::int64_t source = pk::detail::border_index(y0 + y, height, mode);
    T* d = dst.data() + i * n;
    if (source < 0)
      std::fill(d, d + n, T(0));
    else
      std::memcpy(d, h.row(static_cast<int>(source - y0), 0), n * sizeof(T));
  }
}

// Columns of the halo left (left = true) or right of the block, over the full height, likewise.
template <class T>
void border_columns(halo<T>& h, bool left, std::int64_t x0, std::int64_t width, border mode) {
  std::vector<T>& dst = left ? h.left : h.right;
  for (int j = 0; j < h.r; ++j) {
    const int x = left ? j - h.r : h.bw + j;
    const std::int64_t source = pk::detail::border_index(x0 + x, width, mode);
    for (int y = -h.r; y < h.bh + h.r; ++y) {
      T* d = h.side(dst, y, j);
      if (source < 0)
        std::fill(d, d + h.C, T(0));
      else
        std::memcpy(d, h.row(y, static_cast<int>(source - x0)), h.C * sizeof(T));
    }
  }
}

// A pair of non-blocking exchanges with the neighbours before and after along one grid direction
// (MPI_PROC_NULL: none): `first`/`last` (n elements each) go to them, their strips land in
// `from_before`/`from_after`.
template <class T>
struct exchange {
  MPI_Request requests[4];
  exchange(const T* first, const T* last, T* from_before, T* from_after, std::size_t n, int before, int after,
           MPI_Comm comm) {
    const MPI_Datatype type = detail::datatype<T>();
    const int count = static_cast<int>(n);
    MPI_Irecv(from_before, count, type, before, 1, comm, &requests[0]);
    MPI_Irecv(from_after, count, type, after, 0, comm, &requests[1]);
    MPI_Isend(first, count, type, before, 0, comm, &requests[2]);
    MPI_Isend(last, count, type, after, 1, comm, &requests[3]);
  }
  void wait() { MPI_Waitall(4, requests, MPI_STATUSES_IGNORE); }
};

// A host array as an unmanaged View.
template <class T>
using host_image = Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// A host buffer of n elements kept from call to call, one per thread, element type and Slot: a
// fresh one of 100-200 KB came from mmap and had its pages faulted in again at every call (0.8 ms
// a call for the windows along a 4096^2 block's edges, 2-core VM, 2026-12-08).
template <class T, int Slot>
std::vector<T>& reused_buffer(std::size_t n) {
  thread_local std::vector<T> buffer;
  buffer.resize(n);
  return buffer;
}

// Whether Exec's Views are host memory (the CPU backends): then host arrays serve as its Views.
template <class Exec>
constexpr bool host_memory = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible;

// The outputs near a block's edge, filtered as pieces of `fold` rows laid side by side (redo in
// distributed_apply), back to their place: out(ya + y, xa + x) is piece y / fold's output
// (r + y % fold, r + x), each piece `pitch` columns right of the one before.
template <class T, class Exec>
struct unfold_pieces {
  image_view<T, Exec> out;
  image_view<const T, Exec> pieces;
  int ya, xa, width, channels, fold, pitch, r;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t e) const {
    const int c = int(e % channels), x = int(e / channels % width), y = int(e / (std::int64_t(channels) * width));
    out(ya + y, xa + x, c) = pieces(r + y % fold, (y / fold) * pitch + r + x, c);
  }
};

// The block's edge frame (edge_frame) copied into host memory: the rows are contiguous in the
// block; the columns are gathered in the block's own memory first (a strided copy there), then
// brought over as one piece.
template <class Exec, class T>
edge_frame<T> edges_on_host(const Exec& space, const image_view<const T, Exec>& in, int fr, int fc) {
  const int bh = static_cast<int>(in.extent(0)), bw = static_cast<int>(in.extent(1)), C = static_cast<int>(in.extent(2));
  edge_frame<T> e{fr, fc, std::vector<T>(std::size_t(fr) * bw * C), std::vector<T>(std::size_t(fr) * bw * C),
                  std::vector<T>(std::size_t(bh) * fc * C), std::vector<T>(std::size_t(bh) * fc * C)};
  if constexpr (host_memory<Exec>) {
    // The block is in host memory already: its rows copied as they are, a column piece a row (a
    // strided deep_copy through a View took 0.3-1.2 ms for a 4096^2 block's frame, 2 cores).
    space.fence();
    const std::size_t row = static_cast<std::size_t>(in.stride(0)), run = std::size_t(bw) * C;
    for (int y = 0; y < fr; ++y) {
      std::memcpy(e.top.data() + y * run, in.data() + y * row, run * sizeof(T));
      std::memcpy(e.bottom.data() + y * run, in.data() + (bh - fr + y) * row, run * sizeof(T));
    }
    const std::size_t piece = std::size_t(fc) * C;
    for (int y = 0; y < bh; ++y) {
      std::memcpy(e.left.data() + y * piece, in.data() + y * row, piece * sizeof(T));
      std::memcpy(e.right.data() + y * piece, in.data() + y * row + (bw - fc) * std::size_t(C), piece * sizeof(T));
    }
    return e;
  }
  using rows = Kokkos::pair<int, int>;
  Kokkos::deep_copy(space, host_image<T>(e.top.data(), fr, bw, C), Kokkos::subview(in, rows(0, fr), Kokkos::ALL, Kokkos::ALL));
  Kokkos::deep_copy(space, host_image<T>(e.bottom.data(), fr, bw, C),
                    Kokkos::subview(in, rows(bh - fr, bh), Kokkos::ALL, Kokkos::ALL));
  const image_view<T, Exec> columns(Kokkos::view_alloc(Kokkos::WithoutInitializing, "pk_mpi_edge_columns"), bh, fc, C);
  Kokkos::deep_copy(space, columns, Kokkos::subview(in, Kokkos::ALL, rows(0, fc), Kokkos::ALL));
  Kokkos::deep_copy(space, host_image<T>(e.left.data(), bh, fc, C), columns);
  Kokkos::deep_copy(space, columns, Kokkos::subview(in, Kokkos::ALL, rows(bw - fc, bw), Kokkos::ALL));
  Kokkos::deep_copy(space, host_image<T>(e.right.data(), bh, fc, C), columns);
  space.fence();
  return e;
}

}  // namespace pk::mpi::detail
