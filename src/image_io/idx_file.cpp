// pk::load_idx: idx files through zlib's gzread, which reads compressed and plain files alike.
#include <pk/error.hpp>
#include <pk/idx.hpp>

#include <zlib.h>

#include <memory>

namespace pk {

namespace {

[[noreturn]] void bad(const std::string& path, const std::string& what) {
  throw error("pk::load_idx: " + path + ": " + what);
}

void read_exactly(gzFile f, void* into, std::size_t bytes, const std::string& path, const char* what) {
  auto* p = static_cast<unsigned char*>(into);
  while (bytes > 0) {
    const unsigned chunk = bytes > (1u << 30) ? (1u << 30) : static_cast<unsigned>(bytes);
    const int got = gzread(f, p, chunk);
    if (got <= 0) bad(path, std::string("the file ends inside its ") + what);
    p += got;
    bytes -= static_cast<std::size_t>(got);
  }
}

}  // namespace

idx_array load_idx(const std::string& path) {
  std::unique_ptr<gzFile_s, int (*)(gzFile)> f(gzopen(path.c_str(), "rb"), &gzclose);
  if (!f) bad(path, "cannot open it");
  unsigned char magic[4];
  read_exactly(f.get(), magic, 4, path, "magic number");
  if (magic[0] != 0 || magic[1] != 0) bad(path, "not an idx file (its first two bytes are not zero)");
  if (magic[2] != 0x08)
    bad(path, "its elements are of idx type " + std::to_string(magic[2]) + "; only unsigned bytes (8) are read");
  const int rank = magic[3];
  if (rank < 1 || rank > 8) bad(path, "its rank is " + std::to_string(rank) + ", expected 1..8");
  idx_array out;
  double elements = 1;
  for (int d = 0; d < rank; ++d) {
    unsigned char e[4];
    read_exactly(f.get(), e, 4, path, "extents");
    const std::int64_t extent = (std::int64_t(e[0]) << 24) | (e[1] << 16) | (e[2] << 8) | e[3];
    out.shape.push_back(extent);
    elements *= double(extent);
  }
  if (elements > double(1ull << 40)) bad(path, "its extents give more than 2^40 elements");
  out.data.resize(static_cast<std::size_t>(elements));
  read_exactly(f.get(), out.data.data(), out.data.size(), path, "elements");
  unsigned char extra;
  if (gzread(f.get(), &extra, 1) > 0) bad(path, "it holds more bytes than its extents say");
  return out;
}

}  // namespace pk
