#pragma once

#include <torch/extension.h>

#include <tuple>
#include <vector>

#include "npu/op_infer/InferSize.h"

// Shapes cross to Python as lists of ints.
inline std::vector<int64_t> ToList(const op_infer::SmallVector& shape) {
  return std::vector<int64_t>(shape.begin(), shape.end());
}

inline std::vector<std::vector<int64_t>> ToLists(const std::vector<op_infer::SmallVector>& shapes) {
  std::vector<std::vector<int64_t>> lists;
  for (const auto& shape : shapes) {
    lists.push_back(ToList(shape));
  }
  return lists;
}

// shapes_aten.cpp: helpers of aten operators (compared with PyTorch's Meta kernels).
void BindAtenShapes(pybind11::module& m);
// shapes_custom.cpp: helpers of npu_* operators, dtype, attribute and searchsorted helpers.
void BindCustomShapes(pybind11::module& m);
