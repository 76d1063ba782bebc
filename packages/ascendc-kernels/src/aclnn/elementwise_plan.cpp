// The shared two-phase body of the unary math and activation entry points (elementwise_plan.h).
#include "aclnn/elementwise_plan.h"

#include <string>
#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

namespace ascendc_sim {
namespace aclnn {

kernels::ScalarValue ScalarOf(const aclScalar* s) {
  return s->IsFloating() ? kernels::ScalarValue::Floating(s->ToDouble()) : kernels::ScalarValue::Integral(s->ToInt64());
}

aclnnStatus CheckEwTensors(const char* api, std::initializer_list<EwInput> tensors, uint64_t* workspaceSize,
                           aclOpExecutor** executor) {
  aclnnStatus rc;
  for (const EwInput& t : tensors) {
    if ((rc = CheckNotNull(api, t.tensor, t.name)) != ACLNN_SUCCESS) return rc;
  }
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  for (const EwInput& t : tensors) {
    if ((rc = CheckTensor(api, t.tensor, t.name, kAllDtypes)) != ACLNN_SUCCESS) return rc;
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckEwScalar(const char* api, const aclScalar* s, const char* name) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, s, name)) != ACLNN_SUCCESS) return rc;
  if (!IsKernelType(s->dtype)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has unsupported dtype %s", api, name, DataTypeName(s->dtype));
  }
  return ACLNN_SUCCESS;
}

aclDataType FloatingCompute(aclDataType dtype) { return IsFloatingType(dtype) ? dtype : ACL_FLOAT; }

aclnnStatus PlanElementwise(const char* api, kernels::EwOp op, std::initializer_list<EwInput> inputs,
                            aclDataType compute, const aclTensor* out, const char* outName, const EwScalars& scalars,
                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  std::vector<int64_t> shape;
  std::string names;
  for (const EwInput& in : inputs) {
    if (names.empty()) {
      shape = in.tensor->viewDims;
    } else {
      std::vector<int64_t> merged;
      if (!BroadcastShapes(shape, in.tensor->viewDims, &merged)) {
        return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: the shapes of %s and %s (%s) cannot be broadcast together", api,
                          names.c_str(), in.name, ShapeToString(in.tensor->viewDims).c_str());
      }
      shape = merged;
      names += " and ";
    }
    names += in.name;
  }
  if (shape != out->viewDims) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s shape %s differs from the shape %s of %s", api, outName,
                      ShapeToString(out->viewDims).c_str(), ShapeToString(shape).c_str(), names.c_str());
  }
  if (!kernels::EwSupports(op, compute)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s of dtype %s is not supported", api, names.c_str(),
                      DataTypeName(compute));
  }
  const aclDataType result = kernels::EwIsCompare(op) ? ACL_BOOL : compute;
  if ((rc = CheckResultCast(api, result, out, outName, names.c_str())) != ACLNN_SUCCESS) return rc;

  ExecutorBuilder plan(api);
  AddElementwiseStep(plan, op, inputs, compute, out, outName, scalars);
  return plan.Finish(workspaceSize, executor);
}

void AddElementwiseStep(ExecutorBuilder& plan, kernels::EwOp op, std::initializer_list<EwInput> inputs,
                        aclDataType compute, const aclTensor* out, const char* outName, const EwScalars& scalars) {
  if (out->Numel() == 0) return;
  const aclDataType result = kernels::EwIsCompare(op) ? ACL_BOOL : compute;
  kernels::EwArgs args;
  args.op = op;
  args.dtype = compute;
  args.n = static_cast<uint64_t>(out->Numel());
  args.s = scalars.s;
  args.s2 = scalars.s2;
  args.s3 = scalars.s3;
  DenseBuffer buffers[3];
  int count = 0;
  for (const EwInput& in : inputs) buffers[count++] = plan.Input(in.tensor, in.name, out->viewDims, compute);
  const DenseBuffer y = plan.Output(out, outName, result);
  plan.AddStep([args, buffers, count, y](uint8_t* ws, aclrtStream stream) {
    kernels::EwArgs launch = args;
    for (int i = 0; i < count; ++i) launch.x[i] = buffers[i].Resolve(ws);
    launch.y = y.Resolve(ws);
    return kernels::LaunchElementwise(launch, stream);
  });
}

aclnnStatus PlanCopy(const char* api, EwInput self, const aclTensor* out, const char* outName,
                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (self.tensor->viewDims != out->viewDims) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s shape %s differs from %s shape %s", api, outName,
                      ShapeToString(out->viewDims).c_str(), self.name, ShapeToString(self.tensor->viewDims).c_str());
  }
  aclnnStatus rc = CheckResultCast(api, self.tensor->dtype, out, outName, self.name);
  if (rc != ACLNN_SUCCESS) return rc;
  ExecutorBuilder plan(api);
  if (out->Numel() > 0 && self.tensor != out) plan.CopyView(self.tensor, self.name, out, outName);
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus PlanFill(const char* api, EwInput self, const aclTensor* out, const char* outName,
                     kernels::ScalarValue value, uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (self.tensor->viewDims != out->viewDims) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s shape %s differs from %s shape %s", api, outName,
                      ShapeToString(out->viewDims).c_str(), self.name, ShapeToString(self.tensor->viewDims).c_str());
  }
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const uint64_t n = static_cast<uint64_t>(out->Numel());
    const aclDataType dtype = out->dtype;
    const DenseBuffer y = plan.Output(out, outName, dtype);
    plan.AddStep([y, n, dtype, value](uint8_t* ws, aclrtStream stream) {
      return kernels::LaunchFill(dtype, y.Resolve(ws), n, value, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

}  // namespace aclnn
}  // namespace ascendc_sim
