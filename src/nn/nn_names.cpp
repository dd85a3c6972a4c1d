// The names of the layers' options.
#include <pk/kokkos/nn.hpp>

#include "core/check.hpp"

namespace pk {

padding parse_padding(const std::string& name) {
  if (name == "valid") return padding::valid;
  if (name == "same") return padding::same;
  detail::fail("pk::parse_padding", "unknown padding '", name, "' (expected valid or same)");
}

const char* to_string(padding p) noexcept { return p == padding::same ? "same" : "valid"; }

}  // namespace pk
