// Uses the installed (or add_subdirectory'd) library: c = a + b on every backend, checked; and,
// when the package has image I/O, a PNG written and read back.
#include <pk/add.hpp>
#include <pk/runtime.hpp>
#ifdef PK_CONSUMER_IMAGE_IO
#include <pk/image_io.hpp>
#endif

#include <cstdio>
#include <vector>

int main() {
  pk::runtime kokkos;
  std::vector<float> a(1000), b(1000), c(1000, -1.f);
  for (int i = 0; i < 1000; ++i) a[i] = 0.5f * i, b[i] = 2.0f - i;
  for (pk::backend on : pk::available_backends()) {
    pk::add(on, a, b, c);
    for (int i = 0; i < 1000; ++i)
      if (c[i] != a[i] + b[i]) {
        std::printf("consumer: wrong sum at %d on %s\n", i, pk::to_string(on));
        return 1;
      }
    std::printf("consumer: add ok on %s\n", pk::to_string(on));
  }
#ifdef PK_CONSUMER_IMAGE_IO
  pk::image<std::uint8_t> img(3, 5, 1);
  for (std::size_t i = 0; i < img.pixels.size(); ++i) img.pixels[i] = static_cast<std::uint8_t>(17 * i);
  pk::save_image("consumer.png", img);
  if (pk::load_image("consumer.png").pixels != img.pixels) {
    std::printf("consumer: PNG round trip differs\n");
    return 1;
  }
  std::printf("consumer: image_io ok\n");
#endif
  return 0;
}
