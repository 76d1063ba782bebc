// Reductions on the acl_op path: argmax / argmin ("ArgMaxV2" / "ArgMin", the dimension a constant input),
// max.dim / min.dim ("ArgMaxWithValue" / "ArgMinWithValue", the dimension an attribute), cumsum / cumprod
// ("Cumsum" / "Cumprod", the axis a constant input), prod ("ReduceProd", the reduced dimensions a constant
// input), equal ("TensorEqual" in the operands' common dtype) and trace ("Trace"). The arg ops write int32
// indices, as CANN's do; they reach the int64 results through copy_. Checks and result shapes are the
// op_api kernels' (op_plugin/utils/ReductionUtils.h); argmax / argmin, the scans and prod.int_out are
// structured (PyTorch's meta function has checked and sized out).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <tuple>
#include <vector>

#include <ATen/core/Tensor.h>
#include <ATen/ops/result_type.h>
#include <c10/core/WrapDimMinimal.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/format/FormatHelper.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/argmax.h"
#include "op_plugin/ops/argmin.h"
#include "op_plugin/ops/cumprod.h"
#include "op_plugin/ops/cumsum.h"
#include "op_plugin/ops/equal.h"
#include "op_plugin/ops/max.h"
#include "op_plugin/ops/min.h"
#include "op_plugin/ops/prod.h"
#include "op_plugin/ops/trace.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/ReductionUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;

// out (sized by the meta function) <- the index `type` finds along dim of self (of the flattened self
// when dim is absent: one index, whatever out's shape of ones).
at::Tensor& arg_extreme_out(const char* op, const char* type, const at::Tensor& self, c10::optional<int64_t> dim,
                            bool keepdim, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_real_reduction(op, self);
  if (self.numel() == 0) {
    return out;  // the meta function accepted it: an empty result
  }
  const at::Tensor input = dim.has_value() ? self : self.reshape({-1});
  const int64_t wrapped = dim.has_value() ? c10::maybe_wrap_dim(*dim, self.dim()) : 0;
  const bool keep = dim.has_value() && keepdim;
  at::Tensor indices = OpPreparation::apply_tensor_without_format(
      dim.has_value() ? out.sizes() : c10::IntArrayRef{}, out.options().dtype(at::kInt));
  OpCommand cmd;
  cmd.Name(type);
  op_plugin::utils::AddInputAs(cmd, input, input.scalar_type(), ACL_FORMAT_ND);
  cmd.Input(at::Scalar(wrapped), at::kInt).Output(indices).Attr("keep_dims", keep).Run();
  out.copy_(indices.reshape(out.sizes()));
  return out;
}

// values, indices <- the extreme `type` finds along dim of self, and its index.
std::tuple<at::Tensor&, at::Tensor&> extreme_dim_out(const char* op, const char* type, const at::Tensor& self,
                                                     int64_t dim, bool keepdim, at::Tensor& values,
                                                     at::Tensor& indices) {
  c10_npu::NPUGuard guard(self.device());
  const int64_t wrapped = op_plugin::utils::check_extreme_dim_out(op, self, dim, keepdim, values, indices);
  if (self.numel() == 0) {
    return std::tie(values, indices);
  }
  const bool direct = at_npu::native::FormatHelper::IsOpInputBaseFormat(values);
  at::Tensor result = direct ? values : OpPreparation::apply_tensor_without_format(values.sizes(), values.options());
  at::Tensor index = OpPreparation::apply_tensor_without_format(indices.sizes(), indices.options().dtype(at::kInt));
  OpCommand cmd;
  cmd.Name(type);
  op_plugin::utils::AddInputAs(cmd, self, self.scalar_type(), ACL_FORMAT_ND);
  cmd.Output(index).Output(result).Attr("dimension", wrapped).Attr("keep_dims", keepdim).Run();
  if (!direct) {
    values.copy_(result);
  }
  indices.copy_(index);
  return std::tie(values, indices);
}

std::tuple<at::Tensor, at::Tensor> extreme_dim(const char* op, const char* type, const at::Tensor& self, int64_t dim,
                                               bool keepdim) {
  at::Tensor values = OpPreparation::apply_tensor_without_format({0}, self.options());
  at::Tensor indices = OpPreparation::apply_tensor_without_format({0}, self.options().dtype(at::kLong));
  extreme_dim_out(op, type, self, dim, keepdim, values, indices);
  return std::make_tuple(values, indices);
}

// out <- the running `type` ("Cumsum", "Cumprod") of self along dim, computed in out's dtype.
at::Tensor& scan_out(const char* op, const char* type, const at::Tensor& self, int64_t dim, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_real_reduction(op, self);
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  if (out.numel() == 0) {
    return out;
  }
  const bool direct = out.is_contiguous() && at_npu::native::FormatHelper::IsOpInputBaseFormat(out);
  at::Tensor result = direct ? out : OpPreparation::apply_tensor_without_format(out.sizes(), out.options());
  OpCommand cmd;
  cmd.Name(type);
  op_plugin::utils::AddInputAs(cmd, self, out.scalar_type(), ACL_FORMAT_ND);
  cmd.Input(at::Scalar(wrapped), at::kLong).Output(result).Attr("exclusive", false).Attr("reverse", false).Run();
  if (!direct) {
    out.copy_(result);
  }
  return out;
}

