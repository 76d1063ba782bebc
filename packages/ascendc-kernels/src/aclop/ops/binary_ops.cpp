// acl_op types with two inputs and numpy broadcasting: Add, Mul, Axpy.
#include <math.h>

#include "aclop/op_registry.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/elementwise_api.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

enum class BinaryKind { kAdd, kMul, kAxpy };

constexpr std::initializer_list<aclDataType> kArithmeticTypes = {
    ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BOOL};
constexpr std::initializer_list<aclDataType> kAxpyTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                                                           ACL_INT64};

aclError RunBinary(OpContext& ctx, BinaryKind kind) {
  const OpOperand& x1 = ctx.inputs[0];
  const OpOperand& x2 = ctx.inputs[1];
  const OpOperand& y = ctx.outputs[0];
  aclError rc = ctx.RequireDtypeIn(x1, "input x1", kind == BinaryKind::kAxpy ? kAxpyTypes : kArithmeticTypes);
  if (rc == ACL_SUCCESS) rc = ctx.RequireSameDtype(x1, "input x1", x2, "input x2");
  if (rc == ACL_SUCCESS) rc = ctx.RequireSameDtype(x1, "input x1", y, "output y");
  if (rc != ACL_SUCCESS) return rc;
  std::vector<int64_t> shape;
  if (!BroadcastShapes(x1.shape(), x2.shape(), &shape)) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input shapes %s and %s cannot broadcast",
                    ShapeToString(x1.shape()).c_str(), ShapeToString(x2.shape()).c_str());
  }
  if (shape != y.shape()) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s but the inputs broadcast to %s",
                    ShapeToString(y.shape()).c_str(), ShapeToString(shape).c_str());
  }
  kernels::ScalarValue alpha;
  if (kind == BinaryKind::kAxpy) {
    float value = 0.0f;
    rc = ctx.GetFloatAttr("alpha", &value);
    if (rc != ACL_SUCCESS) return rc;
    if (IsIntegralType(x1.dtype(), false) && value != truncf(value)) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "alpha %g must be integral for data type %s", value,
                      DataTypeName(x1.dtype()));
    }
    alpha = IsFloatingType(x1.dtype()) ? kernels::ScalarValue::Floating(value)
                                       : kernels::ScalarValue::Integral(static_cast<int64_t>(value));
  }
  void* a = nullptr;
  void* b = nullptr;
  rc = ctx.BroadcastInput(0, shape, &a);
  if (rc == ACL_SUCCESS) rc = ctx.BroadcastInput(1, shape, &b);
  if (rc != ACL_SUCCESS) return rc;
  const uint64_t n = static_cast<uint64_t>(y.Numel());
  switch (kind) {
    case BinaryKind::kAdd: return kernels::LaunchElementwise(kernels::EwOp::kAdd, y.dtype(), a, b, y.data, n, {},
                                                             ctx.stream());
    case BinaryKind::kMul: return kernels::LaunchElementwise(kernels::EwOp::kMul, y.dtype(), a, b, y.data, n, {},
                                                             ctx.stream());
    case BinaryKind::kAxpy: return kernels::LaunchElementwise(kernels::EwOp::kAxpy, y.dtype(), a, b, y.data, n,
                                                              alpha, ctx.stream());
  }
  return ACL_ERROR_INTERNAL_ERROR;
}

// y = x1 + x2
aclError RunAdd(OpContext& ctx) { return RunBinary(ctx, BinaryKind::kAdd); }
// y = x1 * x2
aclError RunMul(OpContext& ctx) { return RunBinary(ctx, BinaryKind::kMul); }
// y = x1 + alpha * x2 (float attribute "alpha")
aclError RunAxpy(OpContext& ctx) { return RunBinary(ctx, BinaryKind::kAxpy); }

const OpRegistrar kRegistrar{
    {"Add", 2, 1, FormatPolicy::kElementwiseAnyFormat, &RunAdd},
    {"Mul", 2, 1, FormatPolicy::kElementwiseAnyFormat, &RunMul},
    {"Axpy", 2, 1, FormatPolicy::kElementwiseAnyFormat, &RunAxpy},
};

}  // namespace
}  // namespace aclop
}  // namespace ascendc_sim
