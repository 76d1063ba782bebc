// Host-side kernel launch helper, in the spirit of the ACLRT_LAUNCH_KERNEL
// wrappers that CANN generates for each kernel: packs the arguments by value,
// queues the launch on a stream with aclsimLaunchKernel and returns at once.
//
//   ascendc_sim::LaunchKernel("add_custom", blockDim, stream, add_custom, x, y, z, tiling);
//   ACLRT_LAUNCH_KERNEL(add_custom)(blockDim, stream, x, y, z, tiling);
//
// Pointer arguments convert to the kernel's pointer parameter types (device
// pointers are passed as GM_ADDR); everything else is copied.
#ifndef ASCENDC_SIM_LAUNCH_KERNEL_H
#define ASCENDC_SIM_LAUNCH_KERNEL_H

#include <tuple>
#include <type_traits>
#include <utility>

#include "ascendc_sim/launch.h"

namespace ascendc_sim {
namespace detail {

template <typename To, typename From>
inline To ConvertKernelArg(From&& value) {
  using F = typename std::decay<From>::type;
  if constexpr (std::is_pointer<To>::value && std::is_pointer<F>::value) {
    return reinterpret_cast<To>(const_cast<void*>(static_cast<const void*>(value)));
  } else if constexpr (std::is_pointer<To>::value && std::is_null_pointer<F>::value) {
    return nullptr;
  } else {
    return static_cast<To>(std::forward<From>(value));
  }
}

template <typename... KernelArgs>
struct KernelArgPack {
  void (*kernel)(KernelArgs...);
  std::tuple<typename std::decay<KernelArgs>::type...> args;

  static void RunBlock(void* ctx) {
    auto* pack = static_cast<KernelArgPack*>(ctx);
    std::apply(pack->kernel, pack->args);
  }
  static void Destroy(void* ctx) { delete static_cast<KernelArgPack*>(ctx); }
};

}  // namespace detail

// Queues `blockDim` blocks of `kernel(args...)` on `stream`.
template <typename... KernelArgs, typename... Args>
inline aclError LaunchKernel(const char* kernelName, uint32_t blockDim, aclrtStream stream,
                             void (*kernel)(KernelArgs...), Args&&... args) {
  static_assert(sizeof...(KernelArgs) == sizeof...(Args), "LaunchKernel: argument count differs from the kernel's");
  using Pack = detail::KernelArgPack<KernelArgs...>;
  auto* pack = new Pack{kernel, std::tuple<typename std::decay<KernelArgs>::type...>(
                                    detail::ConvertKernelArg<typename std::decay<KernelArgs>::type>(
                                        std::forward<Args>(args))...)};
  return aclsimLaunchKernel(kernelName, blockDim, stream, &Pack::RunBlock, pack, &Pack::Destroy);
}

}  // namespace ascendc_sim

// ACLRT_LAUNCH_KERNEL(kernel)(blockDim, stream, args...) -> aclError
#define ACLRT_LAUNCH_KERNEL(kernel)                                                  \
  [&](uint32_t aclrtBlockDim_, aclrtStream aclrtStream_, auto&&... aclrtArgs_) {     \
    return ::ascendc_sim::LaunchKernel(#kernel, aclrtBlockDim_, aclrtStream_, kernel, \
                                       std::forward<decltype(aclrtArgs_)>(aclrtArgs_)...); \
  }

#endif  // ASCENDC_SIM_LAUNCH_KERNEL_H
