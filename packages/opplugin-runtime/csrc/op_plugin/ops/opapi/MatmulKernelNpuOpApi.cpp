// mm / bmm / addmm / baddbmm / mv / dot / vdot / addmv / addbmm on the op_api path (aclnnMm,
// aclnnBmm, aclnnAddmm, aclnnBaddbmm, aclnnMv, aclnnDot; vdot of real vectors is their dot, of
// complex ones four dots of the real and imaginary parts; addmv is aclnnAddmm with vec as a one-column
// matrix, addbmm aclnnAddmm over the batches laid side by side: sum_b A_b B_b = [A_0 .. A_k]
// [B_0; ..; B_k]). Operands go to aclnn with their strides: a t() view is read as
// stored by the kernel, the bias of addmm/baddbmm is added inside the kernel.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include <vector>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/addbmm.h"
#include "op_plugin/ops/addmm.h"
#include "op_plugin/ops/addmv.h"
#include "op_plugin/ops/baddbmm.h"
#include "op_plugin/ops/bmm.h"
#include "op_plugin/ops/dot.h"
#include "op_plugin/ops/mm.h"
#include "op_plugin/ops/mv.h"
#include "op_plugin/ops/vdot.h"
#include "op_plugin/utils/MatmulUtils.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

// cubeMathType KEEP_DTYPE: float32 stays float32 (no HF32), 16-bit types accumulate in float32.
constexpr int8_t kCubeMathType = 0;

at::Tensor& addmm_into(const at::Tensor& self, const at::Tensor& mat1, const at::Tensor& mat2,
                       const at::Scalar& beta, const at::Scalar& alpha, at::Tensor& out) {
  EXEC_NPU_CMD(aclnnAddmm, self, mat1, mat2, beta, alpha, out, kCubeMathType);
  return out;
}

at::Tensor& baddbmm_into(const at::Tensor& self, const at::Tensor& batch1, const at::Tensor& batch2,
                         const at::Scalar& beta, const at::Scalar& alpha, at::Tensor& out) {
  EXEC_NPU_CMD(aclnnBaddbmm, self, batch1, batch2, beta, alpha, out, kCubeMathType);
  return out;
}

}  // namespace

at::Tensor mm(const at::Tensor& self, const at::Tensor& mat2) {
  DO_COMPATIBILITY(aclnnMm, acl_op::mm(self, mat2));
  const auto sizes = op_plugin::utils::matmul_output_size("mm", self, "self", mat2, "mat2", 2);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(sizes, self.options());
  EXEC_NPU_CMD(aclnnMm, self, mat2, out, kCubeMathType);
  return out;
}

at::Tensor& mm_out(const at::Tensor& self, const at::Tensor& mat2, at::Tensor& out) {
  DO_COMPATIBILITY(aclnnMm, acl_op::mm_out(self, mat2, out));
  const auto sizes = op_plugin::utils::matmul_output_size("mm_out", self, "self", mat2, "mat2", 2);
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_matmul_out("mm_out", self, out, sizes);
  EXEC_NPU_CMD(aclnnMm, self, mat2, out, kCubeMathType);
  return out;
}

at::Tensor bmm(const at::Tensor& self, const at::Tensor& mat2) {
  DO_COMPATIBILITY(aclnnBmm, acl_op::bmm(self, mat2));
  const auto sizes = op_plugin::utils::matmul_output_size("bmm", self, "self", mat2, "mat2", 3);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(sizes, self.options());
  EXEC_NPU_CMD(aclnnBmm, self, mat2, out, kCubeMathType);
  return out;
}

at::Tensor& bmm_out(const at::Tensor& self, const at::Tensor& mat2, at::Tensor& out) {
  DO_COMPATIBILITY(aclnnBmm, acl_op::bmm_out(self, mat2, out));
  const auto sizes = op_plugin::utils::matmul_output_size("bmm_out", self, "self", mat2, "mat2", 3);
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_matmul_out("bmm_out", self, out, sizes);
  EXEC_NPU_CMD(aclnnBmm, self, mat2, out, kCubeMathType);
  return out;
}

