// aclopAttr: named attributes of an op call.
#include <utility>

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


aclError aclopSetAttrDataType(aclopAttr* attr, const char* attrName, aclDataType attrValue) {
  return SetAttr("aclopSetAttrDataType", attr, attrName, AttrValue(std::in_place_type<aclDataType>, attrValue));
}

aclError aclopSetAttrListBool(aclopAttr* attr, const char* attrName, int numValues, const uint8_t* values) {
  if (numValues < 0 || (numValues > 0 && values == nullptr)) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclopSetAttrListBool: invalid list (%d values)", numValues);
  }
  std::vector<bool> list(static_cast<size_t>(numValues));
  for (int i = 0; i < numValues; ++i) list[static_cast<size_t>(i)] = values[i] != 0;
  return SetAttr("aclopSetAttrListBool", attr, attrName, AttrValue(std::move(list)));
}

aclError aclopSetAttrListFloat(aclopAttr* attr, const char* attrName, int numValues, const float* values) {
  if (numValues < 0 || (numValues > 0 && values == nullptr)) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclopSetAttrListFloat: invalid list (%d values)", numValues);
  }
  return SetAttr("aclopSetAttrListFloat", attr, attrName, AttrValue(std::vector<float>(values, values + numValues)));
}

aclError aclopSetAttrListListInt(aclopAttr* attr, const char* attrName, int numLists, const int* numValues,
                                 const int64_t* const values[]) {
  if (numLists < 0 || (numLists > 0 && (numValues == nullptr || values == nullptr))) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclopSetAttrListListInt: invalid list (%d lists)", numLists);
  }
  std::vector<std::vector<int64_t>> lists;
  for (int i = 0; i < numLists; ++i) {
    if (numValues[i] < 0 || (numValues[i] > 0 && values[i] == nullptr)) {
      return RaiseError(ACL_ERROR_INVALID_PARAM, "aclopSetAttrListListInt: invalid list %d (%d values)", i,
                        numValues[i]);
    }
    lists.emplace_back(values[i], values[i] + numValues[i]);
  }
  return SetAttr("aclopSetAttrListListInt", attr, attrName, AttrValue(std::move(lists)));
}

}  // extern "C"
