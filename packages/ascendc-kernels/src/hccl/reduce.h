// acc[i] = acc[i] (op) in[i] for HCCL's element types. float16 and bfloat16 are reduced in float32
// and rounded once per step, as a device's vector unit does; integers wrap around.
#ifndef ASCENDC_SIM_HCCL_REDUCE_H
#define ASCENDC_SIM_HCCL_REDUCE_H

#include <stddef.h>

#include "hccl/hccl_types.h"

namespace ascendc_sim {
namespace hccl {

// `dt` reducible and `op` one of sum, prod, max, min (the caller checked both).
// out[i] = first[i] (op) second[i]; `out` may be `first` or `second`.
void ReduceTo(void* out, const void* first, const void* second, size_t count, HcclDataType dt, HcclReduceOp op);
// acc[i] = acc[i] (op) in[i].
void ReduceInto(void* acc, const void* in, size_t count, HcclDataType dt, HcclReduceOp op);

}  // namespace hccl
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_HCCL_REDUCE_H
