// The distributed GEMM (include/pk/mpi/matmul.hpp, kokkos.hpp): SUMMA over the grid, the next
// panel's broadcasts in flight while the local pk::gemm multiplies this one.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <pk/error.hpp>
#include <pk/kokkos/matmul.hpp>
#include <pk/kokkos/on_backend.hpp>
#include <pk/mpi/kokkos.hpp>
#include <pk/mpi/matmul.hpp>

#include "mpi/mpi_support.hpp"

namespace pk::mpi {
namespace {

// The longest panel of K broadcast at once: wide enough that the local GEMM runs near its speed,
// narrow enough that the first broadcast, which nothing hides, is short.
constexpr std::int64_t PanelK = 512;

// Which of `parts` blocks of n holds item i.
int block_holding(std::int64_t i, std::int64_t n, int parts) {
  for (int p = 0; p < parts; ++p)
    if (i < block_of(n, parts, p).end) return p;
  return parts - 1;
}

// The same call everywhere first: a size that differs is the cause of a block that does not fit.
template <class T>
void require_same_call(const grid& g, const char* who, op op_a, op op_b, std::int64_t m, std::int64_t n,
                       std::int64_t k, T alpha, T beta) {
  detail::require_same(g.comm(), who,
                       {{"op_a", static_cast<std::int64_t>(op_a)}, {"op_b", static_cast<std::int64_t>(op_b)},
                        {"m", m}, {"n", n}, {"k", k},
                        {"alpha", detail::fingerprint(&alpha, sizeof alpha)},
                        {"beta", detail::fingerprint(&beta, sizeof beta)}});
}

// The block this process holds of a stored operand: op(X) is rows x cols; X as stored is that, or
// its transpose (op::transpose), cut by the grid's block rule either way.
block stored(const grid& g, op o, std::int64_t rows, std::int64_t cols) {
  return o == op::none ? local_block(g, rows, cols) : local_block(g, cols, rows);
}

// Collective: this process's block of S^T (cols x rows), given its block x of S (rows x cols, as
// stored), both cut by the block rule. Each process sends every other the part of its block that
// lands in that one's block of S^T, transposed (one MPI_Alltoallv), so SUMMA can run on op(A) and
// op(B) as on untransposed operands.
template <class T>
std::vector<T> transpose_blocks(const grid& g, std::int64_t rows, std::int64_t cols, const T* x) {
  const block mine = local_block(g, rows, cols);
  // What process p holds of S^T: S's columns .rows x S's rows .cols.
  const auto dest = [&](int p) { return block_of_process(g, p, cols, rows); };
  const auto meet = [](range a, range b) {
    return range{std::max(a.begin, b.begin), std::max(std::max(a.begin, b.begin), std::min(a.end, b.end))};
  };
  const int P = g.size();
  std::vector<int> send_counts(P), send_displs(P), recv_counts(P), recv_displs(P);
  std::vector<T> send;
  for (int p = 0; p < P; ++p) {
    const range sr = meet(mine.rows, dest(p).cols), sc = meet(mine.cols, dest(p).rows);  // S's rows and columns to send
    send_displs[p] = static_cast<int>(send.size());
    for (auto j = sc.begin; j < sc.end; ++j)  // row j of S^T
      for (auto i = sr.begin; i < sr.end; ++i)
        send.push_back(x[(i - mine.rows.begin) * mine.cols.size() + (j - mine.cols.begin)]);
    send_counts[p] = static_cast<int>(send.size()) - send_displs[p];
  }
  const block out_b = dest(g.rank());
  // What arrives from process p: the part of its block of S in this one's block of S^T.
  const auto from = [&](int p) {
    const block theirs = block_of_process(g, p, rows, cols);
    return std::pair<range, range>{meet(theirs.rows, out_b.cols), meet(theirs.cols, out_b.rows)};
  };
  int total = 0;
  for (int p = 0; p < P; ++p) {
    const auto [sr, sc] = from(p);
    recv_counts[p] = static_cast<int>(sr.size() * sc.size());
    recv_displs[p] = total;
    total += recv_counts[p];
  }
  std::vector<T> received(static_cast<std::size_t>(total));
  MPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), detail::datatype<T>(), received.data(),
                recv_counts.data(), recv_displs.data(), detail::datatype<T>(), g.comm());
  std::vector<T> out(static_cast<std::size_t>(out_b.height() * out_b.width()));
  for (int p = 0; p < P; ++p) {
    const auto [sr, sc] = from(p);
    const T* in = received.data() + recv_displs[p];
    for (auto j = sc.begin; j < sc.end; ++j)
      for (auto i = sr.begin; i < sr.end; ++i)
        out[(j - out_b.rows.begin) * out_b.width() + (i - out_b.cols.begin)] = *in++;
  }
  return out;
}

