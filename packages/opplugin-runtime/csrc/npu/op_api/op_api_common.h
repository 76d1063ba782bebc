// The op_api (aclnn) calling convention:
//
//   DO_COMPATIBILITY(aclnnAdd, acl_op::add(self, other, alpha));
//   EXEC_NPU_CMD(aclnnAdd, self, other, alpha, out);
//
// EXEC_NPU_CMD resolves aclnnXGetWorkspaceSize and aclnnX by name from the
// simulator's libopapi.so once per call site (function-local static), converts
// each argument to its ACL object (RAII), calls GetWorkspaceSize, allocates the
// workspace from the caching allocator, launches on the current stream and
// destroys the converted objects. A failing status raises a TORCH_CHECK naming
// the api, the status and aclGetRecentErrMsg().
//
// Conversions: Tensor -> aclTensor* (sizes, strides, storage offset, storage
// format and dims, data pointer; undefined -> nullptr; a 0-dim CPU tensor is
// first copied to the device), optional<Tensor>, Scalar -> aclScalar*
// (double/int64/bool/complex by the scalar's kind), IntArrayRef -> aclIntArray*,
// TensorList -> aclTensorList*, ScalarType -> aclDataType, string_view -> const
// char*, everything else by value.
//
// Checked calls: when the toolkit declares its aclnn apis as C++ types (the simulator's
// ascendc_sim/aclnn_declarations.h, generated from its declaration files), a call of a declared
// api is checked at compile time: the number of arguments and each converted argument against
// the declared parameter's CANN type; a mismatch fails the build at the EXEC_NPU_CMD line with
// the api and the parameter named in the instantiation (ArgumentFits<api, api::param, ...>).
// The call then goes through the declared function type. An api the toolkit does not declare
// (another toolkit, a custom op library) is called as the converted arguments' types say.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <ATen/core/List.h>
#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>
#include <c10/util/ArrayRef.h>
#include <c10/util/Optional.h>
#include <c10/util/OptionalArrayRef.h>
#include <c10/util/SmallVector.h>
#include <c10/util/string_view.h>

#include "acl/acl_rt.h"
#include "aclnn/acl_meta.h"
#include "npu/op_common/AclDataType.h"
#include "npu/op_common/AclObjects.h"
#include "npu/dispatch/PathLedger.h"

#if __has_include("ascendc_sim/aclnn_declarations.h")
#include "ascendc_sim/aclnn_declarations.h"
#define NPU_ACLNN_DECLARED 1
#else
#define NPU_ACLNN_DECLARED 0
#endif

// The address of `api_name` in the op_api libraries (custom libraries from
// ASCEND_CUSTOM_OPP_PATH first, then libopapi.so), or nullptr when it is absent
// or hidden by NPU_HIDE_ACLNN_SYMBOLS.
void* GetOpApiFuncAddr(const char* api_name);

