// aclnnSoftmax / aclnnLogSoftmax: out = softmax(self, dim) / log_softmax(self,
// dim). The softmax dimension is made the innermost one (a permuted view; a
// view-copy when that is not dense), the row kernel softmax_custom runs, and
// the result is copied back through the same permutation of out when needed.
// out may be float32 for a float16/bfloat16 self (torch's half_to_float): self
// is converted on the way in.
#include "aclnnop/aclnn_log_softmax.h"
#include "aclnnop/aclnn_softmax.h"

#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;

namespace {

// `t` with dimension `dim` moved to the end (a view of the same storage).
aclTensor MoveDimLast(const aclTensor* t, size_t dim) {
  aclTensor v = *t;
  v.viewDims.erase(v.viewDims.begin() + static_cast<std::ptrdiff_t>(dim));
  v.strides.erase(v.strides.begin() + static_cast<std::ptrdiff_t>(dim));
  v.viewDims.push_back(t->viewDims[dim]);
  v.strides.push_back(t->strides[dim]);
  return v;
}

aclnnStatus BuildSoftmax(const char* api, const aclTensor* self, int64_t dim, aclTensor* out, bool log,
                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", {ACL_FLOAT, ACL_FLOAT16, ACL_BF16})) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", {ACL_FLOAT, ACL_FLOAT16, ACL_BF16})) != ACLNN_SUCCESS) return rc;
  if (out->dtype != self->dtype && out->dtype != ACL_FLOAT) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out has dtype %s, expected self's %s or float", api,
                                   ascendc_sim::DataTypeName(out->dtype), ascendc_sim::DataTypeName(self->dtype));
  }
  if (out->viewDims != self->viewDims) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out shape %s differs from self shape %s", api,
                                   ascendc_sim::ShapeToString(out->viewDims).c_str(),
                                   ascendc_sim::ShapeToString(self->viewDims).c_str());
  }
  const int64_t rank = static_cast<int64_t>(self->viewDims.size());
  const int64_t span = rank == 0 ? 1 : rank;
  if (dim < -span || dim >= span) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dim %lld is out of range for a %lld-D self", api,
                                   static_cast<long long>(dim), static_cast<long long>(rank));
  }
  ExecutorBuilder plan(api);
  if (self->Numel() > 0) {
    const aclDataType dtype = out->dtype;  // the compute type (self is converted to it)
    const size_t d = rank == 0 ? 0 : static_cast<size_t>(dim < 0 ? dim + rank : dim);
    const uint64_t cols = rank == 0 ? 1 : static_cast<uint64_t>(self->viewDims[d]);
    const uint64_t rows = static_cast<uint64_t>(self->Numel()) / cols;
    auto step = [rows, cols, dtype, log](DenseBuffer x, DenseBuffer y) {
      return [x, y, rows, cols, dtype, log](uint8_t* ws, aclrtStream stream) {
        return ascendc_sim::kernels::LaunchSoftmax(dtype, x.Resolve(ws), y.Resolve(ws), rows, cols, log, stream);
      };
    };
    if (rank == 0 || d + 1 == static_cast<size_t>(rank)) {
      const DenseBuffer x = plan.Input(self, "self", self->viewDims, dtype);
      const DenseBuffer y = plan.Output(out, "out", dtype);
      plan.AddStep(step(x, y));
    } else {
      const aclTensor selfView = MoveDimLast(self, d);
      const aclTensor outView = MoveDimLast(out, d);
      const DenseBuffer x = plan.Input(&selfView, "self", selfView.viewDims, dtype);
      const DenseBuffer y = plan.Scratch(self->Numel(), dtype);
      plan.AddStep(step(x, y));
      plan.CopyDenseToView(y, outView.viewDims, &outView, "out");
    }
  }
  return plan.Finish(workspaceSize, executor);
}

}  // namespace

extern "C" {

aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  return BuildSoftmax("aclnnSoftmax", self, dim, out, false, workspaceSize, executor);
}

aclnnStatus aclnnSoftmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnSoftmax", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return BuildSoftmax("aclnnLogSoftmax", self, dim, out, true, workspaceSize, executor);
}

aclnnStatus aclnnLogSoftmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnLogSoftmax", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
