// mm / bmm / addmm on the acl_op path: "MatMulV2" (transpose_x1/transpose_x2,
// optional bias input; an operand in FRACTAL_NZ, e.g. an npu_format_cast
// weight, is passed in that format) and "BatchMatMul" (adj_x1/adj_x2). A
// transposed operand (a t() view of a dense matrix) is passed as stored with the
// transpose attribute set, never copied. addmm: a row bias with beta = alpha = 1
// is MatMulV2's bias input; otherwise the product is scaled ("Muls") and the
// bias added ("Axpy", which broadcasts). vdot, addmv and addbmm are composed of this path's dot and addmm,
// as on the op_api path (op_plugin::utils::vdot_by_dots, addmv_by_addmm, batches_side_by_side).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include "npu/core/NPUGuard.h"
#include "npu/format/FormatCast.h"
#include "npu/format/FormatHelper.h"
#include "npu/acl_op/OpCommand.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/addbmm.h"
#include "op_plugin/ops/addmm.h"
#include "op_plugin/ops/addmv.h"
#include "op_plugin/ops/bmm.h"
#include "op_plugin/ops/dot.h"
#include "op_plugin/ops/mm.h"
#include "op_plugin/ops/vdot.h"
#include "op_plugin/utils/MatmulUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;

// The operand as the op reads it: the dense storage view of a transposed matrix
// (with *transposed set), else the tensor itself (OpCommand makes it contiguous).
// An internal format MatMulV2 does not read (FRACTAL_Z, NC1HWC0, ...) is converted to its base format first.
at::Tensor as_stored(const at::Tensor& t, bool* transposed) {
  const aclFormat format = at_npu::native::FormatHelper::GetFormat(t);
  if (!at_npu::native::FormatHelper::IsBaseFormatType(format) && format != ACL_FORMAT_FRACTAL_NZ) {
    *transposed = false;
    return at_npu::native::to_base_format(t, "matmul");
  }
  *transposed = at_npu::native::FormatHelper::IsOpInputBaseFormat(t) && op_plugin::utils::is_transposed_matrix(t);
  return *transposed ? t.transpose(-1, -2) : t;
}

// result <- self @ mat2 (+ bias row); result dense ND of the right shape.
void mm_out_nocheck(at::Tensor& result, const at::Tensor& self, const at::Tensor& mat2, const at::Tensor* bias) {
  if (result.numel() == 0) return;
  bool t1 = false, t2 = false;
  const at::Tensor x1 = as_stored(self, &t1);
  const at::Tensor x2 = as_stored(mat2, &t2);
  OpCommand cmd;
  cmd.Name("MatMulV2").Input(x1).Input(x2);
  if (bias != nullptr) cmd.Input(*bias);
  cmd.Output(result).Attr("transpose_x1", t1).Attr("transpose_x2", t2).Run();
}

void bmm_out_nocheck(at::Tensor& result, const at::Tensor& self, const at::Tensor& mat2) {
  if (result.numel() == 0) return;
  bool t1 = false, t2 = false;
  const at::Tensor x1 = as_stored(self, &t1);
  const at::Tensor x2 = as_stored(mat2, &t2);
  OpCommand cmd;
  cmd.Name("BatchMatMul").Input(x1).Input(x2).Output(result).Attr("adj_x1", t1).Attr("adj_x2", t2).Run();
}

bool is_value(const at::Scalar& s, double v) { return !s.isComplex() && s.toDouble() == v; }

// result <- beta * self + alpha * (mat1 @ mat2).
void addmm_out_nocheck(at::Tensor& result, const at::Tensor& self, const at::Tensor& mat1, const at::Tensor& mat2,
                       const at::Scalar& beta, const at::Scalar& alpha) {
  const int64_t n = result.size(1);
  const bool row_bias = self.numel() == n && self.dim() >= 1 && self.size(-1) == n &&
                        at_npu::native::FormatHelper::IsOpInputBaseFormat(self);
  if (row_bias && is_value(beta, 1.0) && is_value(alpha, 1.0)) {
    const at::Tensor bias = self.reshape({n});
    mm_out_nocheck(result, mat1, mat2, &bias);
    return;
  }
  at::Tensor product = OpPreparation::apply_tensor_without_format(result.sizes(), result.options());
  if (is_value(alpha, 0.0)) {
    product.zero_();
  } else {
    mm_out_nocheck(product, mat1, mat2, nullptr);
  }
  if (!is_value(alpha, 1.0) && !is_value(alpha, 0.0)) {
    OpCommand muls;
    muls.Name("Muls").Input(product).Output(product).Attr("value", alpha).Run();
  }
  if (is_value(beta, 0.0)) {  // self is ignored, as on CPU
    result.copy_(product);
    return;
  }
  OpCommand axpy;
  axpy.Name("Axpy").Input(product).Input(self).Output(result).Attr("alpha", beta).Run();
}

}  // namespace

at::Tensor mm(const at::Tensor& self, const at::Tensor& mat2) {
  const auto sizes = op_plugin::utils::matmul_output_size("mm", self, "self", mat2, "mat2", 2);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor result = OpPreparation::apply_tensor_without_format(sizes, self.options());
  mm_out_nocheck(result, self, mat2, nullptr);
  return result;
}

