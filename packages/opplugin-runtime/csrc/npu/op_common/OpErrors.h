// What the errors of a registered npu op say. Every error leaving a wrapper names the
// operator ("<op>: ..." at the start, added by rethrow_naming_op when the message does not
// begin with it), and a tensor on the wrong device names its argument, in torch's own form
// of the device check, so that ops with and without `device_check: NoCheck` read alike.
#pragma once

#include <ATen/core/ATen_fwd.h>
#include <ATen/core/List.h>
#include <ATen/core/Tensor.h>
#include <ATen/core/op_registration/adaption.h>
#include <c10/core/Device.h>
#include <c10/util/Optional.h>

namespace at_npu::native {

// The device check of the ops that declare `device_check: NoCheck` because they take CPU
// scalars (TensorIterator's rule): every npu tensor is on the device of the first one, and a
// tensor of another device type is a 0-dim CPU tensor. Undefined tensors are skipped.
// Inline: the wrappers of NoCheck ops call it for every tensor argument.
inline void check_npu_device(c10::optional<c10::Device>& common_device, const at::Tensor& tensor,
                             const char* method_name, const char* arg_name) {
  if (!tensor.defined() || (tensor.device().is_cpu() && tensor.dim() == 0)) {
    return;  // absent, or a CPU scalar, which TensorIterator ops take
  }
  // Torch's own check, so the message has this torch release's form (it names the argument).
  c10::impl::check_and_update_common_device(common_device, tensor, method_name, arg_name);
}
void check_npu_device(c10::optional<c10::Device>& common_device, const c10::optional<at::Tensor>& tensor,
                      const char* method_name, const char* arg_name);
void check_npu_device(c10::optional<c10::Device>& common_device, at::ITensorListRef tensors, const char* method_name,
                      const char* arg_name);
void check_npu_device(c10::optional<c10::Device>& common_device, const c10::List<c10::optional<at::Tensor>>& tensors,
                      const char* method_name, const char* arg_name);

// Called in a wrapper's catch (...): rethrows the exception in flight with "<op>: " in front of
// its message, as the same c10 error type (so Python sees the same exception class), unless the
// message already begins with the op's name. Exceptions that are not c10 errors pass unchanged.
[[noreturn]] void rethrow_naming_op(const char* op);

}  // namespace at_npu::native