namespace at_npu::native::opapi_detail {

// The two entry points of one aclnn api.
struct OpApiSymbols {
  void* get_workspace_size = nullptr;
  void* run = nullptr;
  bool available() const { return get_workspace_size != nullptr && run != nullptr; }
};

// Resolves "<api>GetWorkspaceSize" and "<api>" (called once per call site).
OpApiSymbols ResolveOpApi(const char* api);

// DO_COMPATIBILITY's missing-symbol branch: raises on an aclnn-only device,
// otherwise counts ExecPath::Compat under the calling thread's current op.
void OnOpApiMissing(const char* api);
// Warns that `api` is missing and the fallback runs; returns true (for a
// function-local static, so each call site warns once).
bool WarnOpApiMissing(const char* api);

[[noreturn]] void ThrowOpApiMissing(const char* api);
[[noreturn]] void ThrowStatus(const char* api, const char* phase, aclnnStatus status);

// Allocates the workspace on the current stream, launches and checks. Takes
// ownership of `executor`.
void LaunchOpApi(const char* api, void* run, uint64_t workspace_size, aclOpExecutor* executor);

// ---- argument conversion ----

struct ConvertedTensor {
  AclTensorPtr handle;
  at::Tensor keep_alive;  // device copy of a CPU scalar tensor, until enqueued
  aclTensor* raw() const { return handle.get(); }
};
ConvertedTensor ConvertTensor(const char* api, size_t index, const at::Tensor& tensor);
// An aclTensor* for a device tensor (no CPU handling); nullptr for undefined.
aclTensor* CreateAclTensor(const char* api, size_t index, const at::Tensor& tensor);

struct ConvertedScalar {
  AclScalarPtr handle;
  aclScalar* raw() const { return handle.get(); }
};
aclScalar* CreateAclScalar(const c10::Scalar& scalar);

struct ConvertedIntArray {
  AclIntArrayPtr handle;
  aclIntArray* raw() const { return handle.get(); }
};

struct ConvertedFloatArray {
  AclFloatArrayPtr handle;
  aclFloatArray* raw() const { return handle.get(); }
};

struct ConvertedBoolArray {
  AclBoolArrayPtr handle;
  aclBoolArray* raw() const { return handle.get(); }
};

struct ConvertedTensorList {
  AclTensorListPtr handle;
  std::vector<at::Tensor> keep_alive;
  aclTensorList* raw() const { return handle.get(); }
};
ConvertedTensorList ConvertTensorList(const char* api, size_t index, at::ArrayRef<at::Tensor> tensors);

struct ConvertedScalarList {
  AclScalarListPtr handle;
  aclScalarList* raw() const { return handle.get(); }
};
ConvertedScalarList ConvertScalarList(at::ArrayRef<c10::Scalar> scalars);

struct ConvertedString {
  std::string value;
  const char* raw() const { return value.c_str(); }
};

struct ConvertedOptionalString {
  c10::optional<std::string> value;  // a NUL-terminated copy, alive for the call
  const char* raw() const { return value.has_value() ? value->c_str() : nullptr; }
};

template <typename T>
struct ConvertedValue {
  T value;
  T raw() const { return value; }
};

inline ConvertedTensor ConvertArg(const char* api, size_t index, const at::Tensor& value) {
  return ConvertTensor(api, index, value);
}
inline ConvertedTensor ConvertArg(const char* api, size_t index, const c10::optional<at::Tensor>& value) {
  return value.has_value() ? ConvertTensor(api, index, *value) : ConvertedTensor{};
}
inline ConvertedScalar ConvertArg(const char*, size_t, const c10::Scalar& value) {
  return ConvertedScalar{AclScalarPtr(CreateAclScalar(value))};
}
inline ConvertedScalar ConvertArg(const char*, size_t, const c10::optional<c10::Scalar>& value) {
  return value.has_value() ? ConvertedScalar{AclScalarPtr(CreateAclScalar(*value))} : ConvertedScalar{};
}
inline ConvertedIntArray ConvertArg(const char*, size_t, c10::IntArrayRef value) {
  return ConvertedIntArray{AclIntArrayPtr(aclCreateIntArray(value.data(), value.size()))};
}
template <unsigned N>
ConvertedIntArray ConvertArg(const char* api, size_t index, const c10::SmallVector<int64_t, N>& value) {
  return ConvertArg(api, index, c10::IntArrayRef(value));
}
inline ConvertedIntArray ConvertArg(const char* api, size_t index, const std::vector<int64_t>& value) {
  return ConvertArg(api, index, c10::IntArrayRef(value));
}
inline ConvertedIntArray ConvertArg(const char* api, size_t index, c10::OptionalIntArrayRef value) {
  return value.has_value() ? ConvertArg(api, index, *value) : ConvertedIntArray{};
}
inline ConvertedIntArray ConvertArg(const char* api, size_t index, const c10::optional<c10::IntArrayRef>& value) {
  return value.has_value() ? ConvertArg(api, index, *value) : ConvertedIntArray{};
}
inline ConvertedFloatArray ConvertArg(const char*, size_t, c10::ArrayRef<double> value) {
  std::vector<float> floats(value.begin(), value.end());
  return ConvertedFloatArray{AclFloatArrayPtr(aclCreateFloatArray(floats.data(), floats.size()))};
}
inline ConvertedFloatArray ConvertArg(const char*, size_t, c10::ArrayRef<float> value) {
  return ConvertedFloatArray{AclFloatArrayPtr(aclCreateFloatArray(value.data(), value.size()))};
}
inline ConvertedBoolArray ConvertArg(const char*, size_t, c10::ArrayRef<bool> value) {
  return ConvertedBoolArray{AclBoolArrayPtr(aclCreateBoolArray(value.data(), value.size()))};
}
template <size_t N>
ConvertedBoolArray ConvertArg(const char*, size_t, const std::array<bool, N>& value) {
  return ConvertedBoolArray{AclBoolArrayPtr(aclCreateBoolArray(value.data(), N))};
}
inline ConvertedTensorList ConvertArg(const char* api, size_t index, at::TensorList value) {
  return ConvertTensorList(api, index, value);
}
inline ConvertedTensorList ConvertArg(const char* api, size_t index, const std::vector<at::Tensor>& value) {
  return ConvertTensorList(api, index, value);
}
inline ConvertedScalarList ConvertArg(const char*, size_t, at::ArrayRef<c10::Scalar> value) {
  return ConvertScalarList(value);
}
inline ConvertedValue<aclDataType> ConvertArg(const char* api, size_t, c10::ScalarType value) {
  return ConvertedValue<aclDataType>{ToAclDataTypeChecked(value, api)};
}
// Optional numbers become nullable aclScalar* (as aclnn takes optional bounds),
// an absent dtype ACL_DT_UNDEFINED, an absent string nullptr.
inline ConvertedScalar ConvertArg(const char*, size_t, const c10::optional<double>& value) {
  return value.has_value() ? ConvertedScalar{AclScalarPtr(CreateAclScalar(c10::Scalar(*value)))} : ConvertedScalar{};
}
inline ConvertedScalar ConvertArg(const char*, size_t, const c10::optional<int64_t>& value) {
  return value.has_value() ? ConvertedScalar{AclScalarPtr(CreateAclScalar(c10::Scalar(*value)))} : ConvertedScalar{};
}
inline ConvertedScalar ConvertArg(const char*, size_t, const c10::optional<bool>& value) {
  return value.has_value() ? ConvertedScalar{AclScalarPtr(CreateAclScalar(c10::Scalar(*value)))} : ConvertedScalar{};
}
inline ConvertedValue<aclDataType> ConvertArg(const char* api, size_t, const c10::optional<c10::ScalarType>& value) {
  return ConvertedValue<aclDataType>{value.has_value() ? ToAclDataTypeChecked(*value, api) : ACL_DT_UNDEFINED};
}
inline ConvertedString ConvertArg(const char*, size_t, c10::string_view value) {
  return ConvertedString{std::string(value.data(), value.size())};
}
inline ConvertedOptionalString ConvertArg(const char*, size_t, const c10::optional<c10::string_view>& value) {
  if (!value.has_value()) {
    return ConvertedOptionalString{};
  }
  return ConvertedOptionalString{std::string(value->data(), value->size())};
}
inline ConvertedString ConvertArg(const char*, size_t, const std::string& value) {
  return ConvertedString{value};
}
inline ConvertedValue<const char*> ConvertArg(const char*, size_t, const char* value) {
  return ConvertedValue<const char*>{value};
}
template <typename T, std::enable_if_t<std::is_arithmetic_v<T> || std::is_enum_v<T> || std::is_pointer_v<T>, int> = 0>
ConvertedValue<T> ConvertArg(const char*, size_t, T value) {
  return ConvertedValue<T>{value};
}

template <typename Converted>
using RawType = decltype(std::declval<const Converted&>().raw());

template <typename... Ts, size_t... Is>
auto ConvertArgs(const char* api, std::index_sequence<Is...>, const Ts&... args) {
  // Braced initialisation converts left to right.
  return std::tuple<decltype(ConvertArg(api, Is, args))...>{ConvertArg(api, Is, args)...};
}

template <typename... Converted>
aclnnStatus CallGetWorkspaceSize(void* fn, const std::tuple<Converted...>& converted, uint64_t* workspace_size,
                                 aclOpExecutor** executor) {
  using Fn = aclnnStatus (*)(RawType<Converted>..., uint64_t*, aclOpExecutor**);
  return std::apply(
      [&](const Converted&... c) { return reinterpret_cast<Fn>(fn)(c.raw()..., workspace_size, executor); },
      converted);
}

// ---- compile-time checks against the toolkit's declarations ----

inline constexpr size_t kNotDeclared = static_cast<size_t>(-1);

#if NPU_ACLNN_DECLARED
namespace declared = ::ascendc_sim::aclnn_declared;

// The index of `api` among the declared apis, or kNotDeclared.
constexpr size_t DeclaredIndex(const char* api) {
  const size_t index = declared::IndexOf(api);
  return index == declared::kNotDeclared ? kNotDeclared : index;
}

// Whether a converted argument of type `Passed` may be passed as a parameter of type `Declared`:
// an implicit conversion that keeps the value's kind (no floating point to integer), or a string
// for one of CANN's read-only `char*` string parameters.
template <typename Passed, typename Declared>
inline constexpr bool kArgumentFits =
    (std::is_convertible_v<Passed, Declared> &&
     !(std::is_floating_point_v<Passed> && std::is_integral_v<Declared>) &&
     (std::is_pointer_v<Passed> == std::is_pointer_v<Declared>)) ||
    (std::is_same_v<Passed, const char*> && std::is_same_v<Declared, char*>);

// Fails the build (from the EXEC_NPU_CMD line) when one argument does not fit: the template
// arguments name the api, the parameter, its declared type and the converted argument's type.
template <typename Api, typename Param, typename Declared, typename Passed>
struct ArgumentFits {
  static_assert(kArgumentFits<Passed, Declared>,
                "EXEC_NPU_CMD: an argument does not convert to the aclnn parameter declared for it "
                "(api, parameter, declared type and argument type: see 'ArgumentFits<...>' above; "
                "the call is the 'required from here' line)");
  static constexpr bool value = true;
};

template <typename Api, typename DeclaredParams, typename... Passed>
struct ArgumentsFit;

template <typename Api, typename... Ps, typename... Passed>
struct ArgumentsFit<Api, declared::Params<Ps...>, Passed...> {
  static_assert(sizeof...(Ps) == sizeof...(Passed),
                "EXEC_NPU_CMD: the number of arguments differs from the aclnn declaration of the api "
                "(see 'ArgumentsFit<...>' above; the call is the 'required from here' line)");
  template <bool SameCount, typename = void>
  struct Each {
    static constexpr bool value = false;
  };
  template <typename Unused>
  struct Each<true, Unused> {
    static constexpr bool value =
        (ArgumentFits<Api, typename Ps::name, typename Ps::type, Passed>::value && ...);
  };
  static constexpr bool value = Each<sizeof...(Ps) == sizeof...(Passed)>::value;
};

// A converted argument as the declared parameter's type: the string of one of CANN's read-only
// `char*` parameters loses its const, everything else passes as it is.
template <typename Declared, typename Passed>
constexpr Declared PassAs(Passed value) {
  if constexpr (std::is_same_v<Declared, char*> && std::is_same_v<Passed, const char*>) {
    return const_cast<char*>(value);
  } else {
    return value;
  }
}

template <typename Fn, typename... Ps, typename... Converted>
aclnnStatus CallWithParams(declared::Params<Ps...>, Fn fn, const std::tuple<Converted...>& converted,
                           uint64_t* workspace_size, aclOpExecutor** executor) {
  return std::apply(
      [&](const Converted&... c) {
        return fn(PassAs<typename Ps::type>(c.raw())..., workspace_size, executor);
      },
      converted);
}

template <typename Api, typename... Converted>
aclnnStatus CallDeclared(void* fn, const std::tuple<Converted...>& converted, uint64_t* workspace_size,
                         aclOpExecutor** executor) {
  static_assert(ArgumentsFit<Api, typename Api::params, RawType<Converted>...>::value);
  using Fn = typename Api::GetWorkspaceSizeFn;
  return CallWithParams(typename Api::params{}, reinterpret_cast<Fn>(fn), converted, workspace_size, executor);
}
#else
constexpr size_t DeclaredIndex(const char*) { return kNotDeclared; }
#endif

template <size_t Declared = kNotDeclared, typename... Ts>
void ExecOpApi(const char* api, const OpApiSymbols& symbols, const Ts&... args) {
  if (C10_UNLIKELY(!symbols.available())) {
    ThrowOpApiMissing(api);
  }
  const auto converted = ConvertArgs(api, std::index_sequence_for<Ts...>{}, args...);
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  aclnnStatus status;
#if NPU_ACLNN_DECLARED
  if constexpr (Declared != kNotDeclared) {
    using Api = typename declared::At<Declared>::type;
    status = CallDeclared<Api>(symbols.get_workspace_size, converted, &workspace_size, &executor);
  } else {
    status = CallGetWorkspaceSize(symbols.get_workspace_size, converted, &workspace_size, &executor);
  }
#else
  status = CallGetWorkspaceSize(symbols.get_workspace_size, converted, &workspace_size, &executor);
#endif
  if (C10_UNLIKELY(status != ACLNN_SUCCESS)) {
    AclExecutorPtr discard(executor);
    ThrowStatus(api, "GetWorkspaceSize", status);
  }
  LaunchOpApi(api, symbols.run, workspace_size, executor);
}

// The converted arguments of one EXEC_NPU_CMD_SYNC call, alive after its launch:
// Get<i>() is the ACL object of argument i (e.g. the out aclTensor* whose view shape an
// op with a data-dependent output set, read with aclGetViewShape).
template <typename Tuple>
class ConvertedParams {
 public:
  explicit ConvertedParams(Tuple&& converted) : converted_(std::move(converted)) {}
  template <size_t I>
  auto Get() const {
    return std::get<I>(converted_).raw();
  }

