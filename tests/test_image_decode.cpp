// Decoding from memory (pk::decode_image), and images that are not what they claim: every answer
// is a complete image or a pk::error, never a crash, a partial image or a leak (the asan preset
// runs this suite under AddressSanitizer, LeakSanitizer and UBSan).
#include <pk/error.hpp>
#include <pk/image_io.hpp>

#include <cmath>
#include <string>

#include "png_craft.hpp"
#include "test_support.hpp"

using doctest::Contains;
using pk_test::bytes;

namespace {

pk_test::png_parts gray8_parts(std::uint32_t w, std::uint32_t h) {
  pk_test::png_parts p;
  p.width = w, p.height = h, p.depth = 8, p.color_type = 0;
  p.rows = pk_test::random_bytes(std::size_t(w) * h);
  return p;
}

// A real JPEG from the library's own encoder (smooth content, as JPEG is made for).
bytes jpeg_bytes(int h, int w, int c, int quality = 90) {
  pk::image<std::uint8_t> img(h, w, c);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int k = 0; k < c; ++k) img.at(y, x, k) = std::uint8_t(128 + 100 * std::sin(x * 0.2 + k) * std::cos(y * 0.15));
  const std::string path = std::string(PK_TEST_WORK_DIR) + "/decode_source.jpg";
  pk::save_image(path, img, quality);
  return pk_test::read_file(path);
}

// The bytes of a string literal, embedded zeros included (not its terminating zero).
template <std::size_t N>
bytes literal(const char (&s)[N]) {
  return bytes(s, s + N - 1);
}

// decode_image must throw pk::error "pk::decode_image: <reason>" with this reason in it.
void check_decode_fails(const bytes& data, const std::string& reason, std::int64_t max_pixels = pk::max_image_pixels) {
  CAPTURE(reason);
  bool threw = false;
  try {
    (void)pk::decode_image(data, max_pixels);
  } catch (const pk::error& e) {
    threw = true;
    const std::string what = e.what();
    CAPTURE(what);
    CHECK(what.rfind("pk::decode_image: ", 0) == 0);
    CHECK(what.find(reason) != std::string::npos);
  }
  CHECK(threw);
}

// Damaged data either decodes to a complete, consistent image or throws pk::error; JPEG has no
// checksum, so a flipped bit can give other pixels, but never a crash or a short image.
bool complete_or_error(const bytes& data) {
  try {
    const auto img = pk::decode_image(data);
    return img.height > 0 && img.width > 0 && img.channels >= 1 && img.channels <= 4 &&
           img.pixels.size() == std::size_t(img.height) * img.width * img.channels;
  } catch (const pk::error&) {
    return true;
  }
}

}  // namespace

TEST_CASE("decode_image decodes what load_image reads, from memory") {
  const auto p = gray8_parts(40, 30);
  const bytes png = pk_test::png_file(p);
  const auto from_memory = pk::decode_image(png);
  CHECK(from_memory.height == 30);
  CHECK(from_memory.width == 40);
  CHECK(from_memory.channels == 1);
  CHECK(from_memory.pixels == p.rows);
  CHECK(pk::load_image(pk_test::write_file("decode.png", png)).pixels == from_memory.pixels);

  const bytes jpeg = jpeg_bytes(33, 47, 3);
  const auto jpeg_image = pk::decode_image(jpeg);
  CHECK(jpeg_image.channels == 3);
  CHECK(jpeg_image.width == 47);
  CHECK(pk::load_image(pk_test::write_file("decode.jpg", jpeg)).pixels == jpeg_image.pixels);
  // The format is the content's: a PNG named .jpg is a PNG.
  CHECK(pk::load_image(pk_test::write_file("png_named.jpg", png)).pixels == p.rows);
}

TEST_CASE("decode_image refuses empty, null and unknown data, and a max_pixels out of range") {
  check_decode_fails({}, "there are no bytes to decode");
  CHECK_THROWS_WITH_AS(pk::decode_image(pk::span<const std::uint8_t>(nullptr, 10)),
                       "pk::decode_image: the data is null with 10 bytes", pk::error);
  CHECK_THROWS_WITH_AS(pk::decode_image(pk::span<const std::uint8_t>(nullptr, 0)),
                       "pk::decode_image: there are no bytes to decode", pk::error);
  const bytes png = pk_test::png_file(gray8_parts(4, 4));
  for (std::int64_t bad : {std::int64_t(0), std::int64_t(-1), pk::max_image_pixels + 1}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(pk::decode_image(png, bad), Contains("pk::decode_image: max_pixels is "), pk::error);
  }
  // A lowered limit is applied to the header, before the pixels are allocated.
  check_decode_fails(pk_test::png_file(gray8_parts(40, 30)), "the PNG header announces 40x30 pixels, more than the limit (1000 pixels",
                     1000);
  check_decode_fails(jpeg_bytes(30, 40, 1), "the JPEG header announces 40x30 pixels, more than the limit (1199 pixels", 1199);
  CHECK(pk::decode_image(jpeg_bytes(30, 40, 1), 1200).height == 30);
}

