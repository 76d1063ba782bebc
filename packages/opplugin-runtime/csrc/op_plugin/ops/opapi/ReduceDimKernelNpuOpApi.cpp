// Reductions, scans and sorts on the op_api path: var/std (+ _mean), prod, any, argmax/argmin,
// max/min (full and with indices), aminmax, norm / linalg_vector_norm, nansum, count_nonzero,
// equal, trace, cumsum/cumprod, _cummax_helper/_cummin_helper, _logcumsumexp, sort, topk,
// kthvalue, median, nanmedian, renorm. Result dtypes, shapes and errors follow ATen's CPU kernels (the
// structured groups get them from ATen's meta functions and receive sized outputs); the device
// computes through the aclnn entry points of reduce_dim_api.h's kernels.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/WrapDimUtilsMulti.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/ne.h>
#include <c10/core/WrapDimMinimal.h>

#include <cmath>
#include <limits>
#include <vector>

#include "npu/core/NPUGuard.h"
#include "npu/op_api/op_api_common.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/version.h"
#include "op_plugin/ops/_cummax_helper.h"
#include "op_plugin/ops/_cummin_helper.h"
#include "op_plugin/ops/_logcumsumexp.h"
#include "op_plugin/ops/aminmax.h"
#include "op_plugin/ops/any.h"
#include "op_plugin/ops/argmax.h"
#include "op_plugin/ops/argmin.h"
#include "op_plugin/ops/count_nonzero.h"
#include "op_plugin/ops/cumprod.h"
#include "op_plugin/ops/cumsum.h"
#include "op_plugin/ops/equal.h"
#include "op_plugin/ops/kthvalue.h"
#include "op_plugin/ops/linalg_vector_norm.h"
#include "op_plugin/ops/max.h"
#include "op_plugin/ops/median.h"
#include "op_plugin/ops/min.h"
#include "op_plugin/ops/nanmedian.h"
#include "op_plugin/ops/nansum.h"
#include "op_plugin/ops/norm.h"
#include "op_plugin/ops/prod.h"
#include "op_plugin/ops/renorm.h"
#include "op_plugin/ops/sort.h"
#include "op_plugin/ops/std.h"
#include "op_plugin/ops/std_mean.h"
#include "op_plugin/ops/topk.h"
#include "op_plugin/ops/trace.h"
#include "op_plugin/ops/var.h"
#include "op_plugin/ops/var_mean.h"
#include "op_plugin/utils/ReductionUtils.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;
using Shape = c10::SmallVector<int64_t, 8>;

using op_plugin::utils::DimReduction;
using op_plugin::utils::reduce_dims;
using op_plugin::utils::check_extreme_all;
using op_plugin::utils::check_nonzero_dim;
using op_plugin::utils::check_real_reduction;
using op_plugin::utils::one_dim_reduced_size;


at::ScalarType integral_to_long(at::ScalarType t) {
  return at::isIntegralType(t, /*includeBool=*/true) ? at::kLong : t;
}

// ---- var / std ----

using op_plugin::utils::check_var_self;
using op_plugin::utils::Correction;
using op_plugin::utils::correction_of;

void rescale_for_correction(const Correction& c, bool take_sqrt, const at::Tensor& self, at::Tensor& result) {
  if (!c.rescale || result.numel() == 0) return;
  const at::Scalar scale(op_plugin::utils::correction_rescale_factor(c, take_sqrt, self.numel() / result.numel()));
  EXEC_NPU_CMD(aclnnInplaceMuls, result, scale);
}

at::Tensor& var_std_out(bool take_sqrt, const at::Tensor& self, at::OptionalIntArrayRef dim,
                        const c10::optional<at::Scalar>& correction, bool keepdim, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  check_var_self(self);
  const char* op = take_sqrt ? "std" : "var";
  const Correction c = correction_of(correction);
  const DimReduction r = reduce_dims(self, dim, keepdim);
  op_plugin::utils::check_var_std_out(op, self, out);
  OpPreparation::check_tensor({self}, out, self.scalar_type(), r.out_size);
  const at::IntArrayRef dims(r.dims);
  if (take_sqrt) {
    EXEC_NPU_CMD(aclnnStd, self, dims, c.integral, keepdim, out);
  } else {
    EXEC_NPU_CMD(aclnnVarCorrection, self, dims, c.integral, keepdim, out);
  }
  rescale_for_correction(c, take_sqrt, self, out);
  return out;
}