at::Tensor addmm(const at::Tensor& self, const at::Tensor& mat1, const at::Tensor& mat2, const at::Scalar& beta,
                 const at::Scalar& alpha) {
  DO_COMPATIBILITY(aclnnAddmm, acl_op::addmm(self, mat1, mat2, beta, alpha));
  const auto sizes = op_plugin::utils::matmul_output_size("addmm", mat1, "mat1", mat2, "mat2", 2);
  op_plugin::utils::check_bias("addmm", self, mat1, sizes);
  c10_npu::NPUGuard guard(mat1.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(sizes, mat1.options());
  return addmm_into(self, mat1, mat2, beta, alpha, out);
}

at::Tensor& addmm_out(const at::Tensor& self, const at::Tensor& mat1, const at::Tensor& mat2, const at::Scalar& beta,
                      const at::Scalar& alpha, at::Tensor& out) {
  DO_COMPATIBILITY(aclnnAddmm, acl_op::addmm_out(self, mat1, mat2, beta, alpha, out));
  const auto sizes = op_plugin::utils::matmul_output_size("addmm_out", mat1, "mat1", mat2, "mat2", 2);
  op_plugin::utils::check_bias("addmm_out", self, mat1, sizes);
  c10_npu::NPUGuard guard(mat1.device());
  op_plugin::utils::check_matmul_out("addmm_out", mat1, out, sizes);
  if (op_plugin::utils::shares_storage(out, mat1) || op_plugin::utils::shares_storage(out, mat2)) {
    at::Tensor result = OpPreparation::apply_tensor_without_format(sizes, mat1.options());
    out.copy_(addmm_into(self, mat1, mat2, beta, alpha, result));
    return out;
  }
  return addmm_into(self, mat1, mat2, beta, alpha, out);
}

at::Tensor& addmm_(at::Tensor& self, const at::Tensor& mat1, const at::Tensor& mat2, const at::Scalar& beta,
                   const at::Scalar& alpha) {
  DO_COMPATIBILITY(aclnnAddmm, acl_op::addmm_(self, mat1, mat2, beta, alpha));
  const auto sizes = op_plugin::utils::matmul_output_size("addmm_", mat1, "mat1", mat2, "mat2", 2);
  op_plugin::utils::check_bias("addmm_", self, mat1, sizes);
  TORCH_CHECK(self.sizes() == c10::IntArrayRef(sizes), "addmm_: self of shape ", self.sizes(),
              " must have the result shape ", sizes);
  c10_npu::NPUGuard guard(mat1.device());
  if (op_plugin::utils::shares_storage(self, mat1) || op_plugin::utils::shares_storage(self, mat2)) {
    at::Tensor result = OpPreparation::apply_tensor_without_format(sizes, mat1.options());
    self.copy_(addmm_into(self, mat1, mat2, beta, alpha, result));
    return self;
  }
  return addmm_into(self, mat1, mat2, beta, alpha, self);
}

at::Tensor baddbmm(const at::Tensor& self, const at::Tensor& batch1, const at::Tensor& batch2, const at::Scalar& beta,
                   const at::Scalar& alpha) {
  const auto sizes = op_plugin::utils::matmul_output_size("baddbmm", batch1, "batch1", batch2, "batch2", 3);
  op_plugin::utils::check_bias("baddbmm", self, batch1, sizes);
  c10_npu::NPUGuard guard(batch1.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(sizes, batch1.options());
  return baddbmm_into(self, batch1, batch2, beta, alpha, out);
}

at::Tensor& baddbmm_out(const at::Tensor& self, const at::Tensor& batch1, const at::Tensor& batch2,
                        const at::Scalar& beta, const at::Scalar& alpha, at::Tensor& out) {
  const auto sizes = op_plugin::utils::matmul_output_size("baddbmm_out", batch1, "batch1", batch2, "batch2", 3);
  op_plugin::utils::check_bias("baddbmm_out", self, batch1, sizes);
  c10_npu::NPUGuard guard(batch1.device());
  op_plugin::utils::check_matmul_out("baddbmm_out", batch1, out, sizes);
  if (op_plugin::utils::shares_storage(out, batch1) || op_plugin::utils::shares_storage(out, batch2)) {
    at::Tensor result = OpPreparation::apply_tensor_without_format(sizes, batch1.options());
    out.copy_(baddbmm_into(self, batch1, batch2, beta, alpha, result));
    return out;
  }
  return baddbmm_into(self, batch1, batch2, beta, alpha, out);
}

at::Tensor& baddbmm_(at::Tensor& self, const at::Tensor& batch1, const at::Tensor& batch2, const at::Scalar& beta,
                     const at::Scalar& alpha) {
  const auto sizes = op_plugin::utils::matmul_output_size("baddbmm_", batch1, "batch1", batch2, "batch2", 3);
  op_plugin::utils::check_bias("baddbmm_", self, batch1, sizes);
  TORCH_CHECK(self.sizes() == c10::IntArrayRef(sizes), "baddbmm_: self of shape ", self.sizes(),
              " must have the result shape ", sizes);
  c10_npu::NPUGuard guard(batch1.device());
  if (op_plugin::utils::shares_storage(self, batch1) || op_plugin::utils::shares_storage(self, batch2)) {
    at::Tensor result = OpPreparation::apply_tensor_without_format(sizes, batch1.options());
    self.copy_(baddbmm_into(self, batch1, batch2, beta, alpha, result));
    return self;
  }
  return baddbmm_into(self, batch1, batch2, beta, alpha, self);
}

at::Tensor mv(const at::Tensor& self, const at::Tensor& vec) {
  TORCH_CHECK(self.dim() == 2 && vec.dim() == 1, "mv: self must be 2-D and vec 1-D: vector + matrix @ vector "
              "expected, got 1, ", self.dim(), ", ", vec.dim());
  TORCH_CHECK(self.size(1) == vec.size(0), "mv: self and vec cannot be multiplied: size mismatch, got input (",
              self.size(0), "), mat (", self.size(0), "x", self.size(1), "), vec (", vec.size(0), ")");
  const auto sizes = op_plugin::utils::matmul_output_size("mv", self, "self", vec.unsqueeze(1), "vec", 2);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format({sizes[0]}, self.options());
  EXEC_NPU_CMD(aclnnMv, self, vec, out, kCubeMathType);
  return out;
}

at::Tensor dot(const at::Tensor& self, const at::Tensor& tensor) {
  TORCH_CHECK(self.dim() == 1 && tensor.dim() == 1, "dot: self and tensor must be 1-D: 1D tensors expected, but got ",
              self.dim(), "D and ", tensor.dim(), "D tensors");
  TORCH_CHECK(self.numel() == tensor.numel(), "dot: self and tensor must have the same size: inconsistent tensor "
              "size, expected tensor [", self.numel(), "] and src [", tensor.numel(),
              "] to have the same number of elements, but got ", self.numel(), " and ", tensor.numel(),
              " elements respectively");
  op_plugin::utils::matmul_output_size("dot", self.unsqueeze(0), "self", tensor.unsqueeze(1), "tensor", 2);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format({}, self.options());
  EXEC_NPU_CMD(aclnnDot, self, tensor, out);
  return out;
}

at::Tensor vdot(const at::Tensor& self, const at::Tensor& other) {
  return op_plugin::utils::vdot_by_dots(self, other, &op_api::dot);
}

at::Tensor& addmv_out(const at::Tensor& self, const at::Tensor& mat, const at::Tensor& vec, const at::Scalar& beta,
                      const at::Scalar& alpha, at::Tensor& out) {
  c10_npu::NPUGuard guard(mat.device());
  return op_plugin::utils::addmv_by_addmm(self, mat, vec, beta, alpha, out, &addmm_into);
}

at::Tensor addbmm(const at::Tensor& self, const at::Tensor& batch1, const at::Tensor& batch2, const at::Scalar& beta,
                  const at::Scalar& alpha) {
  const auto [mat1, mat2] = op_plugin::utils::batches_side_by_side("addbmm", batch1, batch2);
  return op_api::addmm(self, mat1, mat2, beta, alpha);
}

at::Tensor& addbmm_out(const at::Tensor& self, const at::Tensor& batch1, const at::Tensor& batch2,
                       const at::Scalar& beta, const at::Scalar& alpha, at::Tensor& out) {
  const auto [mat1, mat2] = op_plugin::utils::batches_side_by_side("addbmm_out", batch1, batch2);
  return op_api::addmm_out(self, mat1, mat2, beta, alpha, out);
}

at::Tensor& addbmm_(at::Tensor& self, const at::Tensor& batch1, const at::Tensor& batch2, const at::Scalar& beta,
                    const at::Scalar& alpha) {
  const auto [mat1, mat2] = op_plugin::utils::batches_side_by_side("addbmm_", batch1, batch2);
  op_plugin::utils::resize_addbmm_self(self, {mat1.size(0), mat2.size(1)});
  return op_api::addmm_(self, mat1, mat2, beta, alpha);
}

}  // namespace op_api
