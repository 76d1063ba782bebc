#include "npu/op_common/OpErrors.h"

#include <string>
#include <typeinfo>
#include <string_view>

#include <c10/util/Exception.h>

namespace at_npu::native {

namespace {

// "<op>:", "<op>.<overload>", "<op> ..." or "<op>(" at the start: the message names the op already.
bool begins_with_name(const std::string& message, std::string_view name) {
  if (name.empty() || message.compare(0, name.size(), name) != 0) {
    return false;
  }
  if (message.size() == name.size()) {
    return true;
  }
  const char next = message[name.size()];
  return next == ':' || next == '.' || next == ' ' || next == '(';
}

bool names_op(const std::string& message, std::string_view op) {
  if (begins_with_name(message, op)) {
    return true;
  }
  // An in-place op's kernel may say "add" for add_; an out= kernel says the functional name.
  return op.size() > 1 && op.back() == '_' && begins_with_name(message, op.substr(0, op.size() - 1));
}

template <typename E>
[[noreturn]] void throw_renamed(const E& error, const std::string& message) {
  E renamed({__func__, __FILE__, static_cast<uint32_t>(__LINE__)}, message);
  for (const std::string& context : error.context()) {
    renamed.add_context(context);
  }
  throw renamed;
}

// `error` renamed as the first of Es it is; another c10 error type (distributed, ...) is
// rethrown as it is. Called while the error is being handled.
template <typename E, typename... Es>
[[noreturn]] void throw_as_its_type(const c10::Error& error, const std::string& message) {
  if (const auto* typed = dynamic_cast<const E*>(&error)) {
    throw_renamed(*typed, message);
  }
  if constexpr (sizeof...(Es) > 0) {
    throw_as_its_type<Es...>(error, message);
  } else {
    throw;
  }
}

}  // namespace

void check_npu_device(c10::optional<c10::Device>& common_device, const c10::optional<at::Tensor>& tensor,
                      const char* method_name, const char* arg_name) {
  if (tensor.has_value()) {
    check_npu_device(common_device, *tensor, method_name, arg_name);
  }
}

void check_npu_device(c10::optional<c10::Device>& common_device, at::ITensorListRef tensors, const char* method_name,
                      const char* arg_name) {
  for (const at::Tensor& tensor : tensors) {
    check_npu_device(common_device, tensor, method_name, arg_name);
  }
}

void check_npu_device(c10::optional<c10::Device>& common_device, const c10::List<c10::optional<at::Tensor>>& tensors,
                      const char* method_name, const char* arg_name) {
  for (const c10::optional<at::Tensor>& tensor : tensors) {
    check_npu_device(common_device, tensor, method_name, arg_name);
  }
}

void rethrow_naming_op(const char* op) {
  try {
    throw;
  } catch (const c10::Error& error) {
    if (names_op(error.msg(), op)) {
      throw;
    }
    const std::string message = std::string(op) + ": " + error.msg();
    if (typeid(error) == typeid(c10::Error)) {
      throw_renamed(error, message);
    }
    // Python maps each of these to its own exception class.
    throw_as_its_type<c10::IndexError, c10::ValueError, c10::TypeError, c10::NotImplementedError,
                      c10::OutOfMemoryError, c10::LinAlgError, c10::EnforceFiniteError>(error, message);
  }
}

}  // namespace at_npu::native
