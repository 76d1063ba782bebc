#include "npu/op_common/AclDataType.h"

#include <c10/util/Exception.h>

#include "npu/core/TorchCompat.h"

namespace at_npu::native {

aclDataType ToAclDataType(c10::ScalarType dtype) {
  switch (dtype) {
    case c10::ScalarType::Float:
      return ACL_FLOAT;
    case c10::ScalarType::Half:
      return ACL_FLOAT16;
    case c10::ScalarType::BFloat16:
      return ACL_BF16;
    case c10::ScalarType::Double:
      return ACL_DOUBLE;
    case c10::ScalarType::Char:
      return ACL_INT8;
    case c10::ScalarType::Short:
      return ACL_INT16;
    case c10::ScalarType::Int:
      return ACL_INT32;
    case c10::ScalarType::Long:
      return ACL_INT64;
    case c10::ScalarType::Byte:
      return ACL_UINT8;
#if NPU_HAS_UNSIGNED_SCALAR_TYPES
    case c10::ScalarType::UInt16:
      return ACL_UINT16;
    case c10::ScalarType::UInt32:
      return ACL_UINT32;
    case c10::ScalarType::UInt64:
      return ACL_UINT64;
#endif
    case c10::ScalarType::Bool:
      return ACL_BOOL;
    case c10::ScalarType::ComplexFloat:
      return ACL_COMPLEX64;
    case c10::ScalarType::ComplexDouble:
      return ACL_COMPLEX128;
    default:
      return ACL_DT_UNDEFINED;
  }
}

aclDataType ToAclDataTypeChecked(c10::ScalarType dtype, const char* what) {
  const aclDataType acl_dtype = ToAclDataType(dtype);
  TORCH_CHECK(acl_dtype != ACL_DT_UNDEFINED, what, ": dtype ", dtype, " is not supported by the npu device");
  return acl_dtype;
}

}  // namespace at_npu::native
