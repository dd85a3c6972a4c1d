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
#include <pk/mpi/filter.hpp>

#include "filter/border_index.hpp"
#include "mpi/mpi_support.hpp"

namespace pk::mpi {
namespace {

std::string size_text(std::int64_t h, std::int64_t w) { return std::to_string(h) + " x " + std::to_string(w); }

// The halo of a block of bh x bw pixels (C channels): r rows above (top) and below (bottom) over the
// block's columns, then r columns left and right over the full height with the halo rows (corners
// included). Pixel (y, x), y in [-r, bh + r), x in [-r, bw + r), is the block's own for y in [0, bh)
// and x in [0, bw), and lies in one of the four buffers otherwise.
template <class T>
struct halo {
  int r, bh, bw, C;
  const T* block;
  std::vector<T> top, bottom, left, right;
  halo(int r_, int bh_, int bw_, int C_, const T* block_)
      : r(r_), bh(bh_), bw(bw_), C(C_), block(block_), top(std::size_t(r_) * bw_ * C_), bottom(top.size()),
        left(std::size_t(bh_ + 2 * r_) * r_ * C_), right(left.size()) {}
  // Row y's pixels [x_begin, x_end) within the columns of the block (x in [0, bw)).
  const T* row(int y, int x) const {
    if (y < 0) return top.data() + (std::size_t(y + r) * bw + x) * C;
    if (y >= bh) return bottom.data() + (std::size_t(y - bh) * bw + x) * C;
    return block + (std::size_t(y) * bw + x) * C;
  }
  T* side(std::vector<T>& s, int y, int j) { return s.data() + (std::size_t(y + r) * r + j) * C; }
  const T* side(const std::vector<T>& s, int y, int j) const { return s.data() + (std::size_t(y + r) * r + j) * C; }

