// Image I/O: PNG and JPEG round trips, every PNG layout decoded to 8 bits, and every kind of
// broken file answered with a pk::error naming the file and the reason (never a crash).
#include <pk/error.hpp>
#include <pk/image_io.hpp>

#include <cmath>
#include <cstdio>
#include <sys/stat.h>

#include "png_craft.hpp"
#include "test_support.hpp"

namespace {

using pk_test::bytes;

pk::image<std::uint8_t> random_image(int h, int w, int c) {
  pk::image<std::uint8_t> img(h, w, c);
  img.pixels = pk_test::random_bytes(img.pixels.size());
  return img;
}

// Smooth content with a little noise, as photographs are: what JPEG is made for.
pk::image<std::uint8_t> smooth_image(int h, int w, int c) {
  pk::image<std::uint8_t> img(h, w, c);
  auto noise = pk_test::random_vector<double>(img.pixels.size(), -3, 3);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int k = 0; k < c; ++k) {
        const double v = 128 + 90 * std::sin(x / (7.0 + k)) * std::cos(y / (9.0 - k)) + noise[(y * w + x) * c + k];
        img.at(y, x, k) = static_cast<std::uint8_t>(std::lround(std::fmin(255, std::fmax(0, v))));
      }
  return img;
}

std::string work_path(const std::string& name) { return std::string(PK_TEST_WORK_DIR) + "/" + name; }

bool exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

// load_image must throw pk::error whose message names the file and says why.
void check_load_fails(const std::string& path, const std::string& reason) {
  CAPTURE(path);
  CAPTURE(reason);
  bool threw = false;
  try {
    (void)pk::load_image(path);
  } catch (const pk::error& e) {
    threw = true;
    const std::string what = e.what();
    CAPTURE(what);
    CHECK(what.find("pk::load_image: '" + path + "'") != std::string::npos);
    CHECK(what.find(reason) != std::string::npos);
  }
  CHECK(threw);
}

pk_test::png_parts gray8_parts(std::uint32_t w, std::uint32_t h) {
  pk_test::png_parts p;
  p.width = w, p.height = h, p.depth = 8, p.color_type = 0;
  p.rows = pk_test::random_bytes(std::size_t(w) * h);
  return p;
}

}  // namespace

TEST_CASE("PNG round trip is exact for 1, 2, 3 and 4 channels") {
  CAPTURE(pk_test::seed());
  for (int c = 1; c <= 4; ++c)
    for (auto [h, w] : {std::pair{1, 1}, std::pair{37, 53}, std::pair{64, 3}}) {
      CAPTURE(c);
      CAPTURE(h);
      CAPTURE(w);
      const auto img = random_image(h, w, c);
      const std::string path = work_path("roundtrip_" + std::to_string(c) + ".png");
      pk::save_image(path, img);
      const auto back = pk::load_image(path);
      CHECK(back.height == h);
      CHECK(back.width == w);
      CHECK(back.channels == c);
      CHECK(back.pixels == img.pixels);
    }
}

TEST_CASE("JPEG round trip of gray and RGB images stays within JPEG's loss") {
  // Stated tolerance, at quality 95 on smooth content with +-3 levels of noise: mean absolute
  // error <= 2.5 levels and no value off by more than 24 (seen here: gray 1.05 / 5, RGB 1.73 / 13;
  // RGB loses more to 4:2:0 chroma subsampling).
  CAPTURE(pk_test::seed());
  for (int c : {1, 3}) {
    CAPTURE(c);
    const auto img = smooth_image(75, 101, c);
    const std::string path = work_path(c == 1 ? "roundtrip_gray.jpg" : "roundtrip_rgb.JPEG");
    pk::save_image(path, img, 95);
    const auto back = pk::load_image(path);
    REQUIRE(back.height == img.height);
    REQUIRE(back.width == img.width);
    REQUIRE(back.channels == c);
    double sum = 0, worst = 0;
    for (std::size_t i = 0; i < img.pixels.size(); ++i) {
      const double d = std::abs(double(back.pixels[i]) - double(img.pixels[i]));
      sum += d, worst = std::fmax(worst, d);
    }
    CHECK(sum / img.pixels.size() <= 2.5);
    CHECK(worst <= 24);
  }
}

TEST_CASE("JPEG stores no alpha: RGBA is written as RGB, gray+alpha as gray") {
  for (int c : {2, 4}) {
    const auto img = smooth_image(16, 24, c);
    const std::string path = work_path("alpha.jpg");
    pk::save_image(path, img);
    const auto back = pk::load_image(path);
    CHECK(back.channels == c - 1);
    CHECK(back.height == 16);
    CHECK(back.width == 24);
  }
}

