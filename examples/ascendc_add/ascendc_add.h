// The PyTorch-facing host wrapper of add_custom.
#ifndef ASCENDC_ADD_ASCENDC_ADD_H
#define ASCENDC_ADD_ASCENDC_ADD_H

#include <ATen/core/Tensor.h>

namespace ascendc_ops {

// x + y for two npu tensors of the same shape, dtype (float16, bfloat16 or
// float32) and device, both contiguous. Returns a new tensor; the kernel is
// queued on the current npu stream and may still be running on return.
at::Tensor ascendc_add(const at::Tensor& x, const at::Tensor& y);

}  // namespace ascendc_ops

#endif  // ASCENDC_ADD_ASCENDC_ADD_H
