// tensor.pin_memory("npu") and is_pinned("npu") where torch routes them to the backend.
//
// torch 2.1 sends both operators through BackendSelect, which redispatches to the key
// of the `device` argument (CUDA when it is omitted): for "npu" that is PrivateUse1,
// where the runtime must provide the kernels. Later releases (2.13, 2.14) ask the
// accelerator hooks instead (NPUHooks.cpp: getPinnedMemoryAllocator, isPinnedPtr) and
// have no BackendSelect kernel for them. Detected at load time, not by version: the
// kernels are registered exactly when torch has that BackendSelect routing.
#include <ATen/EmptyTensor.h>
#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/util/Exception.h>
#include <torch/library.h>

#include "npu/core/NPUCachingHostAllocator.h"

namespace at_npu::native {
namespace {

bool IsPinned(const at::Tensor& self, c10::optional<at::Device> device) {
  (void)device;  // the PrivateUse1 key was chosen from it
  return self.is_cpu() && c10_npu::NPUCachingHostAllocator::isPinned(self.const_data_ptr());
}

at::Tensor PinMemory(const at::Tensor& self, c10::optional<at::Device> device) {
  (void)device;
  TORCH_CHECK(self.is_cpu() && self.layout() == c10::kStrided,
              "pin_memory: only dense CPU tensors can be pinned, got a ", self.device(), " ", self.layout(), " tensor");
  at::Tensor pinned = at::detail::empty_generic(self.sizes(), c10_npu::NPUCachingHostAllocator::get(),
                                                c10::DispatchKeySet(c10::DispatchKey::CPU), self.scalar_type(),
                                                c10::nullopt);
  pinned.copy_(self);
  return pinned;
}

bool RoutedThroughBackendSelect(const char* op) {
  auto handle = c10::Dispatcher::singleton().findSchema({op, ""});
  return handle.has_value() && handle->hasKernelForDispatchKey(c10::DispatchKey::BackendSelect);
}

const bool kPinMemoryKernelsRegistered = [] {
  if (!RoutedThroughBackendSelect("aten::is_pinned") || !RoutedThroughBackendSelect("aten::_pin_memory")) {
    return false;  // torch asks the hooks (2.13+)
  }
  // Leaked on purpose, like the libraries TORCH_LIBRARY_IMPL creates.
  auto* library = new torch::Library(torch::Library::IMPL, "aten", c10::DispatchKey::PrivateUse1, __FILE__, __LINE__);
  library->impl("is_pinned", TORCH_FN(IsPinned));
  library->impl("_pin_memory", TORCH_FN(PinMemory));
  return true;
}();

}  // namespace
}  // namespace at_npu::native
