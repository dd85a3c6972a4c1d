#pragma once
// pk on MPI: the processes of a communicator as a 2-D Cartesian grid, and how the global arrays of
// the distributed kernels (<pk/mpi/filter.hpp>, <pk/mpi/matmul.hpp>) are cut into one block each.
//
//   pk::mpi::grid g(MPI_COMM_WORLD);                  // rows x cols by MPI_Dims_create
//   auto b = pk::mpi::local_block(g, height, width);  // this process's rows [b.y0, b.y1), cols [b.x0, b.x1)
//
// The block rule (one for every distributed kernel): n items cut into `parts` blocks, the first
// n % parts of them one item longer, block i of process row (column) i. Where parts divides n it is
// ScaLAPACK's block distribution (block-cyclic with MB = n / parts), so the same local arrays can
// be handed to p?gemm.
#include <mpi.h>

#include <cstdint>

namespace pk::mpi {

// [begin, end) of block `index` of n items cut into `parts`.
struct range {
  std::int64_t begin = 0, end = 0;
  std::int64_t size() const noexcept { return end - begin; }
};
range block_of(std::int64_t n, int parts, int index);

class grid {
 public:
  // The processes of comm as rows x cols (0: MPI_Dims_create chooses; rows * cols must be the
  // communicator's size). Process (r, c) is rank r * cols + c of comm(). Collective over comm;
  // pk::error (on every process) for dimensions that do not fit.
  explicit grid(MPI_Comm comm, int rows = 0, int cols = 0);
  ~grid();
  grid(const grid&) = delete;
  grid& operator=(const grid&) = delete;

  MPI_Comm comm() const noexcept { return cart_; }     // the grid's communicator (a duplicate)
  MPI_Comm row_comm() const noexcept { return row_; }  // this process's grid row, ranked by column
  MPI_Comm col_comm() const noexcept { return col_; }  // this process's grid column, ranked by row
  int rows() const noexcept { return rows_; }
  int cols() const noexcept { return cols_; }
  int row() const noexcept { return row_index_; }
  int col() const noexcept { return col_index_; }
  int rank() const noexcept { return row_index_ * cols_ + col_index_; }
  int size() const noexcept { return rows_ * cols_; }
  int rank_of(int row, int col) const noexcept { return row * cols_ + col; }

 private:
  MPI_Comm cart_ = MPI_COMM_NULL, row_ = MPI_COMM_NULL, col_ = MPI_COMM_NULL;
  int rows_ = 1, cols_ = 1, row_index_ = 0, col_index_ = 0;
};

// This process's rank among the processes of comm on its own machine (MPI_COMM_TYPE_SHARED), and
// how many there are: one process per GPU takes GPU local_rank (start pk::runtime with
// runtime_options{local_rank(comm) % gpus_per_machine}). Collective.
int local_rank(MPI_Comm comm);
int local_size(MPI_Comm comm);

// Whether this MPI reads and writes CUDA device memory itself (an OpenMPI built with CUDA, asked
// through MPIX_Query_cuda_support). Then pk::mpi::gemm on a GPU broadcasts its panels from device
// memory; otherwise (Debian's OpenMPI, any MPI without the query) through page-locked host buffers.
bool gpu_aware();

// This process's block of a global height x width array: rows block_of(height, rows, row), columns
// block_of(width, cols, col).
struct block {
  range rows, cols;
  std::int64_t height() const noexcept { return rows.size(); }
  std::int64_t width() const noexcept { return cols.size(); }
};
block local_block(const grid& g, std::int64_t height, std::int64_t width);
// Process `rank`'s block of it (rank as in g.comm()).
block block_of_process(const grid& g, int rank, std::int64_t height, std::int64_t width);

}  // namespace pk::mpi
