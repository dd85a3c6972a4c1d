// `pk bench`: chooses the sizes for the backend, runs each kernel's benchmark, prints the table
// and writes the JSON.
#include "bench_suite.hpp"

#include <json.hpp>

#include <Kokkos_Core.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <pk/error.hpp>

#include "bench_plan.hpp"
#include "bench_row.hpp"

namespace pk_bench {

void bench_add(pk::backend on, const plan& p, std::vector<row>& out);
void bench_filter(pk::backend on, const plan& p, std::vector<row>& out);
void bench_matmul(pk::backend on, const plan& p, std::vector<row>& out);
void bench_conv2d(pk::backend on, const plan& p, std::vector<row>& out);

namespace {

// Sizes that fill the machine: on a GPU, data several times the L2 cache and launches far longer
// than their overhead; on the host, what two cores get through in about a minute.
plan make_plan(const options& o) {
  plan p;
  p.gpu = o.on == pk::backend::cuda;
  if (o.quick) {
    p.runs = 5;
    p.add_n = 1 << 20;
    p.image_h = 512, p.image_w = 768;
    p.sgemm = {{256, 256, 256}, {200, 300, 170}};
    p.dgemm = {{256, 256, 256}};
    p.conv_batch = 4;
  } else if (p.gpu) {
    p.runs = 20;
    p.add_n = std::int64_t(1) << 28;
    p.image_h = p.image_w = 8192;
    // The large shapes, then the small and skinny ones a network or a solver calls many times
    // (few block tiles: split-K where K is long).
    // Targets against cuBLAS: the large shapes at vendor speed (doubles on the FP64 tensor cores,
    // floats on FP32 units, TF32 off), the small ones at 0.8.
    p.sgemm = {{4096, 4096, 4096, 0.9}, {8192, 8192, 8192, 0.9}, {5000, 3000, 7001, 0.85}, {256, 256, 256, 0.8},
               {200, 300, 170, 0.8},     {64, 4096, 64, 0.8},     {4096, 64, 4096, 0.8},     {1, 4096, 4096, 0.8}};
    p.dgemm = {{4096, 4096, 4096, 0.8}, {8192, 8192, 8192, 0.8}, {5000, 3000, 7001, 0.75}, {256, 256, 256, 0.8},
               {4096, 64, 4096, 0.8}};
    p.add_target = 0.92;
    p.small_images = {{512, 768}, {1080, 1920}};
    p.filter_targets = true;
    p.conv_batch = 256;
  } else {
    const bool serial = o.on == pk::backend::serial;
    p.runs = serial ? 5 : 10;
    p.add_n = std::int64_t(1) << 26;
    p.image_h = serial ? 2048 : 4096, p.image_w = serial ? 2048 : 4096;
    // Against OpenBLAS and OpenCV with as many threads: targets on the threaded backend only
    // (GEMM 0.7 of OpenBLAS).
    p.filter_targets = !serial;
    p.sgemm = serial ? decltype(p.sgemm){{1024, 1024, 1024}, {1000, 700, 1500}}
                     : decltype(p.sgemm){{2048, 2048, 2048, 0.7}, {1000, 700, 1500, 0.7}};
    p.dgemm = serial ? decltype(p.dgemm){{1024, 1024, 1024}}
                     : decltype(p.dgemm){{2048, 2048, 2048, 0.7}, {1000, 700, 1500, 0.7}};
  }
  if (o.runs > 0) p.runs = o.runs;
  return p;
}

}  // namespace

#ifndef PK_VERSION
#define PK_VERSION "unknown"
#endif
#ifndef PK_COMMIT
#define PK_COMMIT "unknown"
#endif

int run(const options& o) {
  const plan p = make_plan(o);
  const auto wanted = [&](const char* kernel) { return o.only.empty() || o.only.count(kernel) != 0; };
  const pk::device_info dev = pk::current_device(o.on);
  context ctx;
  ctx.backend = pk::to_string(o.on);
  ctx.device = dev.name;
  ctx.concurrency = dev.concurrency;
  ctx.kokkos_version = std::to_string(KOKKOS_VERSION / 10000) + "." + std::to_string(KOKKOS_VERSION / 100 % 100) +
                       "." + std::to_string(KOKKOS_VERSION % 100);
  ctx.date = pk_harness::utc_now();
  ctx.pk_version = PK_VERSION;
  ctx.commit = PK_COMMIT;

  // Open the JSON file first: a path that cannot be written fails before minutes of work.
  std::FILE* json = nullptr;
  if (o.json_path == "-") {
    json = stdout;
  } else if (!o.json_path.empty()) {
    json = std::fopen(o.json_path.c_str(), "w");
    if (!json) throw pk::error("bench: cannot write '" + o.json_path + "': " + std::strerror(errno));
  }
  std::FILE* table = json == stdout ? stderr : stdout;
  std::fprintf(table, "pk bench on %s (%s, %d threads), Kokkos %s\nmedian of %d runs after >= 100 ms of warm-up\n",
               ctx.backend.c_str(), ctx.device.c_str(), ctx.concurrency, ctx.kokkos_version.c_str(), p.runs);

  std::vector<row> rows;
  if (wanted("add")) {
    std::fprintf(stderr, "pk bench: add float %lld elements...\n", static_cast<long long>(p.add_n));
    bench_add(o.on, p, rows);
  }
  if (wanted("filter")) bench_filter(o.on, p, rows);
  if (wanted("matmul")) bench_matmul(o.on, p, rows);
  if (wanted("conv2d")) bench_conv2d(o.on, p, rows);

  std::fprintf(table, "\nratio = our rate / the peer's rate on the same data (above 1: faster than the peer)\n");
  print_table(rows, table);
  if (json) {
    write_json(ctx, rows, json);
    if (json != stdout && std::fclose(json) != 0) throw pk::error("bench: cannot write '" + o.json_path + "'");
  }
  int failed = 0;
  for (const row& r : rows) failed += r.pass() ? 0 : 1;
  return failed;
}

}  // namespace pk_bench
