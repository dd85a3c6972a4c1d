// Example 2: edge detection on a photograph -- blur, then the Sobel operator.
//
// The classic image-processing tutorial (OpenCV's, and TensorFlow's tf.image.sobel_edges):
//   1. read an image and turn it to gray (edges are changes of brightness, not of colour);
//   2. smooth it with a small Gaussian, so that sensor noise and JPEG blocks do not look like edges;
//   3. convolve with the two 3x3 Sobel kernels, gx = d/dx and gy = d/dy, and take the gradient
//      magnitude sqrt(gx^2 + gy^2): large where brightness changes fast, i.e. on edges;
//   4. write the magnitude as an image: bright lines on black.
// Each pixel's output depends on its 3x3 or 5x5 neighbourhood only, which is why filters suit
// GPUs: pk's kernels load a tile of the image plus a halo into fast memory and let every thread
// reuse its neighbours' loads.
//
//   example_image_filter [IN.png|IN.jpg] [EDGES.png]
// Without IN, the example draws its own test picture (gradients, shapes, strokes; fixed seed),
// writes it as image_filter_input.png and uses that.
#include <pk/error.hpp>
#include <pk/filter.hpp>
#include <pk/image_io.hpp>
#include <pk/runtime.hpp>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

namespace {

// A picture with edges of every direction and contrast: a sky gradient, a sun, two buildings and
// a few pen strokes, plus a little noise, as a camera would add.
pk::image<std::uint8_t> draw_test_picture(int h, int w) {
  pk::image<std::uint8_t> img(h, w, 3);
  std::mt19937 g(2026);
  std::normal_distribution<double> noise(0, 2);
  auto in_stroke = [](double px, double py, double x0, double y0, double x1, double y1, double width) {
    const double dx = x1 - x0, dy = y1 - y0;
    const double t = std::fmax(0, std::fmin(1, ((px - x0) * dx + (py - y0) * dy) / (dx * dx + dy * dy)));
    return std::hypot(px - (x0 + t * dx), py - (y0 + t * dy)) <= width;
  };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double rgb[3] = {90 + 100.0 * y / h, 140 + 60.0 * y / h, 230 - 40.0 * y / h};  // sky
      if (std::hypot(x - 0.75 * w, y - 0.25 * h) < 0.12 * h) rgb[0] = 250, rgb[1] = 210, rgb[2] = 60;  // sun
      if (x > 0.10 * w && x < 0.35 * w && y > 0.45 * h) rgb[0] = rgb[1] = rgb[2] = 70;                // building
      if (x > 0.45 * w && x < 0.60 * w && y > 0.60 * h) rgb[0] = 150, rgb[1] = 60, rgb[2] = 50;       // building
      // "P" and "K" drawn with a pen
      const double sx = 0.15 * w, sy = 0.10 * h, u = 0.08 * h;
      if (in_stroke(x, y, sx, sy, sx, sy + 2 * u, 2) || in_stroke(x, y, sx, sy, sx + u, sy + 0.5 * u, 2) ||
          in_stroke(x, y, sx + u, sy + 0.5 * u, sx, sy + u, 2) || in_stroke(x, y, sx + 1.6 * u, sy, sx + 1.6 * u, sy + 2 * u, 2) ||
          in_stroke(x, y, sx + 1.6 * u, sy + u, sx + 2.6 * u, sy, 2) ||
          in_stroke(x, y, sx + 1.6 * u, sy + u, sx + 2.6 * u, sy + 2 * u, 2))
        rgb[0] = rgb[1] = rgb[2] = 20;
      for (int c = 0; c < 3; ++c)
        img.at(y, x, c) = static_cast<std::uint8_t>(std::lround(std::fmin(255, std::fmax(0, rgb[c] + noise(g)))));
    }
  return img;
}

