// aten::record_stream for npu tensors: tells the caching allocator that the
// tensor's memory is also used by `stream`, so it is not reused before that
// stream's queued work has finished.
#include <ATen/core/Tensor.h>
#include <c10/core/Stream.h>
#include <torch/library.h>

#include "npu/core/NPUCachingAllocator.h"
#include "npu/core/NPUStream.h"

namespace at_npu::native {
namespace {

void record_stream(at::Tensor& self, c10::Stream stream) {
  TORCH_CHECK(stream.device_type() == c10::DeviceType::PrivateUse1,
              "record_stream: expected an npu stream for an npu tensor, got a ", stream.device_type(), " stream");
  TORCH_CHECK(stream.device_index() == self.device().index(), "record_stream: the stream is on npu:",
              static_cast<int>(stream.device_index()), " but the tensor is on ", self.device());
  c10_npu::NPUCachingAllocator::recordStream(self.storage().data_ptr(), c10_npu::NPUStream(stream));
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("record_stream", TORCH_FN(record_stream));
}

}  // namespace at_npu::native
