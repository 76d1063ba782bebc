// Memory-overlap checks for out= and inplace ops, with the same checks and
// messages as ATen's TensorIterator on CPU.
#pragma once

#include <initializer_list>

#include <ATen/core/Tensor.h>
#include <c10/util/ArrayRef.h>

namespace at_npu::native {

// Each output must not have internal overlap (one element written through two
// indices), and must not partially overlap any input. Undefined tensors are skipped.
void check_memory_overlaps(c10::ArrayRef<at::Tensor> inputs, c10::ArrayRef<at::Tensor> outputs);

}  // namespace at_npu::native
