// doctest's main for the MPI suites, run by mpiexec with 1 to 4 processes: MPI and Kokkos started
// once around all cases, and one seed for all processes (rank 0's, or PK_TEST_SEED), so that each
// process draws the same global inputs and checks its own block of the results.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>

#include <pk/runtime.hpp>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::uint64_t seed = 0;
  if (rank == 0) {
    const char* env = std::getenv("PK_TEST_SEED");
    seed = env ? std::stoull(env) : (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
  }
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  setenv("PK_TEST_SEED", std::to_string(seed).c_str(), 1);
  int status = 0;
  {
    doctest::Context context(argc, argv);
    pk::runtime kokkos;
    status = context.run();
  }
  // Every process's verdict: one that failed fails the run.
  MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
