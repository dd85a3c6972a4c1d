#pragma once
// PNG and JPEG files to and from pk::image (host memory), and conversions between pixel types.
// Part of portable_kernels::image_io (library pk_image_io), which links libpng and libjpeg.
//
//   pk::image<std::uint8_t> photo = pk::load_image("photo.jpg");   // 1..4 channels, 8 bits
//   pk::image<float> gray = pk::to_float(pk::to_gray(photo));        // values 0..255
//   ... pk::sobel_magnitude(pk::default_backend(), gray.cref(), edges.ref()) ...
//   pk::save_image("edges.png", pk::to_u8(edges));
//
// Loading never trusts the file: a missing file, a file that is not PNG or JPEG, a truncated or
// corrupt one, or a header announcing more than max_image_pixels pixels (or a side longer than
// max_image_side) throws pk::error "pk::load_image: '<path>': <reason>" and allocates nothing
// for the pixels. There is no partial result, and nothing leaks.
#include <cstdint>
#include <string>

#include <pk/error.hpp>
#include <pk/image.hpp>
#include <pk/span.hpp>

namespace pk {

// The largest image load_image accepts: 2^28 pixels (1 GiB as 8-bit RGBA), sides up to 65535.
inline constexpr std::int64_t max_image_pixels = std::int64_t(1) << 28;
inline constexpr int max_image_side = 65535;

// Reads a PNG or JPEG file; the format is recognized by its first bytes, not by the name.
// PNG: every bit depth and colour type, expanded to 8 bits per channel: gray (1 channel),
//   gray+alpha (2), RGB (3), RGBA (4); palette images become RGB, or RGBA when the palette has
//   transparency (tRNS); 16-bit samples are scaled to 8 bits; interlaced files are supported.
// JPEG: gray (1 channel) or colour (3 channels, RGB); CMYK and YCCK files are converted to RGB.
image<std::uint8_t> load_image(const std::string& path);

// Decodes a PNG or JPEG file that is already in memory (what load_image does once it has read
// the file): the same formats, checks and guarantees, errors reading "pk::decode_image: <reason>".
// max_pixels can lower the pixel limit, e.g. for untrusted uploads (1..max_image_pixels).
image<std::uint8_t> decode_image(span<const std::uint8_t> bytes, std::int64_t max_pixels = max_image_pixels);

// Writes `img` (1..4 channels) as PNG or JPEG, chosen by the extension of `path`: .png, or .jpg /
// .jpeg (any letter case); any other extension throws pk::error. JPEG stores no alpha, so a
// gray+alpha image is written as gray and an RGBA one as RGB. jpeg_quality is 1..100.
// On failure nothing is left behind at `path`.
void save_image(const std::string& path, const image<std::uint8_t>& img, int jpeg_quality = 95);

// 8-bit pixels as float, same scale (0..255), so that a float filter result converts back with to_u8.
image<float> to_float(const image<std::uint8_t>& img);

// Float pixels to 8 bits: rounded to nearest, saturated to 0..255 (NaN becomes 0).
image<std::uint8_t> to_u8(const image<float>& img);

// One channel of luma Y = 0.299 R + 0.587 G + 0.114 B (ITU-R BT.601, as OpenCV's cvtColor).
// Gray images are returned as they are; alpha (channel 2 of 2, or 4 of 4) is dropped.
// The 8-bit version rounds to nearest.
image<std::uint8_t> to_gray(const image<std::uint8_t>& img);
image<float> to_gray(const image<float>& img);

}  // namespace pk
