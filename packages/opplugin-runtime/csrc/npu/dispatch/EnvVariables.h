// Process-wide switches read on the per-op path: each is one relaxed atomic load.
#pragma once

#include <atomic>

namespace at_npu::native::env {

namespace detail {
extern std::atomic<bool> g_op_hook_enabled;
extern std::atomic<bool> g_jit_disable;
extern std::atomic<bool> g_allow_conv_hf32;
extern std::atomic<bool> g_allow_matmul_hf32;
extern std::atomic<bool> g_allow_fp32_to_fp16;
extern std::atomic<bool> g_allow_internal_format;
}  // namespace detail

// Whether tensors may be given an internal storage format (torch.npu.config.allow_internal_format,
// default on): when off, npu_format_cast to NC1HWC0 or FRACTAL_NZ keeps the base format
// (NCHW, ND) and warns once, as upstream's "forbid internal format" mode.
inline bool IsAllowInternalFormat() {
  return detail::g_allow_internal_format.load(std::memory_order_relaxed);
}
void SetAllowInternalFormat(bool allow);

// True only while at least one op hook is registered.
inline bool CheckOpHookEnable() {
  return detail::g_op_hook_enabled.load(std::memory_order_relaxed);
}

// True when JIT compilation of acl ops is off (torch.npu.set_compile_mode(jit_compile=False),
// the default): dual-path ops then take the op_api (aclnn) path.
inline bool CheckJitDisable() {
  return detail::g_jit_disable.load(std::memory_order_relaxed);
}

// Whether cube kernels may compute float32 as HF32 (torch.npu.conv.allow_hf32, default on;
// torch.npu.matmul.allow_hf32, default off), and whether they may compute it as float16
// (precision mode allow_fp32_to_fp16, default off). Read by OpPreparation::get_cube_math_type.
inline bool IsAllowConvHF32() {
  return detail::g_allow_conv_hf32.load(std::memory_order_relaxed);
}
inline bool IsAllowMatmulHF32() {
  return detail::g_allow_matmul_hf32.load(std::memory_order_relaxed);
}
inline bool IsAllowFP32ToFP16() {
  return detail::g_allow_fp32_to_fp16.load(std::memory_order_relaxed);
}
void SetAllowConvHF32(bool allow);
void SetAllowMatmulHF32(bool allow);
void SetAllowFP32ToFP16(bool allow);

// torch.npu.set_compile_mode(jit_compile=...): updates CheckJitDisable() and the
// device's ACL_OP_JIT_COMPILE compile option.
void SetJitCompile(bool jit_compile);

}  // namespace at_npu::native::env
