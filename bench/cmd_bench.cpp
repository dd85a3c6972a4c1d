// pk bench [--quick] [--only KERNEL[,KERNEL]] [--runs N] [--json FILE]: every kernel against
// its peer library in the same run (bench/bench_suite.hpp), as ratios. The command of pk-bench.
#include <cstdio>
#include <sstream>

#include <bench_suite.hpp>
#include <pk/error.hpp>

#include <options.hpp>

namespace pk_app {

int cmd_bench(const std::vector<std::string>& args) {
  const parsed_args p = parse_args("bench", args, {"--quick"}, {"--only", "--runs", "--json"});
  if (p.help) {
    std::printf(
        "usage: pk bench [--quick] [--only add,filter,matmul,conv2d] [--runs N] [--json FILE]\n\n"
        "Times each kernel against a peer library on the same data in the same run and prints\n"
        "ratios (our rate / the peer's rate; above 1 is faster than the peer):\n"
        "  add     GB/s moved (12 bytes per float element) vs a copy's GB/s (read + written):\n"
        "          cudaMemcpy device-to-device on cuda, memcpy on the host threads otherwise\n"
        "  filter  GB/s (8 bytes per float pixel, 2 per uint8 value) vs copy bandwidth on cuda\n"
        "          (also at 512x768 and 1920x1080 there); vs OpenCV (cv::filter2D, cv::sepFilter2D,\n"
        "          cv::Sobel) on the host; float, and uint8 gray, RGB and RGBA\n"
        "  matmul  GFLOP/s vs cuBLAS (cublasSgemm/Dgemm, TF32 off) on cuda; vs OpenBLAS on the host\n"
        "          (same thread count); large, ragged, small and skinny shapes\n"
        "  conv2d  GFLOP/s of the tutorial CNN's three 3x3 layers, forward and both gradients, at\n"
        "          batch 256 on cuda vs cuDNN, 32 on the host vs im2col + OpenBLAS\n"
        "The target column, where a case has one, is the ratio it aims for.\n"
        "Each case: random inputs, warm-up runs (at least 2 and 100 ms), then the median of N timed\n"
        "runs (default 20 on cuda, 5 serial, 10 openmp), with CUDA events on cuda and fences\n"
        "otherwise; the table's +-%% is their spread, (max - min) / median. Every result is also\n"
        "checked against float64 on sampled outputs; the exit status is 1 if any check fails.\n\n"
        "  --quick      small sizes: a smoke test of the whole suite\n"
        "  --only LIST  some of add, filter, matmul, conv2d (comma-separated)\n"
        "  --runs N     timed runs per case\n"
        "  --json FILE  also write the results as JSON (FILE '-': JSON on stdout, table on stderr)\n"
        "Sizes on cuda: add 2^28, filters 8192x8192, matmul 4096^3, 8192^3 and 5000x3000x7001.\n");
    return 0;
  }
  if (!p.positional.empty()) usage_fail("bench", "unexpected argument '" + p.positional[0] + "'");
  pk_bench::options o;
  o.on = globals().backend;
  o.quick = p.has("--quick");
  if (const std::string* only = p.value("--only")) {
    std::stringstream list(*only);
    for (std::string name; std::getline(list, name, ',');) {
      if (name != "add" && name != "filter" && name != "matmul" && name != "conv2d")
        usage_fail("bench", "--only takes add, filter, matmul or conv2d, got '" + name + "'");
      o.only.insert(name);
    }
  }
  if (const std::string* runs = p.value("--runs")) o.runs = int(parse_count("bench", "--runs", *runs, 1, 10000));
  if (const std::string* json = p.value("--json")) o.json_path = *json;
  const int failed = pk_bench::run(o);
  if (failed > 0) throw pk::error("bench: " + std::to_string(failed) + " result(s) failed their check");
  return 0;
}

}  // namespace pk_app
