// Example 5 (C++): the TensorFlow tutorial's CNN, trained with pk's layers on Kokkos Views.
//
//   Conv2D(32, 3x3, relu) -> MaxPool 2x2 -> Conv2D(64, 3x3, relu) -> MaxPool 2x2
//   -> Conv2D(64, 3x3, relu) -> Flatten -> Dense(64, relu) -> Dense(10)
//
// Adam (learning rate 0.001), sparse categorical cross-entropy, batches of 32, 5 epochs over the
// 60000 Fashion-MNIST training images (Debian's dataset-fashion-mnist, read with pk::load_idx),
// tested on the 10000 others. Everything lives in the default execution space's memory (the GPU's
// in a CUDA build), allocated once: each step is a fixed sequence of pk calls on one execution
// space instance (<pk/kokkos/nn.hpp>, <pk/kokkos/matmul.hpp>). The same program as
// examples/python/train_fashion.py.
//
//   example_train_fashion [--epochs 5] [--train 60000] [--test 10000] [--expect 0.90]
//
// Exit status 1 when the final test accuracy is below --expect, 77 without the data.
#include <Kokkos_Core.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <pk/idx.hpp>
#include <pk/kokkos/matmul.hpp>
#include <pk/kokkos/nn.hpp>
#include <pk/runtime.hpp>

namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using T = float;
using tensor = pk::tensor4_view<T, Exec>;
using matrix = pk::matrix_view<T, Exec>;
using vector = pk::vector_view<T, Exec>;
const std::string data_dir = "/usr/share/datasets/fashion-mnist/";

// A parameter: its values, gradient and Adam's two moments, flat; shaped views on demand.
struct param {
  std::vector<std::int64_t> shape;
  vector value, grad, m, v;
  param() = default;
  param(const std::string& name, std::vector<std::int64_t> s, const std::vector<T>& init) : shape(std::move(s)) {
    const auto n = static_cast<std::size_t>(init.size());
    value = vector(name, n);
    grad = vector(name + " grad", n);
    m = vector(name + " m", n);  // zeros
    v = vector(name + " v", n);
    Kokkos::deep_copy(value, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(init.data(), n));
  }
  tensor t(const vector& x) const { return tensor(x.data(), shape[0], shape[1], shape[2], shape[3]); }
  matrix mat(const vector& x) const { return matrix(x.data(), shape[0], shape[1]); }
};

// Keras' defaults: Glorot-uniform kernels, zero biases.
std::vector<T> glorot(std::mt19937& rng, std::size_t n, double fan_in, double fan_out) {
  std::uniform_real_distribution<double> u(-std::sqrt(6 / (fan_in + fan_out)), std::sqrt(6 / (fan_in + fan_out)));
  std::vector<T> w(n);
  for (auto& x : w) x = T(u(rng));
  return w;
}

// The activations of one batch size, allocated once.
struct activations {
  std::int64_t B;
  tensor a1, p1, a2, p2, a3;
  matrix h, logits, g, dh, df;
  vector loss;
  tensor da3, dp2, da2, dp1, da1;
  explicit activations(std::int64_t b)
      : B(b), a1("a1", b, 26, 26, 32), p1("p1", b, 13, 13, 32), a2("a2", b, 11, 11, 64), p2("p2", b, 5, 5, 64),
        a3("a3", b, 3, 3, 64), h("h", b, 64), logits("logits", b, 10), g("g", b, 10), dh("dh", b, 64),
        df("df", b, 576), loss("loss", b), da3(df.data(), b, 3, 3, 64), dp2("dp2", b, 5, 5, 64),
        da2("da2", b, 11, 11, 64), dp1("dp1", b, 13, 13, 32), da1("da1", b, 26, 26, 32) {}
  matrix flat() const { return matrix(a3.data(), B, 576); }
};

struct model {
  std::map<std::string, param> p;
  int steps = 0;

  explicit model(std::mt19937& rng) {
    const auto conv = [&](const char* w, const char* b, std::int64_t f, std::int64_t c) {
      p[w] = param(w, {f, 3, 3, c}, glorot(rng, std::size_t(f * 9 * c), double(9 * c), double(9 * f)));
      p[b] = param(b, {f}, std::vector<T>(std::size_t(f), T(0)));
    };
    conv("w1", "b1", 32, 1);
    conv("w2", "b2", 64, 32);
    conv("w3", "b3", 64, 64);
    p["w4"] = param("w4", {576, 64}, glorot(rng, 576 * 64, 576, 64));
    p["b4"] = param("b4", {64}, std::vector<T>(64, T(0)));
    p["w5"] = param("w5", {64, 10}, glorot(rng, 640, 64, 10));
    p["b5"] = param("b5", {10}, std::vector<T>(10, T(0)));
  }

