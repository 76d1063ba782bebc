// _cummax_helper / _cummin_helper on the acl_op path: "Cummax" (the dimension the attribute dim) and
// "Cummin" (the attribute axis) write values and int64 indices of self's shape, which reach values and
// indices through copy_; bool runs as uint8 (the types take no bool). Checks are the op_api kernels'.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <c10/core/WrapDimMinimal.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/_cummax_helper.h"
#include "op_plugin/ops/_cummin_helper.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/ReductionUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;

void running_extreme(bool is_max, const at::Tensor& self, at::Tensor& values, at::Tensor& indices, int64_t dim) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_real_reduction(is_max ? "cummax" : "cummin", self);
  op_plugin::utils::check_running_extreme_outs(self, values, indices);
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  if (self.numel() == 0) {
    return;
  }
  const at::ScalarType dtype = self.scalar_type() == at::kBool ? at::kByte : self.scalar_type();
  at::Tensor extreme = OpPreparation::apply_tensor_without_format(self.sizes(), self.options().dtype(dtype));
  at::Tensor index = OpPreparation::apply_tensor_without_format(self.sizes(), self.options().dtype(at::kLong));
  OpCommand cmd;
  cmd.Name(is_max ? "Cummax" : "Cummin");
  op_plugin::utils::AddInputAs(cmd, self, dtype, ACL_FORMAT_ND);
  cmd.Output(extreme).Output(index).Attr(is_max ? "dim" : "axis", wrapped).Run();
  values.copy_(extreme);
  indices.copy_(index);
}

}  // namespace

void _cummax_helper(const at::Tensor& self, at::Tensor& values, at::Tensor& indices, int64_t dim) {
  running_extreme(true, self, values, indices, dim);
}

void _cummin_helper(const at::Tensor& self, at::Tensor& values, at::Tensor& indices, int64_t dim) {
  running_extreme(false, self, values, indices, dim);
}

}  // namespace acl_op
