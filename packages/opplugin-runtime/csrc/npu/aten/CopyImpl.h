// The copy engine behind copy_/_copy_from: host<->device through aclrtMemcpy
// of dense staging buffers, device<->device through aclnnInplaceCopy (strides,
// broadcasting and dtype conversion on the device) and, across devices,
// aclrtMemcpy between dense buffers.
#pragma once

#include <ATen/core/Tensor.h>

namespace at_npu::native {

// self <- src, where at least one of them is an npu tensor. Honours the
// conjugate/negative bits of both sides (through the host when they differ).
at::Tensor& npu_copy_(at::Tensor& self, const at::Tensor& src, bool non_blocking);

// A dense contiguous npu copy of `src` on its own device (src itself when it
// already is contiguous).
at::Tensor npu_contiguous(const at::Tensor& src);

}  // namespace at_npu::native