  void forward(const Exec& s, const tensor& x, activations& a) {
    const auto valid = pk::padding::valid;
    pk::conv2d(s, x, p["w1"].t(p["w1"].value), p["b1"].value, a.a1, valid, true);
    pk::max_pool2x2(s, a.a1, a.p1);
    pk::conv2d(s, a.p1, p["w2"].t(p["w2"].value), p["b2"].value, a.a2, valid, true);
    pk::max_pool2x2(s, a.a2, a.p2);
    pk::conv2d(s, a.p2, p["w3"].t(p["w3"].value), p["b3"].value, a.a3, valid, true);
    pk::gemm(s, pk::op::none, pk::op::none, T(1), a.flat(), p["w4"].mat(p["w4"].value), T(0), a.h);
    pk::bias_activation(s, a.h, p["b4"].value, true);
    pk::gemm(s, pk::op::none, pk::op::none, T(1), a.h, p["w5"].mat(p["w5"].value), T(0), a.logits);
    pk::bias_activation(s, a.logits, p["b5"].value, false);
  }

  void train_step(const Exec& s, const tensor& x, const pk::label_view<Exec>& labels, activations& a) {
    const auto valid = pk::padding::valid;
    const auto none = pk::op::none, tr = pk::op::transpose;
    forward(s, x, a);
    pk::softmax_cross_entropy(s, a.logits, labels, a.loss, a.g, T(1) / T(a.B));
    param &w1 = p["w1"], &w2 = p["w2"], &w3 = p["w3"], &w4 = p["w4"], &w5 = p["w5"];
    pk::gemm(s, tr, none, T(1), a.h, a.g, T(0), w5.mat(w5.grad));  // dense 2
    pk::column_sums(s, a.g, p["b5"].grad);
    pk::gemm(s, none, tr, T(1), a.g, w5.mat(w5.value), T(0), a.dh);
    pk::relu_backward(s, vector(a.h.data(), a.h.size()), vector(a.dh.data(), a.dh.size()),
                      vector(a.dh.data(), a.dh.size()));
    pk::gemm(s, tr, none, T(1), a.flat(), a.dh, T(0), w4.mat(w4.grad));  // dense 1
    pk::column_sums(s, a.dh, p["b4"].grad);
    pk::gemm(s, none, tr, T(1), a.dh, w4.mat(w4.value), T(0), a.df);
    const auto flat = [](const auto& t) { return vector(t.data(), t.size()); };
    pk::relu_backward(s, flat(a.a3), flat(a.da3), flat(a.da3));  // conv 3
    pk::conv2d_backward_weights(s, a.p2, a.da3, w3.t(w3.grad), p["b3"].grad, valid);
    pk::conv2d_backward_input(s, a.da3, w3.t(w3.value), a.dp2, valid);
    pk::max_pool2x2_backward(s, a.a2, a.dp2, a.da2);  // conv 2
    pk::relu_backward(s, flat(a.a2), flat(a.da2), flat(a.da2));
    pk::conv2d_backward_weights(s, a.p1, a.da2, w2.t(w2.grad), p["b2"].grad, valid);
    pk::conv2d_backward_input(s, a.da2, w2.t(w2.value), a.dp1, valid);
    pk::max_pool2x2_backward(s, a.a1, a.dp1, a.da1);  // conv 1
    pk::relu_backward(s, flat(a.a1), flat(a.da1), flat(a.da1));
    pk::conv2d_backward_weights(s, x, a.da1, w1.t(w1.grad), p["b1"].grad, valid);
    ++steps;
    for (auto& [name, q] : p) pk::adam_update(s, q.value, q.grad, q.m, q.v, pk::adam_step<T>{T(1e-3), T(0.9), T(0.999), T(1e-7), steps});
  }
};

struct dataset {
  std::int64_t n = 0;
  std::vector<T> images;  // n x 28 x 28, in 0..1
  std::vector<std::int32_t> labels;
};