TEST_CASE("every PNG bit depth and colour type decodes to 8 bits per channel") {
  CAPTURE(pk_test::seed());
  const std::uint32_t w = 13, h = 5;  // odd width: rows of 1/2/4-bit samples end in padding
  std::uniform_int_distribution<std::uint32_t> any(0, 65535);
  struct layout {
    int color_type, channels;
  };
  for (layout l : {layout{0, 1}, layout{4, 2}, layout{2, 3}, layout{6, 4}})
    for (int depth : {1, 2, 4, 8, 16}) {
      if (l.color_type != 0 && depth < 8) continue;  // PNG allows low depths for gray only
      CAPTURE(l.color_type);
      CAPTURE(depth);
      const std::uint32_t top = (1u << depth) - 1;
      std::vector<std::uint32_t> samples(std::size_t(w) * h * l.channels);
      for (auto& s : samples) s = any(pk_test::rng()) & top;
      pk_test::png_parts p;
      p.width = w, p.height = h, p.depth = depth, p.color_type = l.color_type;
      p.rows = pk_test::pack_rows(samples, w * l.channels, h, depth);
      const std::string path = pk_test::write_file("layout.png", pk_test::png_file(p));
      const auto img = pk::load_image(path);
      REQUIRE(img.channels == l.channels);
      REQUIRE(img.height == int(h));
      REQUIRE(img.width == int(w));
      std::vector<std::uint8_t> expected(samples.size());
      for (std::size_t i = 0; i < samples.size(); ++i)  // full scale maps to 255, rounded
        expected[i] = static_cast<std::uint8_t>(std::lround(samples[i] * 255.0 / top));
      CHECK(img.pixels == expected);
    }
}

TEST_CASE("palette PNGs expand to RGB, or RGBA when tRNS gives transparency; gray tRNS gives alpha") {
  CAPTURE(pk_test::seed());
  const std::uint32_t w = 9, h = 4, entries = 10;
  const bytes palette = pk_test::random_bytes(entries * 3), alpha = pk_test::random_bytes(6);
  std::uniform_int_distribution<std::uint32_t> index(0, entries - 1);
  for (int depth : {4, 8})
    for (bool transparent : {false, true}) {
      CAPTURE(depth);
      CAPTURE(transparent);
      std::vector<std::uint32_t> idx(std::size_t(w) * h);
      for (auto& i : idx) i = index(pk_test::rng());
      pk_test::png_parts p;
      p.width = w, p.height = h, p.depth = depth, p.color_type = 3;
      p.rows = pk_test::pack_rows(idx, w, h, depth);
      p.palette = palette;
      if (transparent) p.transparency = alpha;  // entries past its end are opaque
      const auto img = pk::load_image(pk_test::write_file("palette.png", pk_test::png_file(p)));
      const int c = transparent ? 4 : 3;
      REQUIRE(img.channels == c);
      std::vector<std::uint8_t> expected;
      for (std::uint32_t i : idx) {
        for (int k = 0; k < 3; ++k) expected.push_back(palette[i * 3 + k]);
        if (transparent) expected.push_back(i < alpha.size() ? alpha[i] : 255);
      }
      CHECK(img.pixels == expected);
    }
  pk_test::png_parts g = gray8_parts(w, h);
  const std::uint8_t clear = g.rows[3];
  g.transparency = {0, clear};  // the one gray value that is transparent
  const auto img = pk::load_image(pk_test::write_file("gray_trns.png", pk_test::png_file(g)));
  REQUIRE(img.channels == 2);
  for (std::size_t p = 0; p < g.rows.size(); ++p) {
    CHECK(img.pixels[2 * p] == g.rows[p]);
    CHECK(img.pixels[2 * p + 1] == (g.rows[p] == clear ? 0 : 255));
  }
}

TEST_CASE("files that are missing, empty, not images or not readable give pk::error") {
  check_load_fails(work_path("no_such_file.png"), "cannot open the file: No such file or directory");
  check_load_fails(std::string(PK_TEST_WORK_DIR), "cannot read the file");  // a directory
  check_load_fails(pk_test::write_file("empty.png", {}), "the file is empty");
  const std::string text = "This is a text file, not a picture.\n";
  check_load_fails(pk_test::write_file("text.png", bytes(text.begin(), text.end())), "not a PNG or JPEG file");
  check_load_fails(pk_test::write_file("text.jpg", bytes(text.begin(), text.end())), "not a PNG or JPEG file");
}