std::tuple<at::Tensor, at::Tensor> var_std_mean(bool take_sqrt, const at::Tensor& self, at::OptionalIntArrayRef dim,
                                                const c10::optional<at::Scalar>& correction, bool keepdim) {
  c10_npu::NPUGuard guard(self.device());
  check_var_self(self);
  const Correction c = correction_of(correction);
  const DimReduction r = reduce_dims(self, dim, keepdim);
  at::Tensor first = OpPreparation::apply_tensor_without_format(r.out_size, self.options());
  at::Tensor mean = OpPreparation::apply_tensor_without_format(r.out_size, self.options());
  const at::IntArrayRef dims(r.dims);
  if (take_sqrt) {
    EXEC_NPU_CMD(aclnnStdMeanCorrection, self, dims, c.integral, keepdim, first, mean);
  } else {
    EXEC_NPU_CMD(aclnnVarMean, self, dims, c.integral, keepdim, first, mean);
  }
  rescale_for_correction(c, take_sqrt, self, first);
  return std::make_tuple(first, mean);
}

// ---- any ----

// aclnnAny reads an empty dimension list as every dimension: a reduction over none (any.dims
// with dim=[]) runs over a new trailing dimension of size 1 instead.
void run_any(const at::Tensor& self, const std::vector<int64_t>& dims, bool every, bool keepdim, at::Tensor& out) {
  if (!every && dims.empty() && self.dim() > 0) {
    const std::vector<int64_t> last = {self.dim()};
    const at::IntArrayRef last_ref(last);
    const at::Tensor expanded = self.unsqueeze(-1);
    bool no_keep = false;
    EXEC_NPU_CMD(aclnnAny, expanded, last_ref, no_keep, out);
    return;
  }
  const at::IntArrayRef ref(dims);
  EXEC_NPU_CMD(aclnnAny, self, ref, keepdim, out);
}

// ---- arg-extremes and extremes ----

void run_arg_extreme(bool is_max, const at::Tensor& self, c10::optional<int64_t> dim, bool keepdim, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction(is_max ? "argmax" : "argmin", self);
  if (self.numel() == 0) return;  // the meta function accepted it: an empty result
  if (!dim.has_value()) {
    // Over the flattened self: one index, whatever shape out has (0-d, or all ones with keepdim).
    const at::Tensor flat = self.reshape({-1});
    at::Tensor one = out.view(c10::IntArrayRef{});
    const int64_t zero = 0;
    const bool no_keep = false;
    if (is_max) {
      EXEC_NPU_CMD(aclnnArgMax, flat, zero, no_keep, one);
    } else {
      EXEC_NPU_CMD(aclnnArgMin, flat, zero, no_keep, one);
    }
    return;
  }
  const int64_t wrapped = c10::maybe_wrap_dim(*dim, self.dim());
  if (is_max) {
    EXEC_NPU_CMD(aclnnArgMax, self, wrapped, keepdim, out);
  } else {
    EXEC_NPU_CMD(aclnnArgMin, self, wrapped, keepdim, out);
  }
}

std::tuple<at::Tensor&, at::Tensor&> extreme_dim_out(bool is_max, const at::Tensor& self, int64_t dim, bool keepdim,
                                                     at::Tensor& values, at::Tensor& indices) {
  c10_npu::NPUGuard guard(self.device());
  const int64_t wrapped =
      op_plugin::utils::check_extreme_dim_out(is_max ? "max" : "min", self, dim, keepdim, values, indices);
  if (self.numel() == 0) return std::tie(values, indices);
  if (is_max) {
    EXEC_NPU_CMD(aclnnMaxDim, self, wrapped, keepdim, values, indices);
  } else {
    EXEC_NPU_CMD(aclnnMinDim, self, wrapped, keepdim, values, indices);
  }
  return std::tie(values, indices);
}

void run_extreme_all(bool is_max, const at::Tensor& self, at::Tensor& out) {
  if (is_max) {
    EXEC_NPU_CMD(aclnnMax, self, out);
  } else {
    EXEC_NPU_CMD(aclnnMin, self, out);
  }
}

// ---- norms ----

using op_plugin::utils::check_norm_self;

