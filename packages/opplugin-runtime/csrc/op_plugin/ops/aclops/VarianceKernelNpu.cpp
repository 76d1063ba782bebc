// var / std (+ out=, + _mean) on the acl_op path: the mean by "ReduceMeanD" (the reduced dimensions an
// attribute), then "ReduceStdV2Update" (var) or "ReduceStdWithMean" (std) of self and the mean broadcast to
// self's shape. CANN's divisor is N - correction with an integral correction below N; any other correction
// (1.3, inf, N or more) runs with 0 and the result is scaled to CPU's divisor max(0, N - correction), as on
// the op_api path. Checks and result shapes are the op_api kernels' (op_plugin/utils/ReductionUtils.h).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <limits>
#include <tuple>
#include <vector>

#include <ATen/core/Tensor.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/std.h"
#include "op_plugin/ops/std_mean.h"
#include "op_plugin/ops/var.h"
#include "op_plugin/ops/var_mean.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/ReductionUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;
using op_plugin::utils::Correction;
using op_plugin::utils::DimReduction;

// The reduced dimensions named in full (every dimension when none are named) and their element count.
struct Reduced {
  std::vector<int64_t> dims;
  int64_t count = 1;
};

Reduced reduced_of(const at::Tensor& self, const DimReduction& r) {
  Reduced reduced;
  reduced.dims = r.dims;
  if (reduced.dims.empty()) {
    for (int64_t d = 0; d < self.dim(); ++d) reduced.dims.push_back(d);
  }
  for (const int64_t d : reduced.dims) reduced.count *= self.size(d);
  return reduced;
}

// The mean of self over the reduced dimensions, kept as size 1.
at::Tensor mean_keepdim(const at::Tensor& self, const Reduced& reduced) {
  std::vector<int64_t> size = self.sizes().vec();
  for (const int64_t d : reduced.dims) size[static_cast<size_t>(d)] = 1;
  at::Tensor mean = OpPreparation::apply_tensor_without_format(size, self.options());
  OpCommand cmd;
  cmd.Name("ReduceMeanD");
  op_plugin::utils::AddInputAs(cmd, self, self.scalar_type(), ACL_FORMAT_ND);
  cmd.Output(mean).Attr("axes", at::IntArrayRef(reduced.dims)).Attr("keep_dims", true).Run();
  return mean;
}

// result (dense, of the reduction's shape) <- the variance (standard deviation when take_sqrt) of self.
void deviation(bool take_sqrt, const at::Tensor& self, const Reduced& reduced, const at::Tensor& mean,
               const Correction& c, bool keepdim, at::Tensor& result) {
  if (reduced.count == 0) {
    result.fill_(std::numeric_limits<double>::quiet_NaN());  // CPU's value over no elements
    return;
  }
  const bool direct = !c.rescale && reduced.count > c.integral;
  const int64_t correction = direct ? c.integral : 0;
  OpCommand cmd;
  cmd.Name(take_sqrt ? "ReduceStdWithMean" : "ReduceStdV2Update");
  op_plugin::utils::AddInputAs(cmd, self, self.scalar_type(), ACL_FORMAT_ND);
  op_plugin::utils::AddInputAs(cmd, mean.expand(self.sizes()), self.scalar_type(), ACL_FORMAT_ND);
  cmd.Output(result).Attr("dim", at::IntArrayRef(reduced.dims));
  if (!take_sqrt) {
    cmd.Attr("if_std", false);
  }
  cmd.Attr("unbiased", correction != 0).Attr("keepdim", keepdim).Attr("correction", correction).Run();
  if (!direct) {
    result.mul_(op_plugin::utils::correction_rescale_factor(c, take_sqrt, reduced.count));
  }
}

at::Tensor& deviation_out(bool take_sqrt, const at::Tensor& self, at::OptionalIntArrayRef dim,
                          const c10::optional<at::Scalar>& correction, bool keepdim, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_var_self(self);
  const Correction c = op_plugin::utils::correction_of(correction);
  const DimReduction r = op_plugin::utils::reduce_dims(self, dim, keepdim);
  op_plugin::utils::check_var_std_out(take_sqrt ? "std" : "var", self, out);
  OpPreparation::check_tensor({self}, out, self.scalar_type(), r.out_size);
  const Reduced reduced = reduced_of(self, r);
  return op_plugin::utils::write_through_base_format(out, [&](at::Tensor& result) {
    deviation(take_sqrt, self, reduced, mean_keepdim(self, reduced), c, keepdim, result);
  });
}

std::tuple<at::Tensor, at::Tensor> deviation_mean(bool take_sqrt, const at::Tensor& self, at::OptionalIntArrayRef dim,
                                                  const c10::optional<at::Scalar>& correction, bool keepdim) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_var_self(self);
  const Correction c = op_plugin::utils::correction_of(correction);
  const DimReduction r = op_plugin::utils::reduce_dims(self, dim, keepdim);
  const Reduced reduced = reduced_of(self, r);
  at::Tensor result = OpPreparation::apply_tensor_without_format(r.out_size, self.options());
  const at::Tensor mean = mean_keepdim(self, reduced);
  if (result.numel() > 0) {
    deviation(take_sqrt, self, reduced, mean, c, keepdim, result);
  }
  return std::make_tuple(result, mean.reshape(r.out_size));
}

at::Tensor deviation_only(bool take_sqrt, const at::Tensor& self, at::OptionalIntArrayRef dim,
                          const c10::optional<at::Scalar>& correction, bool keepdim) {
  op_plugin::utils::check_var_self(self);
  at::Tensor out = OpPreparation::apply_tensor_without_format(op_plugin::utils::reduce_dims(self, dim, keepdim).out_size,
                                                              self.options());
  return deviation_out(take_sqrt, self, dim, correction, keepdim, out);
}

}  // namespace

at::Tensor& var_out(const at::Tensor& self, at::OptionalIntArrayRef dim, const c10::optional<at::Scalar>& correction,
                    bool keepdim, at::Tensor& out) {
  return deviation_out(false, self, dim, correction, keepdim, out);
}

at::Tensor var(const at::Tensor& self, at::OptionalIntArrayRef dim, const c10::optional<at::Scalar>& correction,
               bool keepdim) {
  return deviation_only(false, self, dim, correction, keepdim);
}

std::tuple<at::Tensor, at::Tensor> var_mean(const at::Tensor& self, at::OptionalIntArrayRef dim,
                                            const c10::optional<at::Scalar>& correction, bool keepdim) {
  return deviation_mean(false, self, dim, correction, keepdim);
}

at::Tensor& std_out(const at::Tensor& self, at::OptionalIntArrayRef dim, const c10::optional<at::Scalar>& correction,
                    bool keepdim, at::Tensor& out) {
  return deviation_out(true, self, dim, correction, keepdim, out);
}

at::Tensor std(const at::Tensor& self, at::OptionalIntArrayRef dim, const c10::optional<at::Scalar>& correction,
               bool keepdim) {
  return deviation_only(true, self, dim, correction, keepdim);
}

std::tuple<at::Tensor, at::Tensor> std_mean(const at::Tensor& self, at::OptionalIntArrayRef dim,
                                            const c10::optional<at::Scalar>& correction, bool keepdim) {
  return deviation_mean(true, self, dim, correction, keepdim);
}

}  // namespace acl_op
