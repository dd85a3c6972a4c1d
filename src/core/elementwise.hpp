#pragma once
// What every element-wise kernel (add, axpby, scale; relu's gradient, Adam, ...) shares: a range of
// 64-bit indices, and the check of two inputs and an output of one length.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include <pk/kokkos/views.hpp>
#include <pk/runtime.hpp>

#include "core/check.hpp"

namespace pk::detail {

// 64-bit indices: an array may hold more than 2^31 elements.
template <class Exec>
using index_range = Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>;

// a, b and the output c of one length; c may be a or b exactly (in place) or separate memory, never
// part of one (its elements would be written before they are read). The names are the caller's.
template <class Exec, class T>
void check_elementwise(const char* who, const vector_view<const T, Exec>& a, const vector_view<const T, Exec>& b,
                       const vector_view<T, Exec>& c, const char* a_name = "a", const char* b_name = "b",
                       const char* c_name = "c") {
  pk::require_initialized(who);
  const auto n = static_cast<std::int64_t>(a.extent(0));
  const std::string length_of = std::string("the length of ") + a_name;
  require_length(who, b_name, static_cast<std::int64_t>(b.extent(0)), n, length_of.c_str());
  require_length(who, c_name, static_cast<std::int64_t>(c.extent(0)), n, length_of.c_str());
  const auto bytes = n * static_cast<std::int64_t>(sizeof(T));
  if (partially_overlap(c.data(), bytes, a.data(), bytes) || partially_overlap(c.data(), bytes, b.data(), bytes))
    fail(who, c_name, " partially overlaps an input (", c_name, " may be ", a_name, " or ", b_name,
         " exactly, or separate memory)");
}

}  // namespace pk::detail