at::Tensor& norm_into(const at::Tensor& self, const c10::optional<at::Scalar>& p, at::IntArrayRef dim, bool keepdim,
                      at::ScalarType dtype, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const at::Scalar pvalue = p.has_value() ? *p : at::Scalar(2.0);
  op_plugin::utils::check_norm_out(self, dtype, pvalue.toDouble(), out);
  const DimReduction r = reduce_dims(self, dim, keepdim);
  OpPreparation::check_tensor({self}, out, dtype, r.out_size);
  const at::IntArrayRef dims(r.dims);
  EXEC_NPU_CMD(aclnnNorm, self, pvalue, dims, keepdim, out);
  return out;
}

// ---- median and friends ----

std::tuple<at::Tensor&, at::Tensor&> median_dim_out(bool ignore_nan, const at::Tensor& self, int64_t dim,
                                                    bool keepdim, at::Tensor& values, at::Tensor& indices) {
  c10_npu::NPUGuard guard(self.device());
  const int64_t wrapped = op_plugin::utils::check_dim_selection_out(ignore_nan ? "nanmedian" : "median", self, dim,
                                                                    keepdim, c10::nullopt, values, indices);
  if (self.numel() == 0) return std::tie(values, indices);
  if (ignore_nan) {
    EXEC_NPU_CMD(aclnnNanMedianDim, self, wrapped, keepdim, values, indices);
  } else {
    EXEC_NPU_CMD(aclnnMedianDim, self, wrapped, keepdim, values, indices);
  }
  return std::tie(values, indices);
}

at::Tensor median_all(bool ignore_nan, const at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction(ignore_nan ? "nanmedian" : "median", self);
  at::Tensor out = OpPreparation::apply_tensor_without_format(Shape{}, self.options());
  if (self.numel() == 0) {  // the median of nothing is NaN, as on CPU
    out.fill_(std::numeric_limits<double>::quiet_NaN());
    return out;
  }
  if (ignore_nan) {
    EXEC_NPU_CMD(aclnnNanMedian, self, out);
  } else {
    EXEC_NPU_CMD(aclnnMedian, self, out);
  }
  return out;
}

void cumulative_extreme(bool is_max, const at::Tensor& self, at::Tensor& values, at::Tensor& indices, int64_t dim) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction(is_max ? "cummax" : "cummin", self);
  op_plugin::utils::check_running_extreme_outs(self, values, indices);
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  if (self.numel() == 0) return;
  if (is_max) {
    EXEC_NPU_CMD(aclnnCummax, self, wrapped, values, indices);
  } else {
    EXEC_NPU_CMD(aclnnCummin, self, wrapped, values, indices);
  }
}

}  // namespace

// ---- var / std ----

at::Tensor& var_out(const at::Tensor& self, at::OptionalIntArrayRef dim, const c10::optional<at::Scalar>& correction,
                    bool keepdim, at::Tensor& out) {
  return var_std_out(false, self, dim, correction, keepdim, out);
}

at::Tensor var(const at::Tensor& self, at::OptionalIntArrayRef dim, const c10::optional<at::Scalar>& correction,
               bool keepdim) {
  check_var_self(self);
  at::Tensor out = OpPreparation::apply_tensor_without_format(reduce_dims(self, dim, keepdim).out_size, self.options());
  return var_std_out(false, self, dim, correction, keepdim, out);
}

at::Tensor& std_out(const at::Tensor& self, at::OptionalIntArrayRef dim, const c10::optional<at::Scalar>& correction,
                    bool keepdim, at::Tensor& out) {
  return var_std_out(true, self, dim, correction, keepdim, out);
}

at::Tensor std(const at::Tensor& self, at::OptionalIntArrayRef dim, const c10::optional<at::Scalar>& correction,
               bool keepdim) {
  check_var_self(self);
  at::Tensor out = OpPreparation::apply_tensor_without_format(reduce_dims(self, dim, keepdim).out_size, self.options());
  return var_std_out(true, self, dim, correction, keepdim, out);
}

std::tuple<at::Tensor, at::Tensor> var_mean(const at::Tensor& self, at::OptionalIntArrayRef dim,
                                            const c10::optional<at::Scalar>& correction, bool keepdim) {
  return var_std_mean(false, self, dim, correction, keepdim);
}