// op(X)'s block in Exec's memory: x itself, or (transposed) the redistributed transpose of the
// stored matrix (rows x cols as op(X)).
template <class Exec, class T>
matrix_view<const T, Exec> operand_block(const Exec& space, const grid& g, op o, std::int64_t rows, std::int64_t cols,
                                         const matrix_view<const T, Exec>& x) {
  if (o == op::none) return x;
  const auto x_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  std::vector<T> t = transpose_blocks<T>(g, cols, rows, x_host.data());
  const block b = local_block(g, rows, cols);
  const matrix_view<T, Exec> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "pk_mpi_transposed"), b.height(),
                                 b.width());
  Kokkos::deep_copy(space, out, Kokkos::View<const T**, Kokkos::LayoutRight, Kokkos::HostSpace,
                                             Kokkos::MemoryTraits<Kokkos::Unmanaged>>(t.data(), out.extent(0), out.extent(1)));
  space.fence();
  return out;
}

// SUMMA on blocks in the memory of Exec's backend. The panels travel through host buffers (the MPI
// is not asked to read device memory): a panel's owners copy it out of their block (a strided copy
// in the backend's memory for A's columns), the broadcasts run, and the receivers copy it in; on a
// GPU the next panel's copies and broadcasts overlap the local GEMM of this one.
template <class Exec, class T>
void summa(const char* who, const Exec& space, const grid& g, op op_a, op op_b, std::int64_t m, std::int64_t n,
           std::int64_t k, T alpha, const matrix_view<const T, Exec>& a_stored,
           const matrix_view<const T, Exec>& b_stored, T beta, const matrix_view<T, Exec>& c) {
  require_same_call(g, who, op_a, op_b, m, n, k, alpha, beta);
  const range rows = block_of(m, g.rows(), g.row()), cols = block_of(n, g.cols(), g.col());
  const range a_k = block_of(k, g.cols(), g.col()), b_k = block_of(k, g.rows(), g.row());
  std::string problem;
  const auto check = [&](const char* name, std::int64_t r, std::int64_t cc, std::int64_t er, std::int64_t ec,
                         const char* of) {
    if (problem.empty() && (r != er || cc != ec))
      problem = std::string(who) + ": " + name + " is " + std::to_string(r) + " x " + std::to_string(cc) +
                ", expected this process's " + std::to_string(er) + " x " + std::to_string(ec) + " block of " + of;
  };
  if (m < 0 || n < 0 || k < 0)
    problem = std::string(who) + ": m, n, k must be >= 0, got " + std::to_string(m) + ", " + std::to_string(n) +
              ", " + std::to_string(k);
  const block sa = stored(g, op_a, m, k), sb = stored(g, op_b, k, n);
  check("a", std::int64_t(a_stored.extent(0)), std::int64_t(a_stored.extent(1)), sa.rows.size(), sa.cols.size(),
        op_a == op::none ? "A (m x k)" : "A (k x m, transposed)");
  check("b", std::int64_t(b_stored.extent(0)), std::int64_t(b_stored.extent(1)), sb.rows.size(), sb.cols.size(),
        op_b == op::none ? "B (k x n)" : "B (n x k, transposed)");
  check("c", std::int64_t(c.extent(0)), std::int64_t(c.extent(1)), rows.size(), cols.size(), "C (m x n)");
  if (problem.empty() && (rows.size() * std::min<std::int64_t>(k, PanelK) > INT_MAX ||
                          cols.size() * std::min<std::int64_t>(k, PanelK) > INT_MAX))
    problem = std::string(who) + ": this process's blocks are too large for one MPI message a panel";
  detail::agree(g.comm(), problem);
  const std::int64_t bm = rows.size(), bn = cols.size();
  if (g.size() == 1) {  // one process: the one-process GEMM
    pk::gemm(space, op_a, op_b, alpha, a_stored, b_stored, beta, c);
    space.fence();
    return;
  }
  if (k == 0 || alpha == T(0)) {  // C = beta * C: the one-process GEMM of k = 0 (A and B not read)
    pk::gemm(space, op::none, op::none, alpha, matrix_view<const T, Exec>(a_stored.data(), bm, 0),
             matrix_view<const T, Exec>(b_stored.data(), 0, bn), beta, c);
    space.fence();
    return;
  }
  // Transposed operands are redistributed as op(A) and op(B) first: a copy of each such block on the
  // host (twice: sent and received) and in the backend's memory.
  {
    double host_bytes = 0;
    if (op_a == op::transpose) host_bytes += 3.0 * double(a_stored.size()) * sizeof(T);
    if (op_b == op::transpose) host_bytes += 3.0 * double(b_stored.size()) * sizeof(T);
    if (op_a == op::transpose || op_b == op::transpose)  // (the same on every process: a collective)
      detail::require_memory_everywhere(g.comm(), backend_of<Kokkos::DefaultHostExecutionSpace>(), host_bytes,
                                        std::string(who) + " (transposed operands redistributed)");
  }
  const matrix_view<const T, Exec> a = operand_block(space, g, op_a, m, k, a_stored);
  const matrix_view<const T, Exec> b = operand_block(space, g, op_b, k, n, b_stored);
  // Panels: K cut where A's blocks (over grid columns) or B's (over grid rows) change hands, and at
  // most PanelK long.
  std::vector<std::int64_t> cuts{0, k};
  for (int p = 1; p < g.cols(); ++p) cuts.push_back(block_of(k, g.cols(), p).begin);
  for (int p = 1; p < g.rows(); ++p) cuts.push_back(block_of(k, g.rows(), p).begin);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<std::int64_t> starts;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i)
    for (std::int64_t k0 = cuts[i]; k0 < cuts[i + 1]; k0 += PanelK) starts.push_back(k0);
  starts.push_back(k);
  const auto panels = static_cast<int>(starts.size()) - 1;
  const auto panel_end = [&](int p) { return std::min(starts[p + 1], starts[p] + PanelK); };

  using host_matrix = Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using span_k = Kokkos::pair<std::int64_t, std::int64_t>;
  const MPI_Datatype type = detail::datatype<T>();
  const std::int64_t widest = std::min<std::int64_t>(k, PanelK);
  // The panels travel from and into their buffers in the backend's memory where the MPI reads that
  // memory (host backends; a GPU with a GPU-aware MPI), else through page-locked host buffers.
  const bool direct = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible || gpu_aware();
  if (!direct)  // (the same on every process: a collective)
    detail::require_memory_everywhere(g.comm(), backend_of<Kokkos::DefaultHostExecutionSpace>(),
                                      2.0 * double(bm * widest + widest * bn) * sizeof(T),
                                      std::string(who) + " (host buffers of the panels)");
  matrix_view<T, Exec> a_panel[2], b_panel[2];
  detail::host_buffer<T> a_host[2], b_host[2];
  for (int s = 0; s < 2; ++s) {
    a_panel[s] = matrix_view<T, Exec>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "pk_mpi_a_panel"), bm, widest);
    b_panel[s] = matrix_view<T, Exec>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "pk_mpi_b_panel"), widest, bn);
    if (!direct) {
      a_host[s] = detail::host_buffer<T>(backend_of<Exec>(), static_cast<std::size_t>(bm * widest), "pk::mpi::gemm's host buffers");
      b_host[s] = detail::host_buffer<T>(backend_of<Exec>(), static_cast<std::size_t>(widest * bn), "pk::mpi::gemm's host buffers");
    }
  }
  // The panel's views: its w columns (rows) of the buffers, dense.
  const auto a_of = [&](int s, std::int64_t w) { return matrix_view<T, Exec>(a_panel[s].data(), bm, w); };
  const auto b_of = [&](int s, std::int64_t w) { return matrix_view<T, Exec>(b_panel[s].data(), w, bn); };
  MPI_Request requests[2][2];
  // Panel p: its owners copy it out of their blocks into buffers p % 2, then the broadcasts start.
  const auto start = [&](int p) {
    const std::int64_t k0 = starts[p], w = panel_end(p) - k0;
    const int s = p % 2;
    const int a_owner = block_holding(k0, k, g.cols()), b_owner = block_holding(k0, k, g.rows());
    if (g.col() == a_owner && bm > 0) {
      Kokkos::deep_copy(space, a_of(s, w), Kokkos::subview(a, Kokkos::ALL, span_k(k0 - a_k.begin, k0 - a_k.begin + w)));
      if (!direct) Kokkos::deep_copy(space, host_matrix(a_host[s].data(), bm, w), a_of(s, w));
    }
    if (g.row() == b_owner && bn > 0) {
      const auto rows_of_b = Kokkos::subview(b, span_k(k0 - b_k.begin, k0 - b_k.begin + w), Kokkos::ALL);
      if (direct)
        Kokkos::deep_copy(space, b_of(s, w), rows_of_b);
      else
        Kokkos::deep_copy(space, host_matrix(b_host[s].data(), w, bn), rows_of_b);
    }
    space.fence();  // (also: the GEMM that last read buffers s is done before a broadcast refills them)
    MPI_Ibcast(direct ? a_panel[s].data() : a_host[s].data(), static_cast<int>(bm * w), type, a_owner, g.row_comm(),
               &requests[s][0]);
    MPI_Ibcast(direct ? b_panel[s].data() : b_host[s].data(), static_cast<int>(w * bn), type, b_owner, g.col_comm(),
               &requests[s][1]);
  };
  start(0);
  for (int p = 0; p < panels; ++p) {
    const int s = p % 2;
    const std::int64_t w = panel_end(p) - starts[p];
    MPI_Waitall(2, requests[s], MPI_STATUSES_IGNORE);
    if (!direct && bm > 0 && bn > 0) {
      Kokkos::deep_copy(space, a_of(s, w), host_matrix(a_host[s].data(), bm, w));
      Kokkos::deep_copy(space, b_of(s, w), host_matrix(b_host[s].data(), w, bn));
    }
    if (p + 1 < panels) start(p + 1);  // (fences: this panel's copies are in, the GEMM before it done)
    if (bm > 0 && bn > 0)
      pk::gemm(space, op::none, op::none, alpha, matrix_view<const T, Exec>(a_of(s, w)),
               matrix_view<const T, Exec>(b_of(s, w)), p == 0 ? beta : T(1), c);
  }
  space.fence();
}

