#pragma once
// Hand-made PNG files for the image I/O tests: every colour type and bit depth, and broken
// ones (bad CRC, truncated, huge header), written byte by byte so that the tests do not depend
// on the encoder they are testing. The image data is zlib-wrapped deflate with "stored"
// (uncompressed) blocks: valid, and simple enough to write here.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace pk_test {

using bytes = std::vector<std::uint8_t>;

inline std::uint32_t crc32(const std::uint8_t* p, std::size_t n, std::uint32_t crc = 0) {
  crc = ~crc;
  for (std::size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

inline void put_u32(bytes& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(v >> shift));
}

// length, type, data, CRC over type and data.
inline void put_chunk(bytes& out, const char (&type)[5], const bytes& data) {
  put_u32(out, static_cast<std::uint32_t>(data.size()));
  bytes typed(type, type + 4);
  typed.insert(typed.end(), data.begin(), data.end());
  out.insert(out.end(), typed.begin(), typed.end());
  put_u32(out, crc32(typed.data(), typed.size()));
}

inline bytes zlib_stored(const bytes& raw) {
  bytes z{0x78, 0x01};
  std::size_t pos = 0;
  do {
    const std::size_t n = std::min<std::size_t>(65535, raw.size() - pos);
    const bool last = pos + n == raw.size();
    z.push_back(last ? 1 : 0);
    z.push_back(static_cast<std::uint8_t>(n & 0xff));
    z.push_back(static_cast<std::uint8_t>(n >> 8));
    z.push_back(static_cast<std::uint8_t>(~n & 0xff));
    z.push_back(static_cast<std::uint8_t>((~n >> 8) & 0xff));
    z.insert(z.end(), raw.begin() + pos, raw.begin() + pos + n);
    pos += n;
  } while (pos < raw.size());
  std::uint32_t a = 1, b = 0;  // Adler-32
  for (std::uint8_t v : raw) a = (a + v) % 65521, b = (b + a) % 65521;
  put_u32(z, (b << 16) | a);
  return z;
}

inline bytes ihdr(std::uint32_t width, std::uint32_t height, int depth, int color_type) {
  bytes h;
  put_u32(h, width);
  put_u32(h, height);
  h.push_back(static_cast<std::uint8_t>(depth));
  h.push_back(static_cast<std::uint8_t>(color_type));
  h.push_back(0), h.push_back(0), h.push_back(0);  // deflate, adaptive filtering, not interlaced
  return h;
}

struct png_parts {
  std::uint32_t width = 0, height = 0;
  int depth = 8, color_type = 0;  // 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA
  bytes rows;                     // packed scanlines, each WITHOUT its filter byte
  bytes palette, transparency;    // PLTE and tRNS contents, when not empty
};

// Samples of width*channels per row packed at `depth` bits (big-endian for 16 bits), as PNG wants.
inline bytes pack_rows(const std::vector<std::uint32_t>& samples, std::uint32_t per_row, std::uint32_t rows,
                       int depth) {
  bytes out;
  for (std::uint32_t y = 0; y < rows; ++y) {
    int bits = 0;
    std::uint32_t acc = 0;
    for (std::uint32_t i = 0; i < per_row; ++i) {
      const std::uint32_t v = samples[std::size_t(y) * per_row + i];
      if (depth == 16) {
        out.push_back(static_cast<std::uint8_t>(v >> 8));
        out.push_back(static_cast<std::uint8_t>(v));
        continue;
      }
      acc = (acc << depth) | v;
      bits += depth;
      if (bits == 8) out.push_back(static_cast<std::uint8_t>(acc)), acc = 0, bits = 0;
    }
    if (bits > 0) out.push_back(static_cast<std::uint8_t>(acc << (8 - bits)));  // row padding
  }
  return out;
}

inline bytes png_file(const png_parts& p) {
  bytes out{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  put_chunk(out, "IHDR", ihdr(p.width, p.height, p.depth, p.color_type));
  if (!p.palette.empty()) put_chunk(out, "PLTE", p.palette);
  if (!p.transparency.empty()) put_chunk(out, "tRNS", p.transparency);
  bytes raw;  // each row prefixed by filter type 0 (none)
  const std::size_t row_bytes = p.height == 0 ? 0 : p.rows.size() / p.height;
  for (std::uint32_t y = 0; y < p.height; ++y) {
    raw.push_back(0);
    raw.insert(raw.end(), p.rows.begin() + y * row_bytes, p.rows.begin() + (y + 1) * row_bytes);
  }
  put_chunk(out, "IDAT", zlib_stored(raw));
  put_chunk(out, "IEND", {});
  return out;
}

inline std::string write_file(const std::string& name, const bytes& content) {
  const std::string path = std::string(PK_TEST_WORK_DIR) + "/" + name;
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(content.data()),
                                              static_cast<std::streamsize>(content.size()));
  return path;
}

inline bytes read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace pk_test
