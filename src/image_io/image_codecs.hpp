#pragma once
// The codecs behind load_image, decode_image and save_image (src/image_io/). Each decoder gets the
// whole file in memory and either returns a complete image or throws pk::error; each encoder writes to an open
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

// An encoded image to decode, and how its errors read: pk::error "<who>: <where><reason>".
struct encoded_image {
  const char* who;          // "pk::load_image" or "pk::decode_image"
  std::string where;        // "'photo.jpg': " for a file; empty for bytes in memory
  const unsigned char* data;
  std::size_t size;
  std::int64_t max_pixels;  // 1..max_image_pixels
};

template <class... Parts>
[[noreturn]] void decode_fail(const encoded_image& in, Parts&&... reason) {
  fail(in.who, in.where, std::forward<Parts>(reason)...);
}

// The size limits, checked on the header before any pixel memory exists (sides are at most
// 65535, so the product cannot overflow).
inline bool within_image_limits(std::uint64_t width, std::uint64_t height, std::int64_t max_pixels) {
  return width <= static_cast<std::uint64_t>(max_image_side) && height <= static_cast<std::uint64_t>(max_image_side) &&
         width * height <= static_cast<std::uint64_t>(max_pixels);
}

// A message buffer that libpng / libjpeg error handlers can fill without allocating (they may
// run while a longjmp is about to skip C++ frames, so nothing there may own memory).
inline constexpr std::size_t codec_message_size = 256;

image<std::uint8_t> decode_png(const encoded_image& in);
image<std::uint8_t> decode_jpeg(const encoded_image& in);

// `pixels` is height x width x channels, interleaved; PNG takes 1..4 channels, JPEG 1 or 3.
bool encode_png(std::FILE* file, const std::uint8_t* pixels, int height, int width, int channels,
                char (&message)[codec_message_size]);
bool encode_jpeg(std::FILE* file, const std::uint8_t* pixels, int height, int width, int channels, int quality,
                 char (&message)[codec_message_size]);

}  // namespace pk::detail
