// Reductions on the acl_op path: sum / mean ("ReduceSum" / "ReduceMean"), amax / amin ("ReduceMax" /
// "ReduceMin", also max() / min() of every element), all / any ("ReduceAll" / "ReduceAny"), count_nonzero
// ("ReduceSum" of self != 0); the reduced dimensions are a constant input, keep_dims an attribute.
// self is cast to the result dtype first (float16/bfloat16 accumulate in float32 on the device),
// output dtypes and errors follow ATen's CPU kernels as the op_api kernels do.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <bitset>
#include <vector>

#include <ATen/WrapDimUtilsMulti.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/ne.h>
#include <c10/core/WrapDimMinimal.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/format/FormatHelper.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/all.h"
#include "op_plugin/ops/amax.h"
#include "op_plugin/ops/amin.h"
#include "op_plugin/ops/any.h"
#include "op_plugin/ops/count_nonzero.h"
#include "op_plugin/ops/max.h"
#include "op_plugin/ops/mean.h"
#include "op_plugin/ops/min.h"
#include "op_plugin/ops/sum.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/ReductionUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;

// The reduced dimensions (wrapped, repeats refused as ATen does; none given: all) and the output shape.
struct Reduction {
  std::vector<int64_t> dims;  // empty: every dimension
  c10::SmallVector<int64_t, 8> out_size;
};

Reduction reduction_of(const char* op, const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim) {
  Reduction r;
  const int64_t ndim = self.dim();
  std::bitset<at::dim_bitset_size> reduced;
  if (!dim.has_value() || dim->empty()) {
    for (int64_t d = 0; d < ndim; ++d) reduced.set(static_cast<size_t>(d));
  } else {
    reduced = at::dim_list_to_bitset(*dim, ndim);
    for (int64_t d : *dim) r.dims.push_back(c10::maybe_wrap_dim(d, ndim));
  }
  for (int64_t d = 0; d < ndim; ++d) {
    if (!reduced[static_cast<size_t>(d)]) {
      r.out_size.push_back(self.size(d));
    } else if (keepdim) {
      r.out_size.push_back(1);
    }
  }
  TORCH_CHECK(!at::isComplexType(self.scalar_type()), op, ": complex self (", self.scalar_type(),
              ") is not supported on npu");
  return r;
}

// out (sized, any dtype) <- type(self cast to `dtype`) over `dims`; an out of another dtype or format
// gets the values through copy_.
void reduce_nocheck(const char* type, const at::Tensor& self, const std::vector<int64_t>& dims, bool keepdim,
                    at::ScalarType dtype, at::Tensor& out) {
  if (out.scalar_type() != dtype || !at_npu::native::FormatHelper::IsOpInputBaseFormat(out)) {
    at::Tensor temp = OpPreparation::apply_tensor_without_format(out.sizes(), out.options().dtype(dtype));
    reduce_nocheck(type, self, dims, keepdim, dtype, temp);
    out.copy_(temp);
    return;
  }
  if (out.numel() == 0) {
    return;
  }
  OpCommand cmd;
  cmd.Name(type);
  op_plugin::utils::AddInputAs(cmd, self, dtype);
  cmd.Input(at::IntArrayRef(dims)).Output(out).Attr("keep_dims", keepdim).Run();
}

at::ScalarType sum_dtype(const at::Tensor& self, c10::optional<at::ScalarType> dtype) {
  if (dtype.has_value()) return *dtype;
  return at::isIntegralType(self.scalar_type(), /*includeBool=*/true) ? at::kLong : self.scalar_type();
}

// ReduceSum has no bool type: a bool sum (dtype=torch.bool) is summed in int64 and cast (nonzero: true).
at::ScalarType sum_compute_type(at::ScalarType result) {
  return result == at::kBool ? at::kLong : result;
}

at::ScalarType mean_dtype(const char* op, const at::Tensor& self, c10::optional<at::ScalarType> dtype) {
  const at::ScalarType result = dtype.value_or(self.scalar_type());
  TORCH_CHECK(at::isFloatingType(result) || at::isComplexType(result), op,
              "(): could not infer output dtype. ", dtype.has_value() ? "Optional" : "Input",
              " dtype must be either a floating point or complex dtype. Got: ", result);
  return result;
}

