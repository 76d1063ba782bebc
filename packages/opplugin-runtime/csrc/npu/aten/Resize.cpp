// resize_ for the npu device (storage grows through the caching allocator;
// ATen's CPU resize would memcpy through host pointers).
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <c10/util/Exception.h>

#include "npu/aten/NPUNativeFunctions.h"
#include "npu/aten/ResizeImpl.h"
#include "npu/format/FormatCast.h"

namespace at_npu::native {

const at::Tensor& NPUNativeFunctions::resize_(const at::Tensor& self, at::IntArrayRef size,
                                              c10::optional<at::MemoryFormat> memory_format) {
  for (const int64_t dim : size) {
    TORCH_CHECK(dim >= 0, "resize_: Trying to create tensor with negative dimension ", dim, ": ", size);
  }
  if (!self.sizes().equals(size)) {
    convert_storage_to_base_format(self, "resize_");  // the padded layout depends on the shape
  }
  c10::TensorImpl* impl = self.unsafeGetTensorImpl();
  resize_impl_npu_(impl, size, c10::nullopt);
  if (memory_format.has_value()) {
    TORCH_CHECK(*memory_format != c10::MemoryFormat::Preserve, "resize_: unsupported memory format ", *memory_format);
    impl->empty_tensor_restride(*memory_format);
  }
  return self;
}

}  // namespace at_npu::native
