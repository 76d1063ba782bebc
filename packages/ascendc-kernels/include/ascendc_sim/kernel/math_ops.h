// Elementwise math of Ascend C's math library (Sin, Cos, Tan, Asin, Acos, Atan, Sinh,
// Cosh, Tanh, Asinh, Acosh, Atanh, Erf, Erfc, Log2, Log10, Frac (Ceil, Floor, Round, Trunc: vector_ops.h),
// Sign, Lgamma, Digamma, Power), with `calCount` elements from the start of each operand as
// the other vector instructions (floating types; half/bfloat16_t compute in float). The
// common float functions run on the simulator's vector unit (aclsimVectorMathF32/PowF32).
// The simulator adds a few its kernels need that Ascend C spells as sequences of
// instructions: Expm1, Log1p, Exp2, Erfinv, Signbit (1 where the sign bit is set, else 0)
// and Not (bitwise not of integers, logical not of bool).
#ifndef ASCENDC_SIM_KERNEL_MATH_OPS_H
#define ASCENDC_SIM_KERNEL_MATH_OPS_H

#include <math.h>
#include <stdint.h>

#include <cmath>
#include <limits>
#include <type_traits>

#include "ascendc_sim/kernel/arith.h"
#include "ascendc_sim/kernel/tensor.h"
#include "ascendc_sim/kernel/vector_ops.h"

