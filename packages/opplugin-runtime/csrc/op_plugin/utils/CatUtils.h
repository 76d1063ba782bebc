// What cat's two paths share: CPU's checks, result dtype and shape.
#pragma once

#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/ScalarType.h>

namespace op_plugin::utils {

// PyTorch skips 1-D empty tensors ("legacy" empty tensors) in cat.
bool cat_skips(const at::Tensor& t);

struct CatShape {
  std::vector<int64_t> sizes;               // of the result
  at::ScalarType dtype = at::kFloat;        // the inputs' promoted dtype
  int64_t dim = 0;                          // wrapped
  const at::Tensor* reference = nullptr;    // the first input not skipped (null: all are)
};

// The result of `op` (cat / cat.out) on `tensors` along `dim`, after CPU's checks.
CatShape cat_shape(const char* op, at::TensorList tensors, int64_t dim);

}  // namespace op_plugin::utils
