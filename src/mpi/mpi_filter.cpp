// The distributed filters (include/pk/mpi/filter.hpp): the block filtered while its halo's rows
// arrive, then the halo's columns, then the outputs near the block's edge again from the halo.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <pk/error.hpp>
#include <pk/kokkos/filter.hpp>
#include <pk/kokkos/on_backend.hpp>
#include <pk/mpi/filter.hpp>
#include <pk/mpi/kokkos.hpp>

#include "filter/border_index.hpp"
#include "mpi/mpi_support.hpp"

namespace pk::mpi {
namespace {

std::string size_text(std::int64_t h, std::int64_t w) { return std::to_string(h) + " x " + std::to_string(w); }

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

// The whole algorithm, on a block in the memory of Exec's backend (Views).
template <class Exec, class T>
void distributed_apply(const char* who, const Exec& space, const grid& g, std::int64_t height, std::int64_t width,
                       const filter_spec& f, const image_view<const T, Exec>& in, const image_view<T, Exec>& out,
                       border mode) {
  const int in_h = static_cast<int>(in.extent(0)), in_w = static_cast<int>(in.extent(1)),
            in_c = static_cast<int>(in.extent(2));
  const int out_h = static_cast<int>(out.extent(0)), out_w = static_cast<int>(out.extent(1)),
            out_c = static_cast<int>(out.extent(2));
  const int r = f.op == filter_op::sobel_magnitude ? 1 : f.kernel.size / 2;
  // The same call everywhere first: a size that differs is the cause of a block that does not fit.
  const auto& w = f.kernel.weights;
  detail::require_same(g.comm(), who,
                       {{"the image height", height},
                        {"the image width", width},
                        {"the channel count", in_c},
                        {"the filter", static_cast<std::int64_t>(f.op) * 1000 + f.kernel.size},
                        {"the filter weights", detail::fingerprint(w.data(), w.size() * sizeof(float))},
                        {"the border", static_cast<std::int64_t>(mode)}});
  const block b = local_block(g, height, width);
  std::string problem;
  if (height < 1 || width < 1)
    problem = std::string(who) + ": the image is " + size_text(height, width) + ", expected at least 1 x 1";
  else if (in_h != b.height() || in_w != b.width())
    problem = std::string(who) + ": in is " + size_text(in_h, in_w) + ", expected this process's block of " +
              size_text(b.height(), b.width()) + " (rows " + std::to_string(b.rows.begin) + ".." +
              std::to_string(b.rows.end - 1) + ", columns " + std::to_string(b.cols.begin) + ".." +
              std::to_string(b.cols.end - 1) + " of " + size_text(height, width) + ")";
  else if (out_h != in_h || out_w != in_w || out_c != in_c)
    problem = std::string(who) + ": out is " + size_text(out_h, out_w) + " x " + std::to_string(out_c) +
              ", expected in's " + size_text(in_h, in_w) + " x " + std::to_string(in_c);
  else if (in_c < 1 || in_c > 4)
    problem = std::string(who) + ": in has " + std::to_string(in_c) + " channels, expected 1 to 4";
  detail::agree(g.comm(), problem);
  // Each split direction's blocks hold the halo their neighbours need, and the pixels the border
  // rule reads at the image's edges (radius + 1 for reflect101).
  const std::int64_t least_rows = height / g.rows(), least_cols = width / g.cols();
  if ((g.rows() > 1 && least_rows < r + 1) || (g.cols() > 1 && least_cols < r + 1))
    throw error(std::string(who) + ": a " + size_text(height, width) + " image over a " + std::to_string(g.rows()) +
                " x " + std::to_string(g.cols()) + " process grid has blocks of " + size_text(least_rows, least_cols) +
                " pixels, fewer than the filter radius + 1 = " + std::to_string(r + 1) +
                " along a split direction: use fewer processes along it, or a larger image");

  if (std::int64_t(r) * std::max(b.width(), b.height() + 2 * r) * in_c > INT_MAX)
    throw error(std::string(who) + ": the block's halo is too large for one MPI message");

  const int bh = static_cast<int>(b.height()), bw = static_cast<int>(b.width()), C = in_c;
  // The block filtered on its own, with the image's border: right for the outputs r or more pixels
  // inside, and for those near the block's edges that are the image's edges along a direction not
  // split over processes. One process: that is all.
  if (r == 0 || g.size() == 1) {
    pk::apply(space, f, in, out, mode);
    space.fence();
    return;
  }
  const edge_frame<T> frame = edges_on_host(space, in, std::min(2 * r, bh), std::min(2 * r, bw));
  halo<T> h(r, bh, bw, C, frame);
  const auto neighbour = [&](int row, int col, bool across_edge) {
    return across_edge && mode != border::wrap ? MPI_PROC_NULL : g.rank_of(row, col);
  };
  // The rows above and below are on their way while the block is filtered on its own.
  const std::size_t strip_rows = std::size_t(r) * bw * C;
  const bool split_rows = g.rows() > 1;
  exchange<T> rows_exchange(frame.top.data(),
                            split_rows ? frame.bottom.data() + (frame.bottom.size() - strip_rows) : frame.bottom.data(),
                            h.top.data(), h.bottom.data(),
                            split_rows ? strip_rows : 0,
                            split_rows ? neighbour((g.row() + g.rows() - 1) % g.rows(), g.col(), g.row() == 0) : MPI_PROC_NULL,
                            split_rows ? neighbour((g.row() + 1) % g.rows(), g.col(), g.row() == g.rows() - 1) : MPI_PROC_NULL,
                            g.comm());
  pk::apply(space, f, in, out, mode);  // (asynchronous on a GPU)
  rows_exchange.wait();
  if (!split_rows || (g.row() == 0 && mode != border::wrap)) border_rows(h, true, b.rows.begin, height, mode);
  if (!split_rows || (g.row() == g.rows() - 1 && mode != border::wrap)) border_rows(h, false, b.rows.begin, height, mode);
  // Then the columns left and right over the full height, halo rows included (the corners).
  if (g.cols() > 1) {
    std::vector<T> first(h.left.size()), last(h.right.size());
    for (int y = -r; y < bh + r; ++y) {
      std::memcpy(first.data() + std::size_t(y + r) * r * C, h.row(y, 0), std::size_t(r) * C * sizeof(T));
      std::memcpy(last.data() + std::size_t(y + r) * r * C, h.row(y, bw - r), std::size_t(r) * C * sizeof(T));
    }
    exchange<T> columns(first.data(), last.data(), h.left.data(), h.right.data(), first.size(),
                        neighbour(g.row(), (g.col() + g.cols() - 1) % g.cols(), g.col() == 0),
                        neighbour(g.row(), (g.col() + 1) % g.cols(), g.col() == g.cols() - 1), g.comm());
    columns.wait();
  }
  if (g.cols() == 1 || (g.col() == 0 && mode != border::wrap)) border_columns(h, true, b.cols.begin, width, mode);
  if (g.cols() == 1 || (g.col() == g.cols() - 1 && mode != border::wrap))
    border_columns(h, false, b.cols.begin, width, mode);

  // The outputs within r of the block's edge, [ya, yb) x [xa, xb), from windows of the block with
  // its halo (each output's window r larger on every side). The left and right columns' window is
  // 3r wide at most, narrower than the filter's blocks of outputs (64 on a CPU), which would compute
  // mostly padding: it is cut into pieces of `fold` rows laid side by side in one image (each
  // piece's window r wider and taller than its outputs, so no output reads another piece), filtered
  // once and copied back. The top and bottom rows are one piece. The same taps in the same order
  // for every output as in the one-process filter.
  const auto redo = [&](int ya, int yb, int xa, int xb) {
    if (ya >= yb || xa >= xb) return;
    constexpr int fold = 64;
    const int w = xb - xa, pitch = w + 2 * r, rows = yb - ya, pieces = (rows + fold - 1) / fold;
    const int fh = std::min(fold, rows) + 2 * r, fw = pieces * pitch;
    std::vector<T>& laid = reused_buffer<T, 0>(std::size_t(fh) * fw * C);
    std::fill(laid.begin(), laid.end(), T(0));
    for (int p = 0; p < pieces; ++p) {
      const int y0 = ya + p * fold, y1 = std::min(y0 + fold, yb);
      h.window(y0 - r, y1 + r, xa - r, xb + r, laid.data() + std::size_t(p) * pitch * C, std::size_t(fw));
    }
    // On a CPU the laid-out windows and their results stay in host arrays (no View allocated, no copy).
    std::vector<T>& laid_out = reused_buffer<T, 1>(host_memory<Exec> ? laid.size() : 0);
    image_view<T, Exec> in_laid, out_laid;
    if constexpr (host_memory<Exec>) {
      in_laid = host_image<T>(laid.data(), fh, fw, C);
      out_laid = host_image<T>(laid_out.data(), fh, fw, C);
    } else {
      in_laid = image_view<T, Exec>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "pk_mpi_window"), fh, fw, C);
      out_laid = image_view<T, Exec>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "pk_mpi_window_out"), fh, fw, C);
      Kokkos::deep_copy(space, in_laid, host_image<T>(laid.data(), fh, fw, C));
    }
    pk::apply(space, f, image_view<const T, Exec>(in_laid), out_laid, border::zero);
    Kokkos::parallel_for("pk::mpi::filter edges", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(space, 0, std::int64_t(rows) * w * C),
                         unfold_pieces<T, Exec>{out, out_laid, ya, xa, w, C, fold, pitch, r});
    space.fence();  // (the Views, on a GPU, are freed on return)
  };
  // Along a direction not split, the edges' outputs are right already.
  const int top_end = split_rows ? std::min(r, bh) : 0, bottom_begin = split_rows ? std::max(bh - r, top_end) : bh;
  if (split_rows) {
    redo(0, top_end, 0, bw);       // the top rows
    redo(bottom_begin, bh, 0, bw);  // the bottom rows
  }
  if (g.cols() > 1) {
    redo(top_end, bottom_begin, 0, std::min(r, bw));                     // the left columns between them
    redo(top_end, bottom_begin, std::max(bw - r, std::min(r, bw)), bw);  // the right columns
  }
  space.fence();
}