TEST_CASE("truncated and corrupt PNG files give pk::error") {
  const bytes good = pk_test::png_file(gray8_parts(40, 30));
  REQUIRE_NOTHROW(pk::load_image(pk_test::write_file("good.png", good)));
  // Cut: after the signature, inside IHDR, inside the image data, just before IEND.
  for (std::size_t keep : {std::size_t(8), std::size_t(20), good.size() / 2, good.size() - 12}) {
    CAPTURE(keep);
    check_load_fails(pk_test::write_file("truncated.png", bytes(good.begin(), good.begin() + keep)), "PNG file: ");
  }
  bytes bad_crc = good;
  bad_crc[8 + 8 + 13] ^= 0x01;  // the IHDR CRC (signature, length + type, 13 data bytes)
  check_load_fails(pk_test::write_file("bad_crc.png", bad_crc), "CRC error");

  // A damaged zlib stream inside IDAT whose chunk CRC is right (so zlib, not the CRC, finds it).
  auto with_idat = [](const bytes& zdata) {
    bytes out{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    pk_test::put_chunk(out, "IHDR", pk_test::ihdr(40, 30, 8, 0));
    pk_test::put_chunk(out, "IDAT", zdata);
    pk_test::put_chunk(out, "IEND", {});
    return out;
  };
  bytes raw(31 * 30, 0);
  bytes z = pk_test::zlib_stored(raw);
  z[z.size() - 1] ^= 0xff;  // wrong Adler-32
  check_load_fails(pk_test::write_file("bad_adler.png", with_idat(z)), "corrupt PNG file: ");
  z = pk_test::zlib_stored(raw);
  z[5] ^= 0xff;  // stored block length no longer matches its complement
  check_load_fails(pk_test::write_file("bad_zlib.png", with_idat(z)), "corrupt PNG file: ");
  bytes short_data(31 * 29, 0);  // one row missing
  check_load_fails(pk_test::write_file("short_idat.png", with_idat(pk_test::zlib_stored(short_data))),
                   "corrupt PNG file: ");
}

TEST_CASE("PNG headers announcing huge or empty images are refused before any allocation") {
  auto header_only = [](std::uint32_t w, std::uint32_t h) {
    bytes out{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    pk_test::put_chunk(out, "IHDR", pk_test::ihdr(w, h, 8, 6));  // valid CRC: only the size is wrong
    pk_test::put_chunk(out, "IDAT", pk_test::zlib_stored(bytes(64, 0)));
    pk_test::put_chunk(out, "IEND", {});
    return out;
  };
  // 60000 x 60000 RGBA would be 14 GB: within each side's limit, not within the pixel count.
  check_load_fails(pk_test::write_file("huge.png", header_only(60000, 60000)),
                   "the PNG header announces 60000x60000 pixels, more than the limit");
  check_load_fails(pk_test::write_file("wide.png", header_only(70000, 2)), "Image width exceeds user limit");
  check_load_fails(pk_test::write_file("zero.png", header_only(0, 5)), "Image width is zero");
  check_load_fails(pk_test::write_file("giant.png", header_only(0x7fffffffu, 0x7fffffffu)), "not a valid PNG file");
}

TEST_CASE("truncated, corrupt and huge JPEG files give pk::error") {
  const std::string good_path = work_path("good.jpg");
  pk::save_image(good_path, smooth_image(64, 48, 3));
  const bytes good = pk_test::read_file(good_path);
  REQUIRE(good.size() > 600);
  for (std::size_t keep : {std::size_t(3), std::size_t(40), good.size() / 2, good.size() - 2}) {
    CAPTURE(keep);
    check_load_fails(pk_test::write_file("truncated.jpg", bytes(good.begin(), good.begin() + keep)), "JPEG file: ");
  }
  bytes garbage{0xff, 0xd8, 0xff};
  const bytes noise = pk_test::random_bytes(500);
  garbage.insert(garbage.end(), noise.begin(), noise.end());
  check_load_fails(pk_test::write_file("garbage.jpg", garbage), "JPEG file: ");

  // A baseline header for a 60000 x 60000 gray image: SOI, DQT, SOF0, SOS, a little data, EOI.
  bytes huge{0xff, 0xd8, 0xff, 0xdb, 0x00, 0x43, 0x00};
  huge.insert(huge.end(), 64, 1);
  const bytes sof{0xff, 0xc0, 0x00, 0x0b, 0x08, 0xea, 0x60, 0xea, 0x60, 0x01, 0x01, 0x11, 0x00};
  const bytes sos{0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00, 0x12, 0x34, 0xff, 0xd9};
  huge.insert(huge.end(), sof.begin(), sof.end());
  huge.insert(huge.end(), sos.begin(), sos.end());
  check_load_fails(pk_test::write_file("huge.jpg", huge),
                   "the JPEG header announces 60000x60000 pixels, more than the limit");
}

TEST_CASE("save_image picks the format by extension and refuses anything else") {
  const auto img = random_image(8, 8, 3);
  for (const char* name : {"upper.PNG", "mixed.JpEg", "short.JPG"}) {
    CAPTURE(name);
    CHECK_NOTHROW(pk::save_image(work_path(name), img));
    CHECK(pk::load_image(work_path(name)).width == 8);
  }
  const bytes png_signature{0x89, 'P', 'N', 'G'};
  const bytes written = pk_test::read_file(work_path("upper.PNG"));
  CHECK(bytes(written.begin(), written.begin() + 4) == png_signature);
  for (const char* name : {"picture.bmp", "no_extension", "dir.png/picture", "picture.png.txt"}) {
    CAPTURE(name);
    const std::string path = work_path(name);
    CHECK_THROWS_WITH_AS(pk::save_image(path, img), doctest::Contains("unknown image file extension"), pk::error);
    CHECK(!exists(path));
  }
  CHECK_THROWS_WITH_AS(pk::save_image(work_path("no_such_dir/x.png"), img), doctest::Contains("cannot create the file"),
                       pk::error);
  pk::image<std::uint8_t> five(4, 4, 5), wrong(4, 4, 3);
  wrong.pixels.pop_back();
  CHECK_THROWS_WITH_AS(pk::save_image(work_path("five.png"), five), doctest::Contains("expected 1..4"), pk::error);
  CHECK_THROWS_WITH_AS(pk::save_image(work_path("wrong.png"), wrong), doctest::Contains("expected 48"), pk::error);
  CHECK_THROWS_WITH_AS(pk::save_image(work_path("q.jpg"), img, 0), doctest::Contains("jpeg_quality"), pk::error);
  CHECK(!exists(work_path("five.png")));
}

TEST_CASE("to_float, to_u8 and to_gray") {
  CAPTURE(pk_test::seed());
  const auto img = random_image(7, 11, 3);
  const auto f = pk::to_float(img);
  for (std::size_t i = 0; i < img.pixels.size(); ++i) REQUIRE(f.pixels[i] == float(img.pixels[i]));
  CHECK(pk::to_u8(f).pixels == img.pixels);

  pk::image<float> edge(1, 7, 1);
  edge.pixels = {-5.f, 0.4f, 2.5f, 254.6f, 300.f, std::nanf(""), 127.49f};
  CHECK(pk::to_u8(edge).pixels == std::vector<std::uint8_t>{0, 0, 3, 255, 255, 0, 127});

  // Gray from RGB and RGBA against BT.601 in float64 (8-bit: rounded to nearest).
  for (int c : {3, 4}) {
    const auto rgb = random_image(5, 9, c);
    const auto g8 = pk::to_gray(rgb);
    const auto gf = pk::to_gray(pk::to_float(rgb));
    REQUIRE(g8.channels == 1);
    REQUIRE(gf.channels == 1);
    for (int y = 0; y < 5; ++y)
      for (int x = 0; x < 9; ++x) {
        const double ref = 0.299 * rgb.at(y, x, 0) + 0.587 * rgb.at(y, x, 1) + 0.114 * rgb.at(y, x, 2);
        CHECK(std::abs(gf.at(y, x, 0) - ref) <= 1e-4);
        CHECK(std::abs(double(g8.at(y, x, 0)) - ref) <= 0.5 + 1e-9);
      }
  }
  const auto ga = random_image(3, 3, 2);
  const auto g = pk::to_gray(ga);
  for (int p = 0; p < 9; ++p) CHECK(g.pixels[p] == ga.pixels[2 * p]);
  CHECK(pk::to_gray(g).pixels == g.pixels);
  pk::image<float> broken(2, 2, 1);
  broken.pixels.resize(3);
  CHECK_THROWS_AS(pk::to_u8(broken), pk::error);
}
