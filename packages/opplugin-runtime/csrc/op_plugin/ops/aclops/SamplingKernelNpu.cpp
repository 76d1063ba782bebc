// multinomial (+ out=) and randperm.generator_out on the acl_op path: "MultinomialWithReplacement" and
// "StatelessRandperm" with a (seed, offset) pair reserved from the npu generator as host constants, as
// upstream's acl_op kernels run them. Checks and messages are op_plugin::utils' (SamplingUtils.h), shared
// with the op_api kernels.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGenerator.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/multinomial.h"
#include "op_plugin/ops/randperm.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/SamplingUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;

void run_multinomial(const at::Tensor& self, int64_t num_samples, bool replacement,
                     c10::optional<at::Generator> generator, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  if (self.numel() == 0 || out.numel() == 0) return;
  const auto [seed, offset] = c10_npu::philoxInputsFor(generator, self.device(), "multinomial");
  op_plugin::utils::write_through_base_format(out, [&](at::Tensor& result) {
    OpCommand cmd;
    cmd.Name("MultinomialWithReplacement");
    op_plugin::utils::AddInputAs(cmd, self, self.scalar_type());
    cmd.Input(c10::Scalar(static_cast<int64_t>(seed)), at::kLong)
        .Input(c10::Scalar(static_cast<int64_t>(offset)), at::kLong)
        .Output(result)
        .Attr("numsamples", num_samples)
        .Attr("replacement", replacement)
        .Run();
  });
}

}  // namespace

at::Tensor multinomial(const at::Tensor& self, int64_t num_samples, bool replacement,
                       c10::optional<at::Generator> generator) {
  const std::vector<int64_t> shape = op_plugin::utils::multinomial_shape(self, num_samples, replacement);
  at::Tensor out = at_npu::native::OpPreparation::apply_tensor_without_format(shape, self.options().dtype(at::kLong));
  run_multinomial(self, num_samples, replacement, generator, out);
  return out;
}

at::Tensor& multinomial_out(const at::Tensor& self, int64_t num_samples, bool replacement,
                            c10::optional<at::Generator> generator, at::Tensor& out) {
  op_plugin::utils::check_multinomial_out(out);
  const std::vector<int64_t> shape = op_plugin::utils::multinomial_shape(self, num_samples, replacement);
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
  return op_plugin::utils::write_through_base_format(out, [&](at::Tensor& result) {
    OpCommand cmd;
    cmd.Name("StatelessRandperm")
        .Input(c10::Scalar(n), at::kLong)
        .Input(c10::Scalar(static_cast<int64_t>(seed)), at::kLong)
        .Input(c10::Scalar(static_cast<int64_t>(offset)), at::kLong)
        .Output(result)
        .Attr("layout", static_cast<int64_t>(1))
        .Attr("dtype", out.scalar_type())
        .Run();
  });
}

}  // namespace acl_op
