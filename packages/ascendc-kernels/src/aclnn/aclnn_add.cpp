// aclnnAdd / aclnnInplaceAdd: out = self + alpha * other, with broadcasting and
// PyTorch type promotion; computed in the promoted type, cast to out's dtype.
#include "aclnnop/aclnn_add.h"

#include "aclnn/aclnn_common.h"
#include "aclnn/aclnn_complex.h"
#include "aclnn/l0_ops.h"
#include "aclnn/type_promotion.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/elementwise_api.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

namespace ascendc_sim {
namespace aclnn {
namespace {

// torch's alpha_check, on the promoted type.
aclnnStatus CheckAlpha(const char* api, const aclScalar* alpha, aclDataType promoted) {
  if (alpha->dtype == ACL_BOOL && promoted != ACL_BOOL) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID,
                      "%s: alpha has dtype ACL_BOOL, which is only supported when the result type is ACL_BOOL "
                      "(it is %s)",
                      api, DataTypeName(promoted));
  }
  if (IsIntegralType(promoted, true) && alpha->IsFloating()) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID,
                      "%s: alpha has floating dtype %s but the result type %s is integral; alpha must be integral",
                      api, DataTypeName(alpha->dtype), DataTypeName(promoted));
  }
  if (!IsKernelType(alpha->dtype)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: alpha has unsupported dtype %s", api, DataTypeName(alpha->dtype));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus AddWorkspace(const char* api, const aclTensor* self, const char* selfName, const aclTensor* other,
                         const aclScalar* alpha, const aclTensor* out, const char* outName, const char* inputsName,
                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, selfName)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, other, "other")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, alpha, "alpha")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, outName)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, selfName, kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, other, "other", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if (out != self && (rc = CheckTensor(api, out, outName, kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckBinaryShapes(api, self, selfName, other, "other", out, outName)) != ACLNN_SUCCESS) return rc;
  const aclDataType promoted = ResultType({self, other});
  if ((rc = CheckResultCast(api, promoted, out, outName, inputsName)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckAlpha(api, alpha, promoted)) != ACLNN_SUCCESS) return rc;

  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const std::vector<int64_t>& shape = out->viewDims;
    const DenseBuffer a = plan.Input(self, selfName, shape, promoted);
    const DenseBuffer b = plan.Input(other, "other", shape, promoted);
    const DenseBuffer y = plan.Output(out, outName, promoted);
    const uint64_t n = static_cast<uint64_t>(out->Numel());
    const bool unitAlpha = alpha->IsFloating() ? alpha->ToDouble() == 1.0 : alpha->ToInt64() == 1;
    if (unitAlpha) {
      plan.AddStep([a, b, y, n, promoted](uint8_t* ws, aclrtStream stream) {
        return kernels::LaunchElementwise(kernels::EwOp::kAdd, promoted, a.Resolve(ws), b.Resolve(ws), y.Resolve(ws), n,
                                          {}, stream);
      });
    } else {
      const kernels::ScalarValue value = IsFloatingType(promoted)
                                             ? kernels::StoredAs(promoted, kernels::ScalarValue::Floating(alpha->ToDouble()))
                                             : kernels::ScalarValue::Integral(alpha->ToInt64());
      plan.AddStep([a, b, y, n, promoted, value](uint8_t* ws, aclrtStream stream) {
        return kernels::LaunchElementwise(kernels::EwOp::kAxpy, promoted, a.Resolve(ws), b.Resolve(ws), y.Resolve(ws), n,
                                          value, stream);
      });
    }
  }
  return plan.Finish(workspaceSize, executor);
}

}  // namespace
}  // namespace aclnn
}  // namespace ascendc_sim

extern "C" {

aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (ascendc_sim::aclnn::AnyComplex({self, other, out}, alpha)) {
    return ascendc_sim::aclnn::ComplexBinary("aclnnAdd", ascendc_sim::kernels::CxOp::kAdd, self, "self", other,
                                             "other", alpha, out, "out", workspaceSize, executor);
  }
  return ascendc_sim::aclnn::AddWorkspace("aclnnAdd", self, "self", other, alpha, out, "out", "self and other",
                                          workspaceSize, executor);
}

aclnnStatus aclnnAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnAdd", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceAddGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, const aclScalar* alpha,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (ascendc_sim::aclnn::AnyComplex({selfRef, other}, alpha)) {
    return ascendc_sim::aclnn::ComplexBinary("aclnnInplaceAdd", ascendc_sim::kernels::CxOp::kAdd, selfRef,
                                             "selfRef", other, "other", alpha, selfRef, "selfRef", workspaceSize,
                                             executor);
  }
  return ascendc_sim::aclnn::AddWorkspace("aclnnInplaceAdd", selfRef, "selfRef", other, alpha, selfRef, "selfRef",
                                          "selfRef and other", workspaceSize, executor);
}

aclnnStatus aclnnInplaceAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplaceAdd", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
