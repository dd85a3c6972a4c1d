#pragma once
// Runs one generic test body on the Kokkos execution space of every compiled-in backend:
//   pk_test::on_every_space([&](auto space) { using Exec = decltype(space); ... });
// Failing checks inside name the backend and the seed.
#include <pk/backend.hpp>
#include <pk/kokkos/on_backend.hpp>

#include "test_support.hpp"

namespace pk_test {

template <class F>
void on_every_space(F&& body) {
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    pk::on_backend(b, body);
  }
}

}  // namespace pk_test
