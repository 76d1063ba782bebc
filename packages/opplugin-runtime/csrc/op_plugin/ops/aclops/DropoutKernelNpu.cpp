// native_dropout on the acl_op path: "StatelessDropOutGenMask" draws CANN's bit mask (keep probability 1 - p,
// from the npu generator's Philox seed and offset) and "DropOutDoMask" applies it (x / (1 - p) where kept).
// ATen's contract is a bool mask of the input's shape: the bits are unpacked by applying the same bit mask to
// ones with keep probability 1 and casting to bool. p = 1 keeps nothing (input * 0, as op_api); checks and
// messages are the op_api kernel's. The values differ from op_api's draw (another stream of the generator).
// native_dropout_backward takes that bool mask: "MaskedScale" computes grad * mask * scale, as op_api's
// aclnnMaskedScale (upstream applies its bit mask with DropOutDoMask, which ATen's bool mask is not).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/ones.h>

#include <tuple>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGenerator.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/native_dropout.h"
#include "op_plugin/ops/native_dropout_backward.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/DropoutUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;

constexpr int64_t kMaskAlignBits = 128;  // CANN's mask covers whole 128-bit blocks

// y = x / keep_prob where the bit of `bit_mask` is set, else 0.
at::Tensor do_mask(const at::Tensor& x, const at::Tensor& bit_mask, double keep_prob) {
  at::Tensor y = OpPreparation::apply_tensor_without_format(x.sizes(), x.options());
  OpCommand cmd;
  cmd.Name("DropOutDoMask");
  op_plugin::utils::AddInputAs(cmd, x, x.scalar_type());
  cmd.Input(bit_mask).Input(at::Scalar(keep_prob), x.scalar_type()).Output(y).Run();
  return y;
}

}  // namespace

std::tuple<at::Tensor, at::Tensor> native_dropout(const at::Tensor& input, double p, c10::optional<bool> train) {
  c10_npu::NPUGuard guard(input.device());
  at::Tensor mask;
  if (auto done = op_plugin::utils::dropout_without_draw(input, p, train, &mask)) return *done;
  const double keep = 1.0 - p;
  if (keep == 0.0) {  // nothing kept: DropOutDoMask would divide by 0
    mask.fill_(false);
    at::Tensor output = OpPreparation::apply_tensor_without_format(input.sizes(), input.options());
    OpCommand muls;
    muls.Name("Muls").Input(input).Output(output).Attr("value", 0.0f).Run();
    return std::make_tuple(output, mask);
  }
  const auto [seed, offset] = c10_npu::philoxInputsFor(c10::nullopt, input.device(), "native_dropout");
  const int64_t bits = (input.numel() + kMaskAlignBits - 1) / kMaskAlignBits * kMaskAlignBits;
  at::Tensor bit_mask = OpPreparation::apply_tensor_without_format({bits / 8}, input.options().dtype(at::kByte));
  const int64_t counter[] = {0, static_cast<int64_t>(offset)};
  OpCommand gen;
  gen.Name("StatelessDropOutGenMask")
      .Input(input.sizes(), at::kLong)
      .Input(at::Scalar(keep), input.scalar_type())
      .Input(at::Scalar(static_cast<int64_t>(seed)), at::kLong)
      .Input(at::Scalar(static_cast<int64_t>(0)), at::kLong)
      .Input(at::IntArrayRef(counter), at::kLong)
      .Output(bit_mask)
      .Run();
  const at::Tensor output = do_mask(input, bit_mask, keep);
  const at::Tensor kept = do_mask(at::ones(input.sizes(), input.options()), bit_mask, 1.0);
  mask.copy_(op_plugin::utils::cast_for_acl_op(kept, at::kBool));
  return std::make_tuple(output, mask);
}

at::Tensor native_dropout_backward(const at::Tensor& grad_output, const at::Tensor& mask, double scale) {
  return op_plugin::utils::dropout_backward(
      grad_output, mask, scale, [scale](const at::Tensor& grad, const at::Tensor& mask_bytes, at::Tensor& grad_input) {
        OpCommand cmd;
        cmd.Name("MaskedScale").Input(grad).Input(mask_bytes).Output(grad_input).Attr("value", static_cast<float>(scale));
        cmd.Run();
      });
}

}  // namespace acl_op
