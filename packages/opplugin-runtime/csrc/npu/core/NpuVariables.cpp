#include "npu/core/NpuVariables.h"

#include <cstdlib>
#include <cstring>

namespace c10_npu {

bool IsAclnnOnly() {
  static const bool aclnn_only = [] {
    const char* value = std::getenv("NPU_ACLNN_ONLY");
    return value != nullptr && std::strcmp(value, "1") == 0;
  }();
  return aclnn_only;
}

}  // namespace c10_npu
