// aclSetCompileopt/aclGetCompileopt: global compile options of the acl_op path.
#include <string.h>

#include <map>
#include <mutex>
#include <string>

#include "acl/acl_op.h"
#include "common/error.h"

using ascendc_sim::RaiseError;

namespace {

// The options the simulator takes. It has no online op compiler: its kernels are built ahead,
// compute in full precision (which every precision and HF32 setting allows) and give the same bits
// on every run (which either determinism setting allows), so the compiler's cache, debug and
// implementation-mode options have nothing to change. They are kept and read back as set.
struct OptionInfo {
  aclCompileOpt opt;
  const char* name;
  const char* initial;
};
constexpr OptionInfo kOptions[] = {
    {ACL_PRECISION_MODE, "ACL_PRECISION_MODE", "allow_fp32_to_fp16"},
    {ACL_AICORE_NUM, "ACL_AICORE_NUM", ""},
    {ACL_OP_SELECT_IMPL_MODE, "ACL_OP_SELECT_IMPL_MODE", "high_performance"},
    {ACL_OPTYPELIST_FOR_IMPLMODE, "ACL_OPTYPELIST_FOR_IMPLMODE", ""},
    {ACL_OP_DEBUG_LEVEL, "ACL_OP_DEBUG_LEVEL", "0"},
    {ACL_DEBUG_DIR, "ACL_DEBUG_DIR", ""},
    {ACL_OP_COMPILER_CACHE_MODE, "ACL_OP_COMPILER_CACHE_MODE", "enable"},
    {ACL_OP_COMPILER_CACHE_DIR, "ACL_OP_COMPILER_CACHE_DIR", ""},
    {ACL_OP_JIT_COMPILE, "ACL_OP_JIT_COMPILE", "disable"},
    {ACL_OP_DETERMINISTIC, "ACL_OP_DETERMINISTIC", "0"},
    {ACL_ALLOW_HF32, "ACL_ALLOW_HF32", "10"},
    {ACL_OP_DEBUG_OPTION, "ACL_OP_DEBUG_OPTION", ""},
};
// The longest value an option holds, with its terminating NUL (aclGetCompileoptSize).
constexpr size_t kMaxValueSize = 4096;

const OptionInfo* FindOption(aclCompileOpt opt) {
  for (const OptionInfo& info : kOptions) {
    if (info.opt == opt) return &info;
  }
  return nullptr;
}

struct CompileOptions {
  std::mutex mu;
  std::map<int, std::string> values = [] {
    std::map<int, std::string> initial;
    for (const OptionInfo& info : kOptions) initial[info.opt] = info.initial;
    return initial;
  }();
};

CompileOptions& Options() {
  static CompileOptions* options = new CompileOptions();
  return *options;
}

const char* OptName(aclCompileOpt opt) {
  const OptionInfo* info = FindOption(opt);
  return info != nullptr ? info->name : "unknown";
}

// ACL_ERROR_FEATURE_UNSUPPORTED for a CANN option the simulator has no behaviour for,
// ACL_ERROR_INVALID_PARAM for a value that is no option; ACL_SUCCESS for a known one.
aclError CheckOption(const char* api, aclCompileOpt opt) {
  if (FindOption(opt) != nullptr) return ACL_SUCCESS;
  if (static_cast<int>(opt) >= ACL_PRECISION_MODE && static_cast<int>(opt) <= ACL_OP_DEBUG_OPTION) {
    return RaiseError(ACL_ERROR_FEATURE_UNSUPPORTED, "%s: compile option %d is not supported by the simulator", api,
                      static_cast<int>(opt));
  }
  return RaiseError(ACL_ERROR_INVALID_PARAM, "%s: unknown option %d", api, static_cast<int>(opt));
}

// A value the option cannot take (ACL_ERROR_INVALID_PARAM): ACL_OP_JIT_COMPILE is "enable" or
// "disable", ACL_OP_DETERMINISTIC "0" or "1", ACL_ALLOW_HF32 two 0/1 digits (convolution, matrix
// multiply). A value asking for debug output the simulator does not produce (ACL_OP_DEBUG_LEVEL
// other than "0", any ACL_OP_DEBUG_OPTION) is ACL_ERROR_FEATURE_UNSUPPORTED.
aclError CheckValue(aclCompileOpt opt, const char* value) {
  bool valid = true;
  switch (opt) {
    case ACL_OP_JIT_COMPILE: valid = strcmp(value, "enable") == 0 || strcmp(value, "disable") == 0; break;
    case ACL_OP_DETERMINISTIC: valid = strcmp(value, "0") == 0 || strcmp(value, "1") == 0; break;
    case ACL_ALLOW_HF32:
      valid = strlen(value) == 2 && (value[0] == '0' || value[0] == '1') && (value[1] == '0' || value[1] == '1');
      break;
    case ACL_OP_DEBUG_LEVEL:
    case ACL_OP_DEBUG_OPTION:
      if (strcmp(value, opt == ACL_OP_DEBUG_LEVEL ? "0" : "") != 0) {
        return RaiseError(ACL_ERROR_FEATURE_UNSUPPORTED,
                          "aclSetCompileopt: %s \"%s\" is not supported by the simulator (it has no debug kernels)",
                          OptName(opt), value);
      }
      break;
    default: break;
  }
  if (valid) return ACL_SUCCESS;
  return RaiseError(ACL_ERROR_INVALID_PARAM, "aclSetCompileopt: %s cannot be \"%s\"", OptName(opt), value);
}

}  // namespace

extern "C" {

aclError aclSetCompileopt(aclCompileOpt opt, const char* value) {
  if (aclError rc = CheckOption("aclSetCompileopt", opt); rc != ACL_SUCCESS) return rc;
  if (value == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclSetCompileopt: %s value is null", OptName(opt));
  if (strlen(value) >= kMaxValueSize) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclSetCompileopt: %s value is longer than %zu bytes", OptName(opt),
                      kMaxValueSize - 1);
  }
  if (aclError rc = CheckValue(opt, value); rc != ACL_SUCCESS) return rc;
  CompileOptions& options = Options();
  std::lock_guard<std::mutex> lock(options.mu);
  options.values[opt] = value;
  return ACL_SUCCESS;
}

size_t aclGetCompileoptSize(aclCompileOpt opt) { return FindOption(opt) != nullptr ? kMaxValueSize : 0; }

aclError aclGetCompileopt(aclCompileOpt opt, char* value, size_t length) {
  if (aclError rc = CheckOption("aclGetCompileopt", opt); rc != ACL_SUCCESS) return rc;
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
