// The distributed GEMM (include/pk/mpi/matmul.hpp): SUMMA over the grid, the next panel's
// broadcasts in flight while the local pk::gemm multiplies this one.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <pk/error.hpp>
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

template <class T>
void summa(backend on, const grid& g, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, span<const T> a,
           span<const T> b, T beta, span<T> c) {
  const char* who = "pk::mpi::gemm";
  // The same call everywhere first: a size that differs is the cause of a block that does not fit.
  detail::require_same(g.comm(), who,
                       {{"m", m}, {"n", n}, {"k", k},
                        {"alpha", detail::fingerprint(&alpha, sizeof alpha)},
                        {"beta", detail::fingerprint(&beta, sizeof beta)}});
  const range rows = block_of(m, g.rows(), g.row()), cols = block_of(n, g.cols(), g.col());
  const range a_k = block_of(k, g.cols(), g.col()), b_k = block_of(k, g.rows(), g.row());
  std::string problem;
  const auto wrong = [&](const char* name, std::size_t got, std::int64_t r, std::int64_t cc, const char* of) {
    problem = std::string(who) + ": " + name + " has " + std::to_string(got) + " elements, expected this process's " +
              std::to_string(r) + " x " + std::to_string(cc) + " block of " + of;
  };
  if (m < 0 || n < 0 || k < 0)
    problem = std::string(who) + ": m, n, k must be >= 0, got " + std::to_string(m) + ", " + std::to_string(n) +
              ", " + std::to_string(k);
  else if (a.size() != static_cast<std::size_t>(rows.size() * a_k.size()))
    wrong("a", a.size(), rows.size(), a_k.size(), "A (m x k)");
  else if (b.size() != static_cast<std::size_t>(b_k.size() * cols.size()))
    wrong("b", b.size(), b_k.size(), cols.size(), "B (k x n)");
  else if (c.size() != static_cast<std::size_t>(rows.size() * cols.size()))
    wrong("c", c.size(), rows.size(), cols.size(), "C (m x n)");
  else if (rows.size() * std::min<std::int64_t>(k, PanelK) > INT_MAX || cols.size() * std::min<std::int64_t>(k, PanelK) > INT_MAX)
    problem = std::string(who) + ": this process's blocks are too large for one MPI message a panel";
  detail::agree(g.comm(), problem);
  const std::int64_t bm = rows.size(), bn = cols.size();
  if (g.size() == 1) {  // one process: the one-process GEMM
    pk::gemm(on, op::none, op::none, m, n, k, alpha, a, b, beta, c);
    return;
  }
  if (k == 0 || alpha == T(0)) {  // C = beta * C
    pk::gemm(on, op::none, op::none, bm, bn, 0, alpha, span<const T>(), span<const T>(), beta, c);
    return;
  }
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

  const MPI_Datatype type = detail::datatype<T>();
  std::vector<T> a_panel[2], b_panel[2];
  for (int s = 0; s < 2; ++s) {
    a_panel[s].resize(static_cast<std::size_t>(bm * std::min<std::int64_t>(k, PanelK)));
    b_panel[s].resize(static_cast<std::size_t>(std::min<std::int64_t>(k, PanelK) * bn));
  }
  MPI_Request requests[2][2];
  // Panel p into buffers p % 2: its owners copy it out of their blocks, then the broadcasts start.
  const auto start = [&](int p) {
    const std::int64_t k0 = starts[p], w = panel_end(p) - k0;
    const int s = p % 2;
    const int a_owner = block_holding(k0, k, g.cols()), b_owner = block_holding(k0, k, g.rows());
    if (g.col() == a_owner)
      for (std::int64_t i = 0; i < bm; ++i)
        std::memcpy(a_panel[s].data() + i * w, a.data() + i * a_k.size() + (k0 - a_k.begin), w * sizeof(T));
    if (g.row() == b_owner && bn > 0)  // (no block: no pointer to copy from)
      std::memcpy(b_panel[s].data(), b.data() + (k0 - b_k.begin) * bn, w * bn * sizeof(T));
    MPI_Ibcast(a_panel[s].data(), static_cast<int>(bm * w), type, a_owner, g.row_comm(), &requests[s][0]);
    MPI_Ibcast(b_panel[s].data(), static_cast<int>(w * bn), type, b_owner, g.col_comm(), &requests[s][1]);
  };
  start(0);
  for (int p = 0; p < panels; ++p) {
    MPI_Waitall(2, requests[p % 2], MPI_STATUSES_IGNORE);
    if (p + 1 < panels) start(p + 1);
    const std::int64_t w = panel_end(p) - starts[p];
    if (bm > 0 && bn > 0)
      pk::gemm(on, op::none, op::none, bm, bn, w, alpha,
               span<const T>(a_panel[p % 2].data(), static_cast<std::size_t>(bm * w)),
               span<const T>(b_panel[p % 2].data(), static_cast<std::size_t>(w * bn)), p == 0 ? beta : T(1), c);
  }
}

}  // namespace

void gemm(backend on, const grid& g, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
          span<const float> a, span<const float> b, float beta, span<float> c) {
  summa(on, g, m, n, k, alpha, a, b, beta, c);
}
void gemm(backend on, const grid& g, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
          span<const double> a, span<const double> b, double beta, span<double> c) {
  summa(on, g, m, n, k, alpha, a, b, beta, c);
}

}  // namespace pk::mpi
