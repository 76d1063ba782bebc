// The unary math entry points (abi/aclnn/unary_elementwise.decl): thin two-phase functions over
// the elementwise kernel's math operators (aclnn/elementwise_plan.h). Floating operators on
// integral or bool self compute in float32, as torch's "int to float" ops; the rounding
// operators, sign and nan_to_num are the identity on integral self.
#include <math.h>

#include <cmath>

#include "aclnn/aclnn_common.h"
#include "aclnn/aclnn_complex.h"
#include "aclnn/elementwise_plan.h"
#include "aclnn/type_promotion.h"
#include "aclnnop/aclnn_unary_elementwise.h"
#include "common/dtype.h"
#include "common/error.h"
#include "meta/executor.h"

using ascendc_sim::kernels::EwOp;
using ascendc_sim::kernels::ScalarValue;

namespace ascendc_sim {
namespace aclnn {
namespace {

// How an operator treats integral and bool self.
enum class OnIntegral {
  kToFloat,   // computes in float32
  kIdentity,  // returns self (rounding: integers are already whole)
  kReject,    // fails (torch's round with decimals takes floating types only)
};

aclnnStatus UnaryMath(const char* api, EwOp op, OnIntegral integral, const aclTensor* self, const char* selfName,
                      const aclTensor* out, const char* outName, const EwScalars& scalars, uint64_t* ws,
                      aclOpExecutor** ex) {
  aclnnStatus rc = CheckEwTensors(api, {{self, selfName}, {out, outName}}, ws, ex);
  if (rc != ACLNN_SUCCESS) return rc;
  if (!IsFloatingType(self->dtype) && integral == OnIntegral::kIdentity) {
    return PlanCopy(api, {self, selfName}, out, outName, ws, ex);
  }
  if (!IsFloatingType(self->dtype) && integral == OnIntegral::kReject) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s of dtype %s is not supported (floating types only)", api,
                      selfName, DataTypeName(self->dtype));
  }
  return PlanElementwise(api, op, {{self, selfName}}, FloatingCompute(self->dtype), out, outName, scalars, ws, ex);
}

// out = predicate(self) for floating self, else the predicate's value on every integer.
aclnnStatus Predicate(const char* api, EwOp op, ScalarValue s, bool onIntegral, const aclTensor* self,
                      const aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  aclnnStatus rc = CheckEwTensors(api, {{self, "self"}, {out, "out"}}, ws, ex);
  if (rc != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", {ACL_BOOL})) != ACLNN_SUCCESS) return rc;
  if (!IsFloatingType(self->dtype)) {
    return PlanFill(api, {self, "self"}, out, "out", ScalarValue::Integral(onIntegral ? 1 : 0), ws, ex);
  }
  EwScalars scalars;
  scalars.s = s;
  return PlanElementwise(api, op, {{self, "self"}}, self->dtype, out, "out", scalars, ws, ex);
}

// nan_to_num's replacements in self's dtype (float parameters, as CANN's).
aclnnStatus NanToNum(const char* api, const aclTensor* self, const char* selfName, float nan, float posInf,
                     float negInf, const aclTensor* out, const char* outName, uint64_t* ws, aclOpExecutor** ex) {
  EwScalars scalars;
  scalars.s = ScalarValue::Floating(nan);
  scalars.s2 = ScalarValue::Floating(posInf);
  scalars.s3 = ScalarValue::Floating(negInf);
  return UnaryMath(api, EwOp::kNanToNum, OnIntegral::kIdentity, self, selfName, out, outName, scalars, ws, ex);
}

}  // namespace
}  // namespace aclnn
}  // namespace ascendc_sim

using namespace ascendc_sim;
using namespace ascendc_sim::aclnn;

