// exponential_, cauchy_, log_normal_, geometric_, random_ (from/to, to, none) and
// normal with tensor moments (Tensor_float, float_Tensor, Tensor_Tensor and their out=)
// on the op_api path: the device's counter-based random kernels (aclnnInplaceExponential,
// aclnnInplaceCauchy, aclnnInplaceLogNormal, aclnnInplaceGeometric, aclnnInplaceRandom,
// aclnnNormalTensorFloat/FloatTensor/TensorTensor) with a (seed, offset) pair reserved
// from the npu generator. The values come from the
// device's Philox stream, not CPU's mt19937; the argument checks are CPU's.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <c10/core/ScalarType.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "npu/core/NPUGenerator.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/cauchy.h"
#include "op_plugin/ops/exponential.h"
#include "op_plugin/ops/geometric.h"
#include "op_plugin/ops/log_normal.h"
#include "op_plugin/ops/normal.h"
#include "op_plugin/ops/random.h"
#include "op_plugin/utils/NormalUtils.h"
#include "op_plugin/utils/RandomUtils.h"

namespace op_api {
namespace {

void check_floating(const char* op, const at::Tensor& self) {
  TORCH_CHECK(at::isFloatingType(self.scalar_type()), op, " not implemented for '", toString(self.scalar_type()),
              "'");
}

// Fills self with integers in [from, last] (inclusive).
at::Tensor& random_inclusive(at::Tensor& self, int64_t from, int64_t last, c10::optional<at::Generator> generator) {
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() == 0) return self;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, self.device(), "random_");
  // [from, last] as the half-open [from, last + 1); int64's top value is left out (2^-63 of the mass).
  const int64_t to = last == std::numeric_limits<int64_t>::max() ? last : last + 1;
  EXEC_NPU_CMD(aclnnInplaceRandom, self, from, to, static_cast<int64_t>(seed), static_cast<int64_t>(offset));
  return self;
}

// out (already of the result's shape and a floating dtype) = mean + std * z.
at::Tensor& normal_into(const c10::optional<at::Tensor>& mean, double mean_value, const c10::optional<at::Tensor>& std,
                        double std_value, c10::optional<at::Generator> generator, at::Tensor& out) {
  op_plugin::utils::check_normal_out(out);
  c10_npu::NPUGuard guard(out.device());
  if (out.numel() == 0) return out;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, out.device(), "normal");
  const auto s = static_cast<int64_t>(seed);
  const auto o = static_cast<int64_t>(offset);
  if (mean.has_value() && std.has_value()) {
    EXEC_NPU_CMD(aclnnNormalTensorTensor, *mean, *std, s, o, out);
  } else if (mean.has_value()) {
    EXEC_NPU_CMD(aclnnNormalTensorFloat, *mean, static_cast<float>(std_value), s, o, out);
  } else {
    EXEC_NPU_CMD(aclnnNormalFloatTensor, static_cast<float>(mean_value), *std, s, o, out);
  }
  return out;
}

}  // namespace

at::Tensor normal(const at::Tensor& mean, double std, c10::optional<at::Generator> generator) {
  return op_plugin::utils::normal_tensor_float(mean, std, generator, &normal_into);
}

at::Tensor& normal_out(const at::Tensor& mean, double std, c10::optional<at::Generator> generator, at::Tensor& out) {
  return op_plugin::utils::normal_tensor_float_out(mean, std, generator, out, &normal_into);
}

at::Tensor normal(double mean, const at::Tensor& std, c10::optional<at::Generator> generator) {
  return op_plugin::utils::normal_float_tensor(mean, std, generator, &normal_into);
}

at::Tensor& normal_out(double mean, const at::Tensor& std, c10::optional<at::Generator> generator, at::Tensor& out) {
  return op_plugin::utils::normal_float_tensor_out(mean, std, generator, out, &normal_into);
}

at::Tensor normal(const at::Tensor& mean, const at::Tensor& std, c10::optional<at::Generator> generator) {
  return op_plugin::utils::normal_tensor_tensor(mean, std, generator, &normal_into);
}

at::Tensor& normal_out(const at::Tensor& mean, const at::Tensor& std, c10::optional<at::Generator> generator,
                       at::Tensor& out) {
  return op_plugin::utils::normal_tensor_tensor_out(mean, std, generator, out, &normal_into);
}

at::Tensor& exponential_(at::Tensor& self, double lambd, c10::optional<at::Generator> generator) {
  TORCH_CHECK(lambd > 0.0, "exponential_ expects lambda > 0.0, but found lambda=", lambd);
  check_floating("exponential", self);
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() == 0) return self;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, self.device(), "exponential_");
  EXEC_NPU_CMD(aclnnInplaceExponential, self, lambd, static_cast<int64_t>(seed), static_cast<int64_t>(offset));
  return self;
}

at::Tensor& cauchy_(at::Tensor& self, double median, double sigma, c10::optional<at::Generator> generator) {
  TORCH_CHECK(sigma > 0.0, "cauchy_ expects sigma > 0.0, but found sigma=", sigma);
  check_floating("cauchy", self);
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() == 0) return self;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, self.device(), "cauchy_");
  EXEC_NPU_CMD(aclnnInplaceCauchy, self, median, sigma, static_cast<int64_t>(seed), static_cast<int64_t>(offset));
  return self;
}

at::Tensor& log_normal_(at::Tensor& self, double mean, double std, c10::optional<at::Generator> generator) {
  TORCH_CHECK(std > 0.0, "log_normal_ expects std > 0.0, but found std=", std);
  check_floating("log_normal", self);
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() == 0) return self;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, self.device(), "log_normal_");
  EXEC_NPU_CMD(aclnnInplaceLogNormal, self, mean, std, static_cast<int64_t>(seed), static_cast<int64_t>(offset));
  return self;
}

at::Tensor& geometric_(at::Tensor& self, double p, c10::optional<at::Generator> generator) {
  TORCH_CHECK(0 < p && p < 1, "geometric_ expects p to be in (0, 1), but got p=", p);
  TORCH_CHECK(!self.is_complex() && self.scalar_type() != at::kBool, "geometric_ not implemented for '",
              toString(self.scalar_type()), "'");
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() == 0) return self;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, self.device(), "geometric_");
  EXEC_NPU_CMD(aclnnInplaceGeometric, self, p, static_cast<int64_t>(seed), static_cast<int64_t>(offset));
  return self;
}

at::Tensor& random_(at::Tensor& self, int64_t from, c10::optional<int64_t> to,
                    c10::optional<at::Generator> generator) {
  const auto [first, last] = op_plugin::utils::random_range(self, from, to);
  return random_inclusive(self, first, last, generator);
}

at::Tensor& random_(at::Tensor& self, int64_t to, c10::optional<at::Generator> generator) {
  return op_api::random_(self, 0, to, generator);
}

at::Tensor& random_(at::Tensor& self, c10::optional<at::Generator> generator) {
  const auto [first, last] = op_plugin::utils::random_full_range(self);
  return random_inclusive(self, first, last, generator);
}

}  // namespace op_api
