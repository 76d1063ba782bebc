#include "npu/core/CannVersion.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <c10/util/Exception.h>

#include "acl/acl_rt.h"

namespace c10_npu {

namespace {

// `name` in the loaded libascendcl.so, or nullptr: the version queries are optional (toolkits
// before 8.1.RC1 have none), so they are looked up at run time instead of being linked.
void* FindAscendclSymbol(const char* name) {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&aclrtMalloc), &info) == 0 || info.dli_fname == nullptr) {
    return nullptr;
  }
  void* library = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
  if (library == nullptr) {
    return nullptr;
  }
  void* symbol = dlsym(library, name);
  dlclose(library);  // drops only the reference RTLD_NOLOAD took; the library stays loaded
  return symbol;
}

// The package names of aclsysGetCANNVersion (CANN before 8.5); any other name is one of the
// packages aclsysGetVersionStr knows ("runtime", "hccl", "opbase", ...).
bool CannPackageEnum(const std::string& module, aclCANNPackageName* name) {
  static const std::pair<const char*, aclCANNPackageName> kPackages[] = {
      {"CANN", ACL_PKG_NAME_CANN},         {"RUNTIME", ACL_PKG_NAME_RUNTIME}, {"COMPILER", ACL_PKG_NAME_COMPILER},
      {"HCCL", ACL_PKG_NAME_HCCL},         {"TOOLKIT", ACL_PKG_NAME_TOOLKIT}, {"OPP", ACL_PKG_NAME_OPP},
      {"OPP_KERNEL", ACL_PKG_NAME_OPP_KERNEL}, {"DRIVER", ACL_PKG_NAME_DRIVER}};
  for (const auto& [text, value] : kPackages) {
    if (module == text) {
      *name = value;
      return true;
    }
  }
  return false;
}

// The toolkit's version of `module`, or "" when the toolkit cannot say. Upstream asks
// aclsysGetCANNVersion; it is deprecated since CANN 8.5 in favour of aclsysGetVersionStr, so that
// is asked first and the old query is the fallback.
std::string QueryCannVersion(const std::string& module) {
  using GetVersionStrFn = aclError (*)(char*, char*);
  using GetCannVersionFn = aclError (*)(aclCANNPackageName, aclCANNPackageVersion*);
  aclCANNPackageName package_enum = ACL_PKG_NAME_CANN;
  const bool classic = CannPackageEnum(module, &package_enum);
  if (!classic || module == "CANN") {
    if (auto get_str = reinterpret_cast<GetVersionStrFn>(FindAscendclSymbol("aclsysGetVersionStr"))) {
      std::string package = module;
      char text[ACL_PKG_VERSION_MAX_SIZE] = {};
      if (get_str(package.data(), text) == ACL_SUCCESS) {
        return std::string(text, strnlen(text, sizeof(text)));
      }
    }
  }
  if (!classic) {
    return std::string();
  }
  if (auto get_cann = reinterpret_cast<GetCannVersionFn>(FindAscendclSymbol("aclsysGetCANNVersion"))) {
    aclCANNPackageVersion version{};
    if (get_cann(package_enum, &version) == ACL_SUCCESS) {
      return std::string(version.version, strnlen(version.version, sizeof(version.version)));
    }
  }
  return std::string();
}

bool IsNumber(const std::string& text) {
  return !text.empty() && text.size() <= 9 &&
         std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// `text` without `prefix` (compared case-insensitively) as a number, or -1.
int64_t NumberAfter(const std::string& text, const std::string& prefix) {
  if (text.size() <= prefix.size()) {
    return -1;
  }
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) {
      return -1;
    }
  }
  const std::string rest = text.substr(prefix.size());
  return IsNumber(rest) ? std::stoll(rest) : -1;
}

// A CANN version as a key that orders like CANN releases. Two spellings exist:
//   before 8.5:  X.Y.RC<n>, X.Y.T<n> (test builds), X.Y.<release>, each optionally .alpha<n>;
//                T builds < RC1 < RC2 < ... < X.Y.0 < X.Y.1, an alpha before what it precedes.
//   8.5 and 9+:  X.Y.Z, optionally followed by alpha|beta|rc with or without a number
//                (".alpha003", "-rc.1"); alpha < beta < rc < the release.
// Versions of different X.Y compare by X.Y alone (upstream does the same across spellings).
struct CannVersion {
  int64_t major = -1;
  int64_t minor = -1;
  // Within one X.Y: (release, stage, stage number, prerelease stage, prerelease number).
  std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t> order{};
  bool valid = false;
};

