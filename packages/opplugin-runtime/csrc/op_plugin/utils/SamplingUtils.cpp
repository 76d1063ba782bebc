#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "op_plugin/utils/SamplingUtils.h"

#include "npu/core/NPUGenerator.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/utils/AclOpUtils.h"

namespace op_plugin::utils {

std::vector<int64_t> multinomial_shape(const at::Tensor& self, int64_t num_samples, bool replacement) {
  TORCH_CHECK(self.dim() > 0 && self.dim() <= 2, "prob_dist must be 1 or 2 dim");
  TORCH_CHECK(at::isFloatingType(self.scalar_type()),
              "multinomial only supports floating-point dtypes for input, got: ", self.scalar_type());
  TORCH_CHECK(num_samples > 0, "cannot sample n_sample <= 0 samples");
  const int64_t n_categories = self.size(-1);
  TORCH_CHECK(replacement || num_samples <= n_categories,
              "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  TORCH_CHECK(n_categories <= (int64_t{1} << 24), "number of categories cannot exceed 2^24");
  if (self.dim() == 1) return {num_samples};
  return {self.size(0), num_samples};
}

void check_multinomial_out(const at::Tensor& out) {
  TORCH_CHECK(out.scalar_type() == at::kLong, "multinomial expects Long tensor out, got: ", out.scalar_type());
}

void check_randperm_out(int64_t n, const at::Tensor& out) {
  TORCH_CHECK(n >= 0, "n must be non-negative, got", n);
  TORCH_CHECK(out.scalar_type() != at::kBool && !out.is_complex(), "randperm: out of dtype ", out.scalar_type(),
              " is not supported on npu");
}

namespace {

void draw_multinomial(const at::Tensor& self, c10::optional<at::Generator> generator, at::Tensor& out,
                      const SamplingLaunch& launch) {
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() == 0 || out.numel() == 0) return;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, self.device(), "multinomial");
  write_through_base_format(out, [&](at::Tensor& dense) {
    launch(dense, static_cast<int64_t>(seed), static_cast<int64_t>(offset));
  });
}

}  // namespace

at::Tensor multinomial(const at::Tensor& self, int64_t num_samples, bool replacement,
                       c10::optional<at::Generator> generator, const SamplingLaunch& launch) {
  const std::vector<int64_t> shape = multinomial_shape(self, num_samples, replacement);
  at::Tensor out = at_npu::native::OpPreparation::apply_tensor_without_format(shape, self.options().dtype(at::kLong));
  draw_multinomial(self, generator, out, launch);
  return out;
}

at::Tensor& multinomial_out(const at::Tensor& self, int64_t num_samples, bool replacement,
                            c10::optional<at::Generator> generator, at::Tensor& out, const SamplingLaunch& launch) {
  check_multinomial_out(out);
  const std::vector<int64_t> shape = multinomial_shape(self, num_samples, replacement);
  if (!out.sizes().equals(shape)) out.resize_(shape);
  draw_multinomial(self, generator, out, launch);
  return out;
}

at::Tensor& randperm_out(int64_t n, c10::optional<at::Generator> generator, at::Tensor& out,
                         const SamplingLaunch& launch) {
  check_randperm_out(n, out);
  if (!out.sizes().equals({n})) out.resize_({n});
  c10_npu::NPUGuard guard(out.device());
  if (n == 0) return out;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, out.device(), "randperm");
  return write_through_base_format(out, [&](at::Tensor& dense) {
    launch(dense, static_cast<int64_t>(seed), static_cast<int64_t>(offset));
  });
}

}  // namespace op_plugin::utils