at::Tensor& mm_out(const at::Tensor& self, const at::Tensor& mat2, at::Tensor& out) {
  const auto sizes = op_plugin::utils::matmul_output_size("mm_out", self, "self", mat2, "mat2", 2);
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_matmul_out("mm_out", self, out, sizes);
  at::Tensor result = OpPreparation::apply_tensor_without_format(sizes, self.options());
  mm_out_nocheck(result, self, mat2, nullptr);
  out.copy_(result);
  return out;
}

at::Tensor bmm(const at::Tensor& self, const at::Tensor& mat2) {
  const auto sizes = op_plugin::utils::matmul_output_size("bmm", self, "self", mat2, "mat2", 3);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor result = OpPreparation::apply_tensor_without_format(sizes, self.options());
  bmm_out_nocheck(result, self, mat2);
  return result;
}

at::Tensor& bmm_out(const at::Tensor& self, const at::Tensor& mat2, at::Tensor& out) {
  const auto sizes = op_plugin::utils::matmul_output_size("bmm_out", self, "self", mat2, "mat2", 3);
  c10_npu::NPUGuard guard(self.device());
  op_plugin::utils::check_matmul_out("bmm_out", self, out, sizes);
  at::Tensor result = OpPreparation::apply_tensor_without_format(sizes, self.options());
  bmm_out_nocheck(result, self, mat2);
  out.copy_(result);
  return out;
}

at::Tensor addmm(const at::Tensor& self, const at::Tensor& mat1, const at::Tensor& mat2, const at::Scalar& beta,
                 const at::Scalar& alpha) {
  const auto sizes = op_plugin::utils::matmul_output_size("addmm", mat1, "mat1", mat2, "mat2", 2);
  op_plugin::utils::check_bias("addmm", self, mat1, sizes);
  c10_npu::NPUGuard guard(mat1.device());
  at::Tensor result = OpPreparation::apply_tensor_without_format(sizes, mat1.options());
  if (result.numel() > 0) addmm_out_nocheck(result, self, mat1, mat2, beta, alpha);
  return result;
}

at::Tensor& addmm_out(const at::Tensor& self, const at::Tensor& mat1, const at::Tensor& mat2, const at::Scalar& beta,
                      const at::Scalar& alpha, at::Tensor& out) {
  const auto sizes = op_plugin::utils::matmul_output_size("addmm_out", mat1, "mat1", mat2, "mat2", 2);
  op_plugin::utils::check_bias("addmm_out", self, mat1, sizes);
  c10_npu::NPUGuard guard(mat1.device());
  op_plugin::utils::check_matmul_out("addmm_out", mat1, out, sizes);
  at::Tensor result = OpPreparation::apply_tensor_without_format(sizes, mat1.options());
  if (result.numel() > 0) addmm_out_nocheck(result, self, mat1, mat2, beta, alpha);
  out.copy_(result);
  return out;
}

at::Tensor& addmm_(at::Tensor& self, const at::Tensor& mat1, const at::Tensor& mat2, const at::Scalar& beta,
                   const at::Scalar& alpha) {
  const auto sizes = op_plugin::utils::matmul_output_size("addmm_", mat1, "mat1", mat2, "mat2", 2);
  op_plugin::utils::check_bias("addmm_", self, mat1, sizes);
  TORCH_CHECK(self.sizes() == c10::IntArrayRef(sizes), "addmm_: self of shape ", self.sizes(),
              " must have the result shape ", sizes);
  c10_npu::NPUGuard guard(mat1.device());
  at::Tensor result = OpPreparation::apply_tensor_without_format(sizes, mat1.options());
  if (result.numel() > 0) addmm_out_nocheck(result, self, mat1, mat2, beta, alpha);
  self.copy_(result);
  return self;
}

at::Tensor vdot(const at::Tensor& self, const at::Tensor& other) {
  return op_plugin::utils::vdot_by_dots(self, other, &acl_op::dot);
}

at::Tensor& addmv_out(const at::Tensor& self, const at::Tensor& mat, const at::Tensor& vec, const at::Scalar& beta,
                      const at::Scalar& alpha, at::Tensor& out) {
  c10_npu::NPUGuard guard(mat.device());
  return op_plugin::utils::addmv_by_addmm(self, mat, vec, beta, alpha, out, &acl_op::addmm_out);
}

at::Tensor addbmm(const at::Tensor& self, const at::Tensor& batch1, const at::Tensor& batch2, const at::Scalar& beta,
                  const at::Scalar& alpha) {
  const auto [mat1, mat2] = op_plugin::utils::batches_side_by_side("addbmm", batch1, batch2);
  return acl_op::addmm(self, mat1, mat2, beta, alpha);
}

at::Tensor& addbmm_out(const at::Tensor& self, const at::Tensor& batch1, const at::Tensor& batch2,
                       const at::Scalar& beta, const at::Scalar& alpha, at::Tensor& out) {
  const auto [mat1, mat2] = op_plugin::utils::batches_side_by_side("addbmm_out", batch1, batch2);
  return acl_op::addmm_out(self, mat1, mat2, beta, alpha, out);
}

at::Tensor& addbmm_(at::Tensor& self, const at::Tensor& batch1, const at::Tensor& batch2, const at::Scalar& beta,
                    const at::Scalar& alpha) {
  const auto [mat1, mat2] = op_plugin::utils::batches_side_by_side("addbmm_", batch1, batch2);
  op_plugin::utils::resize_addbmm_self(self, {mat1.size(0), mat2.size(1)});
  return acl_op::addmm_(self, mat1, mat2, beta, alpha);
}

}  // namespace acl_op
