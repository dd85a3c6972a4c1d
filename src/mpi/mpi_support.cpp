#include "mpi/mpi_support.hpp"

#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // (OpenMPI: MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support)
#endif

#include <cstdint>
#include <utility>
#include <vector>

#include <pk/error.hpp>
#include <pk/mpi/grid.hpp>

namespace pk::mpi {

range block_of(std::int64_t n, int parts, int index) {
  const std::int64_t base = n / parts, extra = n % parts;
  const std::int64_t begin = index * base + (index < extra ? index : extra);
  return {begin, begin + base + (index < extra ? 1 : 0)};
}

block block_of_process(const grid& g, int rank, std::int64_t height, std::int64_t width) {
  return {block_of(height, g.rows(), rank / g.cols()), block_of(width, g.cols(), rank % g.cols())};
}

block local_block(const grid& g, std::int64_t height, std::int64_t width) {
  return block_of_process(g, g.rank(), height, width);
}

namespace {
// comm's processes on this machine, ranked as in comm.
std::pair<int, int> on_this_machine(MPI_Comm comm) {
  MPI_Comm local = MPI_COMM_NULL;
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &local);
  MPI_Comm_rank(local, &rank);
  MPI_Comm_size(local, &size);
  MPI_Comm_free(&local);
  return {rank, size};
}
}  // namespace

int local_rank(MPI_Comm comm) { return on_this_machine(comm).first; }
int local_size(MPI_Comm comm) { return on_this_machine(comm).second; }

bool gpu_aware() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;  // (compiled with CUDA support, and on at run time)
#else
  return false;
#endif
}

grid::grid(MPI_Comm comm, int rows, int cols) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  if (rows < 0 || cols < 0)
    throw error("pk::mpi::grid: rows and cols must be >= 0 (0: chosen), got " + std::to_string(rows) + " x " +
                std::to_string(cols));
  int dims[2] = {rows, cols};
  if ((rows > 0 && size % rows != 0) || (cols > 0 && size % cols != 0) || (rows > 0 && cols > 0 && rows * cols != size))
    throw error("pk::mpi::grid: a " + std::string(rows ? std::to_string(rows) : "?") + " x " +
                (cols ? std::to_string(cols) : "?") + " grid does not fit the communicator's " +
                std::to_string(size) + " processes");
  MPI_Dims_create(size, 2, dims);
  int periods[2] = {1, 1};  // (the filters' wrap border; the others skip the messages across the edge)
  MPI_Cart_create(comm, 2, dims, periods, 0, &cart_);
  rows_ = dims[0], cols_ = dims[1];
  int rank = 0, coords[2] = {0, 0};
  MPI_Comm_rank(cart_, &rank);
  MPI_Cart_coords(cart_, rank, 2, coords);
  row_index_ = coords[0], col_index_ = coords[1];
  int keep_cols[2] = {0, 1}, keep_rows[2] = {1, 0};
  MPI_Cart_sub(cart_, keep_cols, &row_);
  MPI_Cart_sub(cart_, keep_rows, &col_);
}

grid::~grid() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (MPI_Comm* c : {&row_, &col_, &cart_})
    if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
}

namespace detail {

template <>
MPI_Datatype datatype<float>() {
  return MPI_FLOAT;
}
template <>
MPI_Datatype datatype<double>() {
  return MPI_DOUBLE;
}
template <>
MPI_Datatype datatype<std::uint8_t>() {
  return MPI_UNSIGNED_CHAR;
}

namespace {
// Collective: the message of the lowest rank whose `local` is not empty, with " (on process N)"
// on the other processes; empty when no process has one.
std::string first_problem(MPI_Comm comm, const std::string& local) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int first = local.empty() ? size : rank;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return {};
  int length = static_cast<int>(local.size());
  MPI_Bcast(&length, 1, MPI_INT, first, comm);
  std::string message = rank == first ? local : std::string(static_cast<std::size_t>(length), ' ');
  MPI_Bcast(message.data(), length, MPI_CHAR, first, comm);
  return rank == first ? message : message + " (on process " + std::to_string(first) + ")";
}
}  // namespace

void agree(MPI_Comm comm, const std::string& local_error) {
  const std::string message = first_problem(comm, local_error);
  if (!message.empty()) throw error(message);
}

void require_memory_everywhere(MPI_Comm comm, backend b, double bytes, const std::string& what) {
  std::string problem;
  try {
    require_memory(b, bytes, what);
  } catch (const memory_error& e) {
    problem = e.what();
  }
  const std::string message = first_problem(comm, problem);
  if (!message.empty()) throw memory_error(message);
}

void require_same(MPI_Comm comm, const char* who, std::initializer_list<std::pair<const char*, std::int64_t>> values) {
  std::vector<std::int64_t> low, high;
  for (const auto& v : values) low.push_back(v.second);
  high = low;
  MPI_Allreduce(MPI_IN_PLACE, low.data(), static_cast<int>(low.size()), MPI_INT64_T, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, high.data(), static_cast<int>(high.size()), MPI_INT64_T, MPI_MAX, comm);
  std::size_t i = 0;
  for (const auto& v : values) {
    if (low[i] != high[i])
      throw error(std::string(who) + ": " + v.first + " differs between processes (" + std::to_string(low[i]) +
                  " to " + std::to_string(high[i]) + "): every process must pass the same");
    ++i;
  }
}

std::int64_t fingerprint(const void* data, std::size_t bytes) {
  std::uint64_t h = 1469598103934665603ull;
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return static_cast<std::int64_t>(h);
}

}  // namespace detail
}  // namespace pk::mpi
