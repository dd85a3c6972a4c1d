// pk-mpi-bench: the distributed kernels under mpiexec, against their peers in the same run:
//   - filters: weak scaling, each process a block of `--filter-size` pixels square (the global image
//     P times that), against the one-process filter of one block on process 0 alone, and against
//     every process filtering its block on its own at once (the same work without the halo);
//   - GEMM: pk::mpi::gemm against ScaLAPACK's p?gemm on the same grid and the same local blocks
//     (`--gemm-size` square, rounded to a multiple of the grid; where built with ScaLAPACK), and
//     against the one-process pk::gemm of the same global problem on process 0 alone (strong scaling).
//   mpiexec -n 4 pk-mpi-bench [--filter-size N] [--gemm-size N] [--runs R] [--backend NAME] [--gpus N] [--grid RxC]
// (--gpus N: on cuda, the processes of a machine share its N GPUs by local rank; default 1.)
// Times: the median of R runs, each between barriers (the slowest process's time).
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <random>
#include <limits>
#include <string>
#include <vector>

#include <pk/backend.hpp>
#include <pk/error.hpp>
#include <pk/filter.hpp>
#include <pk/matmul.hpp>
#include <pk/mpi/filter.hpp>
#include <pk/mpi/matmul.hpp>
#include <pk/runtime.hpp>

#if defined(PK_MPI_BENCH_HAVE_SCALAPACK)
#include "scalapack.hpp"
#endif