// The host-array calls: the arrays as Views in the backend's memory (the same memory on the host;
// copied to the GPU and back on cuda), then the algorithm above.
template <class T>
void host_arrays(backend on, const grid& g, op op_a, op op_b, std::int64_t m, std::int64_t n, std::int64_t k, T alpha,
                 span<const T> a, span<const T> b, T beta, span<T> c) {
  const char* who = "pk::mpi::gemm";
  require_same_call(g, who, op_a, op_b, m, n, k, alpha, beta);
  const range rows = block_of(m, g.rows(), g.row()), cols = block_of(n, g.cols(), g.col());
  const block sa = stored(g, op_a, m, k), sb = stored(g, op_b, k, n);
  std::string problem;
  const auto wrong = [&](const char* name, std::size_t got, std::int64_t r, std::int64_t cc, const char* of) {
    problem = std::string(who) + ": " + name + " has " + std::to_string(got) + " elements, expected this process's " +
              std::to_string(r) + " x " + std::to_string(cc) + " block of " + of;
  };
  if (m < 0 || n < 0 || k < 0)
    problem = std::string(who) + ": m, n, k must be >= 0, got " + std::to_string(m) + ", " + std::to_string(n) +
              ", " + std::to_string(k);
  else if (a.size() != static_cast<std::size_t>(sa.rows.size() * sa.cols.size()))
    wrong("a", a.size(), sa.rows.size(), sa.cols.size(), op_a == op::none ? "A (m x k)" : "A (k x m, transposed)");
  else if (b.size() != static_cast<std::size_t>(sb.rows.size() * sb.cols.size()))
    wrong("b", b.size(), sb.rows.size(), sb.cols.size(), op_b == op::none ? "B (k x n)" : "B (n x k, transposed)");
  else if (c.size() != static_cast<std::size_t>(rows.size() * cols.size()))
    wrong("c", c.size(), rows.size(), cols.size(), "C (m x n)");
  else if ((a.size() > 0 && a.data() == nullptr) || (b.size() > 0 && b.data() == nullptr) ||
           (c.size() > 0 && c.data() == nullptr))
    problem = std::string(who) + ": a, b or c has no data";
  detail::agree(g.comm(), problem);
  using host_matrix = Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using const_host_matrix =
      Kokkos::View<const T**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  on_backend(on, [&](auto space) {
    using Exec = decltype(space);
    using memory = typename Exec::memory_space;
    // A GPU gets copies of the three blocks (Views of the arrays themselves on the host).
    if constexpr (!Kokkos::SpaceAccessibility<memory, Kokkos::HostSpace>::accessible)
      detail::require_memory_everywhere(g.comm(), on, double(a.size() + b.size() + c.size()) * sizeof(T),
                                        std::string(who) + " (this process's blocks copied to the GPU)");
    const const_host_matrix a_host(a.data(), sa.rows.size(), sa.cols.size()),
        b_host(b.data(), sb.rows.size(), sb.cols.size());
    const host_matrix c_host(c.data(), rows.size(), cols.size());
    const auto a_here = Kokkos::create_mirror_view_and_copy(memory(), a_host);
    const auto b_here = Kokkos::create_mirror_view_and_copy(memory(), b_host);
    const auto c_here = Kokkos::create_mirror_view_and_copy(memory(), c_host);
    summa<Exec, T>(who, space, g, op_a, op_b, m, n, k, alpha, matrix_view<const T, Exec>(a_here),
                   matrix_view<const T, Exec>(b_here), beta, matrix_view<T, Exec>(c_here));
    if (c_here.data() != c_host.data()) Kokkos::deep_copy(c_host, c_here);
  });
}

}  // namespace

