// aclnnMul: out = self * other, with broadcasting and PyTorch type promotion.
#include "aclnnop/aclnn_mul.h"

#include "aclnn/aclnn_common.h"
#include "aclnn/aclnn_complex.h"
#include "aclnn/l0_ops.h"
#include "aclnn/type_promotion.h"
#include "common/error.h"
#include "kernels/elementwise_api.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;

extern "C" {

aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnMul";
  if (AnyComplex({self, other, out})) {
    return ComplexBinary(api, ascendc_sim::kernels::CxOp::kMul, self, "self", other, "other", nullptr, out, "out",
                         workspaceSize, executor);
  }
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, other, "other")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, other, "other", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckBinaryShapes(api, self, "self", other, "other", out, "out")) != ACLNN_SUCCESS) return rc;
  const aclDataType promoted = ResultType({self, other});
  if ((rc = CheckResultCast(api, promoted, out, "out", "self and other")) != ACLNN_SUCCESS) return rc;

  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const DenseBuffer a = plan.Input(self, "self", out->viewDims, promoted);
    const DenseBuffer b = plan.Input(other, "other", out->viewDims, promoted);
    const DenseBuffer y = plan.Output(out, "out", promoted);
    const uint64_t n = static_cast<uint64_t>(out->Numel());
    plan.AddStep([a, b, y, n, promoted](uint8_t* ws, aclrtStream stream) {
      return ascendc_sim::kernels::LaunchElementwise(ascendc_sim::kernels::EwOp::kMul, promoted, a.Resolve(ws),
                                                     b.Resolve(ws), y.Resolve(ws), n, {}, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnMul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnMul", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
