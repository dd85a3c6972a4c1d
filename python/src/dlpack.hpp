#pragma once
// The DLPack exchange structures (ABI 1.0, dmlc/dlpack's specification), declared here from the
// specification with this module's names: a tensor's description, and the two managed forms that
// travel in a PyCapsule ("dltensor": unversioned; "dltensor_versioned": with version and flags).
#include <cstdint>

namespace pkpy::dlpack {

enum device_type : std::int32_t { cpu = 1, cuda = 2, cuda_host = 3, cuda_managed = 13 };
enum type_code : std::uint8_t { signed_int = 0, unsigned_int = 1, floating = 2 };

struct device {
  std::int32_t type;
  std::int32_t id;
};

struct data_type {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};

struct tensor {
  void* data;
  device dev;
  std::int32_t ndim;
  data_type dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // in elements; null: C-contiguous
  std::uint64_t byte_offset;
};

struct managed_tensor {
  tensor dl;
  void* manager_ctx;
  void (*deleter)(managed_tensor*);
};

struct version {
  std::uint32_t major;
  std::uint32_t minor;
};

constexpr std::uint64_t flag_read_only = 1;
constexpr std::uint64_t flag_is_copied = 2;

struct managed_tensor_versioned {
  version v;
  void* manager_ctx;
  void (*deleter)(managed_tensor_versioned*);
  std::uint64_t flags;
  tensor dl;
};

constexpr const char* capsule_name = "dltensor";
constexpr const char* used_capsule_name = "used_dltensor";
constexpr const char* versioned_capsule_name = "dltensor_versioned";
constexpr const char* used_versioned_capsule_name = "used_dltensor_versioned";

}  // namespace pkpy::dlpack
