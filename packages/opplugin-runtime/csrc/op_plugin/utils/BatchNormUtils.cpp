#include "op_plugin/utils/BatchNormUtils.h"

#include <array>
#include <limits>
#include <utility>

#include "npu/core/TorchCompat.h"

namespace op_plugin::utils {

void check_batch_norm(const char* op, const at::Tensor& input, const at::Tensor& weight, const at::Tensor& bias,
                      const at::Tensor& running_mean, const at::Tensor& running_var, bool training) {
  TORCH_CHECK(input.dim() >= 2, op, ": input must have at least 2 dimensions (N, C, ...), got ", input.dim());
  TORCH_CHECK(input.scalar_type() == at::kFloat || input.scalar_type() == at::kHalf ||
                  input.scalar_type() == at::kBFloat16,
              op, ": input has dtype ", input.scalar_type(), "; npu supports Float, Half and BFloat16");
  const int64_t channels = input.size(1);
  const std::array<std::pair<const at::Tensor*, const char*>, 4> per_channel = {
      {{&weight, "weight"}, {&bias, "bias"}, {&running_mean, "running_mean"}, {&running_var, "running_var"}}};
  for (const auto& [t, name] : per_channel) {
    if (t->defined()) {
      TORCH_CHECK(t->numel() == channels, op, ": ", name, " should contain ", channels, " elements not ",
                  t->numel());
    }
  }
  TORCH_CHECK(training || (running_mean.defined() && running_var.defined()), op,
              ": running_mean and running_var must be defined in evaluation mode");
}

void check_batch_norm_forward(const char* op, const at::Tensor& input, const at::Tensor& weight,
                              const at::Tensor& bias, const at::Tensor& running_mean, const at::Tensor& running_var,
                              bool training) {
  check_batch_norm(op, input, weight, bias, running_mean, running_var, training);
#if NPU_BATCH_NORM_REJECTS_EMPTY_TRAINING
  TORCH_CHECK(!training || input.numel() > 0, op, ": input tensor must have at least one element, but got "
              "input_sizes = ", input.sizes());
#endif
}

void check_batch_norm_backward(const char* op, const at::Tensor& grad_out, const at::Tensor& input,
                               const at::Tensor& weight, const at::Tensor& running_mean,
                               const at::Tensor& running_var, const at::Tensor& save_mean,
                               const at::Tensor& save_invstd, bool train) {
  check_batch_norm(op, input, weight, at::Tensor(), running_mean, running_var, train);
  TORCH_CHECK(grad_out.sizes() == input.sizes(), op, ": grad_out shape ", grad_out.sizes(),
              " differs from input shape ", input.sizes());
  if (train) {
    TORCH_CHECK(save_mean.defined() && save_invstd.defined() && save_mean.numel() == input.size(1) &&
                    save_invstd.numel() == input.size(1),
                op, ": training needs save_mean and save_invstd of ", input.size(1), " elements");
  }
}

void batch_norm_empty_stats(at::Tensor& save_mean, at::Tensor& save_invstd, const at::Tensor& running_mean,
                            const at::Tensor& running_var, bool training, double eps) {
  if (training) {
    save_mean.fill_(std::numeric_limits<double>::quiet_NaN());
    save_invstd.fill_(std::numeric_limits<double>::quiet_NaN());
    return;
  }
  const int64_t channels = save_mean.numel();
  save_mean.copy_(running_mean.reshape({channels}));
  save_invstd.copy_(running_var.reshape({channels}).to(at::kFloat).add(eps).rsqrt());
}

}  // namespace op_plugin::utils
