// Data types the device has and torch may not (float8 variants, hifloat8, int4, float4 ...),
// named as torch_npu names them: a c10_npu::DType is the ACL data type plus 256, so that one
// int64 dtype argument of a custom op carries either an at::ScalarType (below 256) or an
// ACL type torch lacks.
#pragma once

#include <cstdint>

#include <c10/core/ScalarType.h>
#include <c10/util/Exception.h>

#include "acl/acl_base.h"
#include "npu/op_common/OpPreparation.h"

namespace c10_npu {

constexpr int g_toAclOffset = 256;

enum class DType : int32_t {
  UNDEFINED = -1,
  FLOAT = ACL_FLOAT + g_toAclOffset,
  FLOAT16 = ACL_FLOAT16 + g_toAclOffset,
  INT8 = ACL_INT8 + g_toAclOffset,
  INT32 = ACL_INT32 + g_toAclOffset,
  UINT8 = ACL_UINT8 + g_toAclOffset,
  INT16 = ACL_INT16 + g_toAclOffset,
  UINT16 = ACL_UINT16 + g_toAclOffset,
  UINT32 = ACL_UINT32 + g_toAclOffset,
  INT64 = ACL_INT64 + g_toAclOffset,
  UINT64 = ACL_UINT64 + g_toAclOffset,
  DOUBLE = ACL_DOUBLE + g_toAclOffset,
  BOOL = ACL_BOOL + g_toAclOffset,
  STRING = ACL_STRING + g_toAclOffset,
  COMPLEX64 = ACL_COMPLEX64 + g_toAclOffset,
  COMPLEX128 = ACL_COMPLEX128 + g_toAclOffset,
  BF16 = ACL_BF16 + g_toAclOffset,
  INT4 = ACL_INT4 + g_toAclOffset,
  UINT1 = ACL_UINT1 + g_toAclOffset,
  COMPLEX32 = ACL_COMPLEX32 + g_toAclOffset,
  HIFLOAT8 = ACL_HIFLOAT8 + g_toAclOffset,
  FLOAT8_E5M2 = ACL_FLOAT8_E5M2 + g_toAclOffset,
  FLOAT8_E4M3FN = ACL_FLOAT8_E4M3FN + g_toAclOffset,
  FLOAT8_E8M0 = ACL_FLOAT8_E8M0 + g_toAclOffset,
  FLOAT6_E3M2 = ACL_FLOAT6_E3M2 + g_toAclOffset,
  FLOAT6_E2M3 = ACL_FLOAT6_E2M3 + g_toAclOffset,
  FLOAT4_E2M1 = ACL_FLOAT4_E2M1 + g_toAclOffset,
  FLOAT4_E1M2 = ACL_FLOAT4_E1M2 + g_toAclOffset,
};

inline bool IsCustomDType(int64_t dtype) { return dtype >= g_toAclOffset; }

// The ACL type of a dtype code: a c10_npu::DType value, or an at::ScalarType (which must
// have an ACL counterpart).
inline aclDataType GetAclDataType(int64_t dtype) {
  if (IsCustomDType(dtype)) {
    return static_cast<aclDataType>(dtype - g_toAclOffset);
  }
  TORCH_CHECK(dtype >= 0 && dtype < static_cast<int64_t>(at::ScalarType::NumOptions), "GetAclDataType: ", dtype,
              " is neither a torch dtype nor a c10_npu::DType");
  return at_npu::native::OpPreparation::convert_to_acl_data_type(static_cast<at::ScalarType>(dtype));
}

inline aclDataType GetAclDataType(DType dtype) {
  return static_cast<aclDataType>(static_cast<int32_t>(dtype) - g_toAclOffset);
}

// The torch dtype of a dtype code (raises where torch has none).
inline at::ScalarType GetATenDType(int64_t dtype) {
  return at_npu::native::OpPreparation::convert_to_scalar_type(GetAclDataType(dtype));
}

}  // namespace c10_npu
