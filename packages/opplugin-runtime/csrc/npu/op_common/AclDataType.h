// torch dtypes <-> ACL data types.
#pragma once

#include <c10/core/ScalarType.h>

#include "acl/acl_base.h"

namespace at_npu::native {

// ACL_DT_UNDEFINED for dtypes the device does not have.
aclDataType ToAclDataType(c10::ScalarType dtype);

// Like ToAclDataType, but raises naming `what` (the op/api and argument).
aclDataType ToAclDataTypeChecked(c10::ScalarType dtype, const char* what);

}  // namespace at_npu::native
