#pragma once
// Images in host memory: height x width x channels, channels interleaved (as PNG, JPEG and
// OpenCV store them). pk::image owns its pixels; pk::image_ref is a non-owning view for the
// host-friendly kernel overloads. Pixel (y, x, c) is at data[(y*width + x)*channels + c].
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pk {

template <class T>
struct image_ref {
  T* data = nullptr;
  int height = 0, width = 0, channels = 0;

  std::size_t size() const noexcept {
    return static_cast<std::size_t>(height) * static_cast<std::size_t>(width) * static_cast<std::size_t>(channels);
  }
  // image_ref<T> converts to image_ref<const T>.
  operator image_ref<const T>() const noexcept { return {data, height, width, channels}; }
};

template <class T>
struct image {
  int height = 0, width = 0, channels = 0;
  std::vector<T> pixels;

  image() = default;
  image(int h, int w, int c, T fill = T())
      : height(h), width(w), channels(c),
        pixels(static_cast<std::size_t>(h < 0 ? 0 : h) * static_cast<std::size_t>(w < 0 ? 0 : w) *
                   static_cast<std::size_t>(c < 0 ? 0 : c),
               fill) {}

  T& at(int y, int x, int c) { return pixels[(static_cast<std::size_t>(y) * width + x) * channels + c]; }
  const T& at(int y, int x, int c) const {
    return pixels[(static_cast<std::size_t>(y) * width + x) * channels + c];
  }
  image_ref<T> ref() { return {pixels.data(), height, width, channels}; }
  image_ref<const T> ref() const { return {pixels.data(), height, width, channels}; }
  image_ref<const T> cref() const { return ref(); }
  operator image_ref<T>() { return ref(); }
  operator image_ref<const T>() const { return ref(); }
};

}  // namespace pk
