// The distributed filters (include/pk/mpi/filter.hpp): halo exchange, then the one-process filter
// on the block with its halo.
#include <mpi.h>

#include <algorithm>
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

// An MPI vector type: count runs of `run` elements, `stride` apart.
struct vector_type {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  vector_type(int count, int run, int stride, MPI_Datatype base) {
    MPI_Type_vector(count, run, stride, base, &type);
    MPI_Type_commit(&type);
  }
  ~vector_type() { MPI_Type_free(&type); }
  vector_type(const vector_type&) = delete;
  vector_type& operator=(const vector_type&) = delete;
};

// The block with a halo of r pixels on every side: ph x pw pixels of C channels, the block's own
// pixels at [r, r + bh) x [r, r + bw).
template <class T>
struct halo_block {
  int r, bh, bw, C, ph, pw;
  std::vector<T> pixels;
  halo_block(int r_, int bh_, int bw_, int C_)
      : r(r_), bh(bh_), bw(bw_), C(C_), ph(bh_ + 2 * r_), pw(bw_ + 2 * r_),
        pixels(static_cast<std::size_t>(ph) * pw * C) {}
  T* at(int y, int x) { return pixels.data() + (static_cast<std::size_t>(y) * pw + x) * C; }
  std::size_t row_elements() const { return static_cast<std::size_t>(pw) * C; }
};

// Rows [first, first + r) of the halo (above or below the block), over the columns [x_begin,
// x_end), from the block's own rows by the border rule: global row y0 - r + i reads the global row
// border_index gives (zeros where it gives none).
template <class T>
void border_rows(halo_block<T>& hb, int first, std::int64_t y0, std::int64_t height, border mode, int x_begin,
                 int x_end) {
  for (int i = first; i < first + hb.r; ++i) {
    const std::int64_t source = pk::detail::border_index(y0 - hb.r + i, height, mode);
    T* dst = hb.at(i, x_begin);
    const std::size_t n = static_cast<std::size_t>(x_end - x_begin) * hb.C;
    if (source < 0)
      std::fill(dst, dst + n, T(0));
    else
      std::memcpy(dst, hb.at(static_cast<int>(source - y0) + hb.r, x_begin), n * sizeof(T));
  }
}

// Columns [first, first + r) of the halo over every halo row, likewise.
template <class T>
void border_columns(halo_block<T>& hb, int first, std::int64_t x0, std::int64_t width, border mode) {
  for (int j = first; j < first + hb.r; ++j) {
    const std::int64_t source = pk::detail::border_index(x0 - hb.r + j, width, mode);
    for (int y = 0; y < hb.ph; ++y) {
      T* dst = hb.at(y, j);
      if (source < 0)
        std::fill(dst, dst + hb.C, T(0));
      else
        std::memcpy(dst, hb.at(y, static_cast<int>(source - x0) + hb.r), hb.C * sizeof(T));
    }
  }
}

// Exchanges a pair of halos with the neighbours before and after along one grid direction:
// `mine_first`/`mine_last` are the block's own r rows (columns) at its start and end, `halo_first`
// /`halo_last` where the neighbours' land; `type` one such strip. MPI_PROC_NULL: no neighbour.
template <class T>
void exchange(T* mine_first, T* mine_last, T* halo_first, T* halo_last, MPI_Datatype type, int before, int after,
              MPI_Comm comm) {
  MPI_Request requests[4];
  MPI_Irecv(halo_first, 1, type, before, 1, comm, &requests[0]);
  MPI_Irecv(halo_last, 1, type, after, 0, comm, &requests[1]);
  MPI_Isend(mine_first, 1, type, before, 0, comm, &requests[2]);
  MPI_Isend(mine_last, 1, type, after, 1, comm, &requests[3]);
  MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
}

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

  const int bh = static_cast<int>(b.height()), bw = static_cast<int>(b.width()), C = in.channels;
  halo_block<T> hb(r, bh, bw, C);
  for (int y = 0; y < bh; ++y)
    std::memcpy(hb.at(y + r, r), in.data + static_cast<std::size_t>(y) * bw * C, static_cast<std::size_t>(bw) * C * sizeof(T));
  if (r > 0) {
    const MPI_Datatype base = detail::datatype<T>();
    const int row_stride = static_cast<int>(hb.row_elements());
    const auto neighbour = [&](int row, int col, bool across_edge) {
      return across_edge && mode != border::wrap ? MPI_PROC_NULL : g.rank_of(row, col);
    };
    // Rows above and below, over the block's own columns.
    if (g.rows() > 1) {
      const vector_type strip(r, bw * C, row_stride, base);
      const int up = neighbour((g.row() + g.rows() - 1) % g.rows(), g.col(), g.row() == 0);
      const int down = neighbour((g.row() + 1) % g.rows(), g.col(), g.row() == g.rows() - 1);
      exchange(hb.at(r, r), hb.at(bh, r), hb.at(0, r), hb.at(r + bh, r), strip.type, up, down, g.comm());
    }
    if (g.rows() == 1 || (g.row() == 0 && mode != border::wrap)) border_rows(hb, 0, b.rows.begin, height, mode, r, r + bw);
    if (g.rows() == 1 || (g.row() == g.rows() - 1 && mode != border::wrap))
      border_rows(hb, r + bh, b.rows.begin, height, mode, r, r + bw);
    // Columns left and right, over the full height with its halo rows: the corners come with them.
    if (g.cols() > 1) {
      const vector_type strip(hb.ph, r * C, row_stride, base);
      const int left = neighbour(g.row(), (g.col() + g.cols() - 1) % g.cols(), g.col() == 0);
      const int right = neighbour(g.row(), (g.col() + 1) % g.cols(), g.col() == g.cols() - 1);
      exchange(hb.at(0, r), hb.at(0, bw), hb.at(0, 0), hb.at(0, r + bw), strip.type, left, right, g.comm());
    }
    if (g.cols() == 1 || (g.col() == 0 && mode != border::wrap)) border_columns(hb, 0, b.cols.begin, width, mode);
    if (g.cols() == 1 || (g.col() == g.cols() - 1 && mode != border::wrap))
      border_columns(hb, r + bw, b.cols.begin, width, mode);
  }
  // The one-process filter on the block with its halo: the block's outputs read only halo and
  // block pixels (the border of this call touches only outputs in the halo, which are dropped).
  std::vector<T> result(hb.pixels.size());
  pk::apply(on, f, image_ref<const T>{hb.pixels.data(), hb.ph, hb.pw, C}, image_ref<T>{result.data(), hb.ph, hb.pw, C},
            border::zero);
  for (int y = 0; y < bh; ++y)
    std::memcpy(out.data + static_cast<std::size_t>(y) * bw * C,
                result.data() + (static_cast<std::size_t>(y + r) * hb.pw + r) * C, static_cast<std::size_t>(bw) * C * sizeof(T));
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
