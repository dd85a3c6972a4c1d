// Pixel type and colour conversions between pk::image<uint8_t> and pk::image<float>.
#include <pk/image_io.hpp>

#include <cmath>

#include "core/check.hpp"

namespace pk {
namespace {

template <class T>
void require_consistent(const char* who, const image<T>& img) {
  if (img.height < 0 || img.width < 0 || img.channels < 0)
    detail::fail(who, "the image is ", img.height, "x", img.width, "x", img.channels, ", expected no negative extent");
  const std::size_t expected = std::size_t(img.height) * std::size_t(img.width) * std::size_t(img.channels);
  if (img.pixels.size() != expected)
    detail::fail(who, "the image has ", img.pixels.size(), " pixel values, expected ", expected,
                 " (height x width x channels)");
}

std::uint8_t saturate_u8(float v) {
  if (!(v > 0.f)) return 0;  // also NaN
  if (v >= 255.f) return 255;
  return static_cast<std::uint8_t>(std::lround(v));
}

template <class T, class Round>
image<T> luma(const char* who, const image<T>& img, Round round) {
  require_consistent(who, img);
  if (img.channels < 1 || img.channels > 4) detail::fail(who, "the image has ", img.channels, " channels, expected 1..4");
  if (img.channels == 1) return img;
  image<T> out(img.height, img.width, 1);
  const std::size_t n = std::size_t(img.height) * std::size_t(img.width);
  for (std::size_t p = 0; p < n; ++p) {
    const T* px = &img.pixels[p * img.channels];
    // gray+alpha keeps its gray; RGB and RGBA are weighted by BT.601 (alpha ignored).
    const double y = img.channels == 2 ? double(px[0]) : 0.299 * px[0] + 0.587 * px[1] + 0.114 * px[2];
    out.pixels[p] = round(y);
  }
  return out;
}

}  // namespace

image<float> to_float(const image<std::uint8_t>& img) {
  require_consistent("pk::to_float", img);
  image<float> out(img.height, img.width, img.channels);
  for (std::size_t i = 0; i < img.pixels.size(); ++i) out.pixels[i] = static_cast<float>(img.pixels[i]);
  return out;
}

image<std::uint8_t> to_u8(const image<float>& img) {
  require_consistent("pk::to_u8", img);
  image<std::uint8_t> out(img.height, img.width, img.channels);
  for (std::size_t i = 0; i < img.pixels.size(); ++i) out.pixels[i] = saturate_u8(img.pixels[i]);
  return out;
}

image<std::uint8_t> to_gray(const image<std::uint8_t>& img) {
  return luma("pk::to_gray", img, [](double y) { return saturate_u8(static_cast<float>(y)); });
}

image<float> to_gray(const image<float>& img) {
  return luma("pk::to_gray", img, [](double y) { return static_cast<float>(y); });
}

}  // namespace pk