 private:
  Tuple converted_;
};

// Waits for the current stream; a failure of the queued work raises naming `api`.
void SynchronizeAfter(const char* api);

// ExecOpApi, then a wait for the current stream; the converted arguments are returned.
template <size_t Declared = kNotDeclared, typename... Ts>
auto ExecOpApiSync(const char* api, const OpApiSymbols& symbols, const Ts&... args) {
  if (C10_UNLIKELY(!symbols.available())) {
    ThrowOpApiMissing(api);
  }
  auto converted = ConvertArgs(api, std::index_sequence_for<Ts...>{}, args...);
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  aclnnStatus status;
#if NPU_ACLNN_DECLARED
  if constexpr (Declared != kNotDeclared) {
    using Api = typename declared::At<Declared>::type;
    status = CallDeclared<Api>(symbols.get_workspace_size, converted, &workspace_size, &executor);
  } else {
    status = CallGetWorkspaceSize(symbols.get_workspace_size, converted, &workspace_size, &executor);
  }
#else
  status = CallGetWorkspaceSize(symbols.get_workspace_size, converted, &workspace_size, &executor);
#endif
  if (C10_UNLIKELY(status != ACLNN_SUCCESS)) {
    AclExecutorPtr discard(executor);
    ThrowStatus(api, "GetWorkspaceSize", status);
  }
  LaunchOpApi(api, symbols.run, workspace_size, executor);
  SynchronizeAfter(api);
  return ConvertedParams<decltype(converted)>(std::move(converted));
}

}  // namespace at_npu::native::opapi_detail

