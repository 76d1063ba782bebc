// The toolkit version queries: aclsysGetVersionStr, aclsysGetVersionNum and the
// deprecated aclsysGetCANNVersion. The simulator claims to be one package, "CANN".
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "common/error.h"

namespace ascendc_sim {
namespace {

// A current CANN release in CANN's own spelling (8.5.0 is also the first with aclsysGetVersionStr).
constexpr const char* kDefaultCannVersion = "8.5.0";
constexpr const char* kPackageName = "CANN";

// NPU_SIM_CANN_VERSION (read once) or the default; an unusable value is ignored with a warning.
const std::string& CannVersion() {
  static const std::string version = [] {
    const char* text = getenv("NPU_SIM_CANN_VERSION");
    if (text == nullptr || *text == '\0') return std::string(kDefaultCannVersion);
    const std::string value(text);
    bool usable = value.size() < ACL_PKG_VERSION_PARTS_MAX_SIZE;
    for (const char c : value) {
      usable = usable && (isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-');
    }
    if (!usable) {
      fprintf(stderr,
              "[ascendc-sim] ignoring NPU_SIM_CANN_VERSION=%s (expected a CANN version such as 8.3.RC1, at most %d "
              "letters, digits, '.' and '-'); using %s\n",
              text, ACL_PKG_VERSION_PARTS_MAX_SIZE - 1, kDefaultCannVersion);
      return std::string(kDefaultCannVersion);
    }
    return value;
  }();
  return version;
}

aclError CheckPackageName(const char* api, const char* pkgName) {
  if (pkgName == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "%s: pkgName is null", api);
  if (strcmp(pkgName, kPackageName) != 0) {
    return RaiseError(ACL_ERROR_INVALID_FILE, "%s: no version information for package '%s' (the simulator has '%s')",
                      api, pkgName, kPackageName);
  }
  return ACL_SUCCESS;
}

std::vector<std::string> SplitOnDots(const std::string& text) {
  std::vector<std::string> parts(1);
  for (const char c : text) {
    if (c == '.') {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  return parts;
}

// The digits at text[*pos...] as a number (advancing *pos); false when there are none or too many.
bool ReadNumber(const std::string& text, size_t* pos, int32_t* value) {
  const size_t start = *pos;
  int64_t number = 0;
  while (*pos < text.size() && isdigit(static_cast<unsigned char>(text[*pos]))) {
    number = number * 10 + (text[*pos] - '0');
    if (number > 99999) return false;
    ++*pos;
  }
  *value = static_cast<int32_t>(number);
  return *pos > start;
}

// CANN's numeric version: X.Y.Z, optionally followed by [.-]alpha|beta|rc and [.-]N.
bool VersionNumber(const std::string& text, int32_t* out) {
  size_t pos = 0;
  int32_t major = 0;
  int32_t minor = 0;
  int32_t patch = 0;
  if (!ReadNumber(text, &pos, &major) || major > 200 || pos >= text.size() || text[pos++] != '.') return false;
  if (!ReadNumber(text, &pos, &minor) || minor > 99 || pos >= text.size() || text[pos++] != '.') return false;
  if (!ReadNumber(text, &pos, &patch) || patch > 99) return false;
  int32_t number = major * 10000000 + minor * 100000 + patch * 1000;
  if (pos < text.size()) {
    if (text[pos] == '.' || text[pos] == '-') ++pos;
    std::string suffix;
    while (pos < text.size() && isalpha(static_cast<unsigned char>(text[pos]))) {
      suffix += static_cast<char>(tolower(static_cast<unsigned char>(text[pos++])));
    }
    const int32_t weight = suffix == "alpha" ? 300 : suffix == "beta" ? 200 : suffix == "rc" ? 100 : 0;
    if (weight == 0) return false;
    int32_t prerelease = 0;
    if (pos < text.size()) {
      if (text[pos] == '.' || text[pos] == '-') ++pos;
      if (!ReadNumber(text, &pos, &prerelease) || prerelease >= 100 || pos != text.size()) return false;
    }
    number += prerelease - weight;
  }
  *out = number;
  return true;
}

}  // namespace
}  // namespace ascendc_sim

using ascendc_sim::RaiseError;

extern "C" {

aclError aclsysGetVersionStr(char* pkgName, char* versionStr) {
  const aclError status = ascendc_sim::CheckPackageName("aclsysGetVersionStr", pkgName);
  if (status != ACL_SUCCESS) return status;
  if (versionStr == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclsysGetVersionStr: versionStr is null");
  const std::string& version = ascendc_sim::CannVersion();
  memcpy(versionStr, version.c_str(), version.size() + 1);  // shorter than ACL_PKG_VERSION_MAX_SIZE
  return ACL_SUCCESS;
}

aclError aclsysGetVersionNum(char* pkgName, int32_t* versionNum) {
  const aclError status = ascendc_sim::CheckPackageName("aclsysGetVersionNum", pkgName);
  if (status != ACL_SUCCESS) return status;
  if (versionNum == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclsysGetVersionNum: versionNum is null");
  const std::string& version = ascendc_sim::CannVersion();
  if (!ascendc_sim::VersionNumber(version, versionNum)) {
    return RaiseError(ACL_ERROR_INTERNAL_ERROR,
                      "aclsysGetVersionNum: version '%s' of package '%s' has no numeric form (expected X.Y.Z with an "
                      "optional alpha/beta/rc suffix)",
                      version.c_str(), pkgName);
  }
  return ACL_SUCCESS;
}

aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion* version) {
  if (version == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclsysGetCANNVersion: version is null");
  if (name != ACL_PKG_NAME_CANN) {
    return RaiseError(ACL_ERROR_INVALID_FILE,
                      "aclsysGetCANNVersion: no version information for package %d (the simulator has "
                      "ACL_PKG_NAME_CANN)",
                      static_cast<int>(name));
  }
  memset(version, 0, sizeof(*version));
  const std::string& text = ascendc_sim::CannVersion();
  memcpy(version->version, text.c_str(), text.size() + 1);
  // "8.3.RC1" -> 8 / 3 / RC1; a fourth part ("alpha003") is the patch. Each part is shorter than the whole.
  const std::vector<std::string> parts = ascendc_sim::SplitOnDots(text);
  char* fields[] = {version->majorVersion, version->minorVersion, version->releaseVersion, version->patchVersion};
  for (size_t i = 0; i < parts.size() && i < 4; ++i) memcpy(fields[i], parts[i].c_str(), parts[i].size() + 1);
  return ACL_SUCCESS;
}

}  // extern "C"
