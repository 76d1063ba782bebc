// RAII owners for ACL objects (aclnn tensors/scalars/arrays, acl_op
// descriptors/buffers/attributes, executors).
#pragma once

#include <memory>

#include "acl/acl_op.h"
#include "aclnn/acl_meta.h"

namespace at_npu::native {

namespace acl_deleters {
struct Tensor {
  void operator()(aclTensor* p) const { aclDestroyTensor(p); }
};
struct Scalar {
  void operator()(aclScalar* p) const { aclDestroyScalar(p); }
};
struct IntArray {
  void operator()(aclIntArray* p) const { aclDestroyIntArray(p); }
};
struct FloatArray {
  void operator()(aclFloatArray* p) const { aclDestroyFloatArray(p); }
};
struct BoolArray {
  void operator()(aclBoolArray* p) const { aclDestroyBoolArray(p); }
};
struct TensorList {
  void operator()(aclTensorList* p) const { aclDestroyTensorList(p); }
};
struct ScalarList {
  void operator()(aclScalarList* p) const { aclDestroyScalarList(p); }
};
struct Executor {
  void operator()(aclOpExecutor* p) const { aclDestroyAclOpExecutor(p); }
};
struct TensorDesc {
  void operator()(aclTensorDesc* p) const { aclDestroyTensorDesc(p); }
};
struct DataBuffer {
  void operator()(aclDataBuffer* p) const { aclDestroyDataBuffer(p); }
};
struct OpAttr {
  void operator()(aclopAttr* p) const { aclopDestroyAttr(p); }
};
}  // namespace acl_deleters

using AclTensorPtr = std::unique_ptr<aclTensor, acl_deleters::Tensor>;
using AclScalarPtr = std::unique_ptr<aclScalar, acl_deleters::Scalar>;
using AclIntArrayPtr = std::unique_ptr<aclIntArray, acl_deleters::IntArray>;
using AclFloatArrayPtr = std::unique_ptr<aclFloatArray, acl_deleters::FloatArray>;
using AclBoolArrayPtr = std::unique_ptr<aclBoolArray, acl_deleters::BoolArray>;
using AclTensorListPtr = std::unique_ptr<aclTensorList, acl_deleters::TensorList>;
using AclScalarListPtr = std::unique_ptr<aclScalarList, acl_deleters::ScalarList>;
// An executor that was never launched (a launch consumes it: release() first).
using AclExecutorPtr = std::unique_ptr<aclOpExecutor, acl_deleters::Executor>;
using AclTensorDescPtr = std::unique_ptr<aclTensorDesc, acl_deleters::TensorDesc>;
using AclDataBufferPtr = std::unique_ptr<aclDataBuffer, acl_deleters::DataBuffer>;
using AclOpAttrPtr = std::unique_ptr<aclopAttr, acl_deleters::OpAttr>;

}  // namespace at_npu::native
