// acl_op types with one input: Abs, Muls, Fills, Cast, Identity.
#include <math.h>

#include "aclop/op_registry.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/elementwise_api.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

constexpr std::initializer_list<aclDataType> kNumericTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                                              ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64};
constexpr std::initializer_list<aclDataType> kAllTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE,
                                                          ACL_INT8,  ACL_UINT8,   ACL_INT16, ACL_INT32,
                                                          ACL_INT64, ACL_BOOL};

// x and y of the same dtype (from `allowed`) and shape.
aclError CheckSameKind(OpContext& ctx, std::initializer_list<aclDataType> allowed) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  aclError rc = ctx.RequireDtypeIn(x, "input x", allowed);
  if (rc == ACL_SUCCESS) rc = ctx.RequireSameDtype(x, "input x", y, "output y");
  if (rc == ACL_SUCCESS) rc = ctx.RequireSameShape(x, "input x", y, "output y");
  return rc;
}

// y = |x|
aclError RunAbs(OpContext& ctx) {
  const aclError rc = CheckSameKind(ctx, kNumericTypes);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& y = ctx.outputs[0];
  return kernels::LaunchElementwise(kernels::EwOp::kAbs, y.dtype(), ctx.inputs[0].data, nullptr, y.data,
                                    static_cast<uint64_t>(y.Numel()), {}, ctx.stream());
}

// y = x * value (float attribute "value"; integral for integer dtypes)
aclError RunMuls(OpContext& ctx) {
  aclError rc = CheckSameKind(ctx, kNumericTypes);
  if (rc != ACL_SUCCESS) return rc;
  float value = 0.0f;
  rc = ctx.GetFloatAttr("value", &value);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& y = ctx.outputs[0];
  if (!IsFloatingType(y.dtype()) && value != truncf(value)) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "value %g must be integral for data type %s", value,
                    DataTypeName(y.dtype()));
  }
  const kernels::ScalarValue scalar = IsFloatingType(y.dtype())
                                          ? kernels::ScalarValue::Floating(value)
                                          : kernels::ScalarValue::Integral(static_cast<int64_t>(value));
  return kernels::LaunchElementwise(kernels::EwOp::kMulScalar, y.dtype(), ctx.inputs[0].data, nullptr, y.data,
                                    static_cast<uint64_t>(y.Numel()), scalar, ctx.stream());
}

// y = value, shaped like x (float attribute "value")
aclError RunFills(OpContext& ctx) {
  aclError rc = CheckSameKind(ctx, kAllTypes);
  if (rc != ACL_SUCCESS) return rc;
  float value = 0.0f;
  rc = ctx.GetFloatAttr("value", &value);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& y = ctx.outputs[0];
  return kernels::LaunchFill(y.dtype(), y.data, static_cast<uint64_t>(y.Numel()),
                             kernels::ScalarValue::Floating(value), ctx.stream());
}

// y = cast(x) to the int attribute "dst_type" (an aclDataType)
aclError RunCast(OpContext& ctx) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  aclError rc = ctx.RequireDtypeIn(x, "input x", kAllTypes);
  if (rc == ACL_SUCCESS) rc = ctx.RequireDtypeIn(y, "output y", kAllTypes);
  if (rc == ACL_SUCCESS) rc = ctx.RequireSameShape(x, "input x", y, "output y");
  if (rc != ACL_SUCCESS) return rc;
  int64_t dstType = 0;
  rc = ctx.GetIntAttr("dst_type", &dstType);
  if (rc != ACL_SUCCESS) return rc;
  if (dstType != static_cast<int64_t>(y.dtype())) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "attribute dst_type is %lld (%s) but output y has data type %s",
                    static_cast<long long>(dstType), DataTypeName(static_cast<aclDataType>(dstType)),
                    DataTypeName(y.dtype()));
  }
  return kernels::LaunchCast(x.dtype(), x.data, y.dtype(), y.data, static_cast<uint64_t>(y.Numel()), ctx.stream());
}

// y = x
aclError RunIdentity(OpContext& ctx) {
  const aclError rc = CheckSameKind(ctx, kAllTypes);
  if (rc != ACL_SUCCESS) return rc;
  const OpOperand& y = ctx.outputs[0];
  return kernels::LaunchCast(y.dtype(), ctx.inputs[0].data, y.dtype(), y.data, static_cast<uint64_t>(y.Numel()),
                             ctx.stream());
}

const OpRegistrar kRegistrar{
    {"Abs", 1, 1, FormatPolicy::kElementwiseAnyFormat, &RunAbs},
    {"Muls", 1, 1, FormatPolicy::kElementwiseAnyFormat, &RunMuls},
    {"Fills", 1, 1, FormatPolicy::kBaseOnly, &RunFills},  // would fill the padding of internal layouts too
    {"Cast", 1, 1, FormatPolicy::kElementwiseAnyFormat, &RunCast},
    {"Identity", 1, 1, FormatPolicy::kElementwiseAnyFormat, &RunIdentity},
};

}  // namespace
}  // namespace aclop
}  // namespace ascendc_sim
