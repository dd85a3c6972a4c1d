// JPEG through libjpeg (libjpeg-turbo). As with libpng, errors come back by longjmp: each
// function that calls setjmp holds only plain data and returns false; its caller owns the
// memory and the cleanup (RAII), so no longjmp skips a destructor.
#include <csetjmp>
#include <cstdio>  // jpeglib.h needs FILE and size_t declared first
#include <vector>

#include <jpeglib.h>

#include "image_io/image_codecs.hpp"

namespace pk::detail {
namespace {

// libjpeg's error manager, extended with the jump target and the reason. `standard` comes first
// so that the j_common_ptr->err libjpeg hands to the callbacks is also a pointer to this struct.
struct jpeg_error_sink {
  jpeg_error_mgr standard;
  std::jmp_buf jump;
  char message[codec_message_size];
};

[[noreturn]] void on_jpeg_error(j_common_ptr codec) {
  auto* sink = reinterpret_cast<jpeg_error_sink*>(codec->err);
  char text[JMSG_LENGTH_MAX];
  (*codec->err->format_message)(codec, text);
  std::snprintf(sink->message, codec_message_size, "%s", text);
  std::longjmp(sink->jump, 1);
}

// libjpeg's warnings (level -1) all mean damaged data that it papers over with guessed pixels
// ("Premature end of JPEG file", "Corrupt JPEG data: ..."): a guessed image is a partial image,
// so a warning is an error here. Trace messages (level >= 0) are ignored.
void on_jpeg_message(j_common_ptr codec, int level) {
  if (level < 0) on_jpeg_error(codec);
}

jpeg_error_mgr* install_error_sink(jpeg_error_sink& sink) {
  jpeg_std_error(&sink.standard);
  sink.standard.error_exit = on_jpeg_error;
  sink.standard.emit_message = on_jpeg_message;
  return &sink.standard;
}

struct jpeg_read_state {
  jpeg_decompress_struct codec;  // zero until jpeg_create_decompress: jpeg_destroy is then a no-op
  jpeg_error_sink errors;
  const unsigned char* data;
  std::size_t size;
  std::int64_t max_pixels;
  bool too_large;
};

// Phase 1: header, size check, colour space for the output, decoder start.
bool read_jpeg_header(jpeg_read_state& s) {
  if (setjmp(s.errors.jump)) return false;
  s.codec.err = install_error_sink(s.errors);
  jpeg_create_decompress(&s.codec);
  jpeg_mem_src(&s.codec, const_cast<unsigned char*>(s.data), static_cast<unsigned long>(s.size));
  jpeg_read_header(&s.codec, TRUE);
  if (!within_image_limits(s.codec.image_width, s.codec.image_height, s.max_pixels)) {
    s.too_large = true;
    return false;
  }
  switch (s.codec.jpeg_color_space) {
    case JCS_GRAYSCALE: s.codec.out_color_space = JCS_GRAYSCALE; break;
    case JCS_CMYK:
    case JCS_YCCK: s.codec.out_color_space = JCS_CMYK; break;  // libjpeg turns YCCK into CMYK
    default: s.codec.out_color_space = JCS_RGB; break;
  }
  jpeg_start_decompress(&s.codec);
  return true;
}

// CMYK to RGB. Adobe's files (the ones with an Adobe marker, nearly all CMYK JPEGs) store the
// inks inverted, 255 meaning no ink, so there R = C*K/255; plain CMYK has R = (255-C)(255-K)/255.
void cmyk_row_to_rgb(const JSAMPLE* cmyk, std::uint8_t* rgb, JDIMENSION width, bool inverted) {
  for (JDIMENSION x = 0; x < width; ++x, cmyk += 4, rgb += 3) {
    const int k = inverted ? cmyk[3] : 255 - cmyk[3];
    for (int c = 0; c < 3; ++c) {
      const int ink = inverted ? cmyk[c] : 255 - cmyk[c];
      rgb[c] = static_cast<std::uint8_t>((ink * k + 127) / 255);
    }
  }
}

// Phase 2: every scanline into the caller's pixels (via `scratch`, one 4-channel row, for CMYK).
bool read_jpeg_rows(jpeg_read_state& s, std::uint8_t* pixels, std::size_t row_bytes, JSAMPLE* scratch) {
  if (setjmp(s.errors.jump)) return false;
  while (s.codec.output_scanline < s.codec.output_height) {
    std::uint8_t* out = pixels + std::size_t(s.codec.output_scanline) * row_bytes;
    JSAMPROW row = scratch != nullptr ? scratch : out;
    jpeg_read_scanlines(&s.codec, &row, 1);
    if (scratch != nullptr) cmyk_row_to_rgb(scratch, out, s.codec.output_width, s.codec.saw_Adobe_marker != 0);
  }
  jpeg_finish_decompress(&s.codec);
  return true;
}

struct jpeg_write_state {
  jpeg_compress_struct codec;
  jpeg_error_sink errors;
};

bool write_jpeg_rows(jpeg_write_state& s, std::FILE* file, const std::uint8_t* pixels, int height, int width,
                     int channels, int quality) {
  if (setjmp(s.errors.jump)) return false;
  s.codec.err = install_error_sink(s.errors);
  jpeg_create_compress(&s.codec);
  jpeg_stdio_dest(&s.codec, file);  // fwrite; a short write is a libjpeg error
  s.codec.image_width = static_cast<JDIMENSION>(width);
  s.codec.image_height = static_cast<JDIMENSION>(height);
  s.codec.input_components = channels;
  s.codec.in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&s.codec);
  jpeg_set_quality(&s.codec, quality, TRUE);
  jpeg_start_compress(&s.codec, TRUE);
  const std::size_t row_bytes = std::size_t(width) * std::size_t(channels);
  while (s.codec.next_scanline < s.codec.image_height) {
    // libjpeg takes non-const rows but only reads them when compressing.
    JSAMPROW row = const_cast<JSAMPLE*>(pixels + std::size_t(s.codec.next_scanline) * row_bytes);
    jpeg_write_scanlines(&s.codec, &row, 1);
  }
  jpeg_finish_compress(&s.codec);
  return true;
}

}  // namespace

