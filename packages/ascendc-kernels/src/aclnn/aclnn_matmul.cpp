// aclnnMm (2-D) and aclnnMatmul (torch.matmul semantics): operands are brought
// into dense row-major tiles (a view-copy for transposed or broadcast inputs),
// then the cube kernel matmul_custom runs; out is written back if it is not dense.
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"

#include <algorithm>
#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;

namespace {

const std::initializer_list<aclDataType> kMatmulDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus CheckCommon(const char* api, const aclTensor* self, const char* otherName, const aclTensor* other,
                        const aclTensor* out, int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, other, otherName)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kMatmulDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, other, otherName, kMatmulDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", kMatmulDtypes)) != ACLNN_SUCCESS) return rc;
  if (self->dtype != other->dtype || out->dtype != self->dtype) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID,
                                   "%s: self, %s and out must have the same dtype, got %s, %s and %s", api, otherName,
                                   ascendc_sim::DataTypeName(self->dtype), ascendc_sim::DataTypeName(other->dtype),
                                   ascendc_sim::DataTypeName(out->dtype));
  }
  if (cubeMathType < 0 || cubeMathType > 3) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: cubeMathType %d is not one of 0..3", api,
                                   static_cast<int>(cubeMathType));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckOutShape(const char* api, const aclTensor* out, const std::vector<int64_t>& expected) {
  if (out->viewDims == expected) return ACLNN_SUCCESS;
  return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out has shape %s, expected %s", api,
                                 ascendc_sim::ShapeToString(out->viewDims).c_str(),
                                 ascendc_sim::ShapeToString(expected).c_str());
}

bool FitsKernel(int64_t m, int64_t n, int64_t k) {
  const int64_t limit = int64_t{1} << 31;
  return m < limit && n < limit && k < limit;
}

// Queues the cube kernel for `shape` (dtype, batch, m/n/k, batch strides); the operand
// buffers are resolved against the workspace when the executor runs.
void AddMatmulStep(ExecutorBuilder& plan, const DenseBuffer& a, const DenseBuffer& b, const DenseBuffer& c,
                   const ascendc_sim::kernels::MatmulArgs& shape) {
  plan.AddStep([a, b, c, shape](uint8_t* ws, aclrtStream stream) {
    ascendc_sim::kernels::MatmulArgs args = shape;
    args.a = a.Resolve(ws);
    args.b = b.Resolve(ws);
    args.c = c.Resolve(ws);
    return ascendc_sim::kernels::LaunchMatmul(args, stream);
  });
}

}  // namespace

extern "C" {

aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out, int8_t cubeMathType,
                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnMm";
  aclnnStatus rc = CheckCommon(api, self, "mat2", mat2, out, cubeMathType, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if (self->viewDims.size() != 2 || mat2->viewDims.size() != 2) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: self and mat2 must be 2-D, got %s and %s", api,
                                   ascendc_sim::ShapeToString(self->viewDims).c_str(),
                                   ascendc_sim::ShapeToString(mat2->viewDims).c_str());
  }
  const int64_t m = self->viewDims[0], k = self->viewDims[1], n = mat2->viewDims[1];
  if (mat2->viewDims[0] != k) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID,
                                   "%s: self %s and mat2 %s cannot be multiplied (inner dimensions differ)", api,
                                   ascendc_sim::ShapeToString(self->viewDims).c_str(),
                                   ascendc_sim::ShapeToString(mat2->viewDims).c_str());
  }
  if ((rc = CheckOutShape(api, out, {m, n})) != ACLNN_SUCCESS) return rc;
  if (!FitsKernel(m, n, k)) return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dimensions too large", api);
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const aclDataType dtype = self->dtype;
    const DenseBuffer a = plan.Input(self, "self", {m, k}, dtype);
    const DenseBuffer b = plan.Input(mat2, "mat2", {k, n}, dtype);
    const DenseBuffer c = plan.Output(out, "out", dtype);
    ascendc_sim::kernels::MatmulArgs shape;
    shape.dtype = dtype;
    shape.m = m;
    shape.n = n;
    shape.k = k;
    AddMatmulStep(plan, a, b, c, shape);
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnMm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnMm", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                        int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnMatmul";
  aclnnStatus rc = CheckCommon(api, self, "other", other, out, cubeMathType, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  const std::vector<int64_t>& sd = self->viewDims;
  const std::vector<int64_t>& od = other->viewDims;
  if (sd.empty() || od.empty()) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: both arguments need at least 1 dimension, got %s and %s",
                                   api, ascendc_sim::ShapeToString(sd).c_str(), ascendc_sim::ShapeToString(od).c_str());
  }
  // self as (batch..., m, k), other as (batch..., k, n); 1-D operands get a dimension of 1 that the result drops.
  const bool selfVector = sd.size() == 1, otherVector = od.size() == 1;
  const int64_t m = selfVector ? 1 : sd[sd.size() - 2];
  const int64_t k = sd.back();
  const int64_t ok = otherVector ? od[0] : od[od.size() - 2];
  const int64_t n = otherVector ? 1 : od.back();
  if (ok != k) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID,
                                   "%s: self %s and other %s cannot be multiplied (inner dimensions differ)", api,
                                   ascendc_sim::ShapeToString(sd).c_str(), ascendc_sim::ShapeToString(od).c_str());
  }
  const std::vector<int64_t> selfBatch(sd.begin(), sd.end() - std::min<size_t>(sd.size(), 2));
  const std::vector<int64_t> otherBatch(od.begin(), od.end() - std::min<size_t>(od.size(), 2));
  std::vector<int64_t> batch;
  if (!BroadcastShapes(selfBatch, otherBatch, &batch)) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: batch dimensions of self %s and other %s do not broadcast",
                                   api, ascendc_sim::ShapeToString(sd).c_str(), ascendc_sim::ShapeToString(od).c_str());
  }
  std::vector<int64_t> expected = batch;
  if (!selfVector) expected.push_back(m);
  if (!otherVector) expected.push_back(n);
  if ((rc = CheckOutShape(api, out, expected)) != ACLNN_SUCCESS) return rc;
  if (!FitsKernel(m, n, k)) return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dimensions too large", api);
  int64_t batchCount = 1;
  for (int64_t d : batch) batchCount *= d;
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const aclDataType dtype = self->dtype;
    // An operand without batch dimensions is shared by every batch (stride 0), else broadcast densely.
    std::vector<int64_t> aShape = selfBatch.empty() ? std::vector<int64_t>{} : batch;
    std::vector<int64_t> bShape = otherBatch.empty() ? std::vector<int64_t>{} : batch;
    if (selfVector) {
      aShape.push_back(k);
    } else {
      aShape.insert(aShape.end(), {m, k});
    }
    if (otherVector) {
      bShape.push_back(k);  // [k] is the dense k x 1 matrix
    } else {
      bShape.insert(bShape.end(), {k, n});
    }
    const DenseBuffer a = plan.Input(self, "self", aShape, dtype);
    const DenseBuffer b = plan.Input(other, "other", bShape, dtype);
    const DenseBuffer c = plan.Output(out, "out", dtype);
    ascendc_sim::kernels::MatmulArgs shape;
    shape.dtype = dtype;
    shape.batch = static_cast<uint64_t>(batchCount);
    shape.m = m;
    shape.n = n;
    shape.k = k;
    shape.aBatchStride = selfBatch.empty() ? 0 : static_cast<uint64_t>(m * k);  // 0: broadcast
    shape.bBatchStride = otherBatch.empty() ? 0 : static_cast<uint64_t>(k * n);
    AddMatmulStep(plan, a, b, c, shape);
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnMatmul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnMatmul", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
