// cat / cat.out on the acl_op path: "ConcatD" of the inputs (the 1-D empty ones PyTorch skips left out),
// each cast to the promoted dtype on a base format; N is their count. Checks, dtype and shape are
// op_plugin::utils::cat_shape's, shared with the op_api kernel.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/cat.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/CatUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;
using at_npu::native::OpPreparation;
using op_plugin::utils::CatShape;

// out (base format, the promoted dtype, the result's shape) <- the joined inputs.
void concat_into(at::TensorList tensors, const CatShape& shape, at::Tensor& out) {
  if (out.numel() == 0) {
    return;
  }
  OpCommand cmd;
  cmd.Name("ConcatD");
  int64_t count = 0;
  for (const at::Tensor& t : tensors) {
    if (op_plugin::utils::cat_skips(t)) {
      continue;
    }
    op_plugin::utils::AddInputAs(cmd, t, shape.dtype);
    ++count;
  }
  cmd.Output(out).Attr("N", count).Attr("concat_dim", shape.dim).Run();
}

}  // namespace

at::Tensor cat(at::TensorList tensors, int64_t dim) {
  const CatShape shape = op_plugin::utils::cat_shape("cat", tensors, dim);
  const at::Tensor& first = shape.reference != nullptr ? *shape.reference : tensors[0];
  c10_npu::NPUGuard guard(first.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(shape.sizes, first.options().dtype(shape.dtype));
  concat_into(tensors, shape, out);
  return out;
}

at::Tensor& cat_out(at::TensorList tensors, int64_t dim, at::Tensor& out) {
  const CatShape shape = op_plugin::utils::cat_shape("cat.out", tensors, dim);
  c10_npu::NPUGuard guard(out.device());
  OpPreparation::check_tensor({}, out, shape.dtype, shape.sizes);
  return op_plugin::utils::write_through_base_format(
      out, [&](at::Tensor& result) { concat_into(tensors, shape, result); });
}

}  // namespace acl_op
