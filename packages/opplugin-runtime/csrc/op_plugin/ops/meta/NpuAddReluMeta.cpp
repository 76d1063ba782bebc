// Meta kernels of npu::npu_add_relu, npu_add_relu_ and npu_add_relu.out: the output
// shape (broadcast of self and other) and dtype (torch.add's promotion), so FakeTensor,
// torch.compile and functionalization's meta reference can run the ops without a device.
// The same checks as the npu kernels (NpuAddReluKernelNpuOpApi.cpp), on metadata only.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/ExpandUtils.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/result_type.h>
#include <torch/library.h>

#include "op_plugin/utils/BinaryOpUtils.h"

namespace op_plugin::meta {
namespace {

at::ScalarType add_relu_result_type(const char* op, const at::Tensor& self, const at::Tensor& other,
                                    const at::Scalar& alpha) {
  const at::ScalarType result_type = at::result_type(self, other);
  TORCH_CHECK(result_type != at::kBool, op, ": boolean inputs are not supported (relu of a bool)");
  op_plugin::utils::alpha_check(result_type, alpha);
  return result_type;
}

at::Tensor npu_add_relu(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha) {
  const at::ScalarType result_type = add_relu_result_type("npu_add_relu", self, other, alpha);
  return at::empty_symint(at::infer_size_symdimvector(self.sym_sizes(), other.sym_sizes()),
                          self.options().dtype(result_type).device(c10::kMeta));
}

at::Tensor& npu_add_relu_(at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha) {
  const at::ScalarType result_type = add_relu_result_type("npu_add_relu_", self, other, alpha);
  TORCH_CHECK(c10::canCast(result_type, self.scalar_type()), "result type ", result_type,
              " can't be cast to the desired output type ", self.scalar_type());
  const auto shape = at::infer_size_symdimvector(self.sym_sizes(), other.sym_sizes());
  TORCH_CHECK(c10::SymIntArrayRef(shape) == self.sym_sizes(), "output with shape ", self.sym_sizes(),
              " doesn't match the broadcast shape ", c10::SymIntArrayRef(shape));
  return self;
}

at::Tensor& npu_add_relu_out(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha,
                             at::Tensor& out) {
  const at::ScalarType result_type = add_relu_result_type("npu_add_relu_out", self, other, alpha);
  TORCH_CHECK(c10::canCast(result_type, out.scalar_type()), "result type ", result_type,
              " can't be cast to the desired output type ", out.scalar_type());
  out.resize__symint(at::infer_size_symdimvector(self.sym_sizes(), other.sym_sizes()));
  return out;
}

}  // namespace
}  // namespace op_plugin::meta

TORCH_LIBRARY_IMPL(npu, Meta, m) {
  m.impl("npu_add_relu", TORCH_FN(op_plugin::meta::npu_add_relu));
  m.impl("npu_add_relu_", TORCH_FN(op_plugin::meta::npu_add_relu_));
  m.impl("npu_add_relu.out", TORCH_FN(op_plugin::meta::npu_add_relu_out));
}