// out (sized) <- the product of self (cast to out's dtype) over `dims` (empty: every dimension).
at::Tensor& product_out(const at::Tensor& self, const std::vector<int64_t>& dims, bool keepdim, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  if (out.numel() == 0) {
    return out;
  }
  const bool direct = out.is_contiguous() && at_npu::native::FormatHelper::IsOpInputBaseFormat(out);
  at::Tensor result = direct ? out : OpPreparation::apply_tensor_without_format(out.sizes(), out.options());
  OpCommand cmd;
  cmd.Name("ReduceProd");
  op_plugin::utils::AddInputAs(cmd, self, out.scalar_type(), ACL_FORMAT_ND);
  cmd.Input(at::IntArrayRef(dims)).Output(result).Attr("keep_dims", keepdim).Run();
  if (!direct) {
    out.copy_(result);
  }
  return out;
}

}  // namespace

at::Tensor prod(const at::Tensor& self, c10::optional<at::ScalarType> dtype) {
  op_plugin::utils::check_real_reduction("prod", self);
  at::Tensor out = OpPreparation::apply_tensor_without_format(
      {}, self.options().dtype(op_plugin::utils::prod_result_type(self, dtype)));
  return product_out(self, {}, false, out);
}

at::Tensor& prod_out(const at::Tensor& self, int64_t dim, bool keepdim, c10::optional<at::ScalarType> dtype,
                     at::Tensor& out) {
  op_plugin::utils::check_real_reduction("prod", self);
  // out has the meta function's dtype; a 0-dim self reduces no dimension
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  return product_out(self, self.dim() == 0 ? std::vector<int64_t>{} : std::vector<int64_t>{wrapped}, keepdim, out);
}

// out has the meta function's dtype (dtype, else self's, integers promoted to int64)
at::Tensor& cumsum_out(const at::Tensor& self, int64_t dim, c10::optional<at::ScalarType> dtype, at::Tensor& out) {
  return scan_out("cumsum", "Cumsum", self, dim, out);
}

at::Tensor& cumprod_out(const at::Tensor& self, int64_t dim, c10::optional<at::ScalarType> dtype, at::Tensor& out) {
  return scan_out("cumprod", "Cumprod", self, dim, out);
}

at::Tensor& argmax_out(const at::Tensor& self, c10::optional<int64_t> dim, bool keepdim, at::Tensor& out) {
  return arg_extreme_out("argmax", "ArgMaxV2", self, dim, keepdim, out);
}

at::Tensor& argmin_out(const at::Tensor& self, c10::optional<int64_t> dim, bool keepdim, at::Tensor& out) {
  return arg_extreme_out("argmin", "ArgMin", self, dim, keepdim, out);
}

std::tuple<at::Tensor&, at::Tensor&> max_out(const at::Tensor& self, int64_t dim, bool keepdim, at::Tensor& max,
                                             at::Tensor& max_values) {
  return extreme_dim_out("max", "ArgMaxWithValue", self, dim, keepdim, max, max_values);
}

std::tuple<at::Tensor, at::Tensor> max(const at::Tensor& self, int64_t dim, bool keepdim) {
  return extreme_dim("max", "ArgMaxWithValue", self, dim, keepdim);
}

std::tuple<at::Tensor&, at::Tensor&> min_out(const at::Tensor& self, int64_t dim, bool keepdim, at::Tensor& min,
                                             at::Tensor& min_indices) {
  return extreme_dim_out("min", "ArgMinWithValue", self, dim, keepdim, min, min_indices);
}

std::tuple<at::Tensor, at::Tensor> min(const at::Tensor& self, int64_t dim, bool keepdim) {
  return extreme_dim("min", "ArgMinWithValue", self, dim, keepdim);
}

bool equal(const at::Tensor& self, const at::Tensor& other) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_equal_operands(self, other);
  if (!self.sizes().equals(other.sizes())) {
    return false;
  }
  const at::ScalarType dtype = at::result_type(self, other);
  at::Tensor result = OpPreparation::apply_tensor_without_format({1}, self.options().dtype(at::kBool));
  OpCommand cmd;
  cmd.Name("TensorEqual");
  op_plugin::utils::AddInputAs(cmd, self, dtype, ACL_FORMAT_ND);
  op_plugin::utils::AddInputAs(cmd, other, dtype, ACL_FORMAT_ND);
  cmd.Output(result).Run();
  return result.item().toBool();
}

at::Tensor trace(const at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType dtype = op_plugin::utils::trace_result_type(self);
  at::Tensor out = OpPreparation::apply_tensor_without_format({}, self.options().dtype(dtype));
  OpCommand cmd;
  cmd.Name("Trace");
  op_plugin::utils::AddInputAs(cmd, self, dtype, ACL_FORMAT_ND);
  cmd.Output(out).Run();
  return out;
}

}  // namespace acl_op
