// index_select / index_select.out ("GatherV2" with the dimension as a constant axis input) and
// embedding_dense_backward ("EmbeddingDenseGrad") on the acl_op path; checks and messages are the op_api
// kernels'. An index outside the dimension fails the device kernel, as on the op_api path.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/WrapDimMinimal.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/format/FormatHelper.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/embedding_dense_backward.h"
#include "op_plugin/ops/index_select.h"
#include "op_plugin/utils/AclOpUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;

bool is_index_type(at::ScalarType t) { return t == at::kLong || t == at::kInt; }

std::vector<int64_t> index_select_size(const char* op, const at::Tensor& self, int64_t dim, const at::Tensor& index) {
  TORCH_CHECK(index.dim() <= 1, op, ": Index is supposed to be a vector");
  TORCH_CHECK(is_index_type(index.scalar_type()), op, ": Expected dtype int32 or int64 for index, got ",
              index.scalar_type());
  TORCH_CHECK(!self.is_complex(), op, ": complex self is not supported on npu");
  dim = c10::maybe_wrap_dim(dim, self.dim());
  if (self.dim() == 0) {
    TORCH_CHECK(index.numel() == 1, op, ": Index to scalar can have only 1 value, got ", index.numel(), " value(s)");
    return {};
  }
  std::vector<int64_t> sizes = self.sizes().vec();
  sizes[dim] = index.numel();
  TORCH_CHECK(index.numel() == 0 || self.size(dim) > 0, op, ": index out of range in self (dimension ", dim,
              " has size 0)");
  return sizes;
}

// out (dense result of self's dtype, base format) <- self gathered at index along dim.
void index_select_nocheck(const at::Tensor& self, int64_t dim, const at::Tensor& index, at::Tensor& out) {
  if (out.numel() == 0) {
    return;
  }
  if (!at_npu::native::FormatHelper::IsOpInputBaseFormat(out)) {
    at::Tensor temp = OpPreparation::apply_tensor_without_format(out.sizes(), out.options());
    index_select_nocheck(self, dim, index, temp);
    out.copy_(temp);
    return;
  }
  const int64_t wrapped = self.dim() == 0 ? 0 : c10::maybe_wrap_dim(dim, self.dim());
  OpCommand cmd;
  cmd.Name("GatherV2");
  op_plugin::utils::AddInputAs(cmd, self, self.scalar_type());
  cmd.Input(index.reshape({index.numel()}))
      .Input(at::Scalar(wrapped), at::kLong)
      .Output(out)
      .Attr("batch_dims", static_cast<int64_t>(0))
      .Run();
}

}  // namespace

at::Tensor& index_select_out(const at::Tensor& self, int64_t dim, const at::Tensor& index, at::Tensor& out) {
  const std::vector<int64_t> sizes = index_select_size("index_select.out", self, dim, index);
  TORCH_CHECK(out.scalar_type() == self.scalar_type(),
              "index_select.out: self and out must have the same scalar type, got ", self.scalar_type(), " and ",
              out.scalar_type());
  c10_npu::NPUGuard guard(self.device());
  OpPreparation::check_tensor({self, index}, out, self.scalar_type(), sizes);
  index_select_nocheck(self, dim, index, out);
  return out;
}

at::Tensor index_select(const at::Tensor& self, int64_t dim, const at::Tensor& index) {
  const std::vector<int64_t> sizes = index_select_size("index_select", self, dim, index);
  c10_npu::NPUGuard guard(self.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(sizes, self.options());
  index_select_nocheck(self, dim, index, out);
  return out;
}

at::Tensor embedding_dense_backward(const at::Tensor& grad_output, const at::Tensor& indices, int64_t num_weights,
                                    int64_t padding_idx, bool scale_grad_by_freq) {
  TORCH_CHECK(is_index_type(indices.scalar_type()),
              "embedding_dense_backward: Expected tensor for argument #1 'indices' to have one of the following "
              "scalar types: Long, Int; but got ", indices.scalar_type());
  const at::ScalarType dtype = grad_output.scalar_type();
  TORCH_CHECK(dtype == at::kFloat || dtype == at::kHalf || dtype == at::kBFloat16,
              "embedding_dense_backward: grad_output of dtype ", dtype,
              " is not supported on npu (float32, float16, bfloat16)");
  TORCH_CHECK(num_weights >= 0, "embedding_dense_backward: num_weights must be non-negative, got ", num_weights);
  TORCH_CHECK(grad_output.dim() >= 1, "embedding_dense_backward: grad_output must have at least one dimension");
  const int64_t dim = grad_output.size(-1);
  TORCH_CHECK(grad_output.numel() == indices.numel() * dim, "embedding_dense_backward: grad_output ",
              grad_output.sizes(), " does not hold one row per index of indices ", indices.sizes());
  c10_npu::NPUGuard guard(grad_output.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format({num_weights, dim}, grad_output.options());
  if (out.numel() > 0) {
    OpCommand cmd;
    cmd.Name("EmbeddingDenseGrad");
    op_plugin::utils::AddInputAs(cmd, grad_output, dtype);
    cmd.Input(indices)
        .Output(out)
        .Attr("num_weights", num_weights)
        .Attr("padding_idx", padding_idx)
        .Attr("scale_grad_by_freq", scale_grad_by_freq)
        .Run();
  }
  return out;
}

}  // namespace acl_op
