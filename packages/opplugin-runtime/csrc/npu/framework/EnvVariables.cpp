#include "npu/framework/EnvVariables.h"

#include "acl/acl_op.h"
#include "npu/core/NPUException.h"
#include "npu/core/NPUFunctions.h"

namespace at_npu::native::env {

namespace detail {
std::atomic<bool> g_op_hook_enabled{false};
std::atomic<bool> g_jit_disable{true};
}  // namespace detail

void SetJitCompile(bool jit_compile) {
  c10_npu::EnsureAclInitialized();
  NPU_CHECK_ACL(aclSetCompileopt(ACL_OP_JIT_COMPILE, jit_compile ? "enable" : "disable"));
  detail::g_jit_disable.store(!jit_compile, std::memory_order_relaxed);
}

}  // namespace at_npu::native::env
