#include "npu/op_common/MemoryOverlap.h"

#include <ATen/MemoryOverlap.h>

namespace at_npu::native {

void check_memory_overlaps(c10::ArrayRef<at::Tensor> inputs, c10::ArrayRef<at::Tensor> outputs) {
  for (const at::Tensor& output : outputs) {
    if (!output.defined()) {
      continue;
    }
    at::assert_no_internal_overlap(output);
    for (const at::Tensor& input : inputs) {
      if (input.defined()) {
        at::assert_no_partial_overlap(output, input);
      }
    }
  }
}

}  // namespace at_npu::native