// amax/amin: ATen refuses to reduce a dimension of size 0 (IndexError).
void check_extreme_dims(const char* op, const at::Tensor& self, const Reduction& r) {
  if (self.numel() != 0) return;
  TORCH_CHECK_INDEX(!r.dims.empty() || self.dim() == 0, op,
                    "(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim "
                    "with the 'dim' argument.");
  for (int64_t d : r.dims) {
    TORCH_CHECK_INDEX(self.size(d) != 0, op, "(): Expected reduction dim ", d, " to have non-zero size.");
  }
}

at::Tensor& extreme_out(const char* op, const char* type, const at::Tensor& self, at::IntArrayRef dim, bool keepdim,
                        at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const Reduction r = reduction_of(op, self, dim, keepdim);
  check_extreme_dims(op, self, r);
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), op, ": expected out dtype ", self.scalar_type(), " but got ",
              out.scalar_type());
  OpPreparation::check_tensor({self}, out, self.scalar_type(), r.out_size);
  reduce_nocheck(type, self, r.dims, keepdim, self.scalar_type(), out);
  return out;
}

at::Tensor extreme(const char* op, const char* type, const at::Tensor& self, at::IntArrayRef dim, bool keepdim) {
  c10_npu::NPUGuard guard(self.device());
  const Reduction r = reduction_of(op, self, dim, keepdim);
  check_extreme_dims(op, self, r);
  at::Tensor out = OpPreparation::apply_tensor_without_format(r.out_size, self.options());
  reduce_nocheck(type, self, r.dims, keepdim, self.scalar_type(), out);
  return out;
}

// all / any ("ReduceAll" / "ReduceAny") over bool (self != 0), written to out (bool or uint8) through
// reduce_nocheck; a 0-dim self reduces no dimension.
struct BoolReduction {
  const char* op;
  const char* type;
};
constexpr BoolReduction kAll{"all", "ReduceAll"};
constexpr BoolReduction kAny{"any", "ReduceAny"};

at::Tensor& bool_reduce_dim_out(const BoolReduction& r, const at::Tensor& self, int64_t dim, bool keepdim,
                                at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_real_reduction(r.op, self);
  op_plugin::utils::check_bool_reduction_out(r.op, self, out);
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  OpPreparation::check_tensor({self}, out, out.scalar_type(),
                              op_plugin::utils::one_dim_reduced_size(self, wrapped, keepdim));
  reduce_nocheck(r.type, self, self.dim() == 0 ? std::vector<int64_t>{} : std::vector<int64_t>{wrapped}, keepdim,
                 at::kBool, out);
  return out;
}

at::Tensor bool_reduce_dim(const BoolReduction& r, const at::Tensor& self, int64_t dim, bool keepdim) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_real_reduction(r.op, self);
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  at::Tensor out = OpPreparation::apply_tensor_without_format(
      op_plugin::utils::one_dim_reduced_size(self, wrapped, keepdim),
      self.options().dtype(op_plugin::utils::bool_reduction_result_type(self)));
  reduce_nocheck(r.type, self, self.dim() == 0 ? std::vector<int64_t>{} : std::vector<int64_t>{wrapped}, keepdim,
                 at::kBool, out);
  return out;
}

at::Tensor& bool_reduce_all_out(const BoolReduction& r, const at::Tensor& self, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_real_reduction(r.op, self);
  op_plugin::utils::check_bool_reduction_out(r.op, self, out);
  OpPreparation::check_tensor({self}, out, out.scalar_type(), c10::IntArrayRef{});
  reduce_nocheck(r.type, self, {}, false, at::kBool, out);
  return out;
}

at::Tensor bool_reduce_all(const BoolReduction& r, const at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_real_reduction(r.op, self);
  at::Tensor out = OpPreparation::apply_tensor_without_format(
      {}, self.options().dtype(op_plugin::utils::bool_reduction_result_type(self)));
  reduce_nocheck(r.type, self, {}, false, at::kBool, out);
  return out;
}

}  // namespace

at::Tensor& sum_out(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim,
                    c10::optional<at::ScalarType> dtype, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const Reduction r = reduction_of("sum", self, dim, keepdim);
  const at::ScalarType result_type = dtype.value_or(out.scalar_type());
  OpPreparation::check_tensor({self}, out, result_type, r.out_size);
  TORCH_CHECK(out.scalar_type() == result_type, "sum: expected out dtype ", result_type, " but got ",
              out.scalar_type());
  reduce_nocheck("ReduceSum", self, r.dims, keepdim, sum_compute_type(result_type), out);
  return out;
}

