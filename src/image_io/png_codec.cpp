// PNG through libpng. libpng reports errors by longjmp back to a setjmp: a longjmp skips the
// destructors of every C++ object between the two, so each function below that calls setjmp
// holds only plain data (a state struct owned by its caller) and returns false on error. The
// callers are ordinary C++ (RAII guards, std::vector): no longjmp ever crosses them.
#include <png.h>

#include <cstring>
#include <vector>

#include "image_io/image_codecs.hpp"

namespace pk::detail {
namespace {

struct memory_source {
  const unsigned char* data;
  std::size_t size;
  std::size_t position;
};

// What libpng said: the error that stopped it, and the last warning before it (libpng explains
// a refused header in warnings, "Image width exceeds user limit", then fails with "Invalid IHDR data").
struct png_messages {
  char error[codec_message_size];
  char warning[codec_message_size];
};

struct png_read_state {
  png_structp png;
  png_infop info;
  memory_source source;
  png_uint_32 width, height;
  int channels;
  std::size_t row_bytes;
  std::int64_t max_pixels;
  bool too_large;
  png_messages messages;
};

// libpng's error callback: keep the reason, jump back to the setjmp of the running phase.
void on_png_error(png_structp png, png_const_charp what) {
  auto* messages = static_cast<png_messages*>(png_get_error_ptr(png));
  if (messages->warning[0] != '\0')
    std::snprintf(messages->error, codec_message_size, "%.120s (%.120s)", what, messages->warning);
  else
    std::snprintf(messages->error, codec_message_size, "%s", what);
  png_longjmp(png, 1);
}

// Warnings alone concern ancillary chunks (a bad gamma value, a damaged text chunk) that libpng
// drops: the pixels are still right. They are kept to explain a later error.
void on_png_warning(png_structp png, png_const_charp what) {
  auto* messages = static_cast<png_messages*>(png_get_error_ptr(png));
  std::snprintf(messages->warning, codec_message_size, "%s", what);
}

void read_from_memory(png_structp png, png_bytep out, png_size_t count) {
  auto* source = static_cast<memory_source*>(png_get_io_ptr(png));
  if (count > source->size - source->position) png_error(png, "the file is truncated");
  std::memcpy(out, source->data + source->position, count);
  source->position += count;
}

// Phase 1: the header, the size check, and the transformations to 8 bits per channel.
bool read_png_header(png_read_state& s) {
  if (setjmp(png_jmpbuf(s.png))) return false;
  png_set_user_limits(s.png, max_image_side, max_image_side);  // libpng refuses longer sides itself
  // Skip every chunk but IHDR, PLTE, tRNS, IDAT and IEND unread (their CRCs are still checked).
  // libpng (1.6.39) allocates the length a text, profile or palette-suggestion chunk announces,
  // up to 2 GiB, before it reads the chunk: a 91-byte file made the fuzzer allocate 1.6 GB. None
  // of those chunks changes the pixels load_image returns.
  png_set_keep_unknown_chunks(s.png, PNG_HANDLE_CHUNK_NEVER, nullptr, -1);
  png_set_read_fn(s.png, &s.source, read_from_memory);
  png_read_info(s.png, s.info);

  const png_uint_32 width = png_get_image_width(s.png, s.info), height = png_get_image_height(s.png, s.info);
  s.width = width;
  s.height = height;
  if (!within_image_limits(width, height, s.max_pixels)) {
    s.too_large = true;
    return false;
  }
  const int color = png_get_color_type(s.png, s.info), depth = png_get_bit_depth(s.png, s.info);
  if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(s.png);
  if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(s.png);
  if (png_get_valid(s.png, s.info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(s.png);
  if (depth == 16) png_set_scale_16(s.png);  // rounds, where strip_16 would truncate
  png_set_interlace_handling(s.png);
  png_read_update_info(s.png, s.info);

  s.channels = png_get_channels(s.png, s.info);
  s.row_bytes = png_get_rowbytes(s.png, s.info);
  return true;
}

// Phase 2: every row into memory the caller allocated, then the chunks up to IEND.
bool read_png_rows(png_read_state& s, png_bytepp rows) {
  if (setjmp(png_jmpbuf(s.png))) return false;
  png_read_image(s.png, rows);
  png_read_end(s.png, nullptr);
  return true;
}

struct png_write_state {
  png_structp png;
  png_infop info;
  std::FILE* file;
  png_uint_32 width, height;
  int color_type;
};

bool write_png_rows(png_write_state& s, png_bytepp rows) {
  if (setjmp(png_jmpbuf(s.png))) return false;
  png_init_io(s.png, s.file);  // fwrite; a short write is a libpng error ("Write Error")
  png_set_IHDR(s.png, s.info, s.width, s.height, 8, s.color_type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(s.png, s.info);
  png_write_image(s.png, rows);
  png_write_end(s.png, nullptr);
  return true;
}

}  // namespace

image<std::uint8_t> decode_png(const encoded_image& in) {
  png_read_state s{};
  s.source = {in.data, in.size, 0};
  s.max_pixels = in.max_pixels;
  s.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &s.messages, on_png_error, on_png_warning);
  if (s.png == nullptr) decode_fail(in, "libpng could not start (out of memory)");
  struct guard {
    png_read_state& s;
    ~guard() { png_destroy_read_struct(&s.png, &s.info, nullptr); }
  } cleanup{s};
  s.info = png_create_info_struct(s.png);
  if (s.info == nullptr) decode_fail(in, "libpng could not start (out of memory)");

  if (!read_png_header(s)) {
    if (s.too_large)
      decode_fail(in, "the PNG header announces ", s.width, "x", s.height, " pixels, more than the limit (",
                  in.max_pixels, " pixels, sides up to ", max_image_side, ")");
    decode_fail(in, "not a valid PNG file: ", s.messages.error);
  }
  if (s.channels < 1 || s.channels > 4 || s.row_bytes != std::size_t(s.width) * std::size_t(s.channels))
    decode_fail(in, "unsupported PNG layout (", s.channels, " channels, ", s.row_bytes, " bytes per row)");

  image<std::uint8_t> out(static_cast<int>(s.height), static_cast<int>(s.width), s.channels);
  std::vector<png_bytep> rows(s.height);
  for (png_uint_32 y = 0; y < s.height; ++y) rows[y] = out.pixels.data() + std::size_t(y) * s.row_bytes;
  if (!read_png_rows(s, rows.data())) decode_fail(in, "corrupt PNG file: ", s.messages.error);
  return out;
}

bool encode_png(std::FILE* file, const std::uint8_t* pixels, int height, int width, int channels,
                char (&message)[codec_message_size]) {
  static const int color_types[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                    PNG_COLOR_TYPE_RGB_ALPHA};
  png_write_state s{};
  png_messages messages{};
  s.file = file;
  s.width = static_cast<png_uint_32>(width);
  s.height = static_cast<png_uint_32>(height);
  s.color_type = color_types[channels - 1];
  s.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &messages, on_png_error, on_png_warning);
  if (s.png == nullptr) {
    std::snprintf(message, codec_message_size, "libpng could not start (out of memory)");
    return false;
  }
  struct guard {
    png_write_state& s;
    ~guard() { png_destroy_write_struct(&s.png, &s.info); }
  } cleanup{s};
  s.info = png_create_info_struct(s.png);
  if (s.info == nullptr) {
    std::snprintf(message, codec_message_size, "libpng could not start (out of memory)");
    return false;
  }
  // libpng takes non-const row pointers but only reads them when writing.
  std::vector<png_bytep> rows(static_cast<std::size_t>(height));
  for (int y = 0; y < height; ++y)
    rows[y] = const_cast<png_bytep>(pixels + std::size_t(y) * std::size_t(width) * std::size_t(channels));
  const bool ok = write_png_rows(s, rows.data());
  if (!ok) std::snprintf(message, codec_message_size, "%s", messages.error);
  return ok;
}

}  // namespace pk::detail