namespace AscendC {
namespace detail {

// psi(x): the reflection psi(1 - x) - pi / tan(pi x) below 0, the recurrence psi(x) =
// psi(x + 1) - 1 / x up to 10, then the asymptotic series ln x - 1 / 2x - sum B2k / (2k x^2k).
inline double DigammaValue(double x) {
  if (x == 0) return std::copysign(HUGE_VAL, -x);  // the pole's sign follows the side of 0
  if (std::isnan(x)) return x;
  if (x < 0) {
    if (x == std::trunc(x)) return std::numeric_limits<double>::quiet_NaN();
    double whole;
    const double r = std::modf(x, &whole);
    return DigammaValue(1 - x) - M_PI / std::tan(M_PI * r);
  }
  if (std::isinf(x)) return x;
  double result = 0;
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  // B2k / 2k for k = 1..7, the last first.
  static const double kSeries[] = {8.33333333333333333333E-2,  -2.10927960927960927961E-2, 7.57575757575757575758E-3,
                                   -4.16666666666666666667E-3, 3.96825396825396825397E-3,  -8.33333333333333333333E-3,
                                   8.33333333333333333333E-2};
  double y = 0;
  if (x < 1.0e17) {
    const double z = 1 / (x * x);
    double p = kSeries[0];
    for (int i = 1; i < 7; ++i) p = p * z + kSeries[i];
    y = z * p;
  }
  return result + std::log(x) - 0.5 / x - y;
}

// erf^-1(y): Giles' single-precision approximation ("Approximating the erfinv function",
// GPU Computing Gems, 2011) refined by two Newton steps on erf in double.
inline double ErfinvValue(double y) {
  if (std::isnan(y) || y < -1 || y > 1) return std::numeric_limits<double>::quiet_NaN();
  if (y == 1) return HUGE_VAL;
  if (y == -1) return -HUGE_VAL;
  if (y == 0) return y;  // keeps -0
  double w = -std::log((1 - y) * (1 + y));
  double p;
  if (w < 5) {
    w -= 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else {
    w = std::sqrt(w) - 3;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  }
  double x = p * y;
  const double kTwoOverSqrtPi = 1.12837916709551257390;
  for (int i = 0; i < 2; ++i) x -= (std::erf(x) - y) / (kTwoOverSqrtPi * std::exp(-x * x));
  return x;
}

// Compute-type math: float through the float overloads of libm, double through the double ones.
template <typename C, typename F>
inline C Apply(C a, F f) {
  return static_cast<C>(f(a));
}

}  // namespace detail

// FN >= 0: float runs on the simulator's vector unit (aclsimVectorMathF32 of FN); all else element by element.
#define ASCENDC_SIM_MATH_UNARY(NAME, FN, EXPR)                                                           \
  template <typename T>                                                                                  \
  __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount) { \
    static_assert(detail::kIsFloatLike<T>, #NAME " supports floating types");                            \
    detail::CheckUnary(#NAME, dst, src, calCount);                                                       \
    if constexpr (std::is_same<T, float>::value && (FN) >= 0) {                                          \
      const auto fn = static_cast<aclsimMathFunction>(FN);                                               \
      aclsimVectorMathF32(fn, dst.GetPhyAddr(), src.GetPhyAddr(), calCount);                             \
    } else {                                                                                             \
      using C = detail::ComputeOf<T>;                                                                    \
      detail::UnaryLoop(dst, src, calCount, [](C a) { return static_cast<C>(EXPR); });                   \
    }                                                                                                    \
  }

ASCENDC_SIM_MATH_UNARY(Sin, ACLSIM_MATH_SIN, std::sin(a))
ASCENDC_SIM_MATH_UNARY(Cos, ACLSIM_MATH_COS, std::cos(a))
ASCENDC_SIM_MATH_UNARY(Tan, ACLSIM_MATH_TAN, std::tan(a))
ASCENDC_SIM_MATH_UNARY(Tanh, ACLSIM_MATH_TANH, std::tanh(a))
ASCENDC_SIM_MATH_UNARY(Erf, ACLSIM_MATH_ERF, std::erf(a))
ASCENDC_SIM_MATH_UNARY(Erfc, ACLSIM_MATH_ERFC, std::erfc(a))
ASCENDC_SIM_MATH_UNARY(Gelu, ACLSIM_MATH_GELU, std::erfc(a * C(-0.70710678118654752440)) * C(0.5) * a)
ASCENDC_SIM_MATH_UNARY(Log2, ACLSIM_MATH_LOG2, std::log2(a))
ASCENDC_SIM_MATH_UNARY(Log10, ACLSIM_MATH_LOG10, std::log10(a))
ASCENDC_SIM_MATH_UNARY(Expm1, ACLSIM_MATH_EXPM1, std::expm1(a))
ASCENDC_SIM_MATH_UNARY(Log1p, ACLSIM_MATH_LOG1P, std::log1p(a))
ASCENDC_SIM_MATH_UNARY(Exp2, ACLSIM_MATH_EXP2, std::exp2(a))
ASCENDC_SIM_MATH_UNARY(Asin, ACLSIM_MATH_ASIN, std::asin(a))
ASCENDC_SIM_MATH_UNARY(Acos, ACLSIM_MATH_ACOS, std::acos(a))
ASCENDC_SIM_MATH_UNARY(Atan, ACLSIM_MATH_ATAN, std::atan(a))
ASCENDC_SIM_MATH_UNARY(Sinh, ACLSIM_MATH_SINH, std::sinh(a))
ASCENDC_SIM_MATH_UNARY(Cosh, ACLSIM_MATH_COSH, std::cosh(a))
ASCENDC_SIM_MATH_UNARY(Asinh, ACLSIM_MATH_ASINH, std::asinh(a))
ASCENDC_SIM_MATH_UNARY(Acosh, ACLSIM_MATH_ACOSH, std::acosh(a))
ASCENDC_SIM_MATH_UNARY(Atanh, ACLSIM_MATH_ATANH, std::atanh(a))
ASCENDC_SIM_MATH_UNARY(Frac, -1, a - detail::RoundToIntegral<RoundMode::CAST_TRUNC>(a))
ASCENDC_SIM_MATH_UNARY(Lgamma, -1, std::lgamma(a))
ASCENDC_SIM_MATH_UNARY(Digamma, -1, detail::DigammaValue(static_cast<double>(a)))
ASCENDC_SIM_MATH_UNARY(Erfinv, -1, detail::ErfinvValue(static_cast<double>(a)))
ASCENDC_SIM_MATH_UNARY(Signbit, -1, std::signbit(a) ? 1 : 0)
#undef ASCENDC_SIM_MATH_UNARY

// dst = src0 ** src1 with std::pow's special values (floating types).
template <typename T>
__aicore__ inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                             uint32_t calCount) {
  static_assert(detail::kIsFloatLike<T>, "Power supports floating types");
  detail::CheckBinary("Power", dst, src0, src1, calCount);
  if constexpr (std::is_same<T, float>::value) {
    aclsimVectorPowF32(dst.GetPhyAddr(), src0.GetPhyAddr(), src1.GetPhyAddr(), calCount);
  } else {
    using C = detail::ComputeOf<T>;
    detail::BinaryLoop(dst, src0, src1, calCount, [](C a, C b) { return static_cast<C>(std::pow(a, b)); });
  }
}

// dst = src ** exponent, the exponent in double (as ATen's pow of a float32 tensor by a number), with
// std::pow's special values (floating types).
template <typename T>
__aicore__ inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src, double exponent, uint32_t calCount) {
  static_assert(detail::kIsFloatLike<T>, "Power supports floating types");
  detail::CheckUnary("Power", dst, src, calCount);
  if constexpr (std::is_same<T, float>::value) {
    aclsimVectorPowScalarF32(dst.GetPhyAddr(), src.GetPhyAddr(), exponent, calCount);
  } else {
    using C = detail::ComputeOf<T>;
    detail::UnaryLoop(dst, src, calCount, [exponent](C a) { return static_cast<C>(std::pow(a, exponent)); });
  }
}

// -1, 0 or 1 (every numeric type); zeros and NaN give +0, as torch.sign on the CPU.
template <typename T>
__aicore__ inline void Sign(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount) {
  static_assert(!std::is_same<T, bool>::value, "Sign is not defined for bool");
  detail::CheckUnary("Sign", dst, src, calCount);
  using C = detail::ComputeOf<T>;
  detail::UnaryLoop(dst, src, calCount, [](C a) { return a > C(0) ? C(1) : (a < C(0) ? static_cast<C>(-1) : C(0)); });
}

// Bitwise not of integers, logical not of bool.
template <typename T>
__aicore__ inline void Not(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount) {
  static_assert(std::is_integral<T>::value, "Not supports integer types and bool");
  detail::CheckUnary("Not", dst, src, calCount);
  if constexpr (std::is_same<T, bool>::value) {
    detail::UnaryLoop(dst, src, calCount, [](T a) { return !a; });
  } else {
    detail::UnaryLoop(dst, src, calCount, [](T a) { return static_cast<T>(~a); });
  }
}

}  // namespace AscendC

#endif  // ASCENDC_SIM_KERNEL_MATH_OPS_H