std::tuple<at::Tensor, at::Tensor> std_mean(const at::Tensor& self, at::OptionalIntArrayRef dim,
                                            const c10::optional<at::Scalar>& correction, bool keepdim) {
  return var_std_mean(true, self, dim, correction, keepdim);
}

// ---- prod ----

at::Tensor prod(const at::Tensor& self, c10::optional<at::ScalarType> dtype) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction("prod", self);
  const at::ScalarType result = op_plugin::utils::prod_result_type(self, dtype);
  at::Tensor out = OpPreparation::apply_tensor_without_format(Shape{}, self.options().dtype(result));
  EXEC_NPU_CMD(aclnnProd, self, result, out);
  return out;
}

at::Tensor& prod_out(const at::Tensor& self, int64_t dim, bool keepdim, c10::optional<at::ScalarType> dtype,
                     at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction("prod", self);
  (void)dtype;  // the meta function gave out its dtype
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  const at::ScalarType result = out.scalar_type();
  EXEC_NPU_CMD(aclnnProdDim, self, wrapped, keepdim, result, out);
  return out;
}

// ---- any ----

at::Tensor& any_out(const at::Tensor& self, int64_t dim, bool keepdim, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction("any", self);
  op_plugin::utils::check_bool_reduction_out("any", self, out);
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  OpPreparation::check_tensor({self}, out, out.scalar_type(), one_dim_reduced_size(self, wrapped, keepdim));
  run_any(self, {wrapped}, self.dim() == 0, keepdim, out);
  return out;
}

at::Tensor any(const at::Tensor& self, int64_t dim, bool keepdim) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction("any", self);
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  at::Tensor out = OpPreparation::apply_tensor_without_format(one_dim_reduced_size(self, wrapped, keepdim),
                                                              self.options().dtype(op_plugin::utils::bool_reduction_result_type(self)));
  run_any(self, {wrapped}, self.dim() == 0, keepdim, out);
  return out;
}

at::Tensor& any_out(const at::Tensor& self, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction("any", self);
  op_plugin::utils::check_bool_reduction_out("any", self, out);
  OpPreparation::check_tensor({self}, out, out.scalar_type(), c10::IntArrayRef());
  run_any(self, {}, true, false, out);
  return out;
}

at::Tensor any(const at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction("any", self);
  at::Tensor out = OpPreparation::apply_tensor_without_format(Shape{}, self.options().dtype(op_plugin::utils::bool_reduction_result_type(self)));
  run_any(self, {}, true, false, out);
  return out;
}

#if OP_API_LIVE(any_dims)
namespace {
// any.dims: None reduces every dimension, an empty list none (the result is self != 0).
Shape any_dims_size(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim, std::vector<int64_t>* dims) {
  if (dim.has_value() && dim->empty()) return Shape(self.sizes().begin(), self.sizes().end());
  const DimReduction r = reduce_dims(self, dim, keepdim);
  *dims = r.dims;
  return r.out_size;
}
}  // namespace

at::Tensor& any_out(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction("any", self);
  op_plugin::utils::check_bool_reduction_out("any", self, out);
  std::vector<int64_t> dims;
  OpPreparation::check_tensor({self}, out, out.scalar_type(), any_dims_size(self, dim, keepdim, &dims));
  run_any(self, dims, !dim.has_value() || !dim->empty(), keepdim, out);
  return out;
}

at::Tensor any(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction("any", self);
  std::vector<int64_t> dims;
  const Shape size = any_dims_size(self, dim, keepdim, &dims);
  at::Tensor out = OpPreparation::apply_tensor_without_format(size, self.options().dtype(op_plugin::utils::bool_reduction_result_type(self)));
  run_any(self, dims, !dim.has_value() || !dim->empty(), keepdim, out);
  return out;
}
#endif

// ---- argmax / argmin (structured: out is sized) ----

at::Tensor& argmax_out(const at::Tensor& self, c10::optional<int64_t> dim, bool keepdim, at::Tensor& out) {
  run_arg_extreme(true, self, dim, keepdim, out);
  return out;
}

at::Tensor& argmin_out(const at::Tensor& self, c10::optional<int64_t> dim, bool keepdim, at::Tensor& out) {
  run_arg_extreme(false, self, dim, keepdim, out);
  return out;
}

// ---- max / min ----