  // The pixels [ya, yb) x [xa, xb) as a dense image.
  std::vector<T> window(int ya, int yb, int xa, int xb) const {
    std::vector<T> w(std::size_t(yb - ya) * (xb - xa) * C);
    T* dst = w.data();
    for (int y = ya; y < yb; ++y) {
      for (int x = xa; x < 0 && x < xb; ++x, dst += C) std::memcpy(dst, side(left, y, x + r), C * sizeof(T));
      const int m0 = std::max(xa, 0), m1 = std::min(xb, bw);
      if (m1 > m0) {
        std::memcpy(dst, row(y, m0), std::size_t(m1 - m0) * C * sizeof(T));
        dst += std::size_t(m1 - m0) * C;
      }
      for (int x = std::max(xa, bw); x < xb; ++x, dst += C) std::memcpy(dst, side(right, y, x - bw), C * sizeof(T));
    }
    return w;
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
      std::memcpy(d, h.block + std::size_t(source - y0) * n, n * sizeof(T));
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

template <class T>
void distributed_apply(const char* who, backend on, const grid& g, std::int64_t height, std::int64_t width,
                       const filter_spec& f, image_ref<const T> in, image_ref<T> out, border mode) {
  const int r = f.op == filter_op::sobel_magnitude ? 1 : f.kernel.size / 2;
  // The same call everywhere first: a size that differs is the cause of a block that does not fit.
  const auto& w = f.kernel.weights;
  detail::require_same(g.comm(), who,
                       {{"the image height", height},
                        {"the image width", width},
                        {"the channel count", in.channels},
                        {"the filter", static_cast<std::int64_t>(f.op) * 1000 + f.kernel.size},
                        {"the filter weights", detail::fingerprint(w.data(), w.size() * sizeof(float))},
                        {"the border", static_cast<std::int64_t>(mode)}});
  const block b = local_block(g, height, width);
  std::string problem;
  if (height < 1 || width < 1)
    problem = std::string(who) + ": the image is " + size_text(height, width) + ", expected at least 1 x 1";
  else if (in.height != b.height() || in.width != b.width())
    problem = std::string(who) + ": in is " + size_text(in.height, in.width) + ", expected this process's block of " +
              size_text(b.height(), b.width()) + " (rows " + std::to_string(b.rows.begin) + ".." +
              std::to_string(b.rows.end - 1) + ", columns " + std::to_string(b.cols.begin) + ".." +
              std::to_string(b.cols.end - 1) + " of " + size_text(height, width) + ")";
  else if (out.height != in.height || out.width != in.width || out.channels != in.channels)
    problem = std::string(who) + ": out is " + size_text(out.height, out.width) + " x " +
              std::to_string(out.channels) + ", expected in's " + size_text(in.height, in.width) + " x " +
              std::to_string(in.channels);
  else if (in.channels < 1 || in.channels > 4)
    problem = std::string(who) + ": in has " + std::to_string(in.channels) + " channels, expected 1 to 4";
  else if ((in.size() > 0 && (in.data == nullptr || out.data == nullptr)))
    problem = std::string(who) + ": in or out has no data";
  detail::agree(g.comm(), problem);
  // Each split direction's blocks hold the halo their neighbours need, and the pixels the border
  // rule reads at the image's edges (radius + 1 for reflect101).
  const std::int64_t least_rows = height / g.rows(), least_cols = width / g.cols();
  if ((g.rows() > 1 && least_rows < r + 1) || (g.cols() > 1 && least_cols < r + 1))
    throw error(std::string(who) + ": a " + size_text(height, width) + " image over a " + std::to_string(g.rows()) +
                " x " + std::to_string(g.cols()) + " process grid has blocks of " + size_text(least_rows, least_cols) +
                " pixels, fewer than the filter radius + 1 = " + std::to_string(r + 1) +
                " along a split direction: use fewer processes along it, or a larger image");

  if (std::int64_t(r) * std::max(b.width(), b.height() + 2 * r) * in.channels > INT_MAX)
    throw error(std::string(who) + ": the block's halo is too large for one MPI message");

  const int bh = static_cast<int>(b.height()), bw = static_cast<int>(b.width()), C = in.channels;
  // The block filtered on its own, with the image's border: right for the outputs r or more pixels
  // inside, and for those near the block's edges that are the image's edges along a direction not
  // split over processes. One process: that is all.
  const auto filter_into = [&](image_ref<const T> src, image_ref<T> dst) { pk::apply(on, f, src, dst, mode); };
  if (r == 0 || g.size() == 1) {
    filter_into(in, out);
    return;
  }
  halo<T> h(r, bh, bw, C, in.data);
  const auto neighbour = [&](int row, int col, bool across_edge) {
    return across_edge && mode != border::wrap ? MPI_PROC_NULL : g.rank_of(row, col);
  };
  // The rows above and below are on their way while the block is filtered on its own.
  const std::size_t strip_rows = std::size_t(r) * bw * C;
  const bool split_rows = g.rows() > 1;
  exchange<T> rows_exchange(in.data, split_rows ? in.data + (std::size_t(bh) * bw * C - strip_rows) : in.data,
                            h.top.data(), h.bottom.data(),
                            split_rows ? strip_rows : 0,
                            split_rows ? neighbour((g.row() + g.rows() - 1) % g.rows(), g.col(), g.row() == 0) : MPI_PROC_NULL,
                            split_rows ? neighbour((g.row() + 1) % g.rows(), g.col(), g.row() == g.rows() - 1) : MPI_PROC_NULL,
                            g.comm());
  filter_into(in, out);
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

  // The outputs within r of the block's edge, from windows of the block with its halo: outputs
  // [ya, yb) x [xa, xb) read the window r larger on every side.
  const auto redo = [&](int ya, int yb, int xa, int xb) {
    if (ya >= yb || xa >= xb) return;
    const int wh = yb - ya + 2 * r, ww = xb - xa + 2 * r;
    const std::vector<T> window = h.window(ya - r, yb + r, xa - r, xb + r);
    std::vector<T> result(window.size());
    pk::apply(on, f, image_ref<const T>{window.data(), wh, ww, C}, image_ref<T>{result.data(), wh, ww, C}, border::zero);
    for (int y = ya; y < yb; ++y)
      std::memcpy(out.data + (std::size_t(y) * bw + xa) * C, result.data() + (std::size_t(y - ya + r) * ww + r) * C,
                  std::size_t(xb - xa) * C * sizeof(T));
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
}

filter_spec convolution(const filter_kernel& k) {
  filter_spec f;
  f.kernel = k;
  return f;
}

}  // namespace

void filter(backend on, const grid& g, std::int64_t height, std::int64_t width, image_ref<const float> in,
            image_ref<float> out, const filter_kernel& k, border b) {
  distributed_apply("pk::mpi::filter", on, g, height, width, convolution(k), in, out, b);
}
void filter(backend on, const grid& g, std::int64_t height, std::int64_t width, image_ref<const std::uint8_t> in,
            image_ref<std::uint8_t> out, const filter_kernel& k, border b) {
  distributed_apply("pk::mpi::filter", on, g, height, width, convolution(k), in, out, b);
}
void apply(backend on, const grid& g, std::int64_t height, std::int64_t width, const filter_spec& f,
           image_ref<const float> in, image_ref<float> out, border b) {
  distributed_apply("pk::mpi::apply", on, g, height, width, f, in, out, b);
}
void apply(backend on, const grid& g, std::int64_t height, std::int64_t width, const filter_spec& f,
           image_ref<const std::uint8_t> in, image_ref<std::uint8_t> out, border b) {
  distributed_apply("pk::mpi::apply", on, g, height, width, f, in, out, b);
}

}  // namespace pk::mpi