#define ACLNN_UNARY_LAUNCH(NAME)                                                                            \
  aclnnStatus NAME(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) { \
    return ascendc_sim::LaunchExecutor(#NAME, workspace, workspaceSize, executor, stream);               \
  }

// aclnnX(self, out) and aclnnInplaceX(selfRef)
#define ACLNN_UNARY_MATH(NAME, OP, INTEGRAL)                                                                    \
  aclnnStatus aclnn##NAME##GetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,    \
                                            aclOpExecutor** executor) {                                         \
    return UnaryMath("aclnn" #NAME, OP, INTEGRAL, self, "self", out, "out", EwScalars(), workspaceSize,         \
                     executor);                                                                                 \
  }                                                                                                             \
  ACLNN_UNARY_LAUNCH(aclnn##NAME)                                                                               \
  aclnnStatus aclnnInplace##NAME##GetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,                 \
                                                   aclOpExecutor** executor) {                                  \
    return UnaryMath("aclnnInplace" #NAME, OP, INTEGRAL, selfRef, "selfRef", selfRef, "selfRef", EwScalars(),   \
                     workspaceSize, executor);                                                                  \
  }                                                                                                             \
  ACLNN_UNARY_LAUNCH(aclnnInplace##NAME)

extern "C" {

ACLNN_UNARY_MATH(Sin, EwOp::kSin, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Cos, EwOp::kCos, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Tan, EwOp::kTan, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Asin, EwOp::kAsin, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Acos, EwOp::kAcos, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Atan, EwOp::kAtan, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Sinh, EwOp::kSinh, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Cosh, EwOp::kCosh, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Asinh, EwOp::kAsinh, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Acosh, EwOp::kAcosh, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Atanh, EwOp::kAtanh, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Erf, EwOp::kErf, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Erfc, EwOp::kErfc, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Erfinv, EwOp::kErfinv, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Expm1, EwOp::kExpm1, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Log1p, EwOp::kLog1p, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Log2, EwOp::kLog2, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Log10, EwOp::kLog10, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Exp2, EwOp::kExp2, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Frac, EwOp::kFrac, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Sinc, EwOp::kSinc, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Lgamma, EwOp::kLgamma, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Digamma, EwOp::kDigamma, OnIntegral::kToFloat)
ACLNN_UNARY_MATH(Ceil, EwOp::kCeil, OnIntegral::kIdentity)
ACLNN_UNARY_MATH(Floor, EwOp::kFloor, OnIntegral::kIdentity)
ACLNN_UNARY_MATH(Round, EwOp::kRound, OnIntegral::kIdentity)
ACLNN_UNARY_MATH(Trunc, EwOp::kTrunc, OnIntegral::kIdentity)

aclnnStatus aclnnRoundDecimalsGetWorkspaceSize(const aclTensor* self, int64_t decimals, aclTensor* out,
                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
  EwScalars scalars;
  scalars.s = ScalarValue::Integral(decimals);
  return UnaryMath("aclnnRoundDecimals", EwOp::kRoundDecimals, OnIntegral::kReject, self, "self", out, "out",
                   scalars, workspaceSize, executor);
}
ACLNN_UNARY_LAUNCH(aclnnRoundDecimals)

aclnnStatus aclnnInplaceRoundDecimalsGetWorkspaceSize(aclTensor* selfRef, int64_t decimals, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  EwScalars scalars;
  scalars.s = ScalarValue::Integral(decimals);
  return UnaryMath("aclnnInplaceRoundDecimals", EwOp::kRoundDecimals, OnIntegral::kReject, selfRef, "selfRef",
                   selfRef, "selfRef", scalars, workspaceSize, executor);
}
ACLNN_UNARY_LAUNCH(aclnnInplaceRoundDecimals)

// sign on bool is the identity; integers compute in their own dtype; a complex self gives z / |z|
// (0 at 0), as CANN's aclnnSign does for sgn.
aclnnStatus aclnnSignGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  const char* api = "aclnnSign";
  if (self != nullptr && IsComplexType(self->dtype)) {
    return ComplexUnary(api, kernels::CxOp::kSgn, self, "self", nullptr, out, "out", workspaceSize, executor);
  }
  aclnnStatus rc = CheckEwTensors(api, {{self, "self"}, {out, "out"}}, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if (self->dtype == ACL_BOOL) return PlanCopy(api, {self, "self"}, out, "out", workspaceSize, executor);
  return PlanElementwise(api, EwOp::kSign, {{self, "self"}}, self->dtype, out, "out", EwScalars(), workspaceSize,
                         executor);
}
ACLNN_UNARY_LAUNCH(aclnnSign)

aclnnStatus aclnnBitwiseNotGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  const char* api = "aclnnBitwiseNot";
  aclnnStatus rc = CheckEwTensors(api, {{self, "self"}, {out, "out"}}, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if (IsFloatingType(self->dtype)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: self must be an integral or bool tensor, got %s", api,
                      DataTypeName(self->dtype));
  }
  return PlanElementwise(api, EwOp::kBitwiseNot, {{self, "self"}}, self->dtype, out, "out", EwScalars(),
                         workspaceSize, executor);
}
ACLNN_UNARY_LAUNCH(aclnnBitwiseNot)

aclnnStatus aclnnLogitGetWorkspaceSize(const aclTensor* self, double eps, aclTensor* out, uint64_t* workspaceSize,
                                       aclOpExecutor** executor) {
  EwScalars scalars;
  scalars.s = ScalarValue::Floating(eps);
  return UnaryMath("aclnnLogit", EwOp::kLogit, OnIntegral::kToFloat, self, "self", out, "out", scalars,
                   workspaceSize, executor);
}
ACLNN_UNARY_LAUNCH(aclnnLogit)

aclnnStatus aclnnNanToNumGetWorkspaceSize(const aclTensor* self, float nan, float posInf, float negInf,
                                          aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return NanToNum("aclnnNanToNum", self, "self", nan, posInf, negInf, out, "out", workspaceSize, executor);
}
ACLNN_UNARY_LAUNCH(aclnnNanToNum)

aclnnStatus aclnnInplaceNanToNumGetWorkspaceSize(aclTensor* selfRef, float nan, float posInf, float negInf,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return NanToNum("aclnnInplaceNanToNum", selfRef, "selfRef", nan, posInf, negInf, selfRef, "selfRef",
                  workspaceSize, executor);
}
ACLNN_UNARY_LAUNCH(aclnnInplaceNanToNum)

// signbit of integers is self < 0 (bool: false).
aclnnStatus aclnnSignbitGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  const char* api = "aclnnSignbit";
  aclnnStatus rc = CheckEwTensors(api, {{self, "self"}, {out, "out"}}, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", {ACL_BOOL})) != ACLNN_SUCCESS) return rc;
  if (IsFloatingType(self->dtype)) {
    return PlanElementwise(api, EwOp::kSignbit, {{self, "self"}}, self->dtype, out, "out", EwScalars(),
                           workspaceSize, executor);
  }
  if (self->dtype == ACL_BOOL) {
    return PlanFill(api, {self, "self"}, out, "out", ScalarValue::Integral(0), workspaceSize, executor);
  }
  EwScalars zero;
  zero.s = ScalarValue::Integral(0);
  return PlanElementwise(api, EwOp::kLtScalar, {{self, "self"}}, self->dtype, out, "out", zero, workspaceSize,
                         executor);
}
ACLNN_UNARY_LAUNCH(aclnnSignbit)

aclnnStatus aclnnIsPosInfGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                          aclOpExecutor** executor) {
  return Predicate("aclnnIsPosInf", EwOp::kEqScalar, ScalarValue::Floating(INFINITY), false, self, out,
                   workspaceSize, executor);
}
ACLNN_UNARY_LAUNCH(aclnnIsPosInf)

