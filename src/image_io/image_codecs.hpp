#pragma once
// The codecs behind load_image / save_image (src/image_io/). Each decoder gets the whole file in
// memory and either returns a complete image or throws pk::error; each encoder writes to an open
// FILE and returns false with a reason when libpng / libjpeg report an error.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include <pk/image.hpp>
#include <pk/image_io.hpp>

#include "core/check.hpp"

namespace pk::detail {

// pk::error "pk::load_image: '<path>': <reason>" (likewise for save_image).
template <class... Parts>
[[noreturn]] void image_fail(const char* who, const std::string& path, Parts&&... reason) {
  fail(who, "'", path, "': ", std::forward<Parts>(reason)...);
}

// The size limits of load_image, checked on the header before any pixel memory exists.
inline bool within_image_limits(std::uint64_t width, std::uint64_t height) {
  return width <= static_cast<std::uint64_t>(max_image_side) && height <= static_cast<std::uint64_t>(max_image_side) &&
         width * height <= static_cast<std::uint64_t>(max_image_pixels);
}

// A message buffer that libpng / libjpeg error handlers can fill without allocating (they may
// run while a longjmp is about to skip C++ frames, so nothing there may own memory).
inline constexpr std::size_t codec_message_size = 256;

image<std::uint8_t> decode_png(const std::string& path, const unsigned char* data, std::size_t size);
image<std::uint8_t> decode_jpeg(const std::string& path, const unsigned char* data, std::size_t size);

// `pixels` is height x width x channels, interleaved; PNG takes 1..4 channels, JPEG 1 or 3.
bool encode_png(std::FILE* file, const std::uint8_t* pixels, int height, int width, int channels,
                char (&message)[codec_message_size]);
bool encode_jpeg(std::FILE* file, const std::uint8_t* pixels, int height, int width, int channels, int quality,
                 char (&message)[codec_message_size]);

}  // namespace pk::detail
