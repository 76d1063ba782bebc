// PyTorch's type promotion, as aclnn applies it to its tensor arguments.
#ifndef ASCENDC_SIM_ACLNN_TYPE_PROMOTION_H
#define ASCENDC_SIM_ACLNN_TYPE_PROMOTION_H

#include <initializer_list>

#include "acl/acl_base.h"
#include "meta/acl_meta_types.h"

namespace ascendc_sim {
namespace aclnn {

// torch.promote_types over the kernel types (bool, u8, i8, i16, i32, i64,
// f16, bf16, f32, f64); ACL_DT_UNDEFINED when either is outside them.
aclDataType PromoteTypes(aclDataType a, aclDataType b);

// torch.result_type of tensors: dimensioned tensors take priority over
// zero-dimensional ones unless those are of a higher category (bool <
// integral < floating), as in at::native::result_type.
aclDataType ResultType(std::initializer_list<const aclTensor*> tensors);

// torch.can_cast: no floating -> integral, no non-bool -> bool.
bool CanCast(aclDataType from, aclDataType to);

}  // namespace aclnn
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_ACLNN_TYPE_PROMOTION_H
