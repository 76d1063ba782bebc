// PyTorch type promotion rules.
#include "aclnn/type_promotion.h"

#include "common/dtype.h"

namespace ascendc_sim {
namespace aclnn {
namespace {

int FloatRank(aclDataType t) {
  switch (t) {
    case ACL_FLOAT16:
    case ACL_BF16: return 1;
    case ACL_FLOAT: return 2;
    case ACL_DOUBLE: return 3;
    default: return 0;
  }
}

aclDataType PromoteSkipUndefined(aclDataType a, aclDataType b) {
  if (a == ACL_DT_UNDEFINED) return b;
  if (b == ACL_DT_UNDEFINED) return a;
  return PromoteTypes(a, b);
}

// at::native's combine_categories (without complex).
aclDataType CombineCategories(aclDataType higher, aclDataType lower) {
  if (IsFloatingType(higher)) return higher;
  if (higher == ACL_BOOL || IsFloatingType(lower)) return PromoteSkipUndefined(higher, lower);
  if (higher != ACL_DT_UNDEFINED) return higher;
  return lower;
}

}  // namespace

aclDataType PromoteTypes(aclDataType a, aclDataType b) {
  if (!IsKernelType(a) || !IsKernelType(b)) return ACL_DT_UNDEFINED;
  if (a == b) return a;
  if (a == ACL_BOOL) return b;
  if (b == ACL_BOOL) return a;
  const bool fa = IsFloatingType(a);
  const bool fb = IsFloatingType(b);
  if (fa && fb) {
    if (FloatRank(a) == 1 && FloatRank(b) == 1) return ACL_FLOAT;  // float16 with bfloat16
    return FloatRank(a) >= FloatRank(b) ? a : b;
  }
  if (fa) return a;
  if (fb) return b;
  // Both integral.
  if (a == ACL_UINT8 || b == ACL_UINT8) {
    const aclDataType other = a == ACL_UINT8 ? b : a;
    return other == ACL_INT8 ? ACL_INT16 : other;
  }
  return DataTypeSize(a) >= DataTypeSize(b) ? a : b;
}

aclDataType ResultType(std::initializer_list<const aclTensor*> tensors) {
  aclDataType dimResult = ACL_DT_UNDEFINED;
  aclDataType zeroResult = ACL_DT_UNDEFINED;
  for (const aclTensor* t : tensors) {
    aclDataType& slot = t->viewDims.empty() ? zeroResult : dimResult;
    slot = PromoteSkipUndefined(slot, t->dtype);
  }
  return CombineCategories(dimResult, zeroResult);
}

bool CanCast(aclDataType from, aclDataType to) {
  if (IsFloatingType(from) && IsIntegralType(to, false)) return false;
  if (from != ACL_BOOL && to == ACL_BOOL) return false;
  return true;
}

}  // namespace aclnn
}  // namespace ascendc_sim
