#include "op_plugin/utils/CatUtils.h"

#include <ATen/native/TypeProperties.h>
#include <c10/core/WrapDimMinimal.h>
#include <c10/util/Exception.h>

namespace op_plugin::utils {

bool cat_skips(const at::Tensor& t) { return t.dim() == 1 && t.size(0) == 0; }

CatShape cat_shape(const char* op, at::TensorList tensors, int64_t dim) {
  TORCH_CHECK(!tensors.empty(), op, ": expected a non-empty list of Tensors");
  CatShape shape;
  shape.dtype = at::native::result_type(tensors);
  for (size_t i = 0; i < tensors.size(); ++i) {
    TORCH_CHECK(tensors[i].dim() > 0, op, ": zero-dimensional tensor (at position ", i, ") cannot be concatenated");
    if (shape.reference == nullptr && !cat_skips(tensors[i])) shape.reference = &tensors[i];
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
    if (cat_skips(t)) continue;
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

}  // namespace op_plugin::utils
