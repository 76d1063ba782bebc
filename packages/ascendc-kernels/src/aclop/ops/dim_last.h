// Shared by the acl_op reductions, scans and selections over some dimensions of x (input 0): the plan
// that moves those dimensions last (rows x cols) and a dense copy of x, or of an operand of x's shape, in
// that order.
#ifndef ASCENDC_SIM_ACLOP_OPS_DIM_LAST_H
#define ASCENDC_SIM_ACLOP_OPS_DIM_LAST_H

#include <stdint.h>

#include <vector>

#include "aclop/op_registry.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {

// x (input 0) with its reduced dimensions moved last, as rows x cols; `expected`: x's shape without
// them (1 there with keepDims). A 0-D x is one row of one element.
struct DimLast {
  uint64_t rows = 1;
  uint64_t cols = 1;
  std::vector<int64_t> expected;
  kernels::ViewCopyArgs view;  // x's elements in rows x cols order (src strides; dst dense)
};


// The plan for the dimensions marked in `reduced` (one flag per dimension of x).
aclError PlanReducedLast(OpContext& ctx, const std::vector<bool>& reduced, bool keepDims, DimLast* plan);

// The plan for the one dimension `dim` (negative: from the end; a 0-D x takes 0 and -1).
aclError PlanDimLast(OpContext& ctx, int64_t dim, bool keepDims, DimLast* plan);

// The plan for the dimensions `dims` of an attribute (negative: from the end; none: no dimension, or every
// one when emptyIsAll); output 0 must have the result's shape.
aclError PlanAttrDims(OpContext& ctx, const std::vector<int64_t>& dims, bool emptyIsAll, bool keepDims,
                      DimLast* plan);

// A dense rows x cols copy of x (input 0, or an operand of its shape) in `compute` (a temporary of the op).
aclError CopyDimLast(OpContext& ctx, const DimLast& plan, const OpOperand& x, aclDataType compute, void** dense);

}  // namespace aclop
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_ACLOP_OPS_DIM_LAST_H