// The Sobel magnitude in float64, written out plainly, with the library's default border
// (reflect101: dcb|abcd|cba). The example checks the library against it.
double reference_sobel(const pk::image<float>& in, int y, int x) {
  auto at = [&](int yy, int xx) {
    auto reflect = [](int i, int n) { return i < 0 ? -i : i >= n ? 2 * n - 2 - i : i; };
    return double(in.at(reflect(yy, in.height), reflect(xx, in.width), 0));
  };
  const double gx = (at(y - 1, x + 1) + 2 * at(y, x + 1) + at(y + 1, x + 1)) -
                    (at(y - 1, x - 1) + 2 * at(y, x - 1) + at(y + 1, x - 1));
  const double gy = (at(y + 1, x - 1) + 2 * at(y + 1, x) + at(y + 1, x + 1)) -
                    (at(y - 1, x - 1) + 2 * at(y - 1, x) + at(y - 1, x + 1));
  return std::sqrt(gx * gx + gy * gy);
}

}  // namespace

int main(int argc, char** argv) {
  std::string in_path = argc > 1 ? argv[1] : "";
  const std::string out_path = argc > 2 ? argv[2] : "image_filter_edges.png";
  try {
    pk::runtime kokkos;
    const pk::backend on = pk::default_backend();

    // Step 1: the input. pk::load_image reads PNG and JPEG (any bit depth, palette, CMYK...) into
    // 8-bit channels; a broken file is a pk::error, never a crash.
    if (in_path.empty()) {
      in_path = "image_filter_input.png";
      pk::save_image(in_path, draw_test_picture(360, 480));
      std::printf("image_filter: no input given, drew a test picture into %s\n", in_path.c_str());
    }
    const pk::image<std::uint8_t> photo = pk::load_image(in_path);
    std::printf("image_filter: %s is %d x %d, %d channel(s); filtering on %s\n", in_path.c_str(), photo.width,
                photo.height, photo.channels, pk::to_string(on));

    // Step 2: gray, as float (0..255): BT.601 luma, then one float per pixel so that the blur and
    // the gradient keep their fractions until the end.
    const pk::image<float> gray = pk::to_float(pk::to_gray(photo));

    // Step 3: Gaussian blur, 5x5. The kernel is separable (a column times a row), so pk runs it as
    // two 1-D passes: 10 multiply-adds per pixel instead of 25.
    pk::image<float> smooth(gray.height, gray.width, 1);
    pk::filter(on, gray.cref(), smooth.ref(), pk::gaussian_kernel(5));

    // Step 4: Sobel gradient magnitude: edge strength.
    pk::image<float> edges(gray.height, gray.width, 1, std::nanf(""));  // NaN: any pixel left unwritten fails below
    pk::sobel_magnitude(on, smooth.cref(), edges.ref());

    // Step 5: check the edges against the float64 formula on every pixel. The error of a float
    // Sobel is a few eps of the sum of |terms| (at most 8 * 255 here): tolerance 1e-3 levels.
    double worst = 0, strongest = 0;
    for (int y = 0; y < edges.height; ++y)
      for (int x = 0; x < edges.width; ++x) {
        const double err = std::abs(edges.at(y, x, 0) - reference_sobel(smooth, y, x));
        worst = std::isnan(err) ? INFINITY : std::fmax(worst, err);
        strongest = std::fmax(strongest, edges.at(y, x, 0));
      }
    // An edge image is mostly dark: some, but not most, pixels are strong edges.
    std::size_t strong = 0;
    for (float v : edges.pixels) strong += v > 0.25 * strongest;
    const double strong_share = double(strong) / edges.pixels.size();
    std::printf("image_filter: max |pk - float64| = %.2e levels (tolerance 1e-3); strongest edge %.0f; "
                "%.1f%% of pixels above a quarter of it\n", worst, strongest, 100 * strong_share);

    // Step 6: write it. Scale so that the strongest edge is white, then round to 8 bits.
    pk::image<float> scaled = edges;
    for (float& v : scaled.pixels) v = float(v * 255.0 / std::fmax(strongest, 1e-9));
    pk::save_image(out_path, pk::to_u8(scaled));
    std::printf("image_filter: wrote %s\n", out_path.c_str());

    const bool pass = worst <= 1e-3 && strongest > 10 && strong_share > 0.002 && strong_share < 0.4;
    std::printf("image_filter: %s\n", pass ? "PASS" : "FAIL");
    return pass ? 0 : 1;
  } catch (const pk::error& e) {
    std::fprintf(stderr, "image_filter: error: %s\n", e.what());
    return 1;
  }
}
