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

#include "mpi/mpi_halo.hpp"
#include "mpi/mpi_support.hpp"

namespace pk::mpi {
namespace {

using detail::border_columns;
using detail::border_rows;
using detail::edge_frame;
using detail::edges_on_host;
using detail::exchange;
using detail::halo;
using detail::host_image;
using detail::host_memory;
using detail::reused_buffer;
using detail::unfold_pieces;

std::string size_text(std::int64_t h, std::int64_t w) { return std::to_string(h) + " x " + std::to_string(w); }

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
