// The two-phase body shared by the unary math and activation entry points
// (aclnn_unary_elementwise.cpp, aclnn_activation.cpp): argument checks, then one
// launch of the elementwise kernel with up to three scalar parameters, its inputs
// brought to dense tiles of the compute dtype broadcast to out's shape and its
// result written to out (cast and view-copied when out is not dense of that dtype).
#ifndef ASCENDC_SIM_ACLNN_ELEMENTWISE_PLAN_H
#define ASCENDC_SIM_ACLNN_ELEMENTWISE_PLAN_H

#include <initializer_list>

#include "aclnn/acl_meta.h"
#include "aclnn/l0_ops.h"
#include "kernels/elementwise_api.h"
#include "meta/acl_meta_types.h"

namespace ascendc_sim {
namespace aclnn {

struct EwInput {
  const aclTensor* tensor;
  const char* name;
};

// The kernel's scalar parameters s, s2, s3 (see kernels/elementwise_ops.def).
struct EwScalars {
  kernels::ScalarValue s;
  kernels::ScalarValue s2;
  kernels::ScalarValue s3;
};

kernels::ScalarValue ScalarOf(const aclScalar* s);

// Every tensor non-null, of a kernel dtype and a base format; workspaceSize and executor non-null.
aclnnStatus CheckEwTensors(const char* api, std::initializer_list<EwInput> tensors, uint64_t* workspaceSize,
                           aclOpExecutor** executor);

// A non-null scalar of a kernel dtype.
aclnnStatus CheckEwScalar(const char* api, const aclScalar* s, const char* name);

// The compute dtype of a floating operator: integral and bool inputs compute in float32.
aclDataType FloatingCompute(aclDataType dtype);

// out = op(inputs...) computed in `compute` (the result: compute, or bool for predicates);
// the inputs broadcast to out's shape, the result cast to out's dtype.
aclnnStatus PlanElementwise(const char* api, kernels::EwOp op, std::initializer_list<EwInput> inputs,
                            aclDataType compute, const aclTensor* out, const char* outName, const EwScalars& scalars,
                            uint64_t* workspaceSize, aclOpExecutor** executor);

// The same as one step of a caller's plan (no argument checks): for entry points that launch
// the kernel more than once. `out` must outlive plan.Finish().
void AddElementwiseStep(ExecutorBuilder& plan, kernels::EwOp op, std::initializer_list<EwInput> inputs,
                        aclDataType compute, const aclTensor* out, const char* outName, const EwScalars& scalars);

// out = self (converted to out's dtype): the operators that are the identity on some dtypes.
aclnnStatus PlanCopy(const char* api, EwInput self, const aclTensor* out, const char* outName,
                     uint64_t* workspaceSize, aclOpExecutor** executor);

// out = value (shape checked against self's).
aclnnStatus PlanFill(const char* api, EwInput self, const aclTensor* out, const char* outName,
                     kernels::ScalarValue value, uint64_t* workspaceSize, aclOpExecutor** executor);

}  // namespace aclnn
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_ACLNN_ELEMENTWISE_PLAN_H
