// The calling thread's most recent error message (aclGetRecentErrMsg) and
// helpers to raise an error with a formatted message.
#ifndef ASCENDC_SIM_COMMON_ERROR_H
#define ASCENDC_SIM_COMMON_ERROR_H

#include <stdint.h>

#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "common/visibility.h"

namespace ascendc_sim {

ASCENDC_SIM_INTERNAL_API void SetRecentError(const std::string& message);

// Formats the message, stores it as the thread's recent error and returns `code`.
ASCENDC_SIM_INTERNAL_API int32_t RaiseError(int32_t code, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

ASCENDC_SIM_INTERNAL_API std::string StrFormat(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// "[2, 3, 4]"
inline std::string ShapeToString(const int64_t* dims, size_t n) {
  std::string out = "[";
  for (size_t i = 0; i < n; ++i) {
    if (i != 0) out += ", ";
    out += std::to_string(dims[i]);
  }
  return out + "]";
}
inline std::string ShapeToString(const std::vector<int64_t>& dims) { return ShapeToString(dims.data(), dims.size()); }

}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_COMMON_ERROR_H
