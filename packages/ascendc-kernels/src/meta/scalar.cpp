// aclScalar: a copied value of one data type.
#include <string.h>

#include "aclnn/acl_meta.h"
#include "common/dtype.h"
#include "common/error.h"
#include "meta/acl_meta_types.h"

extern "C" {

aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
  if (value == nullptr) {
    ascendc_sim::RaiseError(ACLNN_ERR_PARAM_NULLPTR, "aclCreateScalar: value is null");
    return nullptr;
  }
  const size_t size = ascendc_sim::DataTypeSize(dataType);
  if (size == 0 || size > sizeof(aclScalar::value)) {
    ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "aclCreateScalar: unsupported data type %d",
                            static_cast<int>(dataType));
    return nullptr;
  }
  auto* s = new aclScalar();
  s->dtype = dataType;
  memcpy(s->value, value, size);
  return s;
}

aclnnStatus aclDestroyScalar(const aclScalar* scalar) {
  delete scalar;
  return ACLNN_SUCCESS;
}

}  // extern "C"