std::tuple<at::Tensor&, at::Tensor&> max_out(const at::Tensor& self, int64_t dim, bool keepdim, at::Tensor& max,
                                             at::Tensor& max_values) {
  return extreme_dim_out(true, self, dim, keepdim, max, max_values);
}

std::tuple<at::Tensor, at::Tensor> max(const at::Tensor& self, int64_t dim, bool keepdim) {
  at::Tensor values = OpPreparation::apply_tensor_without_format(Shape{}, self.options());
  at::Tensor indices = OpPreparation::apply_tensor_without_format(Shape{}, self.options().dtype(at::kLong));
  extreme_dim_out(true, self, dim, keepdim, values, indices);
  return std::make_tuple(values, indices);
}

std::tuple<at::Tensor&, at::Tensor&> min_out(const at::Tensor& self, int64_t dim, bool keepdim, at::Tensor& min,
                                             at::Tensor& min_indices) {
  return extreme_dim_out(false, self, dim, keepdim, min, min_indices);
}

std::tuple<at::Tensor, at::Tensor> min(const at::Tensor& self, int64_t dim, bool keepdim) {
  at::Tensor values = OpPreparation::apply_tensor_without_format(Shape{}, self.options());
  at::Tensor indices = OpPreparation::apply_tensor_without_format(Shape{}, self.options().dtype(at::kLong));
  extreme_dim_out(false, self, dim, keepdim, values, indices);
  return std::make_tuple(values, indices);
}

at::Tensor max(const at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  check_extreme_all("max", self);
  at::Tensor out = OpPreparation::apply_tensor_without_format(Shape{}, self.options());
  run_extreme_all(true, self, out);
  return out;
}

at::Tensor& max_out(const at::Tensor& self, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  check_extreme_all("max", self);
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), "max(): expected out dtype ", self.scalar_type(), " but got ",
              out.scalar_type());
  OpPreparation::check_tensor({self}, out, self.scalar_type(), c10::IntArrayRef());
  run_extreme_all(true, self, out);
  return out;
}

at::Tensor min(const at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  check_extreme_all("min", self);
  at::Tensor out = OpPreparation::apply_tensor_without_format(Shape{}, self.options());
  run_extreme_all(false, self, out);
  return out;
}

at::Tensor& min_out(const at::Tensor& self, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  check_extreme_all("min", self);
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), "min(): expected out dtype ", self.scalar_type(), " but got ",
              out.scalar_type());
  OpPreparation::check_tensor({self}, out, self.scalar_type(), c10::IntArrayRef());
  run_extreme_all(false, self, out);
  return out;
}

// ---- aminmax (structured) ----

std::tuple<at::Tensor&, at::Tensor&> aminmax_out(const at::Tensor& self, c10::optional<int64_t> dim, bool keepdim,
                                                 at::Tensor& min, at::Tensor& max) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction("aminmax", self);
  if (self.numel() == 0) return std::tie(min, max);
  if (dim.has_value()) {
    const int64_t wrapped = c10::maybe_wrap_dim(*dim, self.dim());
    EXEC_NPU_CMD(aclnnAminmaxDim, self, wrapped, keepdim, min, max);
  } else {
    const std::vector<int64_t> every;
    const at::IntArrayRef dims(every);
    EXEC_NPU_CMD(aclnnAminmax, self, dims, keepdim, min, max);
  }
  return std::tie(min, max);
}

// ---- norm / linalg_vector_norm ----

at::Tensor& norm_out(const at::Tensor& self, const c10::optional<at::Scalar>& p, at::IntArrayRef dim, bool keepdim,
                     at::Tensor& out) {
  return norm_into(self, p, dim, keepdim, out.scalar_type(), out);
}

at::Tensor& norm_out(const at::Tensor& self, const c10::optional<at::Scalar>& p, at::IntArrayRef dim, bool keepdim,
                     at::ScalarType dtype, at::Tensor& out) {
  return norm_into(self, p, dim, keepdim, dtype, out);
}

at::Tensor norm(const at::Tensor& self, const c10::optional<at::Scalar>& p, at::IntArrayRef dim, bool keepdim) {
  check_norm_self("norm", self);
  at::Tensor out = OpPreparation::apply_tensor_without_format(reduce_dims(self, dim, keepdim).out_size, self.options());
  return norm_into(self, p, dim, keepdim, self.scalar_type(), out);
}

