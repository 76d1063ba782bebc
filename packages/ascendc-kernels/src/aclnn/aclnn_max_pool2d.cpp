// aclnnMaxPool2dWithIndices(+Backward): max_pool2d_custom writes values and int64
// indices (cast into an int32 indices tensor, which CANN's callers pass); the backward
// adds gradOutput at the indices (read as int64) with plane_scatter_custom into a float32
// gradient (float64 for double), cast into gradInput.
#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/index_kernel_api.h"
#include "kernels/resample_api.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;
using ascendc_sim::DataTypeName;
using ascendc_sim::RaiseError;
using ascendc_sim::ShapeToString;
namespace k = ascendc_sim::kernels;

namespace {

const std::initializer_list<aclDataType> kPoolDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

aclnnStatus ReadPair(const char* api, const aclIntArray* a, const char* name, bool allowEmpty, int64_t low,
                     int64_t* first, int64_t* second) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, a, name)) != ACLNN_SUCCESS) return rc;
  const size_t n = a->values.size();
  if (n == 0 && allowEmpty) return ACLNN_SUCCESS;  // keeps the caller's default
  if (n != 1 && n != 2) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s must have 1 or 2 values, got %zu", api, name, n);
  }
  *first = a->values[0];
  *second = n == 2 ? a->values[1] : a->values[0];
  if (*first < low || *second < low) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s values must be at least %lld, got %s", api, name,
                      static_cast<long long>(low), ShapeToString(a->values).c_str());
  }
  return ACLNN_SUCCESS;
}

int64_t PooledSize(int64_t in, int64_t kernel, int64_t pad, int64_t stride, int64_t dilation, bool ceilMode) {
  const int64_t numerator = in + 2 * pad - dilation * (kernel - 1) - 1 + (ceilMode ? stride - 1 : 0);
  int64_t out = (numerator >= 0 ? numerator / stride : -((-numerator + stride - 1) / stride)) + 1;
  if (ceilMode && (out - 1) * stride >= in + pad) --out;
  return out;
}

aclnnStatus Describe(const char* api, const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* stride,
                     const aclIntArray* padding, const aclIntArray* dilation, bool ceilMode, k::WindowGeometry* g,
                     std::vector<int64_t>* outShape) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kPoolDtypes)) != ACLNN_SUCCESS) return rc;
  const std::vector<int64_t>& d = self->viewDims;
  if (d.size() != 3 && d.size() != 4) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: self must be 3-D or 4-D, got shape %s", api,
                      ShapeToString(d).c_str());
  }
  if ((rc = ReadPair(api, kernelSize, "kernelSize", false, 1, &g->kh, &g->kw)) != ACLNN_SUCCESS) return rc;
  g->sh = g->kh;
  g->sw = g->kw;
  if ((rc = ReadPair(api, stride, "stride", true, 1, &g->sh, &g->sw)) != ACLNN_SUCCESS) return rc;
  if ((rc = ReadPair(api, padding, "padding", false, 0, &g->ph, &g->pw)) != ACLNN_SUCCESS) return rc;
  if ((rc = ReadPair(api, dilation, "dilation", false, 1, &g->dh, &g->dw)) != ACLNN_SUCCESS) return rc;
  if (g->ph > g->kh / 2 || g->pw > g->kw / 2) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: padding should be at most half of kernelSize", api);
  }
  const size_t lead = d.size() - 3;
  g->batch = lead == 1 ? d[0] : 1;
  g->channels = d[lead];
  g->h = d[lead + 1];
  g->w = d[lead + 2];
  g->outH = PooledSize(g->h, g->kh, g->ph, g->sh, g->dh, ceilMode);
  g->outW = PooledSize(g->w, g->kw, g->pw, g->sw, g->dw, ceilMode);
  if (g->outH < 1 || g->outW < 1) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: the output size %lldx%lld is too small for input %s", api,
                      static_cast<long long>(g->outH), static_cast<long long>(g->outW), ShapeToString(d).c_str());
  }
  *outShape = d;
  (*outShape)[lead + 1] = g->outH;
  (*outShape)[lead + 2] = g->outW;
  return ACLNN_SUCCESS;
}

