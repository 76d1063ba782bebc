// cat / cat.out on the op_api path (aclnnCat: one view-copy per input into its
// slice of out). Not structured (see yaml/op_plugin_functions.yaml): the checks,
// result dtype and output shape are CPU's (op_plugin::utils::cat_shape).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/cat.h"
#include "op_plugin/utils/CatUtils.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;
using op_plugin::utils::cat_shape;
using op_plugin::utils::CatShape;

void run_cat(at::TensorList tensors, const CatShape& shape, at::Tensor& out) {
  if (out.numel() == 0) return;
  EXEC_NPU_CMD(aclnnCat, tensors, shape.dim, out);
}

}  // namespace

at::Tensor cat(at::TensorList tensors, int64_t dim) {
  const CatShape shape = cat_shape("cat", tensors, dim);
  const at::Tensor& first = shape.reference != nullptr ? *shape.reference : tensors[0];
  c10_npu::NPUGuard guard(first.device());
  at::Tensor out = OpPreparation::apply_tensor_without_format(shape.sizes, first.options().dtype(shape.dtype));
  run_cat(tensors, shape, out);
  return out;
}

at::Tensor& cat_out(at::TensorList tensors, int64_t dim, at::Tensor& out) {
  const CatShape shape = cat_shape("cat.out", tensors, dim);
  c10_npu::NPUGuard guard(out.device());
  OpPreparation::check_tensor({}, out, shape.dtype, shape.sizes);
  run_cat(tensors, shape, out);
  return out;
}

}  // namespace op_api