// EXEC_NPU_CMD for an op whose output size depends on the data (upstream's name): the
// launch, then a wait for the current stream; returns the converted arguments, whose
// Get<i>() gives argument i's ACL object (aclGetViewShape on the out tensor gives the
// size the op produced).
#define EXEC_NPU_CMD_SYNC(aclnn_api, ...)                                                            \
  [&]() {                                                                                            \
    static const ::at_npu::native::opapi_detail::OpApiSymbols npu_opapi_symbols_ =                  \
        ::at_npu::native::opapi_detail::ResolveOpApi(#aclnn_api);                                    \
    return ::at_npu::native::opapi_detail::ExecOpApiSync<                                            \
        ::at_npu::native::opapi_detail::DeclaredIndex(#aclnn_api)>(#aclnn_api, npu_opapi_symbols_, __VA_ARGS__); \
  }()

#define EXEC_NPU_CMD(aclnn_api, ...)                                                        \
  do {                                                                                      \
    static const ::at_npu::native::opapi_detail::OpApiSymbols npu_opapi_symbols_ =         \
        ::at_npu::native::opapi_detail::ResolveOpApi(#aclnn_api);                           \
    ::at_npu::native::opapi_detail::ExecOpApi<                                              \
        ::at_npu::native::opapi_detail::DeclaredIndex(#aclnn_api)>(#aclnn_api, npu_opapi_symbols_, __VA_ARGS__); \
  } while (false)

// In an op_api kernel: when `aclnn_api` is missing from the toolkit, returns
// `fallback_expr` (normally the acl_op implementation) instead.
#define DO_COMPATIBILITY(aclnn_api, fallback_expr)                                                      \
  do {                                                                                                  \
    static const bool npu_opapi_available_ = ::at_npu::native::opapi_detail::ResolveOpApi(#aclnn_api).available(); \
    if (C10_UNLIKELY(!::at_npu::native::NpuDecide(nullptr, "aclnn_symbol", #aclnn_api, npu_opapi_available_))) { \
      ::at_npu::native::opapi_detail::OnOpApiMissing(#aclnn_api);                                       \
      static const bool npu_opapi_warned_ = ::at_npu::native::opapi_detail::WarnOpApiMissing(#aclnn_api); \
      (void)npu_opapi_warned_;                                                                          \
      return fallback_expr;                                                                             \
    }                                                                                                   \
  } while (false)