aclnnStatus CheckOut(const char* api, const aclTensor* t, const char* name, const std::vector<int64_t>& shape,
                     std::initializer_list<aclDataType> dtypes) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, t, name)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, t, name, dtypes)) != ACLNN_SUCCESS) return rc;
  if (t->viewDims != shape) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has shape %s, expected %s", api, name,
                      ShapeToString(t->viewDims).c_str(), ShapeToString(shape).c_str());
  }
  return ACLNN_SUCCESS;
}

}  // namespace

extern "C" {

aclnnStatus aclnnMaxPool2dWithIndicesGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                                      const aclIntArray* stride, const aclIntArray* padding,
                                                      const aclIntArray* dilation, bool ceilMode, aclTensor* out,
                                                      aclTensor* indices, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  const char* api = "aclnnMaxPool2dWithIndices";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  k::WindowGeometry g;
  std::vector<int64_t> shape;
  if ((rc = Describe(api, self, kernelSize, stride, padding, dilation, ceilMode, &g, &shape)) != ACLNN_SUCCESS) {
    return rc;
  }
  if ((rc = CheckOut(api, out, "out", shape, {self->dtype})) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckOut(api, indices, "indices", shape, {ACL_INT64, ACL_INT32})) != ACLNN_SUCCESS) return rc;
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const aclDataType dtype = self->dtype;
    const DenseBuffer x = plan.Input(self, "self", self->viewDims, dtype);
    const DenseBuffer y = plan.Output(out, "out", dtype);
    const DenseBuffer idx = plan.Output(indices, "indices", ACL_INT64);
    plan.AddStep([g, dtype, x, y, idx](uint8_t* ws, aclrtStream stream) {
      return k::LaunchMaxPool2d(dtype, g, x.Resolve(ws), y.Resolve(ws), idx.Resolve(ws), stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnMaxPool2dWithIndices(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                      aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnMaxPool2dWithIndices", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnMaxPool2dWithIndicesBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* indices, const aclIntArray* kernelSize,
    const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool ceilMode,
    aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnMaxPool2dWithIndicesBackward";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  k::WindowGeometry g;
  std::vector<int64_t> shape;
  if ((rc = Describe(api, self, kernelSize, stride, padding, dilation, ceilMode, &g, &shape)) != ACLNN_SUCCESS) {
    return rc;
  }
  if ((rc = CheckOut(api, gradOutput, "gradOutput", shape, {self->dtype})) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckOut(api, indices, "indices", shape, {ACL_INT64, ACL_INT32})) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckOut(api, gradInput, "gradInput", self->viewDims, {self->dtype})) != ACLNN_SUCCESS) return rc;
  ExecutorBuilder plan(api);
  if (gradInput->Numel() > 0) {
    const aclDataType dtype = self->dtype;
    const DenseBuffer go = plan.Input(gradOutput, "gradOutput", shape, dtype);
    const DenseBuffer idx = plan.Input(indices, "indices", shape, ACL_INT64);
    const DenseBuffer gi = plan.Output(gradInput, "gradInput", k::ResampleAccumulateType(dtype));
    k::PlaneScatterArgs args;
    args.mode = k::PlaneScatterMode::kAdd;
    args.dtype = dtype;
    args.planes = g.batch * g.channels;
    args.count = g.outH * g.outW;
    args.inner = g.h * g.w;
    args.op = api;
    plan.AddStep([args, go, idx, gi](uint8_t* ws, aclrtStream stream) mutable {
      args.x = go.Resolve(ws);
      args.indices = idx.Resolve(ws);
      args.y = gi.Resolve(ws);
      return k::LaunchPlaneScatter(args, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnMaxPool2dWithIndicesBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                              aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnMaxPool2dWithIndicesBackward", workspace, workspaceSize, executor,
                                     stream);
}

}  // extern "C"