void gemm(backend on, const grid& g, op op_a, op op_b, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
          span<const float> a, span<const float> b, float beta, span<float> c) {
  host_arrays(on, g, op_a, op_b, m, n, k, alpha, a, b, beta, c);
}
void gemm(backend on, const grid& g, op op_a, op op_b, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
          span<const double> a, span<const double> b, double beta, span<double> c) {
  host_arrays(on, g, op_a, op_b, m, n, k, alpha, a, b, beta, c);
}
void gemm(backend on, const grid& g, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
          span<const float> a, span<const float> b, float beta, span<float> c) {
  host_arrays(on, g, op::none, op::none, m, n, k, alpha, a, b, beta, c);
}
void gemm(backend on, const grid& g, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
          span<const double> a, span<const double> b, double beta, span<double> c) {
  host_arrays(on, g, op::none, op::none, m, n, k, alpha, a, b, beta, c);
}

namespace detail {
template <class Exec, class T>
void gemm_views(const Exec& space, const grid& g, op op_a, op op_b, std::int64_t m, std::int64_t n, std::int64_t k,
                T alpha, const matrix_view<const T, Exec>& a, const matrix_view<const T, Exec>& b, T beta,
                const matrix_view<T, Exec>& c) {
  summa<Exec, T>("pk::mpi::gemm", space, g, op_a, op_b, m, n, k, alpha, a, b, beta, c);
}
}  // namespace detail

// The View calls for each backend of this build.
#define PK_MPI_GEMM_VIEWS(Exec, T)                                                                          \
  template void detail::gemm_views<Exec, T>(const Exec&, const grid&, op, op, std::int64_t, std::int64_t,          \
                                            std::int64_t, T,                                                     \
                                            const matrix_view<const T, Exec>&, const matrix_view<const T, Exec>&, \
                                            T, const matrix_view<T, Exec>&);
#if defined(KOKKOS_ENABLE_SERIAL)
PK_MPI_GEMM_VIEWS(Kokkos::Serial, float)
PK_MPI_GEMM_VIEWS(Kokkos::Serial, double)
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
PK_MPI_GEMM_VIEWS(Kokkos::OpenMP, float)
PK_MPI_GEMM_VIEWS(Kokkos::OpenMP, double)
#endif
#if defined(KOKKOS_ENABLE_CUDA)
PK_MPI_GEMM_VIEWS(Kokkos::Cuda, float)
PK_MPI_GEMM_VIEWS(Kokkos::Cuda, double)
#endif

}  // namespace pk::mpi
