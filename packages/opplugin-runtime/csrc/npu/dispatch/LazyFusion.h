// DVM ("lazy fusion"): a third implementation path that the generated dual-path
// code tries before op_api for operators declared with a `dvm:` range, when
// enabled with NPU_LAZY_FUSION=1. The kernels are lazy_fusion::<name>, declared
// in the generated op_plugin/DvmOpsInterface.h.
#pragma once

#include <cstdlib>
#include <cstring>

namespace lazy_fusion {

// Read once: the switch selects a device model, like NPU_ACLNN_ONLY.
inline bool IsEnabled() {
  static const bool enabled = [] {
    const char* value = std::getenv("NPU_LAZY_FUSION");
    return value != nullptr && std::strcmp(value, "1") == 0;
  }();
  return enabled;
}

}  // namespace lazy_fusion
