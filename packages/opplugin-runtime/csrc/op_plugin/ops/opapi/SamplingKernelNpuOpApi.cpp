// multinomial (+ out=) and randperm.generator_out on the op_api path: the device's
// sampling kernels (aclnnMultinomial, aclnnRandperm) with a (seed, offset) pair
// reserved from the npu generator. torch.randperm (the factory) is composite over
// randperm.generator_out. Invalid weights (negative, inf, NaN, a zero row) fail the
// device kernel, as a device-side assertion does on CUDA. The checks and the drawing
// around the launch are op_plugin::utils' (SamplingUtils.h), shared with acl_op.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/multinomial.h"
#include "op_plugin/ops/randperm.h"
#include "op_plugin/utils/SamplingUtils.h"

namespace op_api {
namespace {

op_plugin::utils::SamplingLaunch multinomial_launch(const at::Tensor& self, int64_t num_samples, bool replacement) {
  return [&self, num_samples, replacement](at::Tensor& out, int64_t seed, int64_t offset) {
    EXEC_NPU_CMD(aclnnMultinomial, self, num_samples, replacement, seed, offset, out);
  };
}

}  // namespace

at::Tensor multinomial(const at::Tensor& self, int64_t num_samples, bool replacement,
                       c10::optional<at::Generator> generator) {
  return op_plugin::utils::multinomial(self, num_samples, replacement, generator,
                                       multinomial_launch(self, num_samples, replacement));
}

at::Tensor& multinomial_out(const at::Tensor& self, int64_t num_samples, bool replacement,
                            c10::optional<at::Generator> generator, at::Tensor& out) {
  return op_plugin::utils::multinomial_out(self, num_samples, replacement, generator, out,
                                           multinomial_launch(self, num_samples, replacement));
}

at::Tensor& randperm_out(int64_t n, c10::optional<at::Generator> generator, at::Tensor& out) {
  return op_plugin::utils::randperm_out(n, generator, out, [n](at::Tensor& dense, int64_t seed, int64_t offset) {
    EXEC_NPU_CMD(aclnnRandperm, n, seed, offset, dense);
  });
}

}  // namespace op_api
