// aclIntArray, aclFloatArray, aclBoolArray, aclTensorList, aclScalarList.
#include "aclnn/acl_meta.h"
#include "common/error.h"
#include "meta/acl_meta_types.h"

using ascendc_sim::RaiseError;

extern "C" {

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
  if (value == nullptr && size > 0) {
    RaiseError(ACLNN_ERR_PARAM_NULLPTR, "aclCreateIntArray: value is null");
    return nullptr;
  }
  auto* a = new aclIntArray();
  a->values.assign(value, value + size);
  return a;
}

aclnnStatus aclDestroyIntArray(const aclIntArray* array) {
  delete array;
  return ACLNN_SUCCESS;
}

aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
  if (value == nullptr && size > 0) {
    RaiseError(ACLNN_ERR_PARAM_NULLPTR, "aclCreateFloatArray: value is null");
    return nullptr;
  }
  auto* a = new aclFloatArray();
  a->values.assign(value, value + size);
  return a;
}

aclnnStatus aclDestroyFloatArray(const aclFloatArray* array) {
  delete array;
  return ACLNN_SUCCESS;
}

aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
  if (value == nullptr && size > 0) {
    RaiseError(ACLNN_ERR_PARAM_NULLPTR, "aclCreateBoolArray: value is null");
    return nullptr;
  }
  auto* a = new aclBoolArray();
  a->values.reserve(size);
  for (uint64_t i = 0; i < size; ++i) a->values.push_back(value[i] ? 1 : 0);
  return a;
}

aclnnStatus aclDestroyBoolArray(const aclBoolArray* array) {
  delete array;
  return ACLNN_SUCCESS;
}

aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
  if (value == nullptr && size > 0) {
    RaiseError(ACLNN_ERR_PARAM_NULLPTR, "aclCreateTensorList: value is null");
    return nullptr;
  }
  auto* list = new aclTensorList();
  for (uint64_t i = 0; i < size; ++i) list->tensors.push_back(const_cast<aclTensor*>(value[i]));
  return list;
}

aclnnStatus aclDestroyTensorList(const aclTensorList* array) {
  if (array == nullptr) return ACLNN_SUCCESS;
  for (aclTensor* t : array->tensors) delete t;
  delete array;
  return ACLNN_SUCCESS;
}

aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size) {
  if (value == nullptr && size > 0) {
    RaiseError(ACLNN_ERR_PARAM_NULLPTR, "aclCreateScalarList: value is null");
    return nullptr;
  }
  auto* list = new aclScalarList();
  for (uint64_t i = 0; i < size; ++i) list->scalars.push_back(const_cast<aclScalar*>(value[i]));
  return list;
}

aclnnStatus aclDestroyScalarList(const aclScalarList* array) {
  if (array == nullptr) return ACLNN_SUCCESS;
  for (aclScalar* s : array->scalars) delete s;
  delete array;
  return ACLNN_SUCCESS;
}

}  // extern "C"
