#include "npu/dispatch/EnvVariables.h"

#include "acl/acl_op.h"
#include "npu/core/NPUException.h"
#include "npu/core/NPUFunctions.h"

namespace at_npu::native::env {

namespace detail {
std::atomic<bool> g_op_hook_enabled{false};
std::atomic<bool> g_jit_disable{true};
std::atomic<bool> g_allow_conv_hf32{true};
std::atomic<bool> g_allow_matmul_hf32{false};
std::atomic<bool> g_allow_fp32_to_fp16{false};
std::atomic<bool> g_allow_internal_format{true};
}  // namespace detail

void SetAllowInternalFormat(bool allow) { detail::g_allow_internal_format.store(allow, std::memory_order_relaxed); }

void SetAllowConvHF32(bool allow) { detail::g_allow_conv_hf32.store(allow, std::memory_order_relaxed); }
void SetAllowMatmulHF32(bool allow) { detail::g_allow_matmul_hf32.store(allow, std::memory_order_relaxed); }
void SetAllowFP32ToFP16(bool allow) { detail::g_allow_fp32_to_fp16.store(allow, std::memory_order_relaxed); }

void SetJitCompile(bool jit_compile) {
  c10_npu::EnsureAclInitialized();
  NPU_CHECK_ACL(aclSetCompileopt(ACL_OP_JIT_COMPILE, jit_compile ? "enable" : "disable"));
  detail::g_jit_disable.store(!jit_compile, std::memory_order_relaxed);
}

}  // namespace at_npu::native::env
