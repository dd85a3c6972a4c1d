#pragma once
// pk::error: the one exception type portable-kernels throws for bad input.
// Its message names the argument and what was expected, e.g.
//   "pk::add: b has 7 elements, expected 8 (the length of a)".
#include <stdexcept>
#include <string>

namespace pk {

class error : public std::runtime_error {
 public:
  explicit error(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace pk