at::Tensor norm(const at::Tensor& self, const c10::optional<at::Scalar>& p, at::IntArrayRef dim, bool keepdim,
                at::ScalarType dtype) {
  check_norm_self("norm", self);
  at::Tensor out =
      OpPreparation::apply_tensor_without_format(reduce_dims(self, dim, keepdim).out_size, self.options().dtype(dtype));
  return norm_into(self, p, dim, keepdim, dtype, out);
}

at::Tensor& linalg_vector_norm_out(const at::Tensor& self, const at::Scalar& ord, at::OptionalIntArrayRef dim,
                                   bool keepdim, c10::optional<at::ScalarType> dtype, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction("linalg.vector_norm", self);
  (void)dtype;  // the meta function gave out its dtype (the computation's)
  const DimReduction r = reduce_dims(self, dim, keepdim);
  const at::IntArrayRef dims(r.dims);
  const at::ScalarType result = out.scalar_type();
  EXEC_NPU_CMD(aclnnLinalgVectorNorm, self, ord, dims, keepdim, result, out);
  return out;
}

// ---- nansum, count_nonzero, equal, trace ----

at::Tensor& nansum_out(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim,
                       c10::optional<at::ScalarType> dtype, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction("nansum", self);
  const at::ScalarType result = dtype.value_or(out.scalar_type());
  TORCH_CHECK(out.scalar_type() == result, "nansum: expected out dtype ", result, " but got ", out.scalar_type());
  TORCH_CHECK(!at::isFloatingType(self.scalar_type()) || at::isFloatingType(result), "nansum: out of dtype ",
              result, " cannot hold the sum of a floating self (", self.scalar_type(), ")");
  const DimReduction r = reduce_dims(self, dim, keepdim);
  OpPreparation::check_tensor({self}, out, result, r.out_size);
  const at::IntArrayRef dims(r.dims);
  EXEC_NPU_CMD(aclnnReduceNansum, self, dims, keepdim, result, out);
  return out;
}

at::Tensor nansum(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim,
                  c10::optional<at::ScalarType> dtype) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction("nansum", self);
  const at::ScalarType result = dtype.value_or(integral_to_long(self.scalar_type()));
  const DimReduction r = reduce_dims(self, dim, keepdim);
  at::Tensor out = OpPreparation::apply_tensor_without_format(r.out_size, self.options().dtype(result));
  const at::IntArrayRef dims(r.dims);
  EXEC_NPU_CMD(aclnnReduceNansum, self, dims, keepdim, result, out);
  return out;
}

// The count is the int64 sum of the mask self != 0 (upstream's composition).
at::Tensor count_nonzero(const at::Tensor& self, at::IntArrayRef dim) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction("count_nonzero", self);
  const DimReduction r = reduce_dims(self, dim, false);
  const at::Tensor mask = at::ne(self, 0);
  at::Tensor out = OpPreparation::apply_tensor_without_format(r.out_size, self.options().dtype(at::kLong));
  const at::IntArrayRef dims(r.dims);
  const at::ScalarType result = at::kLong;
  const bool no_keep = false;
  EXEC_NPU_CMD(aclnnReduceSum, mask, dims, no_keep, result, out);
  return out;
}

bool equal(const at::Tensor& self, const at::Tensor& other) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_equal_operands(self, other);
  if (!self.sizes().equals(other.sizes())) return false;
  at::Tensor result = OpPreparation::apply_tensor_without_format(Shape{1}, self.options().dtype(at::kBool));
  EXEC_NPU_CMD(aclnnEqual, self, other, result);
  return result.item().toBool();
}

at::Tensor trace(const at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  const at::ScalarType result = op_plugin::utils::trace_result_type(self);
  at::Tensor out = OpPreparation::apply_tensor_without_format(Shape{}, self.options().dtype(result));
  EXEC_NPU_CMD(aclnnTrace, self, out);
  return out;
}

// ---- renorm (structured: the meta function checks p, maxnorm and dim and sizes out) ----

at::Tensor& renorm_out(const at::Tensor& self, const at::Scalar& p, int64_t dim, const at::Scalar& maxnorm,
                       at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction("renorm", self);
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  if (self.numel() == 0) return out;
  EXEC_NPU_CMD(aclnnRenorm, self, p, wrapped, maxnorm, out);
  return out;
}

// ---- cumulative ops ----

