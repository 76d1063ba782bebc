// Argument checks and shapes shared by the matrix multiply kernels (mm, bmm,
// addmm, baddbmm) of both paths. Messages name the op and the argument.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>

#include <vector>

namespace op_plugin::utils {

// self (rank-D) @ mat2 (rank-D) with rank 2 (mm) or 3 (bmm): devices, dtypes
// (float32, float16, bfloat16, equal), shapes; returns the result's sizes.
std::vector<int64_t> matmul_output_size(const char* op, const at::Tensor& self, const char* self_name,
                                        const at::Tensor& mat2, const char* mat2_name, int64_t rank);

// The bias `self` of addmm/baddbmm: same device and dtype as `mat`, broadcastable to `sizes`.
void check_bias(const char* op, const at::Tensor& self, const at::Tensor& mat, c10::IntArrayRef sizes);

// out= of the matmul ops: same device and dtype as the inputs (as on CPU); resized to `sizes`.
void check_matmul_out(const char* op, const at::Tensor& input, at::Tensor& out, c10::IntArrayRef sizes);

// `t` is the transpose (of its last two dimensions) of a dense row-major tensor
// with both matrix dimensions above 1: acl ops read it as stored with a transpose attribute.
bool is_transposed_matrix(const at::Tensor& t);

// `a` and `b` share storage (an in-place result that is also an operand).
bool shares_storage(const at::Tensor& a, const at::Tensor& b);

}  // namespace op_plugin::utils
