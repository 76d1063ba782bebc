// Per-op pre/post hooks (torch.npu.register_op_hook). Generated wrappers call
//   if (C10_UNLIKELY(env::CheckOpHookEnable())) OpHook::GetInstance().PreHook("add.Tensor", self, other, alpha);
//   ... OpHook::GetInstance().PostHook(result);
// Arguments are converted to IValues only while a hook is registered.
#pragma once

#include <cstdint>
#include <functional>
#include <tuple>
#include <utility>
#include <vector>

#include <ATen/core/IListRef.h>
#include <ATen/core/List.h>
#include <ATen/core/Tensor.h>
#include <ATen/core/ivalue.h>
#include <c10/core/Scalar.h>
#include <c10/util/ArrayRef.h>
#include <c10/util/Optional.h>

#include "npu/core/TorchCompat.h"
#include "npu/dispatch/EnvVariables.h"

#if NPU_HAS_DIMNAME
#include <ATen/core/Dimname.h>
#endif

namespace at_npu::native {

using OpPreHookFn = std::function<void(const char* op, const std::vector<c10::IValue>& args)>;
using OpPostHookFn = std::function<void(const char* op, const c10::IValue& result)>;

namespace op_hook_detail {

template <typename T>
c10::IValue ToHookValue(const T& value) {
  return c10::IValue(value);
}
inline c10::IValue ToHookValue(const at::Tensor& value) {
  return c10::IValue(value);
}
inline c10::IValue ToHookValue(const at::Scalar& value) {
  return c10::IValue(value);
}
inline c10::IValue ToHookValue(c10::IntArrayRef value) {
  return c10::IValue(value.vec());
}
inline c10::IValue ToHookValue(at::TensorList value) {
  return c10::IValue(value.vec());
}
inline c10::IValue ToHookValue(const at::ITensorListRef& value) {
  std::vector<at::Tensor> tensors;
  for (const at::Tensor& t : value) {
    tensors.push_back(t);
  }
  return c10::IValue(std::move(tensors));
}
inline c10::IValue ToHookValue(c10::string_view value) {
  return c10::IValue(std::string(value.data(), value.size()));
}
#if NPU_HAS_DIMNAME
inline c10::IValue ToHookValue(const at::Dimname& value) {
  return c10::IValue(value.symbol().toUnqualString());
}
inline c10::IValue ToHookValue(at::DimnameList value) {
  std::vector<std::string> names;
  for (const at::Dimname& name : value) {
    names.emplace_back(name.symbol().toUnqualString());
  }
  return c10::IValue(names);
}
#endif
inline c10::IValue ToHookValue(at::ArrayRef<at::Scalar> value) {
  std::vector<c10::IValue> scalars(value.begin(), value.end());
  return c10::IValue(c10::ivalue::Tuple::create(std::move(scalars)));
}
inline c10::IValue ToHookValue(c10::OptionalIntArrayRef value) {
  return value.has_value() ? ToHookValue(*value) : c10::IValue();
}
template <size_t N>
c10::IValue ToHookValue(const std::array<bool, N>& value) {
  c10::List<bool> flags;
  for (bool flag : value) {
    flags.push_back(flag);
  }
  return c10::IValue(flags);
}
template <typename T>
c10::IValue ToHookValue(const c10::optional<T>& value) {
  return value.has_value() ? ToHookValue(*value) : c10::IValue();
}
template <typename... Ts>
c10::IValue ToHookValue(const std::tuple<Ts...>& value) {
  return std::apply(
      [](const auto&... elements) {
        return c10::IValue(c10::ivalue::Tuple::create(std::vector<c10::IValue>{ToHookValue(elements)...}));
      },
      value);
}
template <typename T>
c10::IValue ToHookValue(const std::vector<T>& value) {
  std::vector<c10::IValue> elements;
  elements.reserve(value.size());
  for (const auto& element : value) {
    elements.push_back(ToHookValue(element));
  }
  return c10::IValue(c10::ivalue::Tuple::create(std::move(elements)));
}

}  // namespace op_hook_detail

class OpHook {
 public:
  static OpHook& GetInstance();

  template <typename... Ts>
  void PreHook(const char* op, const Ts&... args) {
    if (!env::CheckOpHookEnable() || InHook()) {
      return;
    }
    std::vector<c10::IValue> values;
    values.reserve(sizeof...(Ts));
    (values.push_back(op_hook_detail::ToHookValue(args)), ...);
    RunPreHooks(op, values);
  }

  template <typename T>
  void PostHook(const T& result) {
    if (!env::CheckOpHookEnable() || InHook()) {
      return;
    }
    RunPostHooks(op_hook_detail::ToHookValue(result));
  }

  // Registers a pre and/or post hook (either may be empty); returns a handle.
  int64_t Register(OpPreHookFn pre, OpPostHookFn post);
  // Removes a hook; unknown handles are ignored (removing twice is harmless).
  void Remove(int64_t handle);

 private:
  static bool InHook();
  void RunPreHooks(const char* op, const std::vector<c10::IValue>& args);
  void RunPostHooks(const c10::IValue& result);
};

}  // namespace at_npu::native
