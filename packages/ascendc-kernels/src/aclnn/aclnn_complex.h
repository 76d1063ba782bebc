// The complex path of the elementwise aclnn entry points: an entry point whose operands
// include a complex tensor or scalar hands the call to these (kernels/complex_api.h), so
// the real-valued elementwise kernel stays as it is. Every operand is brought to a dense
// complex128 tile (real values become (x, 0)), the complex kernel computes in double
// precision, and out receives the result through the output view-copy (rounded to
// complex64, or the real part type, or bool).
#ifndef ASCENDC_SIM_ACLNN_ACLNN_COMPLEX_H
#define ASCENDC_SIM_ACLNN_ACLNN_COMPLEX_H

#include <initializer_list>

#include "aclnn/acl_meta.h"
#include "kernels/complex_api.h"
#include "kernels/elementwise_api.h"
#include "meta/acl_meta_types.h"

namespace ascendc_sim {
namespace aclnn {

// Whether any of the (non-null) tensors or the scalar is complex.
bool AnyComplex(std::initializer_list<const aclTensor*> tensors, const aclScalar* scalar = nullptr);

// The complex operator of an elementwise-kernel operator that has one; false when it has none
// (the entry point then rejects the complex operand as before).
bool ComplexOpOf(kernels::EwOp op, kernels::CxOp* cx);

// out = op(self[, scalar]) for a unary operator of the complex kernel (CxArity 1).
aclnnStatus ComplexUnary(const char* api, kernels::CxOp op, const aclTensor* self, const char* selfName,
                         const aclScalar* scalar, const aclTensor* out, const char* outName, uint64_t* workspaceSize,
                         aclOpExecutor** executor);

// out = op(self, other[, alpha]) for a binary operator (CxArity 2), self and other broadcast to out's shape.
aclnnStatus ComplexBinary(const char* api, kernels::CxOp op, const aclTensor* self, const char* selfName,
                          const aclTensor* other, const char* otherName, const aclScalar* alpha,
                          const aclTensor* out, const char* outName, uint64_t* workspaceSize,
                          aclOpExecutor** executor);

}  // namespace aclnn
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_ACLNN_ACLNN_COMPLEX_H
