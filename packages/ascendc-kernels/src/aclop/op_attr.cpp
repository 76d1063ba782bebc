// aclopAttr: named attributes of an op call.
#include "aclop/aclop_types.h"
#include "common/error.h"

using ascendc_sim::RaiseError;

namespace {

aclError SetAttr(const char* api, aclopAttr* attr, const char* name, AttrValue value) {
  if (attr == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "%s: attr is null", api);
  if (name == nullptr || *name == '\0') return RaiseError(ACL_ERROR_INVALID_PARAM, "%s: attrName is empty", api);
  attr->values[name] = std::move(value);
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclopAttr* aclopCreateAttr(void) { return new aclopAttr(); }

void aclopDestroyAttr(const aclopAttr* attr) { delete attr; }

aclError aclopSetAttrBool(aclopAttr* attr, const char* attrName, uint8_t attrValue) {
  return SetAttr("aclopSetAttrBool", attr, attrName, AttrValue(attrValue != 0));
}

aclError aclopSetAttrInt(aclopAttr* attr, const char* attrName, int64_t attrValue) {
  return SetAttr("aclopSetAttrInt", attr, attrName, AttrValue(attrValue));
}

aclError aclopSetAttrFloat(aclopAttr* attr, const char* attrName, float attrValue) {
  return SetAttr("aclopSetAttrFloat", attr, attrName, AttrValue(attrValue));
}

aclError aclopSetAttrString(aclopAttr* attr, const char* attrName, const char* attrValue) {
  if (attrValue == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclopSetAttrString: attrValue is null");
  return SetAttr("aclopSetAttrString", attr, attrName, AttrValue(std::string(attrValue)));
}

aclError aclopSetAttrListInt(aclopAttr* attr, const char* attrName, int numValues, const int64_t* values) {
  if (numValues < 0 || (numValues > 0 && values == nullptr)) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclopSetAttrListInt: invalid list (%d values)", numValues);
  }
  return SetAttr("aclopSetAttrListInt", attr, attrName, AttrValue(std::vector<int64_t>(values, values + numValues)));
}

}  // extern "C"
