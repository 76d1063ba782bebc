// Element conversion of a unified-buffer tile between any two kernel types,
// looked up at run time (used by the view-copy kernel, whose copy loops depend
// only on element sizes).
#ifndef ASCENDC_SIM_KERNELS_CAST_TABLE_H
#define ASCENDC_SIM_KERNELS_CAST_TABLE_H

#include <stdint.h>

#include "acl/acl_base.h"

namespace ascendc_sim {
namespace kernels {

using CastTileFn = void (*)(void* dst, const void* src, uint32_t count);

// Null when either type is not a kernel type.
CastTileFn LookupCastTile(aclDataType src, aclDataType dst);

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_CAST_TABLE_H