image<std::uint8_t> decode_jpeg(const encoded_image& in) {
  jpeg_read_state s{};
  s.data = in.data;
  s.size = in.size;
  s.max_pixels = in.max_pixels;
  struct guard {
    jpeg_read_state& s;
    ~guard() { jpeg_destroy_decompress(&s.codec); }
  } cleanup{s};

  if (!read_jpeg_header(s)) {
    if (s.too_large)
      decode_fail(in, "the JPEG header announces ", s.codec.image_width, "x", s.codec.image_height,
                  " pixels, more than the limit (", in.max_pixels, " pixels, sides up to ", max_image_side, ")");
    decode_fail(in, "not a valid JPEG file: ", s.errors.message);
  }
  const bool cmyk = s.codec.out_color_space == JCS_CMYK;
  const int channels = cmyk ? 3 : s.codec.output_components;
  if (channels != 1 && channels != 3)
    decode_fail(in, "unsupported JPEG layout (", s.codec.output_components, " components)");

  image<std::uint8_t> out(static_cast<int>(s.codec.output_height), static_cast<int>(s.codec.output_width), channels);
  std::vector<JSAMPLE> scratch(cmyk ? std::size_t(s.codec.output_width) * 4 : 0);
  const std::size_t row_bytes = std::size_t(out.width) * std::size_t(channels);
  if (!read_jpeg_rows(s, out.pixels.data(), row_bytes, cmyk ? scratch.data() : nullptr))
    decode_fail(in, "corrupt JPEG file: ", s.errors.message);
  return out;
}

bool encode_jpeg(std::FILE* file, const std::uint8_t* pixels, int height, int width, int channels, int quality,
                 char (&message)[codec_message_size]) {
  jpeg_write_state s{};
  struct guard {
    jpeg_write_state& s;
    ~guard() { jpeg_destroy_compress(&s.codec); }
  } cleanup{s};
  const bool ok = write_jpeg_rows(s, file, pixels, height, width, channels, quality);
  if (!ok) std::snprintf(message, codec_message_size, "%s", s.errors.message);
  return ok;
}

}  // namespace pk::detail
