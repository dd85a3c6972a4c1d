#pragma once
// GEMM: argument checks and launches, written once for every execution space. A backend compiles
// them by defining its gemm_policy<ExecSpace, T> (gemm_policy.hpp) and naming
// PK_INSTANTIATE_MATMUL(ExecSpace) in backends/<name>/.
#include <cstdint>
#include <string>

#include <pk/kokkos/matmul.hpp>
#include <pk/runtime.hpp>

#include "core/check.hpp"
#include "core/region.hpp"
#include "core/host_views.hpp"
#include "core/workspace.hpp"
#include "matmul/gemm_functor.hpp"
#include "matmul/gemm_policy.hpp"
#include "matmul/matmul_checks.hpp"
#include "matmul/matmul_host.hpp"
#include "matmul/split_k.hpp"

namespace pk::detail {

template <class X>
struct named_type {
  using type = X;
};

// GEMM with a given policy (the backend's gemm_policy, or others in tests): one team per block
// tile, and per part of K where the policy's split_k cuts it (split_k.hpp). A and B are matrices
// or other operands (gemm_operands.hpp: a convolution's windows). Expects checked arguments.
template <class Exec, class T, class Policy, class A = matrix_view<const T, Exec>, class B = matrix_view<const T, Exec>>
void launch_gemm(const Exec& space, op op_a, op op_b, T alpha, const typename named_type<A>::type& a,
                 const typename named_type<B>::type& b, T beta, const matrix_view<T, Exec>& c, std::int64_t k) {
  const auto m = static_cast<std::int64_t>(c.extent(0)), n = static_cast<std::int64_t>(c.extent(1));
  if (m == 0 || n == 0) return;
  if (k == 0 || alpha == T(0)) {  // C = beta*C; A and B are not read (BLAS semantics)
    Kokkos::parallel_for(std::string("pk::gemm scale-C ") + type_tag<T>(), Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(space, 0, m * n),
                         ScaleMatrix<T, Exec>{c, beta, n});
    return;
  }
  using functor = Gemm<T, Exec, Policy, A, B>;
  using split_k = typename Policy::split_k;
  functor f;
  f.a = a;
  f.b = b;
  f.c = c;
  f.transpose_a = op_a == op::transpose;
  f.transpose_b = op_b == op::transpose;
  f.alpha = alpha;
  f.beta = beta;
  f.m = m;
  f.n = n;
  f.k = k;
  f.tiles = block_tile_league("pk::gemm", m, n, functor::TileM, functor::TileN);
  f.blocks_n = static_cast<int>((n + functor::TileN - 1) / functor::TileN);
  const std::int64_t steps = (k + functor::TileK - 1) / functor::TileK;
  constexpr std::int64_t max_partial = std::int64_t(1) << 24;  // elements of the partial Cs (64 MiB of float, 128 of double)
  const split_k_plan plan = plan_split_k(f.tiles, steps, split_k::teams(space), split_k::min_steps, m * n, max_partial);
  f.k_part = plan.steps_per_split * functor::TileK;
  const std::string name = std::string("pk::gemm ") + type_tag<T>() + " " + std::to_string(functor::TileM) + "x" +
                           std::to_string(functor::TileN) + " tiles";
  const auto policy = [&](std::int64_t parts) {
    return typename functor::policy(space, static_cast<int>(f.tiles * parts), functor::TeamSize)
        .set_scratch_size(0, Kokkos::PerTeam(functor::scratch_bytes()));
  };
  if (plan.splits == 1) {
    Kokkos::parallel_for(name, policy(1), f);
    return;
  }
  const workspace<Exec, T> partial(space, static_cast<std::size_t>(plan.splits * m * n), "pk::gemm split-K partial sums");
  f.partial = partial.data();
  Kokkos::parallel_for(name + ", K in " + std::to_string(plan.splits) + " parts", policy(plan.splits), f);
  using range = Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>;
  const std::string sum = std::string("pk::gemm split-K sum ") + type_tag<T>();
  constexpr std::int64_t one_pass = 64;  // parts summed by one pass (the host's 32 teams always are)
  if (plan.splits <= one_pass) {
    Kokkos::parallel_for(sum, range(space, 0, m * n), SumParts<T, Exec>{c, partial.data(), n, m * n, plan.splits, alpha, beta});
    return;
  }
  std::int64_t group = 1;  // about sqrt(parts) a group: both passes then read about as many
  while (group * group < plan.splits) ++group;
  const std::int64_t groups = (plan.splits + group - 1) / group;
  const workspace<Exec, T> grouped(space, static_cast<std::size_t>(groups * m * n), "pk::gemm split-K group sums");
  Kokkos::parallel_for(sum + " by groups", range(space, 0, groups * m * n),
                       SumPartGroups<T>{partial.data(), grouped.data(), m * n, plan.splits, group});
  Kokkos::parallel_for(sum, range(space, 0, m * n), SumParts<T, Exec>{c, grouped.data(), n, m * n, groups, alpha, beta});
}

// C = op(A) op(B) on the backend's policy for the shape (gemm_policy<Exec, T>), A and B any
// operands (a convolution's windows: its implicit GEMM); checked arguments, K > 0.
template <class Exec, class T, class A, class B>
void gemm_of(const Exec& space, op op_a, op op_b, const A& a, const B& b, const matrix_view<T, Exec>& c, std::int64_t k) {
  with_shape_policy<gemm_policy<Exec, T>>(space, c.extent(0), c.extent(1), k, [&](auto chosen) {
    launch_gemm<Exec, T, typename decltype(chosen)::type, A, B>(space, op_a, op_b, T(1), a, b, T(0), c, k);
  });
}

template <class Exec, class T>
void gemm(const Exec& space, op op_a, op op_b, T alpha, const matrix_view<const T, Exec>& a,
          const matrix_view<const T, Exec>& b, T beta, const matrix_view<T, Exec>& c) {
  const char* who = "pk::gemm";
  const tools_region region(who);
  pk::require_initialized(who);
  const bool ta = op_a == op::transpose, tb = op_b == op::transpose;
  const auto m = static_cast<std::int64_t>(ta ? a.extent(1) : a.extent(0));
  const auto k = static_cast<std::int64_t>(ta ? a.extent(0) : a.extent(1));
  const auto kb = static_cast<std::int64_t>(tb ? b.extent(1) : b.extent(0));
  const auto n = static_cast<std::int64_t>(tb ? b.extent(0) : b.extent(1));
  if (kb != k)
    fail(who, "op(b) has ", kb, " rows (b is ", b.extent(0), " x ", b.extent(1), ", op_b ", op_name(op_b),
         "), expected ", k, " (the columns of op(a))");
  if (static_cast<std::int64_t>(c.extent(0)) != m || static_cast<std::int64_t>(c.extent(1)) != n)
    fail(who, "c is ", c.extent(0), " x ", c.extent(1), ", expected ", m, " x ", n, " (rows of op(a) x columns of op(b))");
  const auto bytes = [](const auto& v) { return static_cast<std::int64_t>(v.span() * sizeof(T)); };
  require(!ranges_overlap(c.data(), bytes(c), a.data(), bytes(a)), who, "c shares memory with a (expected separate arrays)");
  require(!ranges_overlap(c.data(), bytes(c), b.data(), bytes(b)), who, "c shares memory with b (expected separate arrays)");
  with_shape_policy<gemm_policy<Exec, T>>(space, m, n, k, [&](auto chosen) {
    launch_gemm<Exec, T, typename decltype(chosen)::type>(space, op_a, op_b, alpha, a, b, beta, c, k);
  });
}

// Host-array entry point: move the arrays to the backend, run, bring C back.
template <class Exec, class T>
void gemm_host(op op_a, op op_b, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a, const T* b,
               T beta, T* c) {
  require_copies<Exec>("pk::gemm", (double(m) * k + double(k) * n + double(m) * n) * sizeof(T));
  Exec space;
  const bool ta = op_a == op::transpose, tb = op_b == op::transpose;
  auto host_c = host_unmanaged<T**>(c, m, n);
  auto da = to_backend<Exec>(host_unmanaged<const T**>(a, ta ? k : m, ta ? m : k));
  auto db = to_backend<Exec>(host_unmanaged<const T**>(b, tb ? n : k, tb ? k : n));
  if (beta == T(0)) {  // C is only written: not copied in
    auto dc = output_on_backend<Exec>(host_c);
    gemm<Exec, T>(space, op_a, op_b, alpha, da, db, beta, dc);
    space.fence();
    copy_to_host(host_c, dc);
  } else {
    auto dc = to_backend<Exec>(host_c);
    gemm<Exec, T>(space, op_a, op_b, alpha, da, db, beta, dc);
    space.fence();
    copy_to_host(host_c, dc);
  }
}

}  // namespace pk::detail

#define PK_INSTANTIATE_MATMUL_FOR(EXEC, T)                                                                    \
  template void pk::detail::gemm<EXEC, T>(const EXEC&, pk::op, pk::op, T, const pk::matrix_view<const T, EXEC>&, \
                                          const pk::matrix_view<const T, EXEC>&, T,                          \
                                          const pk::matrix_view<T, EXEC>&);                                  \
  template void pk::detail::gemm_host<EXEC, T>(pk::op, pk::op, std::int64_t, std::int64_t, std::int64_t, T,   \
                                               const T*, const T*, T, T*);

#define PK_INSTANTIATE_MATMUL(EXEC)     \
  PK_INSTANTIATE_MATMUL_FOR(EXEC, float) \
  PK_INSTANTIATE_MATMUL_FOR(EXEC, double)
