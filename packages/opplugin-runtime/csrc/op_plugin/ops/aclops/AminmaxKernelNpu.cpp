// aminmax (+ out=) on the acl_op path: amin and amax over dim (every dimension when absent), each through its
// own acl_op kernel ("ReduceMin", "ReduceMax"), as upstream composes it. aminmax.out is structured (the meta
// function has checked and sized min and max); the check of self is the op_api kernel's.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <tuple>
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/WrapDimMinimal.h>

#include "npu/core/NPUGuard.h"
#include "op_plugin/ops/amax.h"
#include "op_plugin/ops/amin.h"
#include "op_plugin/ops/aminmax.h"
#include "op_plugin/utils/ReductionUtils.h"

namespace acl_op {

std::tuple<at::Tensor&, at::Tensor&> aminmax_out(const at::Tensor& self, c10::optional<int64_t> dim, bool keepdim,
                                                 at::Tensor& min, at::Tensor& max) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_real_reduction("aminmax", self);
  if (self.numel() == 0) {
    return std::tie(min, max);
  }
  std::vector<int64_t> dims;  // empty: every dimension
  if (dim.has_value() && self.dim() > 0) {
    dims.push_back(c10::maybe_wrap_dim(*dim, self.dim()));
  }
  acl_op::amin_out(self, dims, keepdim, min);
  acl_op::amax_out(self, dims, keepdim, max);
  return std::tie(min, max);
}

}  // namespace acl_op
