// Names of borders and filters, as `pk filter --kernel NAME --border NAME` spells them.
#include <pk/filter.hpp>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/check.hpp"

namespace pk {

const char* to_string(border b) noexcept {
  switch (b) {
    case border::clamp: return "clamp";
    case border::reflect101: return "reflect101";
    case border::zero: return "zero";
    case border::wrap: return "wrap";
  }
  return "unknown";
}

border parse_border(const std::string& name) {
  for (border b : {border::clamp, border::reflect101, border::zero, border::wrap})
    if (name == to_string(b)) return b;
  if (name == "reflect-101") return border::reflect101;
  detail::fail("pk::parse_border", "unknown border '", name, "' (expected one of: clamp, reflect101, zero, wrap)");
}

std::vector<std::string> filter_names() {
  std::vector<std::string> names;
  for (const char* family : {"box", "gaussian"})
    for (int size = 3; size <= max_filter_size; size += 2) names.push_back(family + std::to_string(size));
  for (const char* name : {"sharpen", "sobel-x", "sobel-y", "sobel"}) names.emplace_back(name);
  return names;
}

namespace {

[[noreturn]] void unknown_filter(const std::string& name) {
  std::string all;
  for (const auto& n : filter_names()) all += (all.empty() ? "" : ", ") + n;
  detail::fail("pk::parse_filter", "unknown filter '", name, "' (expected one of: ", all,
               "; a gaussian may name its sigma, as in gaussian7:1.5)");
}

// "7" of "box7": an odd size 3..15 written plainly, or -1.
int size_of(const std::string& digits) {
  if (digits.empty() || digits.size() > 2 || digits[0] == '0') return -1;
  for (char c : digits)
    if (c < '0' || c > '9') return -1;
  const int size = std::stoi(digits);
  return size >= 3 && size <= max_filter_size && size % 2 == 1 ? size : -1;
}

}  // namespace

filter_spec parse_filter(const std::string& name) {
  filter_spec spec;
  if (name == "sobel") {
    spec.op = filter_op::sobel_magnitude;
    return spec;
  }
  if (name == "sharpen") return {filter_op::convolve, sharpen_kernel()};
  if (name == "sobel-x") return {filter_op::convolve, sobel_x_kernel()};
  if (name == "sobel-y") return {filter_op::convolve, sobel_y_kernel()};
  if (name.rfind("box", 0) == 0) {
    const int size = size_of(name.substr(3));
    if (size < 0) unknown_filter(name);
    return {filter_op::convolve, box_kernel(size)};
  }
  if (name.rfind("gaussian", 0) == 0) {
    const auto colon = name.find(':');
    const int size = size_of(name.substr(8, colon == std::string::npos ? std::string::npos : colon - 8));
    if (size < 0) unknown_filter(name);
    double sigma = 0;
    if (colon != std::string::npos) {
      const std::string text = name.substr(colon + 1);
      char* end = nullptr;
      errno = 0;
      sigma = text.empty() ? 0 : std::strtod(text.c_str(), &end);
      if (text.empty() || errno != 0 || *end != '\0' || !std::isfinite(sigma) || sigma <= 0)
        detail::fail("pk::parse_filter", "sigma '", text, "' of '", name, "' is not a positive number");
    }
    return {filter_op::convolve, gaussian_kernel(size, sigma)};
  }
  unknown_filter(name);
}

}  // namespace pk
