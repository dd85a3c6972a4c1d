// The tensor maps of the filters' tensor-copy staging (src/filter/stage_boxes.hpp): made on the host by the driver
// (cuTensorMapEncodeTiled, reached through the runtime so that pk does not link libcuda), copied
// to device global memory once per image and box shape, and kept there.
//
// Why a cache: a kernel parameter would be the natural home of a tensor map, but Kokkos passes the
// functor as an ordinary parameter (not __grid_constant__), so the kernel could not take its
// address; constant memory would cost every launch a copy (what the functor as a kernel parameter
// removed). A map only describes an image (address, sizes, pitch) and a box, so the same key
// always gives the same map: calls on the same image reuse it with no work at all.
// The cache holds up to Capacity maps a device; when full, it waits for the device to go idle
// and then overwrites the oldest (a map no running kernel can be reading any more).
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <mutex>
#include <vector>

#include "cuda/cuda_primitives.hpp"

namespace pk::detail {
namespace {

struct map_key {
  int device;
  const float* image;
  std::int64_t height, width;
  int box_w, box_h;
  bool operator==(const map_key& o) const {
    return device == o.device && image == o.image && height == o.height && width == o.width && box_w == o.box_w &&
           box_h == o.box_h;
  }
};

struct cached_map {
  map_key key;
  CUtensorMap* on_device;
};

class tensor_map_cache {
 public:
  static constexpr std::size_t Capacity = 256;

  const void* get(const map_key& key) {
    std::lock_guard<std::mutex> lock(m_mutex);
    for (const auto& m : m_maps)
      if (m.key == key) return m.on_device;
    CUtensorMap map;
    if (!encode(key, map)) return nullptr;
    CUtensorMap* slot = nullptr;
    if (count_on(key.device) < Capacity) {
      if (cudaMalloc(&slot, sizeof(CUtensorMap)) != cudaSuccess) return nullptr;
      if (m_maps.empty()) Kokkos::push_finalize_hook([] { instance().release(); });
      m_maps.push_back({key, slot});
    } else {
      // Full: once the device is idle no kernel reads the oldest of its maps, which is replaced.
      if (cudaDeviceSynchronize() != cudaSuccess) return nullptr;
      std::size_t oldest = m_maps.size();
      for (std::size_t i = 0; i < m_maps.size(); ++i)
        if (m_maps[i].key.device == key.device) {
          oldest = i;
          break;
        }
      cached_map m = m_maps[oldest];
      m_maps.erase(m_maps.begin() + static_cast<std::ptrdiff_t>(oldest));
      m.key = key;
      m_maps.push_back(m);
      slot = m.on_device;
    }
    // (Synchronous: the slot is new, or no kernel reads it.)
    if (cudaMemcpy(slot, &map, sizeof(map), cudaMemcpyHostToDevice) != cudaSuccess) {
      m_maps.pop_back();
      cudaFree(slot);
      return nullptr;
    }
    return slot;
  }

  static tensor_map_cache& instance() {
    static tensor_map_cache cache;
    return cache;
  }

 private:
  std::size_t count_on(int device) const {
    std::size_t n = 0;
    for (const auto& m : m_maps) n += m.key.device == device;
    return n;
  }

  // Maps die with Kokkos (before its CUDA context goes).
  void release() {
    std::lock_guard<std::mutex> lock(m_mutex);
    for (const auto& m : m_maps) cudaFree(m.on_device);
    m_maps.clear();
  }

  static bool encode(const map_key& k, CUtensorMap& map) {
    static const auto encode_tiled = [] {
      void* fn = nullptr;
      cudaDriverEntryPointQueryResult found{};
      if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found) !=
              cudaSuccess ||
          found != cudaDriverEntryPointSuccess)
        fn = nullptr;
      return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
    }();
    if (!encode_tiled) return false;
    const cuuint64_t sizes[2] = {static_cast<cuuint64_t>(k.width), static_cast<cuuint64_t>(k.height)};
    const cuuint64_t row_bytes[1] = {static_cast<cuuint64_t>(k.width) * sizeof(float)};
    const cuuint32_t box[2] = {static_cast<cuuint32_t>(k.box_w), static_cast<cuuint32_t>(k.box_h)};
    const cuuint32_t element_strides[2] = {1, 1};
    // L2 promotion of 128 bytes: what the cp.async staging measured best with (bench/results/h200.md).
    return encode_tiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float*>(k.image), sizes, row_bytes, box,
                        element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                        CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
  }

  std::mutex m_mutex;
  std::vector<cached_map> m_maps;  // oldest first
};

// Whether the current device has TMA (compute capability 9.0 on).
bool device_has_tma(int device) {
  int major = 0;
  return cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess && major >= 9;
}

}  // namespace

const void* cuda_tile_tensor_map(const float* image, std::int64_t height, std::int64_t width, int box_w, int box_h) {
  // What TMA asks of the image: a 16-byte aligned address, rows of whole 16 bytes; the kernels
  // address boxes by 32-bit coordinates.
  const std::int64_t coordinate_limit = std::int64_t(1) << 30;
  if (reinterpret_cast<std::uintptr_t>(image) % 16 != 0 || width % 4 != 0 || width >= coordinate_limit ||
      height >= coordinate_limit || box_w < 1 || box_w > 256 || box_h < 1 || box_h > 256)
    return nullptr;
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || !device_has_tma(device)) return nullptr;
  return tensor_map_cache::instance().get({device, image, height, width, box_w, box_h});
}

}  // namespace pk::detail
