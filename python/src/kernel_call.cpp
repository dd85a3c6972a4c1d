#include "kernel_call.hpp"

#include "core/check.hpp"

namespace pkpy {

kernel_call::kernel_call(const char* who, const py::object& backend, const py::object& stream) : who_(who) {
  if (!backend.is_none()) {
    on_ = backend_arg(backend);
    backend_given_ = true;
  }
  stream_given_ = stream_arg(stream, who, stream_);
}

pk::stream_handle kernel_call::stream() const {
  return stream_given_ ? stream_ : default_stream_of(pk::backend::cuda);
}

operand kernel_call::input(const py::object& obj, const char* name) {
  operand o = as_operand(obj, who_, name, [this] { return stream(); });
  if (o.from != origin::numpy) all_numpy_ = false;
  if (o.has_stream) waits_.push_back(o.stream);
  return o;
}

std::optional<operand> kernel_call::optional_input(const py::object& obj, const char* name) {
  if (obj.is_none()) return std::nullopt;
  return input(obj, name);
}

element kernel_call::require_element(const operand& o, const char* name, const std::vector<element>& allowed) const {
  for (element ok : allowed)
    if (o.a.dtype == ok) return ok;
  std::string expected;
  for (std::size_t i = 0; i < allowed.size(); ++i)
    expected += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + std::string(name_of(allowed[i]));
  const std::string got = o.a.dtype == element::other ? o.a.typestr_seen : name_of(o.a.dtype);
  throw py::type_error(message(who_, name, " has dtype ", got, ", expected ", expected));
}

void kernel_call::require_c_contiguous(const operand& o, const char* name) const {
  require_aligned(o, name);
  if (!o.a.c_contiguous())
    throw py::value_error(message(who_, name, " is not C-contiguous (the kernels work on the array's memory as it "
                                  "is; pass a contiguous copy, e.g. np.ascontiguousarray(", name, "))"));
}

void kernel_call::require_aligned(const operand& o, const char* name) const {
  if (o.a.misaligned)
    throw py::value_error(message(who_, name, " is not aligned to its element size (pass an aligned copy)"));
}

void kernel_call::require_writeable(const operand& o, const char* name) const {
  if (o.a.readonly) throw py::value_error(message(who_, name, " is read-only (an output must be writeable)"));
}

void kernel_call::require_separate(const operand& out, const operand& in, const char* name) const {
  const auto out_bytes = static_cast<std::int64_t>(out.a.nbytes()), in_bytes = static_cast<std::int64_t>(in.a.nbytes());
  if (out_bytes == 0 || in_bytes == 0) return;
  if (pk::detail::ranges_overlap(out.a.data, out_bytes, in.a.data, in_bytes))
    throw py::value_error(message(who_, "out shares memory with ", name, " (expected a separate array)"));
}

void kernel_call::place(const std::vector<std::pair<const operand*, const char*>>& args, bool copies_allowed) {
  const operand* lead = nullptr;  // the first argument that is not a numpy array
  const char* lead_name = "";
  for (const auto& [o, name] : args)
    if (o && o->from != origin::numpy && !lead) {
      lead = o;
      lead_name = name;
    }
  for (const auto& [o, name] : args)
    if (o && o->a.where() == memory::cuda && !pk::is_available(pk::backend::cuda))
      throw py::value_error(message(who_, name, " is in GPU memory, and this build of portable_kernels has no cuda "
                                    "backend"));
  if (!backend_given_) on_ = lead ? lead->a.backend : pk::default_backend();
  if (stream_given_ && on_ != pk::backend::cuda)
    throw py::value_error(message(who_, "stream= applies to the cuda backend only (this call runs on ",
                                  pk::to_string(on_), ")"));
  if (on_ == pk::backend::cuda && all_numpy_ && copies_allowed) {
    copies_ = true;  // numpy arrays on the GPU: copied there and back (pk's host-array API)
    if (stream_given_)
      throw py::value_error(message(who_, "stream= needs arrays in GPU memory (these are numpy arrays, copied to the "
                                    "GPU and back on the default stream: pk.to_device() them first)"));
    return;
  }
  const memory want = on_ == pk::backend::cuda ? memory::cuda : memory::host;
  for (const auto& [o, name] : args) {
    if (!o) continue;
    if (o->a.where() != want)
      throw py::value_error(message(
          who_, name, " is in ", o->a.where() == memory::cuda ? "GPU memory (" + o->a.place() + ")" : "host memory",
          " but the call runs on ", pk::to_string(on_),
          lead && lead != o ? std::string(" (where ") + lead_name + " lies)" : std::string(),
          want == memory::cuda ? ": pk.to_device() copies it there" : ": copy_to_host() or a host backend"));
    if (want == memory::cuda && o->a.memory_of->device != cuda_device())
      throw py::value_error(message(who_, name, " is on ", o->a.place(), " but pk runs on cuda:", cuda_device(),
                                    " in this process (pk.initialize(device=...) chooses it before the first call)"));
  }
}

void kernel_call::require_shape(const operand& o, const char* name, const std::vector<py::ssize_t>& shape,
                                const std::string& why) const {
  if (o.a.shape != shape)
    throw py::value_error(message(who_, name, " has shape ", shape_string(o.a.shape), ", expected ",
                                  shape_string(shape), why.empty() ? "" : " (" + why + ")"));
}

operand kernel_call::output(std::optional<operand>& out, const std::vector<py::ssize_t>& shape, element e,
                            const char* name) {
  if (out) {
    require_element(*out, name, {e});
    require_shape(*out, name, shape, "");
    require_c_contiguous(*out, name);
    require_writeable(*out, name);
    return *out;
  }
  operand r;
  const std::string what = std::string(who_) + ": the result " + shape_string(shape);
  if (all_numpy_) {  // numpy in, numpy out
    double bytes = double(size_of(e));
    for (auto extent : shape) bytes *= double(extent);
    pk::require_memory(pk::backend::serial, bytes, what);
    r.object = py::array(dtype_of(e), shape);
    r.a = as_operand(r.object, who_, "out", [] { return pk::stream_handle(0); }).a;
    return r;
  }
  pk_array a = new_array(on_, shape, e, what, on_ == pk::backend::cuda ? stream() : 0);
  r.from = origin::pk;
  r.object = py::cast(a);
  r.a = std::move(a);
  return r;
}

}  // namespace pkpy
