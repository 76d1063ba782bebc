// Checks and result shapes shared by the reduction kernels of both paths, with ATen's messages.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/ScalarType.h>
#include <c10/util/Optional.h>
#include <c10/util/OptionalArrayRef.h>
#include <c10/util/SmallVector.h>

#include <vector>

namespace op_plugin::utils {

// A complex self is not supported on npu by reduction `op`.
void check_real_reduction(const char* op, const at::Tensor& self);

// all / any: uint8 for a uint8 self, else bool.
at::ScalarType bool_reduction_result_type(const at::Tensor& self);

// all / any (`op`) with out=: out must be bool, or uint8 for a uint8 self.
void check_bool_reduction_out(const char* op, const at::Tensor& self, const at::Tensor& out);

// self's shape without dimension `wrapped` (1 there with keepdim).
c10::SmallVector<int64_t, 8> one_dim_reduced_size(const at::Tensor& self, int64_t wrapped, bool keepdim);

// IndexError when reducing dimension `wrapped` of size 0 (ATen's zero_numel_check_dims); a 0-dim self passes.
void check_nonzero_dim(const char* op, const at::Tensor& self, int64_t wrapped);

// max.dim_max / min.dim_min (`op`): checks values' and indices' dtypes (self's, int64) and resizes them to
// self's shape without `dim`; returns `dim` wrapped.
int64_t check_extreme_dim_out(const char* op, const at::Tensor& self, int64_t dim, bool keepdim, at::Tensor& values,
                              at::Tensor& indices);

// kthvalue (with k) / median / nanmedian (`op`) along `dim` with out=: CPU's checks (k in [1, the dimension's
// size]), values of self's dtype and int64 indices sized to self's shape without `dim`; returns `dim` wrapped.
int64_t check_dim_selection_out(const char* op, const at::Tensor& self, int64_t dim, bool keepdim,
                                c10::optional<int64_t> k, at::Tensor& values, at::Tensor& indices);

// max() / min() (`op`) of every element: a real, non-empty self.
void check_extreme_all(const char* op, const at::Tensor& self);

// prod() / nansum() without an explicit dtype: self's, with integers and bool promoted to int64.
at::ScalarType prod_result_type(const at::Tensor& self, c10::optional<at::ScalarType> dtype);

// equal: both tensors on one device, neither complex.
void check_equal_operands(const at::Tensor& self, const at::Tensor& other);

// trace: a real matrix; the result dtype (integers and bool promoted to int64).
at::ScalarType trace_result_type(const at::Tensor& self);

// Wrapped reduced dimensions (none given or empty: every dimension) and the result's shape.
struct DimReduction {
  std::vector<int64_t> dims;  // ascending; empty when every dimension is reduced
  c10::SmallVector<int64_t, 8> out_size;
};
DimReduction reduce_dims(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim);

// var / std: a floating (or complex, then refused as every complex reduction) self.
void check_var_self(const at::Tensor& self);

// var / std (`op`) with out=: out has self's dtype.
void check_var_std_out(const char* op, const at::Tensor& self, const at::Tensor& out);

// The correction of var / std as the device ops take it (an int64). A correction that is not one (1.3,
// inf, NaN) runs with 0, and the result is then scaled by correction_rescale_factor, which gives CPU's
// divisor.
struct Correction {
  int64_t integral = 1;
  bool rescale = false;
  double value = 1.0;
};
Correction correction_of(const c10::optional<at::Scalar>& correction);

// N / max(0, N - correction) (its square root for std): turns a result over N reduced elements with
// correction 0 into CPU's.
double correction_rescale_factor(const Correction& c, bool take_sqrt, int64_t n);

// norm / linalg_vector_norm (`op`): a floating (or complex, then refused) self.
void check_norm_self(const char* op, const at::Tensor& self);

// norm with dims into out: a floating self and result dtype, out of that dtype; no -inf norm of no elements
// (the minimum of nothing, which CPU refuses).
void check_norm_out(const at::Tensor& self, at::ScalarType dtype, double p, const at::Tensor& out);

// _cummax_helper / _cummin_helper: values of self's dtype and int64 indices, with CPU's messages.
void check_running_extreme_outs(const at::Tensor& self, const at::Tensor& values, const at::Tensor& indices);

}  // namespace op_plugin::utils
