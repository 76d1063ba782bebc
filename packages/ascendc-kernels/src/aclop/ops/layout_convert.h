// Layout conversions inside an op that computes on base formats but accepts internal-format operands
// (the convolution types take CANN's NC1HWC0 features and FRACTAL_Z filters): the TransData conversion
// into or out of a temporary. Defined in trans_data_op.cpp.
#ifndef ASCENDC_SIM_ACLOP_OPS_LAYOUT_CONVERT_H
#define ASCENDC_SIM_ACLOP_OPS_LAYOUT_CONVERT_H

#include <stdint.h>

#include <vector>

#include "aclop/op_registry.h"

namespace ascendc_sim {
namespace aclop {

// dst (format `to`) = src (format `from`) of the logical shape `origin`; one of the two a base format,
// the other FRACTAL_NZ, NC1HWC0, FRACTAL_Z, NDC1HWC0 or FRACTAL_Z_3D.
aclError ConvertStorage(OpContext& ctx, aclFormat from, aclFormat to, const std::vector<int64_t>& origin,
                        aclDataType dtype, const void* src, void* dst);

// The logical shape of an operand: its origin shape in an internal format, else its shape.
const std::vector<int64_t>& LogicalShape(const OpOperand& t);

// The dense base-format data of input `t` (named `name` in messages): its own data in a base format, else
// a temporary converted from its internal format (one of `internal`; another fails the op).
aclError BaseFormatInput(OpContext& ctx, const OpOperand& t, const char* name,
                         const std::vector<aclFormat>& internal, void** data);

// Where to write output `y` densely in a base format: y's own data, or a temporary that StoreOutput then
// converts into y's internal format (one of `internal`).
aclError BaseFormatOutput(OpContext& ctx, const OpOperand& y, const char* name,
                          const std::vector<aclFormat>& internal, void** data);
aclError StoreOutput(OpContext& ctx, const OpOperand& y, const void* data);

}  // namespace aclop
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_ACLOP_OPS_LAYOUT_CONVERT_H