std::vector<std::string> SplitVersion(const std::string& text) {
  std::vector<std::string> tokens(1);
  for (const char c : text) {
    if (c == '.' || c == '-') {
      tokens.emplace_back();
    } else {
      tokens.back() += c;
    }
  }
  return tokens;
}

// alpha / beta / rc (case-insensitive) as 0 / 1 / 2 with its number (0 when bare), or false.
bool ParsePrerelease(const std::string& token, int64_t* stage, int64_t* number) {
  static const char* const kStages[] = {"alpha", "beta", "rc"};
  for (int64_t i = 0; i < 3; ++i) {
    const std::string name = kStages[i];
    std::string lower = token;
    for (char& c : lower) {
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (lower == name) {
      *stage = i;
      *number = 0;
      return true;
    }
    const int64_t n = NumberAfter(token, name);
    if (n >= 0) {
      *stage = i;
      *number = n;
      return true;
    }
  }
  return false;
}

CannVersion ParseCannVersion(const std::string& text) {
  CannVersion version;
  const std::vector<std::string> tokens = SplitVersion(text);
  if (tokens.size() < 3 || !IsNumber(tokens[0]) || !IsNumber(tokens[1])) {
    return version;
  }
  version.major = std::stoll(tokens[0]);
  version.minor = std::stoll(tokens[1]);
  constexpr int64_t kRelease = 3;  // the stage of a release, above every prerelease stage
  if (version.major == 8 && version.minor < 5) {
    // Stages: T build 0, RC 1, release 2 (release number in the first field, -1 before it).
    int64_t stage = -1;
    int64_t number = 0;
    int64_t release = -1;
    if (NumberAfter(tokens[2], "t") >= 0) {
      stage = 0;
      number = NumberAfter(tokens[2], "t");
    } else if (NumberAfter(tokens[2], "rc") >= 0) {
      stage = 1;
      number = NumberAfter(tokens[2], "rc");
    } else if (IsNumber(tokens[2])) {
      stage = 2;
      release = std::stoll(tokens[2]);
    }
    if (stage < 0 || tokens.size() > 4 || (tokens.size() == 4 && stage == 0)) {
      return version;
    }
    int64_t alpha = kRelease;
    int64_t alpha_number = 0;
    if (tokens.size() == 4) {
      alpha_number = NumberAfter(tokens[3], "alpha");
      if (alpha_number < 0) {
        return version;
      }
      alpha = 0;
    }
    version.order = {release, stage, number, alpha, alpha_number};
    version.valid = true;
  } else if ((version.major == 8 && version.minor == 5) || version.major > 8) {
    if (!IsNumber(tokens[2]) || tokens.size() > 5) {
      return version;
    }
    int64_t stage = kRelease;
    int64_t number = 0;
    if (tokens.size() == 4 && !ParsePrerelease(tokens[3], &stage, &number)) {
      return version;
    }
    if (tokens.size() == 5) {
      int64_t bare_number = 0;
      if (!ParsePrerelease(tokens[3], &stage, &bare_number) || bare_number != 0 || !IsNumber(tokens[4])) {
        return version;
      }
      number = std::stoll(tokens[4]);
    }
    version.order = {std::stoll(tokens[2]), 0, 0, stage, number};
    version.valid = true;
  } else {
    version.valid = true;  // only X.Y is known to order (upstream compares nothing more)
  }
  return version;
}

// current >= target for parsed versions; false when either is not a CANN version.
bool IsAtLeast(const CannVersion& current, const CannVersion& target) {
  if (!current.valid || !target.valid) {
    return false;
  }
  if (current.major != target.major || current.minor != target.minor) {
    return std::make_pair(current.major, current.minor) > std::make_pair(target.major, target.minor);
  }
  return current.order >= target.order;
}

}  // namespace

std::string GetCannVersion(const std::string& module) { return QueryCannVersion(module); }

bool IsGteCannVersion(const std::string& version, const std::string& module) {
  TORCH_CHECK(module != "DRIVER", "_is_gte_cann_version: module 'DRIVER' is not supported (a driver version does not ",
              "order like a CANN version); read it with get_cann_version(module=\"DRIVER\")");
  const CannVersion target = ParseCannVersion(version);
  TORCH_CHECK(!target.valid || IsAtLeast(target, ParseCannVersion("8.1.RC1")), "_is_gte_cann_version: version '",
              version, "' is older than 8.1.RC1, the first CANN that reports its version");
  // A toolkit that cannot report its version (no query, or the query fails) is not assumed to
  // be new enough: the answer is then false, as upstream's.
  return IsAtLeast(ParseCannVersion(QueryCannVersion(module)), target);
}

}  // namespace c10_npu
