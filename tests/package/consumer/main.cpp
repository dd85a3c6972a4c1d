// Uses the installed (or add_subdirectory'd) library: c = a + b on every backend, checked.
#include <pk/add.hpp>
#include <pk/runtime.hpp>

#include <cstdio>
#include <vector>

int main() {
  pk::runtime kokkos;
  std::vector<float> a(1000), b(1000), c(1000, -1.f);
  for (int i = 0; i < 1000; ++i) a[i] = 0.5f * i, b[i] = 2.0f - i;
  for (pk::backend on : pk::available_backends()) {
    pk::add(on, a, b, c);
    for (int i = 0; i < 1000; ++i)
      if (c[i] != a[i] + b[i]) {
        std::printf("consumer: wrong sum at %d on %s\n", i, pk::to_string(on));
        return 1;
      }
    std::printf("consumer: add ok on %s\n", pk::to_string(on));
  }
  return 0;
}
