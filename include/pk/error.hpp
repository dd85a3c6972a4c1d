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

// A size whose memory the device it would be allocated on does not have free (Python:
// MemoryError), e.g. "pk add: 3000000000 doubles x 3 need 72.0 GB, more than the 30.1 GB free on
// the host". Thrown before allocating.
class memory_error : public error {
 public:
  explicit memory_error(const std::string& what) : error(what) {}
};

}  // namespace pk