// The host-array calls: the arrays as Views in the backend's memory (the same memory on the host;
// copied to the GPU and back on cuda), then the algorithm above.
template <class T>
void host_arrays(const char* who, backend on, const grid& g, std::int64_t height, std::int64_t width,
                 const filter_spec& f, image_ref<const T> in, image_ref<T> out, border mode) {
  std::string problem;
  if (in.height < 0 || in.width < 0 || in.channels < 0 || out.height < 0 || out.width < 0 || out.channels < 0)
    problem = std::string(who) + ": in or out has a negative size";
  else if ((in.size() > 0 && in.data == nullptr) || (out.size() > 0 && out.data == nullptr))
    problem = std::string(who) + ": in or out has no data";
  detail::agree(g.comm(), problem);
  on_backend(on, [&](auto space) {
    using Exec = decltype(space);
    // A GPU gets copies of the block and its result (Views of the arrays themselves on the host).
    if constexpr (!Kokkos::SpaceAccessibility<typename Exec::memory_space, Kokkos::HostSpace>::accessible)
      detail::require_memory_everywhere(g.comm(), on, 2.0 * double(in.size()) * sizeof(T),
                                        std::string(who) + " (this process's block copied to the GPU)");
    const host_image<const T> in_host(in.data, in.height, in.width, in.channels);
    const host_image<T> out_host(out.data, out.height, out.width, out.channels);
    const auto in_here = Kokkos::create_mirror_view_and_copy(typename Exec::memory_space(), in_host);
    auto out_here = Kokkos::create_mirror_view(typename Exec::memory_space(), out_host);
    distributed_apply<Exec, T>(who, space, g, height, width, f, image_view<const T, Exec>(in_here),
                               image_view<T, Exec>(out_here), mode);
    if (out_here.data() != out_host.data()) Kokkos::deep_copy(out_host, out_here);
  });
}

