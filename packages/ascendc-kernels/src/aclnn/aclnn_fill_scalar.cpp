// aclnnInplaceFillScalar / aclnnInplaceZero: selfRef[...] = value, any layout.
// A dense selfRef is filled directly; a strided one gets one filled element in
// the workspace, broadcast into its view by a view-copy.
#include "aclnnop/aclnn_fill_scalar.h"

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/complex_api.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

namespace ascendc_sim {
namespace aclnn {
namespace {

// A complex selfRef takes `value` as the real part and `imag` as the imaginary one.
aclError LaunchFillValue(aclDataType dtype, void* y, uint64_t n, kernels::ScalarValue value, double imag,
                         aclrtStream stream) {
  if (IsComplexType(dtype)) return kernels::LaunchFillComplex(dtype, y, n, value.f, imag, stream);
  return kernels::LaunchFill(dtype, y, n, value, stream);
}

aclnnStatus FillWorkspace(const char* api, aclTensor* self, kernels::ScalarValue value, uint64_t* workspaceSize,
                          aclOpExecutor** executor, double imag = 0.0) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "selfRef")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "selfRef", kCopyDtypes)) != ACLNN_SUCCESS) return rc;
  if (imag != 0.0 && !IsComplexType(self->dtype)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: a complex value with a non-zero imaginary part cannot fill "
                      "selfRef of dtype %s", api, DataTypeName(self->dtype));
  }

  ExecutorBuilder plan(api);
  const int64_t numel = self->Numel();
  const aclDataType dtype = self->dtype;
  if (numel > 0 && self->IsContiguous()) {
    const DenseBuffer target = plan.Output(self, "selfRef", dtype);
    plan.AddStep([target, numel, dtype, value, imag](uint8_t* ws, aclrtStream stream) {
      return LaunchFillValue(dtype, target.Resolve(ws), static_cast<uint64_t>(numel), value, imag, stream);
    });
  } else if (numel > 0) {
    const DenseBuffer one = plan.Scratch(1, dtype);
    plan.AddStep([one, dtype, value, imag](uint8_t* ws, aclrtStream stream) {
      return LaunchFillValue(dtype, one.Resolve(ws), 1, value, imag, stream);
    });
    plan.CopyDenseToView(one, std::vector<int64_t>(self->viewDims.size(), 1), self, "selfRef");
  }
  return plan.Finish(workspaceSize, executor);
}

}  // namespace
}  // namespace aclnn
}  // namespace ascendc_sim

extern "C" {

aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(aclTensor* selfRef, const aclScalar* value,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnInplaceFillScalar";
  const aclnnStatus rc = ascendc_sim::aclnn::CheckNotNull(api, value, "value");
  if (rc != ACLNN_SUCCESS) return rc;
  if (!ascendc_sim::IsCopyType(value->dtype)) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: value has unsupported dtype %s", api,
                                   ascendc_sim::DataTypeName(value->dtype));
  }
  if (value->IsComplex()) {
    double re = 0.0;
    double im = 0.0;
    value->ToComplex(&re, &im);
    return ascendc_sim::aclnn::FillWorkspace(api, selfRef, ascendc_sim::kernels::ScalarValue::Floating(re),
                                             workspaceSize, executor, im);
  }
  const auto scalar = value->IsFloating() ? ascendc_sim::kernels::ScalarValue::Floating(value->ToDouble())
                                          : ascendc_sim::kernels::ScalarValue::Integral(value->ToInt64());
  return ascendc_sim::aclnn::FillWorkspace(api, selfRef, scalar, workspaceSize, executor);
}

aclnnStatus aclnnInplaceFillScalar(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplaceFillScalar", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceZeroGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ascendc_sim::aclnn::FillWorkspace("aclnnInplaceZero", selfRef, ascendc_sim::kernels::ScalarValue::Integral(0),
                                           workspaceSize, executor);
}

aclnnStatus aclnnInplaceZero(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplaceZero", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
