// libFuzzer target: any bytes into pk::decode_image. The only acceptable outcomes are a complete,
// consistent image or a pk::error; anything else (a crash, a sanitizer report, a leak, another
// exception escaping, an inconsistent image) stops the fuzzer with the input that caused it.
#include <pk/error.hpp>
#include <pk/image_io.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

// 2^20 pixels instead of load_image's 2^28: every header within the limit is decoded (allocated,
// read, converted), so a smaller limit keeps each input to milliseconds. The limit check itself is
// the same code at any value (tests/test_image_decode.cpp tries both).
constexpr std::int64_t fuzz_max_pixels = std::int64_t(1) << 20;

[[noreturn]] void inconsistent(const pk::image<std::uint8_t>& img) {
  std::fprintf(stderr, "decode_image returned an inconsistent image: %d x %d x %d with %zu values\n", img.height,
               img.width, img.channels, img.pixels.size());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto img = pk::decode_image(pk::span<const std::uint8_t>(data, size), fuzz_max_pixels);
    const bool ok = img.height > 0 && img.width > 0 && img.channels >= 1 && img.channels <= 4 &&
                    std::int64_t(img.height) * img.width <= fuzz_max_pixels &&
                    img.pixels.size() == std::size_t(img.height) * std::size_t(img.width) * std::size_t(img.channels);
    if (!ok) inconsistent(img);
  } catch (const pk::error&) {
    // the expected answer to a broken file
  }
  return 0;
}
