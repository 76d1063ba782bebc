// Unary elementwise math over the generic elementwise kernel. Floating ops on
// integral or bool self compute in float32 (as torch); float16/bfloat16 compute in
// float32. out has self's shape; the result casts to out's dtype.
#ifndef ASCENDC_SIM_ACLNN_UNARY_MATH_H
#define ASCENDC_SIM_ACLNN_UNARY_MATH_H
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
// out = -self (not bool)
ACL_FUNC_VISIBILITY aclnnStatus aclnnNegGetWorkspaceSize(const aclTensor* self, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNeg(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceNegGetWorkspaceSize(aclTensor* selfRef,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceNeg(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
// out = exp(self)
ACL_FUNC_VISIBILITY aclnnStatus aclnnExpGetWorkspaceSize(const aclTensor* self, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnExp(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceExpGetWorkspaceSize(aclTensor* selfRef,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceExp(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
// out = log(self)
ACL_FUNC_VISIBILITY aclnnStatus aclnnLogGetWorkspaceSize(const aclTensor* self, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLog(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceLogGetWorkspaceSize(aclTensor* selfRef,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceLog(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
// out = sqrt(self)
ACL_FUNC_VISIBILITY aclnnStatus aclnnSqrtGetWorkspaceSize(const aclTensor* self, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSqrt(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceSqrtGetWorkspaceSize(aclTensor* selfRef,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceSqrt(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
// out = 1 / sqrt(self)
ACL_FUNC_VISIBILITY aclnnStatus aclnnRsqrtGetWorkspaceSize(const aclTensor* self, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRsqrt(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceRsqrtGetWorkspaceSize(aclTensor* selfRef,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceRsqrt(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
// out = 1 / self
ACL_FUNC_VISIBILITY aclnnStatus aclnnReciprocalGetWorkspaceSize(const aclTensor* self, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnReciprocal(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceReciprocalGetWorkspaceSize(aclTensor* selfRef,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceReciprocal(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
// out = tanh(self)
ACL_FUNC_VISIBILITY aclnnStatus aclnnTanhGetWorkspaceSize(const aclTensor* self, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnTanh(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceTanhGetWorkspaceSize(aclTensor* selfRef,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceTanh(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
// out = 1 / (1 + exp(-self))
ACL_FUNC_VISIBILITY aclnnStatus aclnnSigmoidGetWorkspaceSize(const aclTensor* self, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSigmoid(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceSigmoidGetWorkspaceSize(aclTensor* selfRef,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceSigmoid(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
// out = max(self, 0), NaN stays NaN (not bool)
ACL_FUNC_VISIBILITY aclnnStatus aclnnReluGetWorkspaceSize(const aclTensor* self, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceReluGetWorkspaceSize(aclTensor* selfRef,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceRelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
// out = self * sigmoid(self)
ACL_FUNC_VISIBILITY aclnnStatus aclnnSiluGetWorkspaceSize(const aclTensor* self, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSilu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceSiluGetWorkspaceSize(aclTensor* selfRef,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceSilu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
// out = self * Phi(self) (exact GELU)
ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluGetWorkspaceSize(const aclTensor* self, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
// approximate: 0 none, 1 tanh
ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor* self, int64_t approximate, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
// out = self ** exponent (integer self: integral exponent >= 0 or a float result)
ACL_FUNC_VISIBILITY aclnnStatus aclnnPowTensorScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* exponent, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnPowTensorScalar(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplacePowTensorScalarGetWorkspaceSize(aclTensor* selfRef, const aclScalar* exponent,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplacePowTensorScalar(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);
#ifdef __cplusplus
}
#endif
#endif