aclnnStatus aclnnLogitGradGetWorkspaceSize(const aclTensor* self, const aclTensor* gradOutput, double eps,
                                           aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnLogitGrad";
  aclnnStatus rc =
      CheckEwTensors(api, {{self, "self"}, {gradOutput, "gradOutput"}, {gradInput, "gradInput"}}, workspaceSize,
                     executor);
  if (rc != ACLNN_SUCCESS) return rc;
  EwScalars scalars;
  scalars.s = ScalarValue::Floating(eps);
  const aclDataType compute = FloatingCompute(ResultType({gradOutput, self}));
  return PlanElementwise(api, EwOp::kLogitBackward, {{gradOutput, "gradOutput"}, {self, "self"}}, compute, gradInput,
                         "gradInput", scalars, workspaceSize, executor);
}
ACLNN_UNARY_LAUNCH(aclnnLogitGrad)

// ---- special functions ----
#define ACLNN_SPECIAL(NAME, OP)                                                                                 \
  aclnnStatus aclnn##NAME##GetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,    \
                                            aclOpExecutor** executor) {                                         \
    return UnaryMath("aclnn" #NAME, OP, OnIntegral::kToFloat, self, "self", out, "out", EwScalars(),           \
                     workspaceSize, executor);                                                                  \
  }                                                                                                             \
  ACLNN_UNARY_LAUNCH(aclnn##NAME)

ACLNN_UNARY_MATH(I0, EwOp::kBesselI0, OnIntegral::kToFloat)
ACLNN_SPECIAL(I0e, EwOp::kBesselI0e)
ACLNN_SPECIAL(I1, EwOp::kBesselI1)
ACLNN_SPECIAL(I1e, EwOp::kBesselI1e)
ACLNN_SPECIAL(BesselJ0, EwOp::kBesselJ0)
ACLNN_SPECIAL(BesselJ1, EwOp::kBesselJ1)
ACLNN_SPECIAL(BesselY0, EwOp::kBesselY0)
ACLNN_SPECIAL(BesselY1, EwOp::kBesselY1)
ACLNN_SPECIAL(ModifiedBesselK0, EwOp::kBesselK0)
ACLNN_SPECIAL(ModifiedBesselK1, EwOp::kBesselK1)
ACLNN_SPECIAL(ScaledModifiedBesselK0, EwOp::kBesselK0e)
ACLNN_SPECIAL(ScaledModifiedBesselK1, EwOp::kBesselK1e)
ACLNN_SPECIAL(SphericalBesselJ0, EwOp::kSphericalBesselJ0)
ACLNN_SPECIAL(AiryAi, EwOp::kAiryAi)
ACLNN_SPECIAL(Erfcx, EwOp::kErfcx)
ACLNN_SPECIAL(Ndtri, EwOp::kNdtri)
ACLNN_SPECIAL(LogNdtr, EwOp::kLogNdtr)
ACLNN_SPECIAL(Entr, EwOp::kEntr)

aclnnStatus aclnnPolygammaGetWorkspaceSize(int64_t n, const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  if (n < 0) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "aclnnPolygamma: n must be non-negative, got %lld",
                      static_cast<long long>(n));
  }
  EwScalars scalars;
  scalars.s = ScalarValue::Integral(n);
  return UnaryMath("aclnnPolygamma", EwOp::kPolygamma, OnIntegral::kToFloat, self, "self", out, "out", scalars,
                   workspaceSize, executor);
}
ACLNN_UNARY_LAUNCH(aclnnPolygamma)

}  // extern "C"
