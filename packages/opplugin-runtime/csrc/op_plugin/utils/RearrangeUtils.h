// What the two paths of flip, roll, take, histc and linalg_cross share: CPU's argument checks and
// messages, and histc's range (the data's own when min == max).
#pragma once

#include <utility>

#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>
#include <c10/util/ArrayRef.h>

namespace op_plugin::utils {

// `op`: complex tensors are not supported on npu.
void check_not_complex(const char* op, const at::Tensor& self);

// flip: each of dims in range for self, none twice.
void check_flip_dims(const at::Tensor& self, at::IntArrayRef dims);

// roll: one shift per dimension of dims, or one shift and no dims; dims in range for self.
void check_roll_args(const at::Tensor& self, at::IntArrayRef shifts, at::IntArrayRef dims);

// take: an int64 index, and a non-empty self when index is not empty.
void check_take_args(const at::Tensor& self, const at::Tensor& index);

// take.out: out of self's dtype.
void check_take_out(const at::Tensor& self, const at::Tensor& out);

// histc: bins > 0, a floating self and an out (hist) of its dtype; returns the range [min, max]
// the bins cover: the data's own when min == max (reads self's extremes on the host), widened by
// one on each side when that range is a single value. Checks it is finite and increasing.
std::pair<double, double> histc_range(const at::Tensor& self, int64_t bins, const at::Scalar& min,
                                      const at::Scalar& max, const at::Tensor& out);

// linalg_cross: self and other of one dtype (ATen's meta function checks the shapes).
void check_cross_dtypes(const at::Tensor& self, const at::Tensor& other);

}  // namespace op_plugin::utils
