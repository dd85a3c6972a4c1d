// The host-friendly GEMM functions: check dimensions and spans, pick the backend, run.
#include <pk/matmul.hpp>

#include <string>

#include "core/check.hpp"
#include "core/dispatch.hpp"
#include "matmul/matmul_checks.hpp"
#include "matmul/matmul_host.hpp"

namespace pk {
namespace {

void require_dimension(const char* who, const char* name, std::int64_t value) {
  if (value < 0) detail::fail(who, name, " is ", value, ", expected a dimension >= 0");
}

// "a has 10 elements, expected 12 (m*k = 3*4, a stored 3 x 4 for op_a none)".
template <class T>
void require_matrix(const char* who, const char* name, span<T> s, std::int64_t rows, std::int64_t cols,
                    const char* dims, const char* op_name, op o) {
  // m*k of 2^32 x 2^32 would wrap around to 0 and match an empty span: refused before it is formed.
  std::int64_t elements = 0, bytes = 0;
  if (!detail::checked_product(rows, cols, elements) ||
      !detail::checked_product(elements, static_cast<std::int64_t>(sizeof(T)), bytes))
    detail::fail(who, name, " would have ", dims, " = ", rows, "*", cols, " elements, more than any array can hold");
  detail::require_addressable(who, name, s.size(), sizeof(T));
  if (static_cast<std::int64_t>(s.size()) != elements) {  // the reason is formatted only for the error
    const std::string why = std::string(dims) + " = " + std::to_string(rows) + "*" + std::to_string(cols) + ", " +
                            name + " stored " + std::to_string(rows) + " x " + std::to_string(cols) +
                            (op_name ? std::string(" for ") + op_name + " " + detail::op_name(o) : std::string());
    detail::require_length(who, name, static_cast<std::int64_t>(s.size()), elements, why.c_str());
  }
  if (!s.empty() && s.data() == nullptr) detail::fail(who, name, " is null with ", s.size(), " elements");
}

template <class T>
void gemm_on(backend on, const char* who, op op_a, op op_b, std::int64_t m, std::int64_t n, std::int64_t k,
             T alpha, span<const T> a, span<const T> b, T beta, span<T> c) {
  require_dimension(who, "m", m);
  require_dimension(who, "n", n);
  require_dimension(who, "k", k);
  const bool ta = op_a == op::transpose, tb = op_b == op::transpose;
  const bool plain = std::string(who) == "pk::matmul";  // matmul has no op arguments to name
  require_matrix(who, "a", a, ta ? k : m, ta ? m : k, ta ? "k*m" : "m*k", plain ? nullptr : "op_a", op_a);
  require_matrix(who, "b", b, tb ? n : k, tb ? k : n, tb ? "n*k" : "k*n", plain ? nullptr : "op_b", op_b);
  require_matrix(who, "c", c, m, n, "m*n", nullptr, op::none);
  const auto bytes = [](const auto& s) { return static_cast<std::int64_t>(s.size() * sizeof(T)); };
  detail::require(!detail::ranges_overlap(c.data(), bytes(c), a.data(), bytes(a)), who,
                  "c shares memory with a (expected separate arrays)");
  detail::require(!detail::ranges_overlap(c.data(), bytes(c), b.data(), bytes(b)), who,
                  "c shares memory with b (expected separate arrays)");
  if (m == 0 || n == 0) {
    pk::require_initialized(who);
    return;
  }
  detail::on_backend(on, who, [&](auto space) {
    detail::gemm_host<decltype(space), T>(op_a, op_b, m, n, k, alpha, a.data(), b.data(), beta, c.data());
  });
}

}  // namespace

void gemm(backend on, op op_a, op op_b, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
          span<const float> a, span<const float> b, float beta, span<float> c) {
  gemm_on<float>(on, "pk::gemm", op_a, op_b, m, n, k, alpha, a, b, beta, c);
}
void gemm(backend on, op op_a, op op_b, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
          span<const double> a, span<const double> b, double beta, span<double> c) {
  gemm_on<double>(on, "pk::gemm", op_a, op_b, m, n, k, alpha, a, b, beta, c);
}
void matmul(backend on, std::int64_t m, std::int64_t n, std::int64_t k, span<const float> a, span<const float> b,
            span<float> c) {
  gemm_on<float>(on, "pk::matmul", op::none, op::none, m, n, k, 1.0f, a, b, 0.0f, c);
}
void matmul(backend on, std::int64_t m, std::int64_t n, std::int64_t k, span<const double> a,
            span<const double> b, span<double> c) {
  gemm_on<double>(on, "pk::matmul", op::none, op::none, m, n, k, 1.0, a, b, 0.0, c);
}

}  // namespace pk