namespace {

int rank_in(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

// Median seconds of `runs` calls of f, each between barriers of comm (after one untimed call).
double median_seconds(MPI_Comm comm, int runs, const std::function<void()>& f) {
  f();
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) {
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    f();
    MPI_Barrier(comm);
    t.push_back(MPI_Wtime() - t0);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// On process 0 alone (the others wait): median seconds of f.
double alone_seconds(MPI_Comm comm, int runs, const std::function<void()>& f) {
  double s = 0;
  if (rank_in(comm) == 0) s = median_seconds(MPI_COMM_SELF, runs, f);
  MPI_Bcast(&s, 1, MPI_DOUBLE, 0, comm);
  return s;
}

template <class T>
std::vector<T> random_values(std::size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(d(g));
  return v;
}

void bench_filters(pk::backend on, const pk::mpi::grid& g, int size, int runs) {
  const std::int64_t height = std::int64_t(size) * g.rows(), width = std::int64_t(size) * g.cols();
  const auto b = pk::mpi::local_block(g, height, width);
  const int bh = int(b.height()), bw = int(b.width());
  const auto in = random_values<float>(std::size_t(bh) * bw, 1 + g.rank());
  std::vector<float> out(in.size());
  for (const char* name : {"box3", "gaussian5"}) {
    const pk::filter_spec f = pk::parse_filter(name);
    const double dist = median_seconds(g.comm(), runs, [&] {
      pk::mpi::apply(on, g, height, width, f, pk::image_ref<const float>{in.data(), bh, bw, 1},
                     pk::image_ref<float>{out.data(), bh, bw, 1});
    });
    const double one = alone_seconds(g.comm(), runs, [&] {
      pk::apply(on, f, pk::image_ref<const float>{in.data(), bh, bw, 1}, pk::image_ref<float>{out.data(), bh, bw, 1});
    });
    // Every process filtering its block on its own at the same time: the same work without the
    // halo, on the same shared cores and memory.
    const double local = median_seconds(g.comm(), runs, [&] {
      pk::apply(on, f, pk::image_ref<const float>{in.data(), bh, bw, 1}, pk::image_ref<float>{out.data(), bh, bw, 1});
    });
    if (g.rank() == 0)
      std::printf("filter %-9s %6lld x %-6lld float  %d x %d grid  %8.3f ms  one block alone %8.3f ms  weak-scaling "
                  "efficiency %.3f  all blocks without halo %8.3f ms  halo overhead efficiency %.3f\n",
                  name, (long long)height, (long long)width, g.rows(), g.cols(), dist * 1e3, one * 1e3, one / dist,
                  local * 1e3, local / dist);
  }
}

template <class T>
void bench_gemm(pk::backend on, const pk::mpi::grid& g, int size, int runs) {
  // Sizes that every grid dimension divides: pk's blocks are then ScaLAPACK's (MB = m / rows ...).
  const int multiple = std::lcm(g.rows(), g.cols());
  const int m = std::max(1, size / multiple) * multiple, n = m, k = m;
  const auto rows = pk::mpi::block_of(m, g.rows(), g.row()), cols = pk::mpi::block_of(n, g.cols(), g.col());
  const auto ak = pk::mpi::block_of(k, g.cols(), g.col()), bk = pk::mpi::block_of(k, g.rows(), g.row());
  const auto a = random_values<T>(std::size_t(rows.size() * ak.size()), 7 + g.rank());
  const auto b = random_values<T>(std::size_t(bk.size() * cols.size()), 99 + g.rank());
  std::vector<T> c(std::size_t(rows.size() * cols.size()));
  const double ours = median_seconds(g.comm(), runs, [&] { pk::mpi::gemm(on, g, m, n, k, T(1), a, b, T(0), c); });

#if defined(PK_MPI_BENCH_HAVE_SCALAPACK)
  // ScaLAPACK on the same processes and blocks. Its arrays are column-major, so it computes
  // C^T = B^T A^T: pk's row-major blocks are the column-major blocks of the transposes, and
  // ScaLAPACK's process row pr / column pc is pk's grid column pr / row pc.
  int context = 0;
  Cblacs_get(0, 0, &context);  // (the default system context: MPI_COMM_WORLD)
  const int nprow = g.cols(), npcol = g.rows();
  std::vector<int> map(std::size_t(nprow) * npcol);
  {
    std::vector<int> world(g.size());
    int me = rank_in(MPI_COMM_WORLD);
    MPI_Allgather(&me, 1, MPI_INT, world.data(), 1, MPI_INT, g.comm());
    for (int pr = 0; pr < nprow; ++pr)
      for (int pc = 0; pc < npcol; ++pc) map[std::size_t(pr) + std::size_t(pc) * nprow] = world[g.rank_of(pc, pr)];
  }
  Cblacs_gridmap(&context, map.data(), nprow, nprow, npcol);
  int desc_a[9], desc_b[9], desc_c[9], info = 0;
  const int zero = 0, one = 1;
  const int mb_n = n / g.cols(), nb_m = m / g.rows(), mb_k = k / g.cols(), nb_k = k / g.rows();
  const int lld_a = std::max<int>(1, int(ak.size())), lld_b = std::max<int>(1, int(cols.size())), lld_c = lld_b;
  descinit_(desc_b, &n, &k, &mb_n, &nb_k, &zero, &zero, &context, &lld_b, &info);  // B^T: n x k
  descinit_(desc_a, &k, &m, &mb_k, &nb_m, &zero, &zero, &context, &lld_a, &info);  // A^T: k x m
  descinit_(desc_c, &n, &m, &mb_n, &nb_m, &zero, &zero, &context, &lld_c, &info);  // C^T: n x m
  const T alpha = 1, beta = 0;
  std::vector<T> c_peer(c.size());
  const auto peer = [&] {
    if constexpr (std::is_same_v<T, float>)
      psgemm_("N", "N", &n, &m, &k, &alpha, b.data(), &one, &one, desc_b, a.data(), &one, &one, desc_a, &beta,
              c_peer.data(), &one, &one, desc_c);
    else
      pdgemm_("N", "N", &n, &m, &k, &alpha, b.data(), &one, &one, desc_b, a.data(), &one, &one, desc_a, &beta,
              c_peer.data(), &one, &one, desc_c);
  };
  const double theirs = median_seconds(g.comm(), runs, peer);
  Cblacs_gridexit(context);
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    diff = std::max(diff, double(std::abs(c[i] - c_peer[i])));
    scale = std::max(scale, double(std::abs(c_peer[i])));
  }
  MPI_Allreduce(MPI_IN_PLACE, &diff, 1, MPI_DOUBLE, MPI_MAX, g.comm());
  MPI_Allreduce(MPI_IN_PLACE, &scale, 1, MPI_DOUBLE, MPI_MAX, g.comm());
  // Both sum k products of values in [-1, 1] (about k / 4 in magnitude): each within k * eps of that.
  if (diff > double(k) * k * std::numeric_limits<T>::epsilon())
    throw pk::error("pk-mpi-bench: pk::mpi::gemm and p?gemm differ by " + std::to_string(diff));
  char peer_text[160];
  std::snprintf(peer_text, sizeof peer_text, "ScaLAPACK %8.2f GFLOP/s  pk/ScaLAPACK %.3f  (max |diff| %.2g of %.2g)",
                2.0 * m * n * k / theirs * 1e-9, theirs / ours, diff, scale);
#else
  const char* peer_text = "ScaLAPACK: not built in";
#endif
  // The one-process pk::gemm of the same global problem, on process 0 alone.
  double alone = 0;
  if (g.rank() == 0) {
    const auto ga = random_values<T>(std::size_t(m) * k, 5), gb = random_values<T>(std::size_t(k) * n, 6);
    std::vector<T> gc(std::size_t(m) * n);
    alone = median_seconds(MPI_COMM_SELF, runs, [&] { pk::gemm(on, pk::op::none, pk::op::none, m, n, k, T(1), ga, gb, T(0), gc); });
  }
  MPI_Bcast(&alone, 1, MPI_DOUBLE, 0, g.comm());
  const double flop = 2.0 * m * n * k;
  if (g.rank() == 0)
    std::printf("gemm %-6s %5d^3  %d x %d grid  pk %8.2f GFLOP/s  %s  one process %8.2f GFLOP/s  speed-up %.2f\n",
                sizeof(T) == 4 ? "float" : "double", m, g.rows(), g.cols(), flop / ours * 1e-9, peer_text,
                flop / alone * 1e-9, alone / ours);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  try {
    int filter_size = 2048, gemm_size = 1536, runs = 5, gpus = 1, grid_rows = 0, grid_cols = 0;
    std::string backend;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      const auto value = [&] {
        if (i + 1 >= argc) throw pk::error("pk-mpi-bench: " + a + " needs a value");
        return std::string(argv[++i]);
      };
      if (a == "--filter-size") filter_size = std::stoi(value());
      else if (a == "--gemm-size") gemm_size = std::stoi(value());
      else if (a == "--runs") runs = std::stoi(value());
      else if (a == "--backend") backend = value();
      else if (a == "--gpus") gpus = std::max(1, std::stoi(value()));
      else if (a == "--grid") {
        const std::string v = value();
        const auto x = v.find('x');
        if (x == std::string::npos) throw pk::error("pk-mpi-bench: --grid takes ROWSxCOLS (e.g. 1x2), got " + v);
        grid_rows = std::stoi(v.substr(0, x));
        grid_cols = std::stoi(v.substr(x + 1));
      } else
        throw pk::error("pk-mpi-bench: unknown argument " + a +
                        " (usage: mpiexec -n P pk-mpi-bench [--filter-size N] [--gemm-size N] [--runs R] [--backend NAME]"
                        " [--gpus N] [--grid ROWSxCOLS])");
    }
    // On a GPU backend each process takes GPU (its rank on this machine) % gpus.
    pk::runtime_options options;
    if (backend == "cuda") options.device = pk::mpi::local_rank(MPI_COMM_WORLD) % gpus;
    pk::runtime kokkos(options);
    const pk::backend on = backend.empty() ? pk::default_backend() : pk::parse_backend(backend);
    const pk::mpi::grid g(MPI_COMM_WORLD, grid_rows, grid_cols);
    if (g.rank() == 0) {
      const char* threads = std::getenv("OMP_NUM_THREADS");
      std::printf("pk-mpi-bench: %d processes, backend %s, OMP_NUM_THREADS=%s, median of %d runs\n", g.size(),
                  pk::to_string(on), threads ? threads : "(unset)", runs);
    }
    bench_filters(on, g, filter_size, runs);
    bench_gemm<float>(on, g, gemm_size, runs);
    bench_gemm<double>(on, g, gemm_size, runs);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
