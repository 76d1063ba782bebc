// Definitions of the acl_op opaque types (acl/acl_op.h).
#ifndef ASCENDC_SIM_ACLOP_ACLOP_TYPES_H
#define ASCENDC_SIM_ACLOP_ACLOP_TYPES_H

#include <stdint.h>

#include <map>
#include <string>
#include <variant>
#include <vector>

#include "acl/acl_op.h"

struct aclTensorDesc {
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_ND;  // storage format
  std::vector<int64_t> dims;         // storage shape
  aclFormat originFormat = ACL_FORMAT_ND;
  std::vector<int64_t> originDims;
  bool isConst = false;
  std::vector<uint8_t> constData;  // host copy of a constant input
  aclMemType placement = ACL_MEMTYPE_DEVICE;  // where the data buffer lives (aclSetTensorPlaceMent)
  std::string name;                           // aclSetTensorDescName

  int64_t Numel() const {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    return n;
  }
};

struct aclDataBuffer {
  void* data = nullptr;
  size_t size = 0;
};

using AttrValue = std::variant<bool, int64_t, float, std::string, std::vector<int64_t>, aclDataType,
                               std::vector<bool>, std::vector<float>, std::vector<std::vector<int64_t>>>;

struct aclopAttr {
  std::map<std::string, AttrValue> values;
};

#endif  // ASCENDC_SIM_ACLOP_ACLOP_TYPES_H
