// triu ("Triu"), flip ("ReverseV2" of the constant dims), roll ("Roll"), take ("Gather" of the flattened
// self) and histc ("Histogram") on the acl_op path. Checks and messages are op_plugin::utils'
// (RearrangeUtils.h), shared with the op_api kernels; the ops run on base formats.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ops/where.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/format/FormatCast.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/flip.h"
#include "op_plugin/ops/histc.h"
#include "op_plugin/ops/roll.h"
#include "op_plugin/ops/take.h"
#include "op_plugin/ops/triu.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/RearrangeUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;

// A new base-format result of self's dtype.
at::Tensor new_result(c10::IntArrayRef sizes, const at::Tensor& self) {
  return OpPreparation::apply_tensor_without_format(sizes, self.options());
}

}  // namespace

at::Tensor& triu_out(const at::Tensor& self, int64_t diagonal, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  return op_plugin::utils::elementwise_acl_op_out("Triu", {self}, self.scalar_type(), self.scalar_type(), out,
                                                  [diagonal](OpCommand& cmd) { cmd.Attr("diagonal", diagonal); },
                                                  false);
}

at::Tensor flip(const at::Tensor& self, at::IntArrayRef dims) {
  op_plugin::utils::check_flip_dims(self, dims);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = new_result(self.sizes(), self);
  if (out.numel() > 0) {
    OpCommand cmd;
    cmd.Name("ReverseV2");
    op_plugin::utils::AddInputAs(cmd, self, self.scalar_type());
    cmd.Input(dims, at::kLong).Output(out).Run();
  }
  return out;
}

at::Tensor roll(const at::Tensor& self, at::IntArrayRef shifts, at::IntArrayRef dims) {
  op_plugin::utils::check_roll_args(self, shifts, dims);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = new_result(self.sizes(), self);
  if (out.numel() > 0) {
    OpCommand cmd;
    cmd.Name("Roll");
    op_plugin::utils::AddInputAs(cmd, self, self.scalar_type());
    cmd.Output(out).Attr("shifts", shifts).Attr("dims", dims).Run();
  }
  return out;
}

// Gather takes indices in [0, numel): a negative index counts from the end, as in ATen.
at::Tensor& take_out(const at::Tensor& self, const at::Tensor& index, at::Tensor& out) {
  op_plugin::utils::check_take_args(self, index);
  op_plugin::utils::check_take_out(self, out);
  c10_npu::NPUGuard guard(self.device());
  if (!out.sizes().equals(index.sizes())) {
    out.resize_(index.sizes());
  }
  if (out.numel() == 0) {
    return out;
  }
  const at::Tensor flat = at_npu::native::to_base_format(self, "take").reshape({-1});
  const at::Tensor wrapped = at::where(index.lt(0), index.add(self.numel()), index);
  return op_plugin::utils::write_through_base_format(out, [&](at::Tensor& result) {
    OpCommand cmd;
    cmd.Name("Gather");
    op_plugin::utils::AddInputAs(cmd, flat, self.scalar_type());
    op_plugin::utils::AddInputAs(cmd, wrapped, at::kLong);
    cmd.Output(result).Attr("validate_indices", false).Run();
  });
}

at::Tensor take(const at::Tensor& self, const at::Tensor& index) {
  op_plugin::utils::check_take_args(self, index);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = new_result(index.sizes(), self);
  return acl_op::take_out(self, index, out);
}

at::Tensor& histc_out(const at::Tensor& self, int64_t bins, const at::Scalar& min, const at::Scalar& max,
                      at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const auto [lo, hi] = op_plugin::utils::histc_range(self, bins, min, max, out);
  if (!out.sizes().equals({bins})) {
    out.resize_({bins});
  }
  return op_plugin::utils::write_through_base_format(out, [&](at::Tensor& result) {
    OpCommand cmd;
    cmd.Name("Histogram");
    op_plugin::utils::AddInputAs(cmd, self, self.scalar_type());
    cmd.Output(result).Attr("bins", bins).Attr("min", lo).Attr("max", hi).Run();
  });
}

at::Tensor histc(const at::Tensor& self, int64_t bins, const at::Scalar& min, const at::Scalar& max) {
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = new_result({std::max<int64_t>(bins, 0)}, self);
  return acl_op::histc_out(self, bins, min, max, out);
}

}  // namespace acl_op
