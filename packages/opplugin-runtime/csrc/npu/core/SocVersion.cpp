#include "npu/core/SocVersion.h"

#include <string>
#include <utility>

#include <c10/util/Exception.h>

#include "acl/acl_rt.h"

namespace c10_npu {
namespace {

SocVersion SocVersionOfName(const std::string& name) {
  using V = SocVersion;
  static const std::pair<const char*, SocVersion> kNames[] = {
      {"Ascend910PremiumA", V::Ascend910PremiumA}, {"Ascend910ProA", V::Ascend910ProA},
      {"Ascend910A", V::Ascend910A},               {"Ascend910ProB", V::Ascend910ProB},
      {"Ascend910B", V::Ascend910B},               {"Ascend310P1", V::Ascend310P1},
      {"Ascend310P2", V::Ascend310P2},             {"Ascend310P3", V::Ascend310P3},
      {"Ascend310P4", V::Ascend310P4},             {"Ascend310P5", V::Ascend310P5},
      {"Ascend310P7", V::Ascend310P7},             {"Ascend910B1", V::Ascend910B1},
      {"Ascend910B2", V::Ascend910B2},             {"Ascend910B2C", V::Ascend910B2C},
      {"Ascend910B3", V::Ascend910B3},             {"Ascend910B4", V::Ascend910B4},
      {"Ascend910B4-1", V::Ascend910B4_1},         {"Ascend310B1", V::Ascend310B1},
      {"Ascend310B2", V::Ascend310B2},             {"Ascend310B3", V::Ascend310B3},
      {"Ascend310B4", V::Ascend310B4},             {"Ascend910_9391", V::Ascend910_9391},
      {"Ascend910_9392", V::Ascend910_9392},       {"Ascend910_9381", V::Ascend910_9381},
      {"Ascend910_9382", V::Ascend910_9382},       {"Ascend910_9372", V::Ascend910_9372},
      {"Ascend910_9362", V::Ascend910_9362},       {"Ascend910_9363", V::Ascend910_9363}};
  for (const auto& [known, version] : kNames) {
    if (name == known) {
      return version;
    }
  }
  if (name.rfind("Ascend950", 0) == 0) {
    return V::Ascend950;  // every Ascend950 variant has one number
  }
  return V::UnsupportedSocVersion;
}

SocVersion ReadSocVersion() {
  const char* soc = aclrtGetSocName();
  TORCH_CHECK(soc != nullptr, "get_soc_version: the toolkit reports no SoC name (aclrtGetSocName)");
  const std::string name(soc);
  const SocVersion version = SocVersionOfName(name);
  TORCH_CHECK(version != SocVersion::UnsupportedSocVersion, "get_soc_version: unsupported SoC '", name,
              "' (aclrtGetSocName)");
  return version;
}

}  // namespace

SocVersion GetSocVersion() {
  static const SocVersion version = ReadSocVersion();
  return version;
}

}  // namespace c10_npu
