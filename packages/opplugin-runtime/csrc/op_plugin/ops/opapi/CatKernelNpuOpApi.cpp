// cat / cat.out on the op_api path (aclnnCat: one view-copy per input into its
// slice of out). Not structured (see yaml/op_plugin_functions.yaml): the checks,
// result dtype and output shape are CPU's, computed here.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/native/TypeProperties.h>
#include <c10/core/WrapDimMinimal.h>

#include <vector>

#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/cat.h"

namespace op_api {
namespace {

using at_npu::native::OpPreparation;

// PyTorch skips 1-D empty tensors ("legacy" empty tensors) in cat.
bool skipped(const at::Tensor& t) { return t.dim() == 1 && t.size(0) == 0; }

struct CatShape {
  std::vector<int64_t> sizes;
  at::ScalarType dtype;
  int64_t dim = 0;
  const at::Tensor* reference = nullptr;
};

CatShape cat_shape(const char* op, at::TensorList tensors, int64_t dim) {
  TORCH_CHECK(!tensors.empty(), op, ": expected a non-empty list of Tensors");
  CatShape shape;
  shape.dtype = at::native::result_type(tensors);
  for (size_t i = 0; i < tensors.size(); ++i) {
    TORCH_CHECK(tensors[i].dim() > 0, op, ": zero-dimensional tensor (at position ", i, ") cannot be concatenated");
    if (shape.reference == nullptr && !skipped(tensors[i])) shape.reference = &tensors[i];
  }
  if (shape.reference == nullptr) {  // only legacy empty tensors
    shape.sizes = {0};
    return shape;
  }
  const at::Tensor& ref = *shape.reference;
  shape.dim = c10::maybe_wrap_dim(dim, ref.dim());
  shape.sizes = ref.sizes().vec();
  shape.sizes[shape.dim] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const at::Tensor& t = tensors[i];
    if (skipped(t)) continue;
    TORCH_CHECK(t.dim() == ref.dim(), op, ": Tensors must have same number of dimensions: got ", ref.dim(), " and ",
                t.dim());
    for (int64_t d = 0; d < ref.dim(); ++d) {
      if (d == shape.dim) continue;
      TORCH_CHECK(t.size(d) == ref.size(d), op, ": Sizes of tensors must match except in dimension ", shape.dim,
                  ". Expected size ", ref.size(d), " but got size ", t.size(d), " for tensor number ", i,
                  " in the list.");
    }
    shape.sizes[shape.dim] += t.size(shape.dim);
  }
  return shape;
}

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
