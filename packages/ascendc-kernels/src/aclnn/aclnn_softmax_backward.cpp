// aclnnSoftmaxBackward / aclnnLogSoftmaxBackward: the input gradient of
// softmax / log_softmax along dim from the forward output and the output
// gradient. As in aclnnSoftmax the dimension is made innermost (permuted views,
// view-copied when not dense), the row kernel softmax_grad_custom runs, and the
// result goes back through the permutation.
#include "aclnnop/aclnn_log_softmax_backward.h"
#include "aclnnop/aclnn_softmax_backward.h"

#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;

namespace {

aclTensor MoveDimLast(const aclTensor* t, size_t dim) {
  aclTensor v = *t;
  v.viewDims.erase(v.viewDims.begin() + static_cast<std::ptrdiff_t>(dim));
  v.strides.erase(v.strides.begin() + static_cast<std::ptrdiff_t>(dim));
  v.viewDims.push_back(t->viewDims[dim]);
  v.strides.push_back(t->strides[dim]);
  return v;
}

aclnnStatus BuildSoftmaxBackward(const char* api, const aclTensor* gradOutput, const aclTensor* output, int64_t dim,
                                 aclTensor* gradInput, bool log, uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, gradOutput, "gradOutput")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, output, "output")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, gradInput, "gradInput")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  const std::initializer_list<aclDataType> floats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  if ((rc = CheckTensor(api, gradOutput, "gradOutput", floats)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, output, "output", floats)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, gradInput, "gradInput", floats)) != ACLNN_SUCCESS) return rc;
  for (const aclTensor* t : {output, static_cast<const aclTensor*>(gradInput)}) {
    if (t->viewDims != gradOutput->viewDims) {
      return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s shape %s differs from gradOutput shape %s", api,
                                     t == output ? "output" : "gradInput",
                                     ascendc_sim::ShapeToString(t->viewDims).c_str(),
                                     ascendc_sim::ShapeToString(gradOutput->viewDims).c_str());
    }
  }
  if (output->dtype != gradOutput->dtype) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: output has dtype %s, expected gradOutput's %s", api,
                                   ascendc_sim::DataTypeName(output->dtype),
                                   ascendc_sim::DataTypeName(gradOutput->dtype));
  }
  const int64_t rank = static_cast<int64_t>(gradOutput->viewDims.size());
  const int64_t span = rank == 0 ? 1 : rank;
  if (dim < -span || dim >= span) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dim %lld is out of range for a %lld-D gradOutput",
                                   api, static_cast<long long>(dim), static_cast<long long>(rank));
  }
  ExecutorBuilder plan(api);
  const int64_t numel = gradOutput->Numel();
  if (numel > 0) {
    const aclDataType dtype = gradOutput->dtype;
    const size_t d = rank == 0 ? 0 : static_cast<size_t>(dim < 0 ? dim + rank : dim);
    const uint64_t cols = rank == 0 ? 1 : static_cast<uint64_t>(gradOutput->viewDims[d]);
    const uint64_t rows = static_cast<uint64_t>(numel) / cols;
    auto step = [rows, cols, dtype, log](DenseBuffer g, DenseBuffer y, DenseBuffer dx) {
      return [g, y, dx, rows, cols, dtype, log](uint8_t* ws, aclrtStream stream) {
        return ascendc_sim::kernels::LaunchSoftmaxGrad(dtype, g.Resolve(ws), y.Resolve(ws), dx.Resolve(ws), rows, cols,
                                                       log, stream);
      };
    };
    if (rank == 0 || d + 1 == static_cast<size_t>(rank)) {
      const DenseBuffer g = plan.Input(gradOutput, "gradOutput", gradOutput->viewDims, dtype);
      const DenseBuffer y = plan.Input(output, "output", output->viewDims, dtype);
      const DenseBuffer dx = plan.Output(gradInput, "gradInput", dtype);
      plan.AddStep(step(g, y, dx));
    } else {
      const aclTensor gView = MoveDimLast(gradOutput, d);
      const aclTensor yView = MoveDimLast(output, d);
      const aclTensor dxView = MoveDimLast(gradInput, d);
      const DenseBuffer g = plan.Input(&gView, "gradOutput", gView.viewDims, dtype);
      const DenseBuffer y = plan.Input(&yView, "output", yView.viewDims, dtype);
      const DenseBuffer dx = plan.Scratch(numel, dtype);
      plan.AddStep(step(g, y, dx));
      plan.CopyDenseToView(dx, dxView.viewDims, &dxView, "gradInput");
    }
  }
  return plan.Finish(workspaceSize, executor);
}

}  // namespace

extern "C" {

aclnnStatus aclnnSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output, int64_t dim,
                                                 aclTensor* gradInput, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  return BuildSoftmaxBackward("aclnnSoftmaxBackward", gradOutput, output, dim, gradInput, false, workspaceSize,
                              executor);
}

aclnnStatus aclnnSoftmaxBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                 aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnSoftmaxBackward", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnLogSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output, int64_t dim,
                                                    aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return BuildSoftmaxBackward("aclnnLogSoftmaxBackward", gradOutput, output, dim, out, true, workspaceSize, executor);
}

aclnnStatus aclnnLogSoftmaxBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnLogSoftmaxBackward", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
