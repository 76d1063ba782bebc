// norm with dims (+ dtype, + out=) and linalg_vector_norm (+ out=) on the acl_op path: "LpNormReduceV2"
// (sum |x|^p over the reduced dimensions, an attribute) then "LpNormUpdateV2" (its 1/p-th power), in float32
// (float16 and bfloat16 are cast to it; float64 is not a dtype of these types). CANN takes p as a float with
// INT_MAX / INT_MIN standing for +-inf: a finite p that rounds to one of them, and a NaN p, are refused rather
// than read as another order. A norm of no elements is 0 without running them. Checks are the op_api
// kernels' (op_plugin/utils/ReductionUtils.h); linalg_vector_norm.out is structured. renorm (structured) runs
// "Renorm", which gives each slice's factor, and multiplies self by it.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <cmath>
#include <vector>

#include <ATen/core/Tensor.h>
#include <ATen/ops/mul.h>
#include <c10/core/WrapDimMinimal.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/linalg_vector_norm.h"
#include "op_plugin/ops/norm.h"
#include "op_plugin/ops/renorm.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/ReductionUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;

constexpr float kPlusInfOrder = 2147483648.0f;  // INT_MAX as a float
constexpr float kMinusInfOrder = -2147483648.0f;

float cann_order(const char* op, double p) {
  TORCH_CHECK(!std::isnan(p), op, ": an order of NaN is not supported on the acl_op path");
  if (std::isinf(p)) {
    return p > 0 ? kPlusInfOrder : kMinusInfOrder;
  }
  const float order = static_cast<float>(p);
  TORCH_CHECK(order != kPlusInfOrder && order != kMinusInfOrder, op, ": the order ", p,
              " is not supported on the acl_op path (CANN reads it as an infinite order)");
  return order;
}

// out (sized, of the reduction's shape) <- the p-norm of self over `dims` (none: every dimension).
at::Tensor& vector_norm_out(const char* op, const at::Tensor& self, double p, const std::vector<int64_t>& dims,
                            bool keepdim, at::Tensor& out) {
  const float order = cann_order(op, p);
  int64_t count = 1;
  if (dims.empty()) {
    count = self.numel();
  } else {
    for (const int64_t d : dims) count *= self.size(d);
  }
  return op_plugin::utils::write_through_base_format(out, [&](at::Tensor& result) {
    if (count == 0) {
      result.zero_();
      return;
    }
    const at::ScalarType compute = self.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
    const auto options = self.options().dtype(compute);
    at::Tensor reduced = OpPreparation::apply_tensor_without_format(result.sizes(), options);
    OpCommand reduce;
    reduce.Name("LpNormReduceV2");
    op_plugin::utils::AddInputAs(reduce, self, compute, ACL_FORMAT_ND);
    reduce.Output(reduced)
        .Attr("p", order)
        .Attr("axes", at::IntArrayRef(dims))
        .Attr("keepdim", keepdim)
        .Attr("epsilon", 0.0f)
        .Run();
    const bool direct = result.scalar_type() == compute;
    at::Tensor norm = direct ? result : OpPreparation::apply_tensor_without_format(result.sizes(), options);
    OpCommand update;
    update.Name("LpNormUpdateV2").Input(reduced).Output(norm).Attr("p", order).Attr("epsilon", 0.0f).Run();
    if (!direct) {
      result.copy_(norm);
    }
  });
}

at::Tensor& norm_into(const at::Tensor& self, const c10::optional<at::Scalar>& p, at::IntArrayRef dim, bool keepdim,
                      at::ScalarType dtype, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const double order = p.has_value() ? p->toDouble() : 2.0;
  op_plugin::utils::check_norm_out(self, dtype, order, out);
  const op_plugin::utils::DimReduction r = op_plugin::utils::reduce_dims(self, dim, keepdim);
  OpPreparation::check_tensor({self}, out, dtype, r.out_size);
  return vector_norm_out("norm", self, order, r.dims, keepdim, out);
}

}  // namespace

at::Tensor& norm_out(const at::Tensor& self, const c10::optional<at::Scalar>& p, at::IntArrayRef dim, bool keepdim,
                     at::Tensor& out) {
  return norm_into(self, p, dim, keepdim, out.scalar_type(), out);
}

at::Tensor& norm_out(const at::Tensor& self, const c10::optional<at::Scalar>& p, at::IntArrayRef dim, bool keepdim,
                     at::ScalarType dtype, at::Tensor& out) {
  return norm_into(self, p, dim, keepdim, dtype, out);
}

at::Tensor norm(const at::Tensor& self, const c10::optional<at::Scalar>& p, at::IntArrayRef dim, bool keepdim) {
  op_plugin::utils::check_norm_self("norm", self);
  at::Tensor out = OpPreparation::apply_tensor_without_format(
      op_plugin::utils::reduce_dims(self, dim, keepdim).out_size, self.options());
  return norm_into(self, p, dim, keepdim, self.scalar_type(), out);
}

at::Tensor norm(const at::Tensor& self, const c10::optional<at::Scalar>& p, at::IntArrayRef dim, bool keepdim,
                at::ScalarType dtype) {
  op_plugin::utils::check_norm_self("norm", self);
  at::Tensor out = OpPreparation::apply_tensor_without_format(
      op_plugin::utils::reduce_dims(self, dim, keepdim).out_size, self.options().dtype(dtype));
  return norm_into(self, p, dim, keepdim, dtype, out);
}

// out has the meta function's dtype and shape (dtype, when given, is the computation's: out's)
at::Tensor& linalg_vector_norm_out(const at::Tensor& self, const at::Scalar& ord, at::OptionalIntArrayRef dim,
                                   bool keepdim, c10::optional<at::ScalarType> dtype, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_real_reduction("linalg.vector_norm", self);
  const op_plugin::utils::DimReduction r = op_plugin::utils::reduce_dims(self, dim, keepdim);
  return vector_norm_out("linalg.vector_norm", self, ord.toDouble(), r.dims, keepdim, out);
}

// out has the meta function's shape and dtype (p, maxnorm and dim checked)
at::Tensor& renorm_out(const at::Tensor& self, const at::Scalar& p, int64_t dim, const at::Scalar& maxnorm,
                       at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_real_reduction("renorm", self);
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  if (self.numel() == 0) {
    return out;
  }
  const at::ScalarType compute = self.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
  std::vector<int64_t> size(static_cast<size_t>(self.dim()), 1);
  size[static_cast<size_t>(wrapped)] = self.size(wrapped);
  at::Tensor factor = OpPreparation::apply_tensor_without_format(size, self.options().dtype(compute));
  OpCommand cmd;
  cmd.Name("Renorm");
  op_plugin::utils::AddInputAs(cmd, self, compute, ACL_FORMAT_ND);
  cmd.Output(factor)
      .Attr("p", static_cast<float>(p.toDouble()))
      .Attr("dim", wrapped)
      .Attr("maxnorm", static_cast<float>(maxnorm.toDouble()))
      .Run();
  return at::mul_out(out, self, factor);
}

}  // namespace acl_op
