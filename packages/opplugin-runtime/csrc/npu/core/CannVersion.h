// The toolkit's version: what it reports for a package, and whether that is at least a given
// release, in CANN's release order. torch_npu's GetCANNVersion / IsGteCANNVersion.
#pragma once

#include <string>

namespace c10_npu {

// The toolkit's version of `module` as it reports it (aclsysGetVersionStr, else aclsysGetCANNVersion):
// "CANN", another package of aclsysGetCANNVersion ("RUNTIME", "HCCL", "DRIVER", ...) or a package of
// aclsysGetVersionStr ("runtime", "opbase", ...); "" when the toolkit cannot say.
std::string GetCannVersion(const std::string& module = "CANN");

// True when `module` of the toolkit is `version` or newer (8.2.RC1 < 8.2.0 < 8.5.0.alpha1 < 8.5.0);
// false when the toolkit cannot report the version or either is not a CANN version. Raises for
// module "DRIVER" and for a version older than 8.1.RC1, the first CANN that reports its version.
bool IsGteCannVersion(const std::string& version, const std::string& module = "CANN");

}  // namespace c10_npu