at::Tensor& cumsum_out(const at::Tensor& self, int64_t dim, c10::optional<at::ScalarType> dtype, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction("cumsum", self);
  (void)dtype;  // the meta function gave out its dtype
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  const at::ScalarType result = out.scalar_type();
  EXEC_NPU_CMD(aclnnCumsum, self, wrapped, result, out);
  return out;
}

at::Tensor& cumprod_out(const at::Tensor& self, int64_t dim, c10::optional<at::ScalarType> dtype, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction("cumprod", self);
  (void)dtype;
  const at::Scalar wrapped(c10::maybe_wrap_dim(dim, self.dim()));
  const at::ScalarType result = out.scalar_type();
  EXEC_NPU_CMD(aclnnCumprod, self, wrapped, result, out);
  return out;
}

void _cummax_helper(const at::Tensor& self, at::Tensor& values, at::Tensor& indices, int64_t dim) {
  cumulative_extreme(true, self, values, indices, dim);
}

void _cummin_helper(const at::Tensor& self, at::Tensor& values, at::Tensor& indices, int64_t dim) {
  cumulative_extreme(false, self, values, indices, dim);
}

at::Tensor& _logcumsumexp_out(const at::Tensor& self, int64_t dim, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction("logcumsumexp", self);
  TORCH_CHECK(at::isFloatingType(self.scalar_type()), "\"logcumsumexp_out_npu\" not implemented for '",
              self.scalar_type(), "'");
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), "logcumsumexp: expected out dtype ", self.scalar_type(),
              " but got ", out.scalar_type());
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  OpPreparation::check_tensor({self}, out, self.scalar_type(), self.sizes());
  if (self.numel() == 0) return out;
  EXEC_NPU_CMD(aclnnLogCumsumExp, self, wrapped, out);
  return out;
}

at::Tensor _logcumsumexp(const at::Tensor& self, int64_t dim) {
  at::Tensor out = OpPreparation::apply_tensor_without_format(self.sizes(), self.options());
  return _logcumsumexp_out(self, dim, out);
}

// ---- sorting ----

std::tuple<at::Tensor&, at::Tensor&> sort_out(const at::Tensor& self, c10::optional<bool> stable, int64_t dim,
                                              bool descending, at::Tensor& values, at::Tensor& indices) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction("sort", self);
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  const bool is_stable = stable.value_or(false);
  if (self.numel() == 0) return std::tie(values, indices);
  EXEC_NPU_CMD(aclnnSort, self, is_stable, wrapped, descending, values, indices);
  return std::tie(values, indices);
}

std::tuple<at::Tensor&, at::Tensor&> topk_out(const at::Tensor& self, int64_t k, int64_t dim, bool largest,
                                              bool sorted, at::Tensor& values, at::Tensor& indices) {
  c10_npu::NPUGuard guard(self.device());
  check_real_reduction("topk", self);
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  if (self.numel() == 0 || k == 0) return std::tie(values, indices);
  EXEC_NPU_CMD(aclnnTopk, self, k, wrapped, largest, sorted, values, indices);
  return std::tie(values, indices);
}

std::tuple<at::Tensor&, at::Tensor&> kthvalue_out(const at::Tensor& self, int64_t k, int64_t dim, bool keepdim,
                                                  at::Tensor& values, at::Tensor& indices) {
  c10_npu::NPUGuard guard(self.device());
  const int64_t wrapped =
      op_plugin::utils::check_dim_selection_out("kthvalue", self, dim, keepdim, k, values, indices);
  EXEC_NPU_CMD(aclnnKthvalue, self, k, wrapped, keepdim, values, indices);
  return std::tie(values, indices);
}

at::Tensor median(const at::Tensor& self) { return median_all(false, self); }

std::tuple<at::Tensor&, at::Tensor&> median_out(const at::Tensor& self, int64_t dim, bool keepdim, at::Tensor& values,
                                                at::Tensor& indices) {
  return median_dim_out(false, self, dim, keepdim, values, indices);
}

at::Tensor nanmedian(const at::Tensor& self) { return median_all(true, self); }

std::tuple<at::Tensor&, at::Tensor&> nanmedian_out(const at::Tensor& self, int64_t dim, bool keepdim,
                                                   at::Tensor& values, at::Tensor& indices) {
  return median_dim_out(true, self, dim, keepdim, values, indices);
}

}  // namespace op_api
