// The boxed CPU fallback for aten ops without an npu kernel.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace at_npu::native {

enum class FallbackMode : uint8_t { Warn, Silent, Error };

// NPU_FALLBACK=warn|silent|error (default warn) until changed here.
FallbackMode GetFallbackMode();
void SetFallbackMode(FallbackMode mode);

}  // namespace at_npu::native
