#pragma once
// The idx files of MNIST and Fashion-MNIST (Y. LeCun's format; gzip-compressed or not): a magic
// number naming the element type and rank, the extents (big-endian 32-bit), then the elements in
// row-major order. Part of portable_kernels::image_io.
//   pk::idx_array images = pk::load_idx("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz");
//   // images.shape == {60000, 28, 28}, images.data: 47040000 bytes
#include <cstdint>
#include <string>
#include <vector>

namespace pk {

struct idx_array {
  std::vector<std::int64_t> shape;
  std::vector<std::uint8_t> data;  // unsigned bytes (type 0x08), row-major
};

// Reads an idx file of unsigned bytes. Throws pk::error naming the file for a missing or
// unreadable file, another element type, or a size that disagrees with the extents.
idx_array load_idx(const std::string& path);

}  // namespace pk
