// doctest's main for every suite: Kokkos is started once (pk::runtime) around all cases.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <pk/runtime.hpp>

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  pk::runtime kokkos;
  return context.run();
}