dataset load(const std::string& split, std::int64_t limit) {
  const pk::idx_array images = pk::load_idx(data_dir + split + "-images-idx3-ubyte.gz");
  const pk::idx_array labels = pk::load_idx(data_dir + split + "-labels-idx1-ubyte.gz");
  dataset d;
  d.n = std::min<std::int64_t>(limit, images.shape[0]);
  d.images.resize(std::size_t(d.n * 784));
  for (std::size_t i = 0; i < d.images.size(); ++i) d.images[i] = T(images.data[i]) / T(255);
  d.labels.assign(labels.data.begin(), labels.data.begin() + d.n);
  return d;
}

double accuracy(model& net, const dataset& test, const Exec& s) {
  const std::int64_t B = 1000;
  activations a(B);
  tensor x("test images", B, 28, 28, 1);
  auto logits = Kokkos::create_mirror_view(a.logits);
  std::int64_t right = 0;
  for (std::int64_t first = 0; first + B <= test.n; first += B) {
    Kokkos::deep_copy(s, x, Kokkos::View<const T****, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                 test.images.data() + first * 784, B, 28, 28, 1));
    net.forward(s, x, a);
    Kokkos::deep_copy(s, logits, a.logits);
    s.fence();
    for (std::int64_t b = 0; b < B; ++b) {
      int best = 0;
      for (int j = 1; j < 10; ++j) best = logits(b, j) > logits(b, best) ? j : best;
      right += best == test.labels[std::size_t(first + b)];
    }
  }
  return double(right) / double(test.n / B * B);
}

}  // namespace

int main(int argc, char** argv) {
  int epochs = 5;
  std::int64_t train_n = 60000, test_n = 10000, batch = 32;
  double expect = 0.90;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--epochs") epochs = std::atoi(argv[i + 1]);
    else if (a == "--train") train_n = std::atoll(argv[i + 1]);
    else if (a == "--test") test_n = std::atoll(argv[i + 1]);
    else if (a == "--expect") expect = std::atof(argv[i + 1]);
    else {
      std::fprintf(stderr, "usage: %s [--epochs N] [--train N] [--test N] [--expect ACCURACY]\n", argv[0]);
      return 2;
    }
  }
  if (!std::filesystem::exists(data_dir + "train-images-idx3-ubyte.gz")) {
    std::printf("train_fashion: no Fashion-MNIST in %s (Debian: apt-get install dataset-fashion-mnist): skipped\n",
                data_dir.c_str());
    return 77;
  }
  pk::runtime kokkos;
  const Exec space;
  const dataset train = load("train", train_n), test = load("t10k", test_n);
  std::printf("train_fashion: %lld training and %lld test images on %s, batches of %lld\n", (long long)train.n,
              (long long)test.n, Exec::name(), (long long)batch);
  std::mt19937 rng(2026);
  double acc = 0;
  {
    model net(rng);
    activations a(batch);
    tensor images("train images", train.n, 28, 28, 1);
    Kokkos::View<std::int32_t*, Exec::memory_space> labels("train labels", train.n);
    std::vector<T> shuffled(train.images.size());
    std::vector<std::int32_t> shuffled_labels(train.labels.size());
    std::vector<std::int64_t> order(std::size_t(train.n));
    for (int epoch = 1; epoch <= epochs; ++epoch) {
      const auto start = std::chrono::steady_clock::now();
      std::iota(order.begin(), order.end(), 0);
      std::shuffle(order.begin(), order.end(), rng);
      for (std::size_t i = 0; i < order.size(); ++i) {
        std::memcpy(&shuffled[i * 784], &train.images[std::size_t(order[i]) * 784], 784 * sizeof(T));
        shuffled_labels[i] = train.labels[std::size_t(order[i])];
      }
      Kokkos::deep_copy(space, images, Kokkos::View<const T****, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                           shuffled.data(), train.n, 28, 28, 1));
      Kokkos::deep_copy(space, labels, Kokkos::View<const std::int32_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                           shuffled_labels.data(), train.n));
      for (std::int64_t first = 0; first + batch <= train.n; first += batch) {
        const tensor x(images.data() + first * 784, batch, 28, 28, 1);
        net.train_step(space, x, pk::label_view<Exec>(labels.data() + first, batch), a);
      }
      space.fence();
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      acc = accuracy(net, test, space);
      std::printf("train_fashion: epoch %d: test accuracy %.4f, %.1f s\n", epoch, acc, seconds);
      std::fflush(stdout);
    }
  }
  const bool ok = acc >= expect;
  std::printf("train_fashion: %s (test accuracy %.4f, expected >= %.2f)\n", ok ? "PASS" : "FAIL", acc, expect);
  return ok ? 0 : 1;
}
