// uniform_, normal_, bernoulli_.float and bernoulli_.Tensor on the op_api path:
// the device's counter-based random kernels (aclnnInplaceUniform, aclnnInplaceNormal,
// aclnnInplaceBernoulli, aclnnInplaceBernoulliTensor) with a (seed, offset) pair
// reserved from the npu generator (npu/core/NPUGenerator.h). torch.rand/randn/
// rand_like/bernoulli reach these through their composite definitions.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include <limits>

#include "npu/core/NPUGenerator.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/bernoulli.h"
#include "op_plugin/ops/normal.h"
#include "op_plugin/ops/uniform.h"

namespace op_api {
namespace {

void check_floating(const char* op, const at::Tensor& self) {
  TORCH_CHECK(at::isFloatingType(self.scalar_type()), op, ": self has dtype ", self.scalar_type(),
              "; expected a floating point dtype (float, half, bfloat16, double)");
}

}  // namespace

at::Tensor& uniform_(at::Tensor& self, double from, double to, c10::optional<at::Generator> generator) {
  check_floating("uniform_", self);
  TORCH_CHECK(from <= to, "uniform_ expects to return a [from, to) range, but found from=", from, " > to=", to);
  TORCH_CHECK(to - from <= std::numeric_limits<double>::max(), "uniform_ expects to-from to be finite, but found to=",
              to, " and from=", from);
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() == 0) return self;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, self.device(), "uniform_");
  EXEC_NPU_CMD(aclnnInplaceUniform, self, from, to, seed, offset);
  return self;
}

at::Tensor& normal_(at::Tensor& self, double mean, double std, c10::optional<at::Generator> generator) {
  check_floating("normal_", self);
  TORCH_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() == 0) return self;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, self.device(), "normal_");
  // aclnnInplaceNormal takes float moments (as CANN's does).
  EXEC_NPU_CMD(aclnnInplaceNormal, self, static_cast<float>(mean), static_cast<float>(std),
               static_cast<int64_t>(seed), static_cast<int64_t>(offset));
  return self;
}

at::Tensor& bernoulli_(at::Tensor& self, double p, c10::optional<at::Generator> generator) {
  TORCH_CHECK(0 <= p && p <= 1, "bernoulli_ expects p to be in [0, 1], but got p=", p);
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() == 0) return self;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, self.device(), "bernoulli_");
  EXEC_NPU_CMD(aclnnInplaceBernoulli, self, at::Scalar(p), static_cast<int64_t>(seed), static_cast<int64_t>(offset));
  return self;
}

at::Tensor& bernoulli_(at::Tensor& self, const at::Tensor& p, c10::optional<at::Generator> generator) {
  TORCH_CHECK(at::isFloatingType(p.scalar_type()), "bernoulli_: p has dtype ", p.scalar_type(),
              "; expected a floating point dtype");
  c10_npu::NPUGuard guard(self.device());
  // A CPU p (a Python float wrapped, or a CPU tensor) is copied to the device first.
  const at::Tensor p_npu = p.device() == self.device() ? p : p.to(self.device());
  const at::Tensor p_expanded = p_npu.expand(self.sizes());  // raises like CPU when p does not broadcast
  if (self.numel() == 0) return self;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, self.device(), "bernoulli_");
  EXEC_NPU_CMD(aclnnInplaceBernoulliTensor, self, p_expanded, static_cast<int64_t>(seed),
               static_cast<int64_t>(offset));
  return self;
}

}  // namespace op_api
