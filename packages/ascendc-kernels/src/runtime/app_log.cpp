// aclAppLog: the application log of CANN, on stderr.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl_base.h"

namespace {

// ASCEND_GLOBAL_LOG_LEVEL: 0 debug, 1 info, 2 warning, 3 error (the default), 4 none.
int LogThreshold() {
  static const int threshold = [] {
    const char* text = getenv("ASCEND_GLOBAL_LOG_LEVEL");
    if (text == nullptr || *text == '\0') return static_cast<int>(ACL_ERROR);
    char* end = nullptr;
    const long value = strtol(text, &end, 10);
    return (end == nullptr || *end != '\0' || value < 0 || value > 4) ? static_cast<int>(ACL_ERROR)
                                                                      : static_cast<int>(value);
  }();
  return threshold;
}

const char* LevelName(aclLogLevel level) {
  switch (level) {
    case ACL_DEBUG: return "DEBUG";
    case ACL_INFO: return "INFO";
    case ACL_WARNING: return "WARNING";
    case ACL_ERROR: return "ERROR";
  }
  return "LOG";
}

}  // namespace

extern "C" void aclAppLog(aclLogLevel logLevel, const char* func, const char* file, uint32_t line, const char* fmt,
                          ...) {
  if (static_cast<int>(logLevel) < LogThreshold() || fmt == nullptr) return;
  char message[1024];
  va_list args;
  va_start(args, fmt);
  vsnprintf(message, sizeof(message), fmt, args);
  va_end(args);
  fprintf(stderr, "[%s] %s:%u %s: %s\n", LevelName(logLevel), file != nullptr ? file : "?", line,
          func != nullptr ? func : "?", message);
}
