// aclGetRecentErrMsg, aclDataTypeSize and the error helpers.
#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>

#include "acl/acl_rt.h"
#include "common/dtype.h"

namespace ascendc_sim {
namespace {

thread_local std::string tls_recent_error;
// The code of the thread's last error (aclrtPeekAtLastError / aclrtGetLastError).
thread_local int32_t tls_last_error_code = ACL_SUCCESS;

std::string VFormat(const char* fmt, va_list args) {
  char buffer[1024];
  va_list copy;
  va_copy(copy, args);
  const int n = vsnprintf(buffer, sizeof(buffer), fmt, copy);
  va_end(copy);
  if (n < 0) return fmt;
  if (static_cast<size_t>(n) < sizeof(buffer)) return std::string(buffer, static_cast<size_t>(n));
  std::string out(static_cast<size_t>(n) + 1, '\0');
  vsnprintf(&out[0], out.size(), fmt, args);
  out.resize(static_cast<size_t>(n));
  return out;
}

}  // namespace

void SetRecentError(const std::string& message) { tls_recent_error = message; }

int32_t RaiseError(int32_t code, const char* fmt, ...) {
  tls_last_error_code = code;
  va_list args;
  va_start(args, fmt);
  tls_recent_error = VFormat(fmt, args);
  va_end(args);
  return code;
}

std::string StrFormat(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string out = VFormat(fmt, args);
  va_end(args);
  return out;
}

}  // namespace ascendc_sim

extern "C" {

aclError aclrtPeekAtLastError(aclrtLastErrLevel level) {
  if (level != ACL_RT_THREAD_LEVEL) return ACL_ERROR_INVALID_PARAM;
  return ascendc_sim::tls_last_error_code;
}

aclError aclrtGetLastError(aclrtLastErrLevel level) {
  if (level != ACL_RT_THREAD_LEVEL) return ACL_ERROR_INVALID_PARAM;
  const int32_t code = ascendc_sim::tls_last_error_code;
  ascendc_sim::tls_last_error_code = ACL_SUCCESS;
  return code;
}

const char* aclGetRecentErrMsg(void) { return ascendc_sim::tls_recent_error.c_str(); }

size_t aclDataTypeSize(aclDataType dataType) { return ascendc_sim::DataTypeSize(dataType); }

}  // extern "C"
