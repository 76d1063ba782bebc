// aclSetCompileopt/aclGetCompileopt: global compile options of the acl_op path.
#include <string.h>

#include <map>
#include <mutex>
#include <string>

#include "acl/acl_op.h"
#include "common/error.h"

using ascendc_sim::RaiseError;

namespace {

struct CompileOptions {
  std::mutex mu;
  std::map<int, std::string> values{
      {ACL_PRECISION_MODE, "allow_fp32_to_fp16"},
      {ACL_AICORE_NUM, ""},
      {ACL_OP_JIT_COMPILE, "disable"},
  };
};

CompileOptions& Options() {
  static CompileOptions* options = new CompileOptions();
  return *options;
}

const char* OptName(aclCompileOpt opt) {
  switch (opt) {
    case ACL_PRECISION_MODE: return "ACL_PRECISION_MODE";
    case ACL_AICORE_NUM: return "ACL_AICORE_NUM";
    case ACL_OP_JIT_COMPILE: return "ACL_OP_JIT_COMPILE";
  }
  return "unknown";
}

bool Known(aclCompileOpt opt) {
  return opt == ACL_PRECISION_MODE || opt == ACL_AICORE_NUM || opt == ACL_OP_JIT_COMPILE;
}

}  // namespace

extern "C" {

aclError aclSetCompileopt(aclCompileOpt opt, const char* value) {
  if (!Known(opt)) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclSetCompileopt: unknown option %d", static_cast<int>(opt));
  if (value == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclSetCompileopt: %s value is null", OptName(opt));
  if (opt == ACL_OP_JIT_COMPILE && strcmp(value, "enable") != 0 && strcmp(value, "disable") != 0) {
    return RaiseError(ACL_ERROR_INVALID_PARAM,
                      "aclSetCompileopt: ACL_OP_JIT_COMPILE takes \"enable\" or \"disable\", got \"%s\"", value);
  }
  CompileOptions& options = Options();
  std::lock_guard<std::mutex> lock(options.mu);
  options.values[opt] = value;
  return ACL_SUCCESS;
}

aclError aclGetCompileopt(aclCompileOpt opt, char* value, size_t length) {
  if (!Known(opt)) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclGetCompileopt: unknown option %d", static_cast<int>(opt));
  if (value == nullptr || length == 0) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclGetCompileopt: value buffer is null or empty");
  }
  CompileOptions& options = Options();
  std::lock_guard<std::mutex> lock(options.mu);
  const std::string& v = options.values[opt];
  if (v.size() + 1 > length) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclGetCompileopt: %s needs %zu bytes, the buffer has %zu",
                      OptName(opt), v.size() + 1, length);
  }
  memcpy(value, v.c_str(), v.size() + 1);
  return ACL_SUCCESS;
}

}  // extern "C"
