// aclnnDropoutGenMask, aclnnDropoutDoMask (the bit-mask dropout pair) and
// aclnnMaskedScale (out = self * mask * scale with an element mask, composed of
// l0 steps: the mask cast to self's dtype by view-copy, Mul, then Muls).
#include "aclnnop/aclnn_dropout_do_mask.h"
#include "aclnnop/aclnn_dropout_gen_mask.h"
#include "aclnnop/aclnn_masked_scale.h"

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/elementwise_api.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

namespace ascendc_sim {
namespace aclnn {
namespace {

// Bytes of the bit mask of `numel` elements: the bit count aligned to 128.
int64_t MaskBytes(int64_t numel) { return (numel + 127) / 128 * 128 / 8; }

aclnnStatus CheckProb(const char* api, double prob) {
  if (prob >= 0.0 && prob <= 1.0) return ACLNN_SUCCESS;
  return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: prob must be in [0, 1], got %g", api, prob);
}

aclnnStatus CheckMaskShape(const char* api, const aclTensor* mask, const char* name, int64_t numel) {
  const int64_t bytes = MaskBytes(numel);
  if (mask->viewDims.size() == 1 && mask->viewDims[0] == bytes) return ACLNN_SUCCESS;
  return RaiseError(ACLNN_ERR_PARAM_INVALID,
                    "%s: %s must be a 1-D UINT8 tensor of align(%lld, 128) / 8 = %lld bytes, got shape %s", api, name,
                    static_cast<long long>(numel), static_cast<long long>(bytes), ShapeToString(mask->viewDims).c_str());
}

aclnnStatus CheckSameShape(const char* api, const aclTensor* t, const char* name, const aclTensor* self) {
  if (t->viewDims == self->viewDims) return ACLNN_SUCCESS;
  return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s shape %s differs from self shape %s", api, name,
                    ShapeToString(t->viewDims).c_str(), ShapeToString(self->viewDims).c_str());
}

aclnnStatus CheckSameDtype(const char* api, const aclTensor* out, const aclTensor* self) {
  if (out->dtype == self->dtype) return ACLNN_SUCCESS;
  return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out has dtype %s, expected self's dtype %s", api,
                    DataTypeName(out->dtype), DataTypeName(self->dtype));
}

}  // namespace
}  // namespace aclnn
}  // namespace ascendc_sim

using namespace ascendc_sim::aclnn;
namespace kernels = ascendc_sim::kernels;

extern "C" {

aclnnStatus aclnnDropoutGenMaskGetWorkspaceSize(const aclIntArray* shape, double prob, int64_t seed, int64_t offset,
                                                aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnDropoutGenMask";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, shape, "shape")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", {ACL_UINT8})) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckProb(api, prob)) != ACLNN_SUCCESS) return rc;
  int64_t numel = 1;
  for (int64_t d : shape->values) {
    if (d < 0) {
      return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: shape %s has a negative dimension", api,
                                     ascendc_sim::ShapeToString(shape->values).c_str());
    }
    numel *= d;
  }
  if ((rc = CheckMaskShape(api, out, "out", numel)) != ACLNN_SUCCESS) return rc;

  ExecutorBuilder plan(api);
  const uint64_t bytes = static_cast<uint64_t>(MaskBytes(numel));
  if (bytes > 0) {
    const DenseBuffer mask = plan.Output(out, "out", ACL_UINT8);
    kernels::PhiloxArgs rng;
    rng.seed = static_cast<uint64_t>(seed);
    rng.offset = static_cast<uint64_t>(offset);
    const uint64_t elements = static_cast<uint64_t>(numel);
    plan.AddStep([mask, bytes, elements, prob, rng](uint8_t* ws, aclrtStream stream) {
      return kernels::LaunchDropoutGenMask(mask.Resolve(ws), bytes, elements, prob, rng, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnDropoutGenMask(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnDropoutGenMask", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnDropoutDoMaskGetWorkspaceSize(const aclTensor* self, const aclTensor* mask, double prob,
                                               aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnDropoutDoMask";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, mask, "mask")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", {ACL_FLOAT, ACL_FLOAT16, ACL_BF16})) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, mask, "mask", {ACL_UINT8})) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", {ACL_FLOAT, ACL_FLOAT16, ACL_BF16})) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckSameShape(api, out, "out", self)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckSameDtype(api, out, self)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckMaskShape(api, mask, "mask", self->Numel())) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckProb(api, prob)) != ACLNN_SUCCESS) return rc;

  ExecutorBuilder plan(api);
  const int64_t numel = self->Numel();
  if (numel > 0) {
    const aclDataType dtype = self->dtype;
    const DenseBuffer x = plan.Input(self, "self", self->viewDims, dtype);
    const DenseBuffer bits = plan.Input(mask, "mask", mask->viewDims, ACL_UINT8);
    const DenseBuffer y = plan.Output(out, "out", dtype);
    plan.AddStep([x, bits, y, numel, dtype, prob](uint8_t* ws, aclrtStream stream) {
      return kernels::LaunchDropoutDoMask(dtype, x.Resolve(ws), bits.Resolve(ws), y.Resolve(ws),
                                          static_cast<uint64_t>(numel), prob, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnDropoutDoMask(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnDropoutDoMask", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnMaskedScaleGetWorkspaceSize(const aclTensor* self, const aclTensor* mask, float scale, aclTensor* out,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnMaskedScale";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, mask, "mask")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  const std::initializer_list<aclDataType> values = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
  if ((rc = CheckTensor(api, self, "self", values)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, mask, "mask", {ACL_UINT8, ACL_INT8, ACL_FLOAT16, ACL_FLOAT})) != ACLNN_SUCCESS) {
    return rc;
  }
  if ((rc = CheckTensor(api, out, "out", values)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckSameShape(api, mask, "mask", self)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckSameShape(api, out, "out", self)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckSameDtype(api, out, self)) != ACLNN_SUCCESS) return rc;

  ExecutorBuilder plan(api);
  const int64_t numel = self->Numel();
  if (numel > 0) {
    const aclDataType dtype = self->dtype;
    const DenseBuffer x = plan.Input(self, "self", self->viewDims, dtype);
    const DenseBuffer m = plan.Input(mask, "mask", self->viewDims, dtype);
    const DenseBuffer y = plan.Output(out, "out", dtype);
    const uint64_t n = static_cast<uint64_t>(numel);
    const kernels::ScalarValue s = kernels::ScalarValue::Floating(scale);
    plan.AddStep([x, m, y, n, dtype](uint8_t* ws, aclrtStream stream) {
      return kernels::LaunchElementwise(kernels::EwOp::kMul, dtype, x.Resolve(ws), m.Resolve(ws), y.Resolve(ws), n, {},
                                        stream);
    });
    plan.AddStep([y, n, dtype, s](uint8_t* ws, aclrtStream stream) {
      return kernels::LaunchElementwise(kernels::EwOp::kMulScalar, dtype, y.Resolve(ws), nullptr, y.Resolve(ws), n, s,
                                        stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnMaskedScale(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnMaskedScale", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
