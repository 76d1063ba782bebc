// Process-wide switches read on the per-op path: each is one relaxed atomic load.
#pragma once

#include <atomic>

namespace at_npu::native::env {

namespace detail {
extern std::atomic<bool> g_op_hook_enabled;
extern std::atomic<bool> g_jit_disable;
}  // namespace detail

// True only while at least one op hook is registered.
inline bool CheckOpHookEnable() {
  return detail::g_op_hook_enabled.load(std::memory_order_relaxed);
}

// True when JIT compilation of acl ops is off (torch.npu.set_compile_mode(jit_compile=False),
// the default): dual-path ops then take the op_api (aclnn) path.
inline bool CheckJitDisable() {
  return detail::g_jit_disable.load(std::memory_order_relaxed);
}

// torch.npu.set_compile_mode(jit_compile=...): updates CheckJitDisable() and the
// device's ACL_OP_JIT_COMPILE compile option.
void SetJitCompile(bool jit_compile);

}  // namespace at_npu::native::env
