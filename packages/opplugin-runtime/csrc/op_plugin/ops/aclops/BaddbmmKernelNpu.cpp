// baddbmm (+ out=, in-place), mv and dot on the acl_op path: "BatchMatMul" (adj_x1/adj_x2 for a transposed
// batch, read as stored), the product scaled by alpha ("Muls") and beta * self added ("Axpy", which
// broadcasts self); mv and dot are "MatMulV2" of [n, k] @ [k, 1] and [1, k] @ [k, 1]. Checks and messages
// are the op_api kernels'.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/format/FormatCast.h"
#include "npu/format/FormatHelper.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/baddbmm.h"
#include "op_plugin/ops/dot.h"
#include "op_plugin/ops/mv.h"
#include "op_plugin/utils/MatmulUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;

bool is_value(const at::Scalar& s, double v) { return !s.isComplex() && s.toDouble() == v; }

// The operand as the op reads it: a transposed dense matrix as stored (*transposed set), an internal
// format converted to its base format (BatchMatMul reads base formats).
at::Tensor as_stored(const at::Tensor& t, bool* transposed) {
  if (!at_npu::native::FormatHelper::IsOpInputBaseFormat(t)) {
    *transposed = false;
    return at_npu::native::to_base_format(t, "baddbmm");
  }
  *transposed = op_plugin::utils::is_transposed_matrix(t);
  return *transposed ? t.transpose(-1, -2) : t;
}

// result (dense, new) <- beta * self + alpha * (batch1 @ batch2).
void baddbmm_nocheck(at::Tensor& result, const at::Tensor& self, const at::Tensor& batch1, const at::Tensor& batch2,
                     const at::Scalar& beta, const at::Scalar& alpha) {
  if (result.numel() == 0) {
    return;
  }
  at::Tensor product = OpPreparation::apply_tensor_without_format(result.sizes(), result.options());
  if (is_value(alpha, 0.0) || batch1.size(2) == 0) {
    product.zero_();  // alpha 0 ignores the product, as on CPU; an empty inner dimension sums nothing
  } else {
    bool t1 = false, t2 = false;
    const at::Tensor x1 = as_stored(batch1, &t1);
    const at::Tensor x2 = as_stored(batch2, &t2);
    OpCommand cmd;
    cmd.Name("BatchMatMul").Input(x1).Input(x2).Output(product).Attr("adj_x1", t1).Attr("adj_x2", t2).Run();
    if (!is_value(alpha, 1.0)) {
      OpCommand muls;
      muls.Name("Muls").Input(product).Output(product).Attr("value", alpha).Run();
    }
  }
  if (is_value(beta, 0.0)) {  // self is ignored, as on CPU
    result.copy_(product);
    return;
  }
  OpCommand axpy;
  axpy.Name("Axpy").Input(product).Input(self).Output(result).Attr("alpha", beta).Run();
}

// out <- self @ vec2d ([n, k] @ [k, 1]), out viewed as [n, 1].
void matvec_nocheck(at::Tensor& out, const at::Tensor& self, const at::Tensor& vec2d) {
  if (out.numel() == 0) {
    return;
  }
  if (self.size(-1) == 0) {
    out.zero_();
    return;
  }
  bool t1 = false;
  const at::Tensor x1 = as_stored(self, &t1);
  at::Tensor out2d = out.view({out.numel(), 1});
  OpCommand cmd;
  cmd.Name("MatMulV2").Input(x1).Input(vec2d).Output(out2d).Attr("transpose_x1", t1).Attr("transpose_x2", false).Run();
}

}  // namespace

at::Tensor baddbmm(const at::Tensor& self, const at::Tensor& batch1, const at::Tensor& batch2, const at::Scalar& beta,
                   const at::Scalar& alpha) {
  const auto sizes = op_plugin::utils::matmul_output_size("baddbmm", batch1, "batch1", batch2, "batch2", 3);
  op_plugin::utils::check_bias("baddbmm", self, batch1, sizes);
  c10_npu::NPUGuard guard(batch1.device());
  at::Tensor result = OpPreparation::apply_tensor_without_format(sizes, batch1.options());
  baddbmm_nocheck(result, self, batch1, batch2, beta, alpha);
  return result;
}

at::Tensor& baddbmm_out(const at::Tensor& self, const at::Tensor& batch1, const at::Tensor& batch2,
                        const at::Scalar& beta, const at::Scalar& alpha, at::Tensor& out) {
  const auto sizes = op_plugin::utils::matmul_output_size("baddbmm_out", batch1, "batch1", batch2, "batch2", 3);
  op_plugin::utils::check_bias("baddbmm_out", self, batch1, sizes);
  c10_npu::NPUGuard guard(batch1.device());
  op_plugin::utils::check_matmul_out("baddbmm_out", batch1, out, sizes);
  at::Tensor result = OpPreparation::apply_tensor_without_format(sizes, batch1.options());
  baddbmm_nocheck(result, self, batch1, batch2, beta, alpha);
  out.copy_(result);
  return out;
}

at::Tensor& baddbmm_(at::Tensor& self, const at::Tensor& batch1, const at::Tensor& batch2, const at::Scalar& beta,
                     const at::Scalar& alpha) {
  const auto sizes = op_plugin::utils::matmul_output_size("baddbmm_", batch1, "batch1", batch2, "batch2", 3);
  op_plugin::utils::check_bias("baddbmm_", self, batch1, sizes);
  TORCH_CHECK(self.sizes() == c10::IntArrayRef(sizes), "baddbmm_: self of shape ", self.sizes(),
              " must have the result shape ", sizes);
  c10_npu::NPUGuard guard(batch1.device());
  at::Tensor result = OpPreparation::apply_tensor_without_format(sizes, batch1.options());
  baddbmm_nocheck(result, self, batch1, batch2, beta, alpha);
  self.copy_(result);
  return self;
}

at::Tensor mv(const at::Tensor& self, const at::Tensor& vec) {
  TORCH_CHECK(self.dim() == 2 && vec.dim() == 1, "mv: self must be 2-D and vec 1-D: vector + matrix @ vector "
              "expected, got 1, ", self.dim(), ", ", vec.dim());
  TORCH_CHECK(self.size(1) == vec.size(0), "mv: self and vec cannot be multiplied: size mismatch, got input (",
              self.size(0), "), mat (", self.size(0), "x", self.size(1), "), vec (", vec.size(0), ")");
  const auto sizes = op_plugin::utils::matmul_output_size("mv", self, "self", vec.unsqueeze(1), "vec", 2);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format({sizes[0]}, self.options());
  matvec_nocheck(out, self, vec.unsqueeze(1));
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
  matvec_nocheck(out, self.unsqueeze(0), tensor.unsqueeze(1));
  return out;
}

}  // namespace acl_op
