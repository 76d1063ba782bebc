// The autograd fallback of the npu key, where torch does not register one itself.
//
// torch 2.1 leaves AutogradPrivateUse1 without a backend fallback on purpose ("maybe
// the extension wants to override it"); later releases (2.13, 2.14) register autograd's
// basic not-implemented fallback for it, as for AutogradCPU. Without one, an operator
// that has only a PrivateUse1 kernel (custom npu:: ops without a backward, a user's
// extension ops) cannot be called on npu tensors at all ("Could not run ... with
// arguments from the 'Autogradnpu' backend"). Detected at load time, not by version:
// the runtime registers torch's own fallback exactly when the key has none.
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/csrc/autograd/autograd_not_implemented_fallback.h>
#include <torch/library.h>

namespace at_npu::native {
namespace {

const bool kAutogradFallbackRegistered = [] {
  if (c10::Dispatcher::singleton().hasBackendFallbackForDispatchKey(c10::DispatchKey::AutogradPrivateUse1)) {
    return false;  // torch has one (2.13+)
  }
  // Leaked on purpose, like the libraries TORCH_LIBRARY_IMPL creates: the registration
  // must outlive every caller.
  auto* library =
      new torch::Library(torch::Library::IMPL, "_", c10::DispatchKey::AutogradPrivateUse1, __FILE__, __LINE__);
  library->fallback(torch::autograd::basicAutogradNotImplementedFallback());
  return true;
}();

}  // namespace
}  // namespace at_npu::native
