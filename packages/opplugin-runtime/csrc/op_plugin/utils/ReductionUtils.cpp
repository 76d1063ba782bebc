#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "op_plugin/utils/ReductionUtils.h"

#include <ATen/WrapDimUtilsMulti.h>
#include <c10/core/WrapDimMinimal.h>

#include <bitset>
#include <cmath>

#include "npu/op_common/OpPreparation.h"

namespace op_plugin::utils {

void check_real_reduction(const char* op, const at::Tensor& self) {
  TORCH_CHECK(!at::isComplexType(self.scalar_type()), op, ": complex self (", self.scalar_type(),
              ") is not supported on npu");
}

at::ScalarType bool_reduction_result_type(const at::Tensor& self) {
  return self.scalar_type() == at::kByte ? at::kByte : at::kBool;
}

void check_bool_reduction_out(const char* op, const at::Tensor& self, const at::Tensor& out) {
  const at::ScalarType t = out.scalar_type();
  TORCH_CHECK(t == at::kBool || (t == at::kByte && self.scalar_type() == at::kByte), op,
              ": out must be bool (or uint8 for a uint8 self), got ", t);
}

c10::SmallVector<int64_t, 8> one_dim_reduced_size(const at::Tensor& self, int64_t wrapped, bool keepdim) {
  c10::SmallVector<int64_t, 8> size;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (d != wrapped) {
      size.push_back(self.size(d));
    } else if (keepdim) {
      size.push_back(1);
    }
  }
  return size;
}

void check_nonzero_dim(const char* op, const at::Tensor& self, int64_t wrapped) {
  if (self.dim() == 0) return;
  TORCH_CHECK_INDEX(self.size(wrapped) != 0, op, "(): Expected reduction dim ", wrapped, " to have non-zero size.");
}

int64_t check_extreme_dim_out(const char* op, const at::Tensor& self, int64_t dim, bool keepdim, at::Tensor& values,
                              at::Tensor& indices) {
  check_real_reduction(op, self);
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  check_nonzero_dim(op, self, wrapped);
  TORCH_CHECK(values.scalar_type() == self.scalar_type(), op, "(): expected values dtype ", self.scalar_type(),
              " but got ", values.scalar_type());
  TORCH_CHECK(indices.scalar_type() == at::kLong, op, "(): expected indices dtype Long but got ",
              indices.scalar_type());
  const auto size = one_dim_reduced_size(self, wrapped, keepdim);
  at_npu::native::OpPreparation::check_tensor({self}, values, self.scalar_type(), size);
  at_npu::native::OpPreparation::check_tensor({self}, indices, at::kLong, size);
  return wrapped;
}

void check_extreme_all(const char* op, const at::Tensor& self) {
  check_real_reduction(op, self);
  TORCH_CHECK(self.numel() > 0, op,
              "(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the "
              "'dim' argument.");
}

at::ScalarType prod_result_type(const at::Tensor& self, c10::optional<at::ScalarType> dtype) {
  if (dtype.has_value()) return *dtype;
  return at::isIntegralType(self.scalar_type(), /*includeBool=*/true) ? at::kLong : self.scalar_type();
}

void check_equal_operands(const at::Tensor& self, const at::Tensor& other) {
  TORCH_CHECK(self.device() == other.device(), "Cannot compare two tensors on different devices. Got: ",
              self.device(), " and ", other.device());
  check_real_reduction("equal", self);
  check_real_reduction("equal", other);
}

at::ScalarType trace_result_type(const at::Tensor& self) {
  TORCH_CHECK(self.dim() == 2, "trace: expected a matrix, but got tensor with dim ", self.dim());
  check_real_reduction("trace", self);
  return prod_result_type(self, c10::nullopt);
}

DimReduction reduce_dims(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim) {
  DimReduction r;
  const int64_t ndim = self.dim();
  std::bitset<at::dim_bitset_size> reduced;
  if (!dim.has_value() || dim->empty()) {
    for (int64_t d = 0; d < ndim; ++d) reduced.set(static_cast<size_t>(d));
  } else {
    reduced = at::dim_list_to_bitset(*dim, ndim);  // IndexError for a bad dim, as CPU
    for (int64_t d = 0; d < ndim; ++d) {
      if (reduced[static_cast<size_t>(d)]) r.dims.push_back(d);
    }
  }
  for (int64_t d = 0; d < ndim; ++d) {
    if (!reduced[static_cast<size_t>(d)]) {
      r.out_size.push_back(self.size(d));
    } else if (keepdim) {
      r.out_size.push_back(1);
    }
  }
  return r;
}

void check_var_self(const at::Tensor& self) {
  TORCH_CHECK(at::isFloatingType(self.scalar_type()) || at::isComplexType(self.scalar_type()),
              "std and var only support floating point and complex dtypes");
  check_real_reduction("var/std", self);
}

void check_var_std_out(const char* op, const at::Tensor& self, const at::Tensor& out) {
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), op, ": expected out dtype ", self.scalar_type(), " but got ",
              out.scalar_type());
}

Correction correction_of(const c10::optional<at::Scalar>& correction) {
  Correction c;
  if (!correction.has_value()) return c;
  c.value = correction->toDouble();
  if (std::isfinite(c.value) && c.value == std::floor(c.value) && std::fabs(c.value) < 9.0e15) {
    c.integral = static_cast<int64_t>(c.value);
  } else {
    c.integral = 0;
    c.rescale = true;
  }
  return c;
}

double correction_rescale_factor(const Correction& c, bool take_sqrt, int64_t n) {
  const double count = static_cast<double>(n);
  const double divisor = count > c.value ? count - c.value : 0.0;
  const double factor = count / divisor;
  return take_sqrt ? std::sqrt(factor) : factor;
}

void check_norm_self(const char* op, const at::Tensor& self) {
  TORCH_CHECK(at::isFloatingType(self.scalar_type()) || at::isComplexType(self.scalar_type()), op,
              ": Expected a floating point or complex tensor as input. Got ", self.scalar_type());
  check_real_reduction(op, self);
}

void check_norm_out(const at::Tensor& self, at::ScalarType dtype, double p, const at::Tensor& out) {
  check_norm_self("norm", self);
  TORCH_CHECK(at::isFloatingType(dtype), "norm(): the result dtype ", dtype, " is not a floating point dtype");
  TORCH_CHECK_INDEX(self.numel() != 0 || !(std::isinf(p) && p < 0),
                    "norm: Expected reduction dim to be specified for input.numel() == 0 with ord=-inf");
  TORCH_CHECK(out.scalar_type() == dtype, "norm: expected out dtype ", dtype, " but got ", out.scalar_type());
}

void check_running_extreme_outs(const at::Tensor& self, const at::Tensor& values, const at::Tensor& indices) {
  TORCH_CHECK(values.scalar_type() == self.scalar_type(), "expected scalar type ", self.scalar_type(), " but found ",
              values.scalar_type());
  TORCH_CHECK(indices.scalar_type() == at::kLong, "expected scalar type Long but found ", indices.scalar_type());
}

int64_t check_dim_selection_out(const char* op, const at::Tensor& self, int64_t dim, bool keepdim,
                                c10::optional<int64_t> k, at::Tensor& values, at::Tensor& indices) {
  const int64_t wrapped = check_extreme_dim_out(op, self, dim, keepdim, values, indices);
  if (k.has_value()) {
    const int64_t slice = self.dim() > 0 ? self.size(wrapped) : 1;
    TORCH_CHECK(*k >= 1 && *k <= slice, op, "(): selected number k out of range for dimension ", wrapped);
  }
  return wrapped;
}

}  // namespace op_plugin::utils
