// aclCreateTensor and the tensor accessors.
#include <string.h>

#include "aclnn/acl_meta.h"
#include "common/dtype.h"
#include "common/error.h"
#include "common/object_pool.h"
#include "meta/acl_meta_types.h"

using ascendc_sim::RaiseError;
using TensorPool = ascendc_sim::ThreadObjectPool<aclTensor>;

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData) {
  if (viewDimsNum > 0 && viewDims == nullptr) {
    RaiseError(ACLNN_ERR_PARAM_NULLPTR, "aclCreateTensor: viewDims is null with viewDimsNum %llu",
               static_cast<unsigned long long>(viewDimsNum));
    return nullptr;
  }
  if (storageDimsNum > 0 && storageDims == nullptr) {
    RaiseError(ACLNN_ERR_PARAM_NULLPTR, "aclCreateTensor: storageDims is null with storageDimsNum %llu",
               static_cast<unsigned long long>(storageDimsNum));
    return nullptr;
  }
  if (ascendc_sim::DataTypeSize(dataType) == 0) {
    RaiseError(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor: unknown data type %d", static_cast<int>(dataType));
    return nullptr;
  }
  if (!ascendc_sim::IsKnownFormat(format)) {
    RaiseError(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor: unknown format %d", static_cast<int>(format));
    return nullptr;
  }
  if (offset < 0) {
    RaiseError(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor: negative offset %lld", static_cast<long long>(offset));
    return nullptr;
  }
  for (uint64_t i = 0; i < viewDimsNum; ++i) {
    if (viewDims[i] < 0) {
      RaiseError(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor: negative dimension in view shape %s",
                 ascendc_sim::ShapeToString(viewDims, viewDimsNum).c_str());
      return nullptr;
    }
  }
  // A recycled object: its vectors keep their capacity (no allocation per call).
  aclTensor* t = TensorPool::Acquire();
  t->resultShape.reset();
  t->viewDims.assign(viewDims, viewDims + viewDimsNum);
  if (stride != nullptr) {
    t->strides.assign(stride, stride + viewDimsNum);
  } else {  // contiguous
    t->strides.resize(viewDimsNum);
    int64_t s = 1;
    for (size_t i = viewDimsNum; i-- > 0;) {
      t->strides[i] = s;
      s *= t->viewDims[i] > 0 ? t->viewDims[i] : 1;
    }
  }
  t->offset = offset;
  t->dtype = dataType;
  t->format = format;
  t->storageDims.assign(storageDims, storageDims + storageDimsNum);
  t->data = tensorData;
  return t;
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
  TensorPool::Release(const_cast<aclTensor*>(tensor));
  return ACLNN_SUCCESS;
}

aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum) {
  if (tensor == nullptr || viewDims == nullptr || viewDimsNum == nullptr) {
    return RaiseError(ACLNN_ERR_PARAM_NULLPTR, "aclGetViewShape: tensor, viewDims and viewDimsNum must not be null");
  }
  // An output of data-dependent size reports the shape its op set when it ran.
  const bool computed = tensor->resultShape != nullptr && tensor->resultShape->ready.load(std::memory_order_acquire);
  const std::vector<int64_t>& dims = computed ? tensor->resultShape->dims : tensor->viewDims;
  *viewDimsNum = dims.size();
  *viewDims = new int64_t[dims.size() + 1];
  if (!dims.empty()) {
    memcpy(*viewDims, dims.data(), dims.size() * sizeof(int64_t));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) {
  if (tensor == nullptr || dataType == nullptr) {
    return RaiseError(ACLNN_ERR_PARAM_NULLPTR, "aclGetDataType: tensor and dataType must not be null");
  }
  *dataType = tensor->dtype;
  return ACLNN_SUCCESS;
}

}  // extern "C"
