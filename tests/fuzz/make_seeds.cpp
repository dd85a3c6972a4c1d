// make_seeds DIR: writes the fuzzer's seed corpus, small valid images of every layout the decoder
// handles: PNG of every colour type and bit depth (hand-made, tests/png_craft.hpp, and compressed
// by pk::save_image), JPEG baseline, progressive, arithmetic-coded, with restart markers, 4:4:4,
// gray, CMYK and YCCK (through libjpeg's encoder).
#include <pk/image_io.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <jpeglib.h>

#include "png_craft.hpp"

namespace {

using pk_test::bytes;

std::string dir;
int count = 0;

void put(const std::string& ext, const bytes& b) {
  const std::string path = dir + "/seed_" + std::to_string(count++) + ext;
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

std::uint8_t sample(int x, int y, int c) { return std::uint8_t(128 + 100 * std::sin(0.3 * x + c) * std::cos(0.2 * y)); }

struct jpeg_options {
  int w = 16, h = 12, components = 3;
  J_COLOR_SPACE in = JCS_RGB, stored = JCS_YCbCr;
  bool progressive = false, arithmetic = false, full_chroma = false;
  int restart_rows = 0, quality = 75;
};

bytes jpeg(const jpeg_options& o) {
  jpeg_compress_struct c{};
  jpeg_error_mgr err{};
  c.err = jpeg_std_error(&err);
  jpeg_create_compress(&c);
  unsigned char* out = nullptr;
  unsigned long size = 0;
  jpeg_mem_dest(&c, &out, &size);
  c.image_width = JDIMENSION(o.w);
  c.image_height = JDIMENSION(o.h);
  c.input_components = o.components;
  c.in_color_space = o.in;
  jpeg_set_defaults(&c);
  jpeg_set_colorspace(&c, o.stored);
  jpeg_set_quality(&c, o.quality, TRUE);
  if (o.progressive) jpeg_simple_progression(&c);
  c.arith_code = o.arithmetic ? TRUE : FALSE;
  c.restart_in_rows = o.restart_rows;
  if (o.full_chroma) c.comp_info[0].h_samp_factor = c.comp_info[0].v_samp_factor = 1;
  jpeg_start_compress(&c, TRUE);
  std::vector<JSAMPLE> row(std::size_t(o.w) * o.components);
  while (c.next_scanline < c.image_height) {
    for (int x = 0; x < o.w; ++x)
      for (int k = 0; k < o.components; ++k) row[std::size_t(x) * o.components + k] = sample(x, int(c.next_scanline), k);
    JSAMPROW r = row.data();
    jpeg_write_scanlines(&c, &r, 1);
  }
  jpeg_finish_compress(&c);
  bytes b(out, out + size);
  jpeg_destroy_compress(&c);
  std::free(out);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_seeds DIR\n");
    return 2;
  }
  dir = argv[1];
  // Hand-made PNGs: every colour type and allowed bit depth, palettes with and without tRNS.
  struct layout {
    int color_type, channels;
  };
  for (layout l : {layout{0, 1}, layout{4, 2}, layout{2, 3}, layout{6, 4}, layout{3, 1}})
    for (int depth : {1, 2, 4, 8, 16}) {
      if ((l.color_type != 0 && l.color_type != 3 && depth < 8) || (l.color_type == 3 && depth == 16)) continue;
      pk_test::png_parts p;
      p.width = 5, p.height = 3, p.depth = depth, p.color_type = l.color_type;
      std::vector<std::uint32_t> samples(std::size_t(p.width) * p.height * l.channels);
      for (std::size_t i = 0; i < samples.size(); ++i) samples[i] = std::uint32_t(i * 2654435761u) & ((1u << depth) - 1);
      if (l.color_type == 3)
        for (auto& s : samples) s %= 3;
      p.rows = pk_test::pack_rows(samples, p.width * l.channels, p.height, depth);
      if (l.color_type == 3) p.palette = {255, 0, 0, 0, 255, 0, 0, 0, 255};
      put(".png", pk_test::png_file(p));
      if (l.color_type == 3) p.transparency = {0, 128};
      if (l.color_type == 0) p.transparency = {0, 1};
      if (!p.transparency.empty()) put(".png", pk_test::png_file(p));
    }
  // Compressed PNGs from the library's encoder, and baseline JPEGs from it, 1 to 4 channels.
  for (int c = 1; c <= 4; ++c) {
    pk::image<std::uint8_t> img(9, 13, c);
    for (int y = 0; y < img.height; ++y)
      for (int x = 0; x < img.width; ++x)
        for (int k = 0; k < c; ++k) img.at(y, x, k) = sample(x, y, k);
    const std::string png = dir + "/encoded.png", jpg = dir + "/encoded.jpg";
    pk::save_image(png, img);
    put(".png", pk_test::read_file(png));
    pk::save_image(jpg, img, 20 + 20 * c);  // quality 40 to 100
    put(".jpg", pk_test::read_file(jpg));
    std::remove(png.c_str());
    std::remove(jpg.c_str());
  }
  // JPEG coding variants.
  jpeg_options o;
  put(".jpg", jpeg(o));
  o.progressive = true;
  put(".jpg", jpeg(o));
  o.progressive = false, o.arithmetic = true;
  put(".jpg", jpeg(o));
  o.arithmetic = false, o.restart_rows = 1, o.full_chroma = true, o.quality = 95;
  put(".jpg", jpeg(o));
  jpeg_options gray;
  gray.components = 1, gray.in = JCS_GRAYSCALE, gray.stored = JCS_GRAYSCALE, gray.w = 17, gray.h = 9, gray.progressive = true;
  put(".jpg", jpeg(gray));
  jpeg_options cmyk;
  cmyk.components = 4, cmyk.in = JCS_CMYK, cmyk.stored = JCS_CMYK, cmyk.w = 8, cmyk.h = 8;
  put(".jpg", jpeg(cmyk));
  cmyk.stored = JCS_YCCK;
  put(".jpg", jpeg(cmyk));
  // Regression: ancillary chunks announcing 1.6 GB, which libpng used to allocate before reading
  // (the fuzzer's -malloc_limit_mb fails the run if that comes back).
  for (const char* type : {"iTXt", "zTXt", "iCCP", "sPLT"}) {
    const bytes png = pk_test::png_file(pk_test::png_parts{5, 3, 8, 0, bytes(15, 7), {}, {}});
    bytes huge(png.begin(), png.begin() + 33);  // signature and IHDR
    pk_test::put_u32(huge, 0x62e275cbu);
    huge.insert(huge.end(), type, type + 4);
    huge.insert(huge.end(), png.begin() + 33, png.end());  // what follows is read as its data
    put(".png", huge);
  }
  std::printf("make_seeds: %d files in %s\n", count, dir.c_str());
  return 0;
}
