// Shared by the elementwise acl_op types: the inputs broadcast to y's shape and
// run through one operator of the elementwise kernel, and the host value of a
// one-element constant input (a scalar operand such as Pow's exponent).
#ifndef ASCENDC_SIM_ACLOP_OPS_ELEMENTWISE_RUN_H
#define ASCENDC_SIM_ACLOP_OPS_ELEMENTWISE_RUN_H

#include <vector>

#include "aclop/op_registry.h"
#include "kernels/elementwise_api.h"

namespace ascendc_sim {
namespace aclop {

// y = op(x0[, x1[, x2]]) over the first `arity` inputs, broadcast (numpy rules) to y's
// shape, which must be their broadcast shape; `s` is the operator's scalar parameter.
aclError RunElementwiseBroadcast(OpContext& ctx, kernels::EwOp op, int arity, kernels::ScalarValue s);

// The same over the inputs at `order` (x0 = input order[0], ...: an op type whose inputs come in
// another order than the operator's) with the operator's three scalar parameters.
aclError RunElementwiseBroadcast(OpContext& ctx, kernels::EwOp op, const std::vector<size_t>& order,
                                 kernels::ScalarValue s, kernels::ScalarValue s2 = {}, kernels::ScalarValue s3 = {});

// The value of input `index`, which must be a constant (or host-placed) input of one element, as a scalar
// parameter of the elementwise kernel (integral for the integral dtypes).
aclError ConstantScalarInput(OpContext& ctx, size_t index, const char* name, kernels::ScalarValue* out);

// The int64 values of constant (or host-placed) input `index` (int32 or int64: a shape or a count).
aclError ConstantInts(OpContext& ctx, size_t index, const char* name, std::vector<int64_t>* out);

// Which dimensions of input 0 a reduction's constant (or host) input 1, axes, names (every one when it
// is empty); an axis out of range or named twice fails.
aclError ReducedAxes(OpContext& ctx, std::vector<bool>* reduced);

// The element strides of a dense row-major tensor of `shape`.
std::vector<int64_t> DenseStrides(const std::vector<int64_t>& shape);

// y <- x (dense, of one dtype and size) unless they are one buffer: an op that updates parts of x into y.
aclError CopyUnlessSame(OpContext& ctx, const OpOperand& x, const OpOperand& y);

// `v` as a scalar parameter for inputs of `dtype`: floating for the floating dtypes, else integral.
kernels::ScalarValue ScalarFor(aclDataType dtype, double v);

}  // namespace aclop
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_ACLOP_OPS_ELEMENTWISE_RUN_H