at::Tensor sum(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim,
               c10::optional<at::ScalarType> dtype) {
  c10_npu::NPUGuard guard(self.device());
  const Reduction r = reduction_of("sum", self, dim, keepdim);
  const at::ScalarType result_type = sum_dtype(self, dtype);
  at::Tensor out = OpPreparation::apply_tensor_without_format(r.out_size, self.options().dtype(result_type));
  reduce_nocheck("ReduceSum", self, r.dims, keepdim, sum_compute_type(result_type), out);
  return out;
}

at::Tensor& mean_out(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim,
                     c10::optional<at::ScalarType> dtype, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const Reduction r = reduction_of("mean", self, dim, keepdim);
  const at::ScalarType result_type = mean_dtype("mean", self, dtype.has_value() ? dtype : out.scalar_type());
  OpPreparation::check_tensor({self}, out, result_type, r.out_size);
  reduce_nocheck("ReduceMean", self, r.dims, keepdim, result_type, out);
  return out;
}

at::Tensor mean(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim,
                c10::optional<at::ScalarType> dtype) {
  c10_npu::NPUGuard guard(self.device());
  const Reduction r = reduction_of("mean", self, dim, keepdim);
  const at::ScalarType result_type = mean_dtype("mean", self, dtype);
  at::Tensor out = OpPreparation::apply_tensor_without_format(r.out_size, self.options().dtype(result_type));
  reduce_nocheck("ReduceMean", self, r.dims, keepdim, result_type, out);
  return out;
}

at::Tensor& amax_out(const at::Tensor& self, at::IntArrayRef dim, bool keepdim, at::Tensor& out) {
  return extreme_out("amax", "ReduceMax", self, dim, keepdim, out);
}
at::Tensor amax(const at::Tensor& self, at::IntArrayRef dim, bool keepdim) {
  return extreme("amax", "ReduceMax", self, dim, keepdim);
}
at::Tensor& amin_out(const at::Tensor& self, at::IntArrayRef dim, bool keepdim, at::Tensor& out) {
  return extreme_out("amin", "ReduceMin", self, dim, keepdim, out);
}
at::Tensor amin(const at::Tensor& self, at::IntArrayRef dim, bool keepdim) {
  return extreme("amin", "ReduceMin", self, dim, keepdim);
}

at::Tensor& all_out(const at::Tensor& self, int64_t dim, bool keepdim, at::Tensor& out) {
  return bool_reduce_dim_out(kAll, self, dim, keepdim, out);
}
at::Tensor all(const at::Tensor& self, int64_t dim, bool keepdim) { return bool_reduce_dim(kAll, self, dim, keepdim); }
at::Tensor& all_out(const at::Tensor& self, at::Tensor& out) { return bool_reduce_all_out(kAll, self, out); }
at::Tensor all(const at::Tensor& self) { return bool_reduce_all(kAll, self); }

at::Tensor& any_out(const at::Tensor& self, int64_t dim, bool keepdim, at::Tensor& out) {
  return bool_reduce_dim_out(kAny, self, dim, keepdim, out);
}
at::Tensor any(const at::Tensor& self, int64_t dim, bool keepdim) { return bool_reduce_dim(kAny, self, dim, keepdim); }
at::Tensor& any_out(const at::Tensor& self, at::Tensor& out) { return bool_reduce_all_out(kAny, self, out); }
at::Tensor any(const at::Tensor& self) { return bool_reduce_all(kAny, self); }

// max() / min() of every element: "ReduceMax" / "ReduceMin" over all dimensions.
at::Tensor max(const at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_extreme_all("max", self);
  at::Tensor out = OpPreparation::apply_tensor_without_format({}, self.options());
  reduce_nocheck("ReduceMax", self, {}, false, self.scalar_type(), out);
  return out;
}

at::Tensor min(const at::Tensor& self) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_extreme_all("min", self);
  at::Tensor out = OpPreparation::apply_tensor_without_format({}, self.options());
  reduce_nocheck("ReduceMin", self, {}, false, self.scalar_type(), out);
  return out;
}

// count_nonzero: "ReduceSum" in int64 of self != 0 (ne's own acl_op path, "NotEqual").
at::Tensor count_nonzero(const at::Tensor& self, at::IntArrayRef dim) {
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_real_reduction("count_nonzero", self);
  const Reduction r = reduction_of("count_nonzero", self, dim, false);
  const at::Tensor mask = at::ne(self, 0);
  at::Tensor out = OpPreparation::apply_tensor_without_format(r.out_size, self.options().dtype(at::kLong));
  reduce_nocheck("ReduceSum", mask, r.dims, false, at::kLong, out);
  return out;
}

}  // namespace acl_op
