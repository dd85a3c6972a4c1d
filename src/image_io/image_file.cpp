// load_image / decode_image / save_image: reading the whole file, recognizing the format by its first bytes,
// choosing the format to write by the file name, and leaving no half-written file behind.
#include <pk/image_io.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "image_io/image_codecs.hpp"

namespace pk {
namespace {

using file_ptr = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

// No image load_image accepts needs more: 2^28 pixels of 16-bit RGBA stored uncompressed is 2 GiB.
constexpr std::size_t max_file_bytes = std::size_t(1) << 31;

std::vector<unsigned char> read_whole_file(const char* who, const std::string& path) {
  file_ptr file(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!file) detail::image_fail(who, path, "cannot open the file: ", std::strerror(errno));
  std::vector<unsigned char> bytes;
  unsigned char chunk[1 << 16];
  for (;;) {
    const std::size_t got = std::fread(chunk, 1, sizeof chunk, file.get());
    bytes.insert(bytes.end(), chunk, chunk + got);
    if (bytes.size() > max_file_bytes) detail::image_fail(who, path, "the file is larger than 2 GiB");
    if (got < sizeof chunk) break;
  }
  if (std::ferror(file.get())) detail::image_fail(who, path, "cannot read the file: ", std::strerror(errno));
  return bytes;
}

enum class image_format { png, jpeg };

image_format format_for_name(const char* who, const std::string& path) {
  const auto dot = path.find_last_of('.');
  const auto slash = path.find_last_of('/');
  std::string ext = dot == std::string::npos || (slash != std::string::npos && dot < slash) ? "" : path.substr(dot);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (ext == ".png") return image_format::png;
  if (ext == ".jpg" || ext == ".jpeg") return image_format::jpeg;
  detail::image_fail(who, path, "unknown image file extension '", ext, "' (expected .png, .jpg or .jpeg)");
}

// The format is recognized by its first bytes, never by a name.
image<std::uint8_t> decode(const detail::encoded_image& in, const char* empty, const char* unknown) {
  const unsigned char png_signature[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  const unsigned char jpeg_signature[] = {0xff, 0xd8, 0xff};
  const auto starts_with = [&in](const unsigned char* magic, std::size_t n) {
    return in.size >= n && std::memcmp(in.data, magic, n) == 0;
  };
  try {
    if (starts_with(png_signature, sizeof png_signature)) return detail::decode_png(in);
    if (starts_with(jpeg_signature, sizeof jpeg_signature)) return detail::decode_jpeg(in);
  } catch (const std::bad_alloc&) {
    detail::decode_fail(in, "out of memory");
  }
  if (in.size == 0) detail::decode_fail(in, empty);
  detail::decode_fail(in, unknown);
}

}  // namespace

image<std::uint8_t> load_image(const std::string& path) {
  const char* who = "pk::load_image";
  std::vector<unsigned char> bytes;
  try {
    bytes = read_whole_file(who, path);
  } catch (const std::bad_alloc&) {
    detail::image_fail(who, path, "out of memory");
  }
  return decode({who, "'" + path + "': ", bytes.data(), bytes.size(), max_image_pixels}, "the file is empty",
                "not a PNG or JPEG file (its first bytes are neither signature)");
}

image<std::uint8_t> decode_image(span<const std::uint8_t> bytes, std::int64_t max_pixels) {
  const char* who = "pk::decode_image";
  if (max_pixels < 1 || max_pixels > max_image_pixels)
    detail::fail(who, "max_pixels is ", max_pixels, ", expected 1..", max_image_pixels, " (max_image_pixels)");
  if (bytes.data() == nullptr && !bytes.empty()) detail::fail(who, "the data is null with ", bytes.size(), " bytes");
  return decode({who, "", bytes.data(), bytes.size(), max_pixels}, "there are no bytes to decode",
                "not PNG or JPEG data (its first bytes are neither signature)");
}

void save_image(const std::string& path, const image<std::uint8_t>& img, int jpeg_quality) {
  const char* who = "pk::save_image";
  const image_format format = format_for_name(who, path);
  if (img.height <= 0 || img.width <= 0 || img.height > max_image_side || img.width > max_image_side)
    detail::image_fail(who, path, "the image is ", img.height, "x", img.width, ", expected sides of 1..",
                       max_image_side);
  if (img.channels < 1 || img.channels > 4)
    detail::image_fail(who, path, "the image has ", img.channels, " channels, expected 1..4");
  const std::size_t expected = std::size_t(img.height) * std::size_t(img.width) * std::size_t(img.channels);
  if (img.pixels.size() != expected)
    detail::image_fail(who, path, "the image has ", img.pixels.size(), " pixel values, expected ", expected,
                       " (height x width x channels)");
  if (format == image_format::jpeg && (jpeg_quality < 1 || jpeg_quality > 100))
    detail::image_fail(who, path, "jpeg_quality is ", jpeg_quality, ", expected 1..100");

  // JPEG has no alpha channel: drop it (gray+alpha -> gray, RGBA -> RGB).
  const std::uint8_t* pixels = img.pixels.data();
  int channels = img.channels;
  std::vector<std::uint8_t> without_alpha;
  if (format == image_format::jpeg && (channels == 2 || channels == 4)) {
    const int kept = channels - 1;
    without_alpha.resize(std::size_t(img.height) * std::size_t(img.width) * std::size_t(kept));
    for (std::size_t p = 0, n = std::size_t(img.height) * std::size_t(img.width); p < n; ++p)
      for (int c = 0; c < kept; ++c) without_alpha[p * kept + c] = img.pixels[p * channels + c];
    pixels = without_alpha.data();
    channels = kept;
  }

  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) detail::image_fail(who, path, "cannot create the file: ", std::strerror(errno));
  char message[detail::codec_message_size] = "";
  bool ok = format == image_format::png
                ? detail::encode_png(file, pixels, img.height, img.width, channels, message)
                : detail::encode_jpeg(file, pixels, img.height, img.width, channels, jpeg_quality, message);
  if (std::fclose(file) != 0 && ok) {
    ok = false;
    std::snprintf(message, sizeof message, "cannot finish writing the file: %s", std::strerror(errno));
  }
  if (!ok) {
    std::remove(path.c_str());  // no truncated image left behind
    detail::image_fail(who, path, "cannot write the image: ", message);
  }
}

}  // namespace pk
