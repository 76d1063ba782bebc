// multinomial (+ out=) and randperm.generator_out on the op_api path: the device's
// sampling kernels (aclnnMultinomial, aclnnRandperm) with a (seed, offset) pair
// reserved from the npu generator. torch.randperm (the factory) is composite over
// randperm.generator_out. Invalid weights (negative, inf, NaN, a zero row) fail the
// device kernel, as a device-side assertion does on CUDA.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include "npu/core/NPUGenerator.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/multinomial.h"
#include "op_plugin/ops/randperm.h"
#include "op_plugin/utils/SamplingUtils.h"

namespace op_api {
namespace {

using op_plugin::utils::multinomial_shape;

void run_multinomial(const at::Tensor& self, int64_t num_samples, bool replacement,
                     c10::optional<at::Generator> generator, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() == 0 || out.numel() == 0) return;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, self.device(), "multinomial");
  EXEC_NPU_CMD(aclnnMultinomial, self, num_samples, replacement, static_cast<int64_t>(seed),
               static_cast<int64_t>(offset), out);
}

}  // namespace

at::Tensor multinomial(const at::Tensor& self, int64_t num_samples, bool replacement,
                       c10::optional<at::Generator> generator) {
  const std::vector<int64_t> shape = multinomial_shape(self, num_samples, replacement);
  at::Tensor out = at_npu::native::OpPreparation::apply_tensor_without_format(shape, self.options().dtype(at::kLong));
  run_multinomial(self, num_samples, replacement, generator, out);
  return out;
}

at::Tensor& multinomial_out(const at::Tensor& self, int64_t num_samples, bool replacement,
                            c10::optional<at::Generator> generator, at::Tensor& out) {
  op_plugin::utils::check_multinomial_out(out);
  const std::vector<int64_t> shape = multinomial_shape(self, num_samples, replacement);
  if (!out.sizes().equals(shape)) out.resize_(shape);
  run_multinomial(self, num_samples, replacement, generator, out);
  return out;
}

at::Tensor& randperm_out(int64_t n, c10::optional<at::Generator> generator, at::Tensor& out) {
  op_plugin::utils::check_randperm_out(n, out);
  if (!out.sizes().equals({n})) out.resize_({n});
  c10_npu::NPUGuard guard(out.device());
  if (n == 0) return out;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, out.device(), "randperm");
  EXEC_NPU_CMD(aclnnRandperm, n, static_cast<int64_t>(seed), static_cast<int64_t>(offset), out);
  return out;
}

}  // namespace op_api
