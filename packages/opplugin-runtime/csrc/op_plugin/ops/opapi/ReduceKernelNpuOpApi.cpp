// sum.dim_IntList / sum.IntList_out (aclnnReduceSum), mean.dim / mean.out
// (aclnnMean), amax / amax.out (aclnnAmax), amin / amin.out (aclnnAmin) on the
// op_api path. The full reductions (sum(), mean()) are CompositeExplicitAutograd
// in ATen and reach the dim overloads with an empty dim list. Output dtypes and
// errors follow ATen's CPU kernels.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/WrapDimUtilsMulti.h>
#include <ATen/core/Tensor.h>

#include <vector>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/amax.h"
#include "op_plugin/ops/amin.h"
#include "op_plugin/ops/mean.h"
#include "op_plugin/ops/sum.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

// The reduced dimensions (wrapped, checked for repeats as ATen does; none given:
// all) and the output shape.
struct Reduction {
  std::vector<int64_t> dims;  // empty: every dimension
  c10::SmallVector<int64_t, 8> out_size;
};

Reduction reduction_of(const char* op, const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim) {
  Reduction r;
  const int64_t ndim = self.dim();
  const bool all = !dim.has_value() || dim->empty();
  std::bitset<at::dim_bitset_size> reduced;
  if (all) {
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

at::ScalarType sum_dtype(const at::Tensor& self, c10::optional<at::ScalarType> dtype) {
  if (dtype.has_value()) return *dtype;
  return at::isIntegralType(self.scalar_type(), /*includeBool=*/true) ? at::kLong : self.scalar_type();
}

at::ScalarType mean_dtype(const char* op, const at::Tensor& self, c10::optional<at::ScalarType> dtype) {
  const at::ScalarType result = dtype.value_or(self.scalar_type());
  TORCH_CHECK(at::isFloatingType(result) || at::isComplexType(result), op,
              "(): could not infer output dtype. ", dtype.has_value() ? "Optional" : "Input",
              " dtype must be either a floating point or complex dtype. Got: ", result);
  return result;
}

// amax/amin: ATen refuses to reduce a dimension of size 0.
void check_extreme_dims(const char* op, const at::Tensor& self, const Reduction& r) {
  if (self.numel() != 0) return;
  // IndexError, as ATen's zero_numel_check_dims
  TORCH_CHECK_INDEX(!r.dims.empty() || self.dim() == 0, op,
                    "(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim "
                    "with the 'dim' argument.");
  for (int64_t d : r.dims) {
    TORCH_CHECK_INDEX(self.size(d) != 0, op, "(): Expected reduction dim ", d, " to have non-zero size.");
  }
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
  const at::IntArrayRef dims(r.dims);
  EXEC_NPU_CMD(aclnnReduceSum, self, dims, keepdim, result_type, out);
  return out;
}

at::Tensor sum(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim,
               c10::optional<at::ScalarType> dtype) {
  c10_npu::NPUGuard guard(self.device());
  const Reduction r = reduction_of("sum", self, dim, keepdim);
  const at::ScalarType result_type = sum_dtype(self, dtype);
  at::Tensor out = OpPreparation::apply_tensor_without_format(r.out_size, self.options().dtype(result_type));
  const at::IntArrayRef dims(r.dims);
  EXEC_NPU_CMD(aclnnReduceSum, self, dims, keepdim, result_type, out);
  return out;
}

at::Tensor& mean_out(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim,
                     c10::optional<at::ScalarType> dtype, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const Reduction r = reduction_of("mean", self, dim, keepdim);
  const at::ScalarType result_type = mean_dtype("mean", self, dtype.has_value() ? dtype : out.scalar_type());
  OpPreparation::check_tensor({self}, out, result_type, r.out_size);
  const at::IntArrayRef dims(r.dims);
  EXEC_NPU_CMD(aclnnMean, self, dims, keepdim, result_type, out);
  return out;
}

at::Tensor mean(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim,
                c10::optional<at::ScalarType> dtype) {
  c10_npu::NPUGuard guard(self.device());
  const Reduction r = reduction_of("mean", self, dim, keepdim);
  const at::ScalarType result_type = mean_dtype("mean", self, dtype);
  at::Tensor out = OpPreparation::apply_tensor_without_format(r.out_size, self.options().dtype(result_type));
  const at::IntArrayRef dims(r.dims);
  EXEC_NPU_CMD(aclnnMean, self, dims, keepdim, result_type, out);
  return out;
}

at::Tensor& amax_out(const at::Tensor& self, at::IntArrayRef dim, bool keepdim, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const Reduction r = reduction_of("amax", self, dim, keepdim);
  check_extreme_dims("amax", self, r);
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), "amax: expected out dtype ", self.scalar_type(), " but got ",
              out.scalar_type());
  OpPreparation::check_tensor({self}, out, self.scalar_type(), r.out_size);
  const at::IntArrayRef dims(r.dims);
  EXEC_NPU_CMD(aclnnAmax, self, dims, keepdim, out);
  return out;
}

at::Tensor amax(const at::Tensor& self, at::IntArrayRef dim, bool keepdim) {
  c10_npu::NPUGuard guard(self.device());
  const Reduction r = reduction_of("amax", self, dim, keepdim);
  check_extreme_dims("amax", self, r);
  at::Tensor out = OpPreparation::apply_tensor_without_format(r.out_size, self.options());
  const at::IntArrayRef dims(r.dims);
  EXEC_NPU_CMD(aclnnAmax, self, dims, keepdim, out);
  return out;
}

at::Tensor& amin_out(const at::Tensor& self, at::IntArrayRef dim, bool keepdim, at::Tensor& out) {
  c10_npu::NPUGuard guard(self.device());
  const Reduction r = reduction_of("amin", self, dim, keepdim);
  check_extreme_dims("amin", self, r);
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), "amin: expected out dtype ", self.scalar_type(), " but got ",
              out.scalar_type());
  OpPreparation::check_tensor({self}, out, self.scalar_type(), r.out_size);
  const at::IntArrayRef dims(r.dims);
  EXEC_NPU_CMD(aclnnAmin, self, dims, keepdim, out);
  return out;
}

at::Tensor amin(const at::Tensor& self, at::IntArrayRef dim, bool keepdim) {
  c10_npu::NPUGuard guard(self.device());
  const Reduction r = reduction_of("amin", self, dim, keepdim);
  check_extreme_dims("amin", self, r);
  at::Tensor out = OpPreparation::apply_tensor_without_format(r.out_size, self.options());
  const at::IntArrayRef dims(r.dims);
  EXEC_NPU_CMD(aclnnAmin, self, dims, keepdim, out);
  return out;
}

}  // namespace op_api