filter_spec convolution(const filter_kernel& k) {
  filter_spec f;
  f.kernel = k;
  return f;
}

}  // namespace

void filter(backend on, const grid& g, std::int64_t height, std::int64_t width, image_ref<const float> in,
            image_ref<float> out, const filter_kernel& k, border b) {
  host_arrays("pk::mpi::filter", on, g, height, width, convolution(k), in, out, b);
}
void filter(backend on, const grid& g, std::int64_t height, std::int64_t width, image_ref<const std::uint8_t> in,
            image_ref<std::uint8_t> out, const filter_kernel& k, border b) {
  host_arrays("pk::mpi::filter", on, g, height, width, convolution(k), in, out, b);
}
void apply(backend on, const grid& g, std::int64_t height, std::int64_t width, const filter_spec& f,
           image_ref<const float> in, image_ref<float> out, border b) {
  host_arrays("pk::mpi::apply", on, g, height, width, f, in, out, b);
}
void apply(backend on, const grid& g, std::int64_t height, std::int64_t width, const filter_spec& f,
           image_ref<const std::uint8_t> in, image_ref<std::uint8_t> out, border b) {
  host_arrays("pk::mpi::apply", on, g, height, width, f, in, out, b);
}

namespace detail {
template <class Exec, class T>
void apply_views(const Exec& space, const grid& g, std::int64_t height, std::int64_t width, const filter_spec& f,
                 const image_view<const T, Exec>& in, const image_view<T, Exec>& out, border b) {
  distributed_apply<Exec, T>("pk::mpi::apply", space, g, height, width, f, in, out, b);
}
}  // namespace detail

// The View calls for each backend of this build.
#define PK_MPI_FILTER_VIEWS(Exec)                                                                               \
  template void detail::apply_views<Exec, float>(const Exec&, const grid&, std::int64_t, std::int64_t,         \
                                                 const filter_spec&, const image_view<const float, Exec>&,    \
                                                 const image_view<float, Exec>&, border);                     \
  template void detail::apply_views<Exec, std::uint8_t>(const Exec&, const grid&, std::int64_t, std::int64_t,  \
                                                        const filter_spec&,                                   \
                                                        const image_view<const std::uint8_t, Exec>&,          \
                                                        const image_view<std::uint8_t, Exec>&, border);
#if defined(KOKKOS_ENABLE_SERIAL)
PK_MPI_FILTER_VIEWS(Kokkos::Serial)
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
PK_MPI_FILTER_VIEWS(Kokkos::OpenMP)
#endif
#if defined(KOKKOS_ENABLE_CUDA)
PK_MPI_FILTER_VIEWS(Kokkos::Cuda)
#endif

}  // namespace pk::mpi
