// _fft_r2c / _fft_c2r / _fft_c2c (+ out=) on the op_api path (aclnnFftR2C / aclnnFftC2R /
// aclnnFftC2C): the result's shape and dtype as ATen's CPU kernels give them (R2C: complex
// of self's precision, the last transformed dimension n / 2 + 1 long when onesided; C2R: real,
// that dimension last_dim_size long; C2C: self's). A conjugated or negated view is resolved
// first (the device reads stored values). out= is resized to the result's shape and receives
// it as copy_ does, as on CPU.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/resolve_conj.h>
#include <ATen/ops/resolve_neg.h>
#include <c10/core/WrapDimMinimal.h>

#include <vector>

#include "npu/core/NPUGuard.h"
#include "npu/version.h"
#include "npu/op_api/op_api_common.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/_fft_c2c.h"
#include "op_plugin/ops/_fft_c2r.h"
#include "op_plugin/ops/_fft_r2c.h"

// torch >= 2.15: CPU's transform of an empty input gives an empty result, except a real<->complex one whose
// last transformed dimension is empty; before, it refused every empty input.
#define NPU_FFT_OF_AN_EMPTY_INPUT_IS_EMPTY VERSION_BETWEEN(V2R15, VERSION_NEWEST)

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

// The dimensions wrapped to [0, self.dim()), in the caller's order.
std::vector<int64_t> wrap_dims(const at::Tensor& self, at::IntArrayRef dim) {
  std::vector<int64_t> dims;
  dims.reserve(dim.size());
  for (int64_t d : dim) {
    dims.push_back(c10::maybe_wrap_dim(d, self.dim()));
  }
  return dims;
}

// Whether `self` is empty, its (empty) result then being the answer; raises where CPU's transform refuses it.
// `real_complex`: a real-to-complex or complex-to-real transform over `dims` (wrapped, the last one last).
bool is_empty_transform(const char* op, const at::Tensor& self, const std::vector<int64_t>& dims,
                        bool real_complex) {
  if (self.numel() > 0) return false;
#if NPU_FFT_OF_AN_EMPTY_INPUT_IS_EMPTY
  TORCH_CHECK(!real_complex || dims.empty() || self.size(dims.back()) > 0, op, ": the last transformed dimension (",
              dims.empty() ? 0 : dims.back(), ") of the input ", self.sizes(), " is empty");
  return true;
#else
  (void)dims;
  (void)real_complex;
  TORCH_CHECK(false, op, ": the input ", self.sizes(), " is empty; an FFT needs at least one element");
  return false;
#endif
}

at::Tensor stored_values(const at::Tensor& self) {
  return self.resolve_conj().resolve_neg();
}

at::Tensor& copy_into_out(const at::Tensor& result, at::Tensor& out) {
  at::native::resize_output(out, result.sizes());
  out.copy_(result);
  return out;
}

}  // namespace

at::Tensor _fft_r2c(const at::Tensor& self, at::IntArrayRef dim, int64_t normalization, bool onesided) {
  TORCH_CHECK(self.is_floating_point(), "_fft_r2c: expected a real floating-point self, got ", self.scalar_type());
  TORCH_CHECK(self.scalar_type() == at::kFloat || self.scalar_type() == at::kDouble,
              "_fft_r2c: unsupported dtype ", self.scalar_type());
  TORCH_CHECK(!dim.empty(), "_fft_r2c: dim must not be empty");
  c10_npu::NPUGuard guard(self.device());
  const std::vector<int64_t> dims = wrap_dims(self, dim);
  const bool empty = is_empty_transform("_fft_r2c", self, dims, true);
  std::vector<int64_t> sizes(self.sizes().begin(), self.sizes().end());
  if (onesided) {
    sizes[dims.back()] = sizes[dims.back()] / 2 + 1;
  }
  at::Tensor out = OpPreparation::apply_tensor_without_format(
      sizes, self.options().dtype(c10::toComplexType(self.scalar_type())));
  if (empty) return out;
  const at::Tensor input = stored_values(self);
  EXEC_NPU_CMD(aclnnFftR2C, input, at::IntArrayRef(dims), normalization, onesided, out);
  return out;
}

at::Tensor& _fft_r2c_out(const at::Tensor& self, at::IntArrayRef dim, int64_t normalization, bool onesided,
                         at::Tensor& out) {
  return copy_into_out(op_api::_fft_r2c(self, dim, normalization, onesided), out);
}

at::Tensor _fft_c2r(const at::Tensor& self, at::IntArrayRef dim, int64_t normalization, int64_t last_dim_size) {
  TORCH_CHECK(self.is_complex(), "_fft_c2r: expected a complex self, got ", self.scalar_type());
  TORCH_CHECK(self.scalar_type() == at::kComplexFloat || self.scalar_type() == at::kComplexDouble,
              "_fft_c2r: unsupported dtype ", self.scalar_type());
  TORCH_CHECK(!dim.empty(), "_fft_c2r: dim must not be empty");
  const std::vector<int64_t> dims = wrap_dims(self, dim);
  const bool empty = is_empty_transform("_fft_c2r", self, dims, true);
  TORCH_CHECK(last_dim_size >= 1, "_fft_c2r: Invalid number of data points (", last_dim_size, ") specified");
  c10_npu::NPUGuard guard(self.device());
  std::vector<int64_t> sizes(self.sizes().begin(), self.sizes().end());
  sizes[dims.back()] = last_dim_size;
  at::Tensor out = OpPreparation::apply_tensor_without_format(
      sizes, self.options().dtype(c10::toRealValueType(self.scalar_type())));
  if (empty) return out;
  const at::Tensor input = stored_values(self);
  EXEC_NPU_CMD(aclnnFftC2R, input, at::IntArrayRef(dims), normalization, last_dim_size, out);
  return out;
}

at::Tensor& _fft_c2r_out(const at::Tensor& self, at::IntArrayRef dim, int64_t normalization, int64_t last_dim_size,
                         at::Tensor& out) {
  return copy_into_out(op_api::_fft_c2r(self, dim, normalization, last_dim_size), out);
}

at::Tensor _fft_c2c(const at::Tensor& self, at::IntArrayRef dim, int64_t normalization, bool forward) {
  TORCH_CHECK(self.is_complex(), "_fft_c2c: expected a complex self, got ", self.scalar_type());
  TORCH_CHECK(self.scalar_type() == at::kComplexFloat || self.scalar_type() == at::kComplexDouble,
              "_fft_c2c: unsupported dtype ", self.scalar_type());
  c10_npu::NPUGuard guard(self.device());
  const std::vector<int64_t> dims = wrap_dims(self, dim);
  const bool empty = !dims.empty() && is_empty_transform("_fft_c2c", self, dims, false);
  at::Tensor out = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  if (empty) return out;
  const at::Tensor input = stored_values(self);
  EXEC_NPU_CMD(aclnnFftC2C, input, at::IntArrayRef(dims), normalization, forward, out);
  return out;
}

at::Tensor& _fft_c2c_out(const at::Tensor& self, at::IntArrayRef dim, int64_t normalization, bool forward,
                         at::Tensor& out) {
  return copy_into_out(op_api::_fft_c2c(self, dim, normalization, forward), out);
}

}  // namespace op_api
