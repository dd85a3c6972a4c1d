// pk filter IN OUT --kernel NAME [--border MODE] [--float]: filters a PNG or JPEG image file.
#include <cctype>
#include <chrono>
#include <filesystem>
#include <cstdio>

#include <pk/filter.hpp>
#include <pk/image_io.hpp>

#include "commands.hpp"
#include "options.hpp"

namespace pk_app {
namespace {

void print_help() {
  std::printf(
      "usage: pk filter IN OUT --kernel NAME [--border MODE] [--float]\n\n"
      "Reads IN (PNG or JPEG: gray, gray+alpha, RGB, RGBA), filters it, writes OUT as PNG or JPEG by\n"
      "its extension (.png, .jpg, .jpeg).\n\n"
      "--kernel NAME   box3..box15 (odd sizes), gaussian3..gaussian15 (optionally :SIGMA, as in\n"
      "                gaussian7:1.5), sharpen, sobel-x, sobel-y, or sobel (gradient magnitude:\n"
      "                edge strength). Colour images are convolved channel by channel (alpha too);\n"
      "                sobel on a colour image converts it to gray first (BT.601 luma) and writes\n"
      "                a gray edge image. Outputs are 8-bit, saturated to 0..255: sobel-x and\n"
      "                sobel-y keep the positive gradients only (negative ones become 0; the\n"
      "                library and the Python module return signed float results).\n"
      "--border MODE   what lies outside the image: reflect101 (default, as OpenCV), clamp,\n"
      "                zero or wrap.\n"
      "--float         filter in float32 and round once at the end (default: 8-bit images in,\n"
      "                8-bit out, accumulating in float and rounding each pixel).\n");
}

// The extensions save_image knows, checked before reading and filtering.
void require_image_extension(const std::string& path) {
  const auto dot = path.find_last_of("./");
  std::string ext = dot == std::string::npos || path[dot] == '/' ? "" : path.substr(dot);
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (ext != ".png" && ext != ".jpg" && ext != ".jpeg")
    usage_fail("filter", "'" + path + "': unknown image file extension '" + ext + "' (expected .png, .jpg or .jpeg)");
}

}  // namespace

int cmd_filter(const std::vector<std::string>& args) {
  const parsed_args p = parse_args("filter", args, {"--float"}, {"--kernel", "--border"});
  if (p.help) {
    print_help();
    return 0;
  }
  if (p.positional.size() != 2)
    usage_fail("filter", "expected an input and an output file, got " +
                             count_of(std::int64_t(p.positional.size()), "argument"));
  if (!p.value("--kernel")) usage_fail("filter", "missing --kernel NAME");
  const std::string& in_path = p.positional[0];
  const std::string& out_path = p.positional[1];
  const pk::filter_spec spec = pk::parse_filter(*p.value("--kernel"));
  const pk::border border = p.value("--border") ? pk::parse_border(*p.value("--border")) : pk::border::reflect101;
  const pk::backend on = globals().backend;
  require_image_extension(out_path);  // before the work, not after it
  std::error_code same_error;
  if (in_path == out_path || std::filesystem::equivalent(in_path, out_path, same_error))
    usage_fail("filter", "the output '" + out_path + "' is the input file (give another output path)");

  pk::image<std::uint8_t> in = pk::load_image(in_path);
  const int in_channels = in.channels;
  const bool to_gray = spec.op == pk::filter_op::sobel_magnitude && in.channels > 1;
  if (to_gray) in = pk::to_gray(in);

  using clock = std::chrono::steady_clock;
  pk::image<std::uint8_t> out;
  double ms = 0;
  if (p.has("--float")) {
    const pk::image<float> f = pk::to_float(in);
    pk::image<float> result(f.height, f.width, f.channels);
    const auto start = clock::now();
    pk::apply(on, spec, f.cref(), result.ref(), border);
    ms = std::chrono::duration<double, std::milli>(clock::now() - start).count();
    out = pk::to_u8(result);
  } else {
    out = pk::image<std::uint8_t>(in.height, in.width, in.channels);
    const auto start = clock::now();
    pk::apply(on, spec, in.cref(), out.ref(), border);
    ms = std::chrono::duration<double, std::milli>(clock::now() - start).count();
  }
  pk::save_image(out_path, out);
  const bool jpeg = out_path.find_last_of('.') != std::string::npos &&
                    std::tolower(static_cast<unsigned char>(out_path[out_path.find_last_of('.') + 1])) == 'j';
  const int written = jpeg && (out.channels == 2 || out.channels == 4) ? out.channels - 1 : out.channels;
  std::printf("%s: %dx%d, %d channel%s%s -> %s: %d channel%s%s; kernel %s, border %s, %s pixels, backend %s: %.3f ms%s\n",
              in_path.c_str(), in.width, in.height, in_channels, in_channels == 1 ? "" : "s",
              to_gray ? " (converted to gray)" : "", out_path.c_str(), written, written == 1 ? "" : "s",
              written != out.channels ? " (JPEG keeps no alpha)" : "",
              p.value("--kernel")->c_str(), pk::to_string(border), p.has("--float") ? "float" : "uint8",
              pk::to_string(on), ms, on == pk::backend::cuda ? " (including host-device copies)" : "");
  return 0;
}

}  // namespace pk_app
