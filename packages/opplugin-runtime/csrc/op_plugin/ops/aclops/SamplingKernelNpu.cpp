// multinomial (+ out=) and randperm.generator_out on the acl_op path: "MultinomialWithReplacement" and
// "StatelessRandperm" with a (seed, offset) pair reserved from the npu generator as host constants, as
// upstream's acl_op kernels run them. The checks and the drawing around the launch are op_plugin::utils'
// (SamplingUtils.h), shared with the op_api kernels.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include "npu/acl_op/OpCommand.h"
#include "op_plugin/ops/multinomial.h"
#include "op_plugin/ops/randperm.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/SamplingUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;

op_plugin::utils::SamplingLaunch multinomial_launch(const at::Tensor& self, int64_t num_samples, bool replacement) {
  return [&self, num_samples, replacement](at::Tensor& out, int64_t seed, int64_t offset) {
    OpCommand cmd;
    cmd.Name("MultinomialWithReplacement");
    op_plugin::utils::AddInputAs(cmd, self, self.scalar_type());
    cmd.Input(c10::Scalar(seed), at::kLong)
        .Input(c10::Scalar(offset), at::kLong)
        .Output(out)
        .Attr("numsamples", num_samples)
        .Attr("replacement", replacement)
        .Run();
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
    OpCommand cmd;
    cmd.Name("StatelessRandperm")
        .Input(c10::Scalar(n), at::kLong)
        .Input(c10::Scalar(seed), at::kLong)
        .Input(c10::Scalar(offset), at::kLong)
        .Output(dense)
        .Attr("layout", static_cast<int64_t>(1))
        .Attr("dtype", dense.scalar_type())
        .Run();
  });
}

}  // namespace acl_op
