// abs / abs.out / abs_ on the acl_op path ("Abs"). The dual path sends
// internal-format inputs here (op_api takes base formats only): an input in
// FRACTAL_NZ or NC1HWC0 is computed on its padded storage and the result keeps
// its format; an out= in another format gets the values through copy_.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include "npu/core/NPUGuard.h"
#include "npu/format/FormatHelper.h"
#include "npu/acl_op/OpCommand.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/abs.h"
#include "op_plugin/utils/AclOpUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;

void abs_out_nocheck(at::Tensor& result, const at::Tensor& self) {
  const aclFormat format = op_plugin::utils::elementwise_internal_format({result, self});
  if (format == ACL_FORMAT_ND && !at_npu::native::FormatHelper::IsOpInputBaseFormat(result)) {
    at::Tensor temp = OpPreparation::apply_tensor_without_format(result.sizes(), result.options());
    abs_out_nocheck(temp, self);
    result.copy_(temp);
    return;
  }
  OpCommand cmd;
  cmd.Name("Abs");
  op_plugin::utils::AddInputAs(cmd, self, result.scalar_type(), format);
  cmd.Output(result).Run();
}

}  // namespace

at::Tensor abs(const at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  at::Tensor result = op_plugin::utils::apply_result(self.sizes(), self.options(),
                                                     op_plugin::utils::elementwise_internal_format({self}));
  abs_out_nocheck(result, self);
  return result;
}

at::Tensor& abs_out(const at::Tensor& self, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self}, out, self.scalar_type(), self.sizes());
  if (out.scalar_type() == self.scalar_type()) {
    abs_out_nocheck(out, self);
  } else {
    at::Tensor result = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
    abs_out_nocheck(result, self);
    out.copy_(result);
  }
  return out;
}

at::Tensor& abs_(at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  abs_out_nocheck(self, self);
  return self;
}

}  // namespace acl_op
