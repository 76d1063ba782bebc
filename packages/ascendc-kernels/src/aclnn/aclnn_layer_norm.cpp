// aclnnLayerNorm: out = (input - mean) * rstd * weight + bias over the last
// len(normalizedShape) dimensions, with the per-row mean and rstd as optional
// outputs (shape: input's leading dimensions, then ones), by the row kernel
// layer_norm_custom.
#include "aclnnop/aclnn_layer_norm.h"

#include <math.h>

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

const std::initializer_list<aclDataType> kNormDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus CheckOptional(const char* api, const aclTensor* t, const char* name, aclDataType dtype,
                          const std::vector<int64_t>& shape) {
  if (t == nullptr) return ACLNN_SUCCESS;
  aclnnStatus rc = CheckTensor(api, t, name, kNormDtypes);
  if (rc != ACLNN_SUCCESS) return rc;
  if (t->dtype != dtype) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s, expected %s", api, name,
                                   ascendc_sim::DataTypeName(t->dtype), ascendc_sim::DataTypeName(dtype));
  }
  if (t->viewDims != shape) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has shape %s, expected %s", api, name,
                                   ascendc_sim::ShapeToString(t->viewDims).c_str(),
                                   ascendc_sim::ShapeToString(shape).c_str());
  }
  return ACLNN_SUCCESS;
}

}  // namespace

extern "C" {

aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor* input, const aclIntArray* normalizedShape,
                                           const aclTensor* weightOptional, const aclTensor* biasOptional, double eps,
                                           aclTensor* out, aclTensor* meanOutOptional, aclTensor* rstdOutOptional,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnLayerNorm";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, input, "input")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, normalizedShape, "normalizedShape")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, input, "input", kNormDtypes)) != ACLNN_SUCCESS) return rc;
  const aclDataType dtype = input->dtype;
  const std::vector<int64_t>& dims = input->viewDims;
  const std::vector<int64_t>& norm = normalizedShape->values;
  if (norm.empty() || norm.size() > dims.size() ||
      !std::equal(norm.begin(), norm.end(), dims.end() - static_cast<std::ptrdiff_t>(norm.size()))) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID,
                                   "%s: normalizedShape %s must be a non-empty suffix of input shape %s", api,
                                   ascendc_sim::ShapeToString(norm).c_str(), ascendc_sim::ShapeToString(dims).c_str());
  }
  // Any eps is taken, as on CPU: a negative or NaN one gives NaN where var + eps is not positive.
  if ((rc = CheckOptional(api, weightOptional, "weight", dtype, norm)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckOptional(api, biasOptional, "bias", dtype, norm)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckOptional(api, out, "out", dtype, dims)) != ACLNN_SUCCESS) return rc;
  std::vector<int64_t> statsShape(dims.begin(), dims.end() - static_cast<std::ptrdiff_t>(norm.size()));
  statsShape.resize(dims.size(), 1);
  const aclDataType statsDtype = meanOutOptional != nullptr ? meanOutOptional->dtype
                                 : rstdOutOptional != nullptr ? rstdOutOptional->dtype
                                                              : dtype;
  if ((rc = CheckOptional(api, meanOutOptional, "meanOut", statsDtype, statsShape)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckOptional(api, rstdOutOptional, "rstdOut", statsDtype, statsShape)) != ACLNN_SUCCESS) return rc;
  if (statsDtype != dtype && statsDtype != ACL_FLOAT) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: meanOut/rstdOut have dtype %s, expected %s or float",
                                   api, ascendc_sim::DataTypeName(statsDtype), ascendc_sim::DataTypeName(dtype));
  }
  uint64_t cols = 1;
  for (int64_t d : norm) cols *= static_cast<uint64_t>(d);
  const uint64_t numel = static_cast<uint64_t>(input->Numel());
  uint64_t rows = 1;  // from the leading sizes: numel / cols is no count when cols is 0
  for (size_t i = 0; i + norm.size() < dims.size(); ++i) rows *= static_cast<uint64_t>(dims[i]);
  if (cols > 0xffffffffu) return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: normalized size too large", api);

  ExecutorBuilder plan(api);
  if (numel > 0) {
    const DenseBuffer x = plan.Input(input, "input", dims, dtype);
    const DenseBuffer y = plan.Output(out, "out", dtype);
    DenseBuffer gamma, beta, mean, rstd;
    const bool hasGamma = weightOptional != nullptr, hasBeta = biasOptional != nullptr;
    const bool hasMean = meanOutOptional != nullptr, hasRstd = rstdOutOptional != nullptr;
    if (hasGamma) gamma = plan.Input(weightOptional, "weight", norm, dtype);
    if (hasBeta) beta = plan.Input(biasOptional, "bias", norm, dtype);
    if (hasMean) mean = plan.Output(meanOutOptional, "meanOut", statsDtype);
    if (hasRstd) rstd = plan.Output(rstdOutOptional, "rstdOut", statsDtype);
    plan.AddStep([=](uint8_t* ws, aclrtStream stream) {
      ascendc_sim::kernels::LayerNormArgs args;
      args.dtype = dtype;
      args.statsDtype = statsDtype;
      args.rows = rows;
      args.cols = cols;
      args.eps = eps;
      args.x = x.Resolve(ws);
      args.y = y.Resolve(ws);
      args.gamma = hasGamma ? gamma.Resolve(ws) : nullptr;
      args.beta = hasBeta ? beta.Resolve(ws) : nullptr;
      args.mean = hasMean ? mean.Resolve(ws) : nullptr;
      args.rstd = hasRstd ? rstd.Resolve(ws) : nullptr;
      return ascendc_sim::kernels::LaunchLayerNorm(args, stream);
    });
  } else if (rows > 0 && cols == 0) {
    // as CPU: rows of no elements have mean 0 and rstd NaN; out is empty.
    for (aclTensor* stat : {meanOutOptional, rstdOutOptional}) {
      if (stat == nullptr) continue;
      const DenseBuffer s = plan.Output(stat, stat == meanOutOptional ? "meanOut" : "rstdOut", statsDtype);
      const uint64_t count = static_cast<uint64_t>(stat->Numel());
      const double value = stat == meanOutOptional ? 0.0 : NAN;
      plan.AddStep([s, count, statsDtype, value](uint8_t* ws, aclrtStream stream) {
        return ascendc_sim::kernels::LaunchFill(statsDtype, s.Resolve(ws), count,
                                                ascendc_sim::kernels::ScalarValue::Floating(value), stream);
      });
    }
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnLayerNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnLayerNorm", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
