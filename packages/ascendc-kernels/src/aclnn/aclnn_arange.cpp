// aclnnArange: arange_custom writes start + i * step into out (or into a dense
// workspace tile copied into a strided out).
#include "aclnnop/aclnn_arange.h"

#include <math.h>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/index_kernel_api.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;
using ascendc_sim::RaiseError;

extern "C" {

aclnnStatus aclnnArangeGetWorkspaceSize(const aclScalar* start, const aclScalar* end, const aclScalar* step,
                                        aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnArange";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, start, "start")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, end, "end")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, step, "step")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", kNumericDtypes)) != ACLNN_SUCCESS) return rc;
  if (out->viewDims.size() != 1) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out must be 1-D, got %zu dimensions", api,
                      out->viewDims.size());
  }
  const double s = start->ToDouble(), e = end->ToDouble(), d = step->ToDouble();
  if (!isfinite(s) || !isfinite(e)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: start and end must be finite, got %g and %g", api, s, e);
  }
  if (d == 0) return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: step must be nonzero", api);
  if ((d > 0 && e < s) || (d < 0 && e > s)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: upper bound and lower bound inconsistent with step sign", api);
  }
  // PyTorch's sizing, counted in double; an int64 out may also count in int64 from the truncated
  // bounds, as PyTorch did before 2.14 (the values are the same, only the last ones differ).
  const double size = ceil((e - s) / d);
  double truncatedSize = size;
  if (out->dtype == ACL_INT64) {
    const int64_t si = start->ToInt64(), ei = end->ToInt64(), di = step->ToInt64();
    if (di == 0) return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: step must be nonzero", api);
    const int64_t sgn = (di > 0) - (di < 0);
    truncatedSize = static_cast<double>((ei - si + di - sgn) / di);
  }
  const double n = static_cast<double>(out->Numel());
  if (n != size && n != truncatedSize) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out has %lld elements, the range has %.0f", api,
                      static_cast<long long>(out->Numel()), size);
  }
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const DenseBuffer y = plan.Output(out, "out", out->dtype);
    const aclDataType dtype = out->dtype;
    const uint64_t n = static_cast<uint64_t>(out->Numel());
    const int64_t si = start->ToInt64(), di = step->ToInt64();
    plan.AddStep([y, dtype, n, s, d, si, di](uint8_t* ws, aclrtStream stream) {
      return ascendc_sim::kernels::LaunchArange(dtype, y.Resolve(ws), n, s, d, si, di, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnArange(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnArange", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
