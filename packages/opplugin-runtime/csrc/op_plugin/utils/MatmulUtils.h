// Argument checks and shapes shared by the matrix multiply kernels (mm, bmm,
// addmm, baddbmm) of both paths. Messages name the op and the argument.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>

#include <utility>
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

// A path's dot and addmm out= kernels, which vdot and addmv are composed of on both paths.
using DotKernel = at::Tensor (*)(const at::Tensor& self, const at::Tensor& tensor);
using AddmmOutKernel = at::Tensor& (*)(const at::Tensor& self, const at::Tensor& mat1, const at::Tensor& mat2,
                                       const at::Scalar& beta, const at::Scalar& alpha, at::Tensor& out);

// vdot(self, other) = conj(self) . other after CPU's checks: `dot` itself for real vectors; for complex
// ones four real dots over the parts, (ar br + ai bi) + i (ar bi - ai br).
at::Tensor vdot_by_dots(const at::Tensor& self, const at::Tensor& other, DotKernel dot);

// out = beta * self + alpha * (mat @ vec) as addmm of the column vec (ATen's meta function checked the
// shapes and sized out to [n]); a result through a temporary where out aliases mat or vec.
at::Tensor& addmv_by_addmm(const at::Tensor& self, const at::Tensor& mat, const at::Tensor& vec,
                           const at::Scalar& beta, const at::Scalar& alpha, at::Tensor& out, AddmmOutKernel addmm_out);

// addbmm's batches as one product: batch1 [b, n, m] as [n, b * m] (its batches side by side) and batch2
// [b, m, p] as [b * m, p] (stacked), after CPU's checks.
std::pair<at::Tensor, at::Tensor> batches_side_by_side(const char* op, const at::Tensor& batch1,
                                                      const at::Tensor& batch2);

// As ATen's addbmm_: a self that broadcasts to the result's `sizes` is resized to them, holding its
// broadcast values.
void resize_addbmm_self(at::Tensor& self, c10::IntArrayRef sizes);

}  // namespace op_plugin::utils