TEST_CASE("other formats, and files that start as one format and continue as another, are refused") {
  const std::string unknown = "not PNG or JPEG data (its first bytes are neither signature)";
  check_decode_fails(literal("GIF89a\x01\x00\x01\x00\x80\x00\x00"), unknown);
  check_decode_fails(literal("BM\x3e\x00\x00\x00\x00\x00\x00\x00"), unknown);
  check_decode_fails(literal("RIFF\x24\x00\x00\x00WEBPVP8 "), unknown);
  check_decode_fails(literal("II*\x00\x08\x00\x00\x00"), unknown);
  check_decode_fails({0x89, 'P', 'N', 'G'}, unknown);  // a signature cut short
  check_decode_fails({0xff, 0xd8}, unknown);
  // A PNG signature followed by a JPEG, and a JPEG's SOI followed by a PNG.
  const bytes png = pk_test::png_file(gray8_parts(8, 8)), jpeg = jpeg_bytes(8, 8, 3);
  bytes png_then_jpeg(png.begin(), png.begin() + 8);
  png_then_jpeg.insert(png_then_jpeg.end(), jpeg.begin(), jpeg.end());
  check_decode_fails(png_then_jpeg, "not a valid PNG file: ");
  bytes jpeg_then_png(jpeg.begin(), jpeg.begin() + 3);
  jpeg_then_png.insert(jpeg_then_png.end(), png.begin(), png.end());
  check_decode_fails(jpeg_then_png, "not a valid JPEG file: ");
}

TEST_CASE("PNG headers that no PNG may have are refused") {
  struct header {
    int depth, color_type;
  };
  // Bit depths a colour type does not allow, colour types that do not exist, a palette image without PLTE.
  for (header h : {header{4, 2}, header{16, 3}, header{3, 0}, header{8, 1}, header{8, 5}, header{8, 7}, header{1, 6},
                   header{8, 3}}) {
    CAPTURE(h.depth);
    CAPTURE(h.color_type);
    pk_test::png_parts p;
    p.width = 4, p.height = 4, p.depth = h.depth, p.color_type = h.color_type;
    p.rows = bytes(4 * 4 * 8, 0);
    bool threw = false;
    try {
      (void)pk::decode_image(pk_test::png_file(p));
    } catch (const pk::error& e) {
      threw = true;
      const std::string what = e.what();
      CAPTURE(what);
      CHECK((what.find("not a valid PNG file") != std::string::npos || what.find("corrupt PNG file") != std::string::npos));
    }
    CHECK(threw);
  }
}

TEST_CASE("JPEG layouts that load_image does not support are refused") {
  const bytes good = jpeg_bytes(16, 16, 3);
  // The SOF0 marker (ff c0), then length (2 bytes), then the sample precision.
  std::size_t sof = 0;
  for (std::size_t i = 2; i + 1 < good.size(); ++i)
    if (good[i] == 0xff && good[i + 1] == 0xc0) {
      sof = i;
      break;
    }
  REQUIRE(sof > 0);
  bytes twelve_bit = good;
  twelve_bit[sof + 4] = 12;
  check_decode_fails(twelve_bit, "Unsupported JPEG data precision 12");
  bytes zero_height = good;
  zero_height[sof + 5] = 0, zero_height[sof + 6] = 0;
  check_decode_fails(zero_height, "not a valid JPEG file: ");
  bytes no_components = good;
  no_components[sof + 9] = 0;
  check_decode_fails(no_components, "not a valid JPEG file: ");
}

TEST_CASE("every truncation and every flipped byte of small PNG and JPEG files: an image or a pk::error") {
  CAPTURE(pk_test::seed());
  pk_test::png_parts rgba;
  rgba.width = 7, rgba.height = 5, rgba.depth = 8, rgba.color_type = 6;
  rgba.rows = pk_test::random_bytes(7 * 5 * 4);
  for (const bytes& good : {pk_test::png_file(gray8_parts(9, 6)), pk_test::png_file(rgba), jpeg_bytes(12, 10, 1),
                            jpeg_bytes(9, 17, 3, 50)}) {
    CAPTURE(good.size());
    REQUIRE_NOTHROW(pk::decode_image(good));
    int failed = 0;
    for (std::size_t keep = 0; keep < good.size(); ++keep) {
      const bytes cut(good.begin(), good.begin() + keep);
      CHECK_THROWS_AS(pk::decode_image(cut), pk::error);  // a prefix is never a whole image
    }
    for (std::size_t i = 0; i < good.size(); ++i) {
      bytes flipped = good;
      flipped[i] ^= static_cast<std::uint8_t>(1u << (i % 8));
      failed += !complete_or_error(flipped);
    }
    CHECK(failed == 0);
  }
}
