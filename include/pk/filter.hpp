#pragma once
// 2-D image filtering on host images: convolution with any odd square kernel up to 15x15,
// separable kernels in two passes, Sobel gradient magnitude, OpenCV's border modes.
// Semantics follow cv::filter2D: out(y,x,c) = sum_{i,j} w(i,j) * in(y+i-r, x+j-r, c), r = size/2
// (correlation: the kernel is not flipped). uint8 images accumulate in float and are rounded to
// nearest and saturated to 0..255. For device-resident images use <pk/kokkos/filter.hpp>.
#include <cstdint>
#include <string>
#include <vector>

#include <pk/backend.hpp>
#include <pk/image.hpp>

namespace pk {

// What lies outside the image, for a row "abcdefgh" (OpenCV's names in brackets):
enum class border {
  clamp,       // aaa|abcdefgh|hhh  [BORDER_REPLICATE]
  reflect101,  // dcb|abcdefgh|gfe  [BORDER_REFLECT_101, OpenCV's default]
  zero,        // 000|abcdefgh|000  [BORDER_CONSTANT with 0]
  wrap,        // fgh|abcdefgh|abc  [BORDER_WRAP]
};
const char* to_string(border b) noexcept;  // "clamp", "reflect101", "zero", "wrap"
border parse_border(const std::string& name);  // also accepts "reflect-101"; pk::error otherwise

inline constexpr int max_filter_size = 15;

// A square kernel of odd size (1..15), weights row-major. When row and column are set the
// kernel is their outer product, weights(i,j) = column[i]*row[j], and runs as two 1-D passes.
struct filter_kernel {
  int size = 0;
  std::vector<float> weights;  // size*size
  std::vector<float> row, column;  // size each, or empty
  bool separable() const noexcept { return !row.empty(); }
};

filter_kernel box_kernel(int size);                      // all weights 1/size^2
// Gaussian as cv::getGaussianKernel builds it. sigma <= 0: sizes 1..7 take OpenCV's fixed tables
// (what cv::GaussianBlur applies with sigma 0), larger sizes sigma = 0.3*((size-1)*0.5-1)+0.8.
filter_kernel gaussian_kernel(int size, double sigma = 0);
filter_kernel sharpen_kernel();                          // 3x3: 5 at the centre, -1 at the 4 neighbours
filter_kernel sobel_x_kernel();                          // 3x3 d/dx: [-1 0 1; -2 0 2; -1 0 1]
filter_kernel sobel_y_kernel();                          // 3x3 d/dy
filter_kernel custom_kernel(int size, std::vector<float> weights);  // checks size and weight count
// weights(i,j) = column[i]*row[j]: a separable kernel of any taps (same odd length 1..15).
filter_kernel separable_kernel(std::vector<float> column, std::vector<float> row);

// The named filters of `pk filter --kernel NAME`: a kernel, or Sobel gradient magnitude.
enum class filter_op { convolve, sobel_magnitude };
struct filter_spec {
  filter_op op = filter_op::convolve;
  filter_kernel kernel;  // for convolve
};
// "box3".."box15" (odd), "gaussian3".."gaussian15" with optional ":SIGMA" ("gaussian7:1.5"),
// "sharpen", "sobel-x", "sobel-y", "sobel" (gradient magnitude). pk::error lists them otherwise.
filter_spec parse_filter(const std::string& name);
std::vector<std::string> filter_names();  // the names above, for --help

// out = in (*) kernel. in and out have the same height, width and channels (1..4), and do not
// share memory (not even in place). Throws pk::error naming the argument on any mismatch. An image
// of 0 rows or 0 columns is allowed: nothing is computed or written. A separable kernel
// (row and column set) must have weights equal to their outer product.
void filter(backend on, image_ref<const float> in, image_ref<float> out, const filter_kernel& k,
            border b = border::reflect101);
void filter(backend on, image_ref<const std::uint8_t> in, image_ref<std::uint8_t> out, const filter_kernel& k,
            border b = border::reflect101);

// out = sqrt(gx^2 + gy^2) with gx, gy the Sobel derivatives: edge strength.
void sobel_magnitude(backend on, image_ref<const float> in, image_ref<float> out, border b = border::reflect101);
void sobel_magnitude(backend on, image_ref<const std::uint8_t> in, image_ref<std::uint8_t> out,
                     border b = border::reflect101);

// Runs a parsed filter_spec (convolution or Sobel magnitude).
void apply(backend on, const filter_spec& f, image_ref<const float> in, image_ref<float> out,
           border b = border::reflect101);
void apply(backend on, const filter_spec& f, image_ref<const std::uint8_t> in, image_ref<std::uint8_t> out,
           border b = border::reflect101);

}  // namespace pk
