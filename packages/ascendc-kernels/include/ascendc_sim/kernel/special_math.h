// Special functions as vector instructions of the simulator (Ascend C has none of these; a
// device kernel would spell each one as polynomial sequences of Muls/Adds/Select): Bessel
// functions of the first and second kind (J0, J1, Y0, Y1), modified ones (I0, I1, K0, K1,
// exponentially scaled I0e, I1e, K0e, K1e), the spherical j0, Airy's Ai, the normal
// distribution's inverse (Ndtri) and log CDF (LogNdtr), the scaled complementary error function
// (Erfcx), the entropy term (Entr) and the polygamma functions. Each element is computed in
// double from textbook series, asymptotic expansions and integral representations; `calCount`
// elements from the start of each operand, floating types (half/bfloat16_t compute in float).
#ifndef ASCENDC_SIM_KERNEL_SPECIAL_MATH_H
#define ASCENDC_SIM_KERNEL_SPECIAL_MATH_H

#include <math.h>
#include <stdint.h>

#include <cmath>
#include <limits>

#include "ascendc_sim/kernel/arith.h"
#include "ascendc_sim/kernel/math_ops.h"
#include "ascendc_sim/kernel/tensor.h"
#include "ascendc_sim/kernel/vector_ops.h"

namespace AscendC {
namespace detail {
namespace special {

constexpr double kPi = 3.14159265358979323846;
constexpr double kEuler = 0.57721566490153286061;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
// Below this |x| the power series of J and Y are used, above it Hankel's expansion.
constexpr double kHankelFrom = 17.0;

// I_n(x) e^-|x| (n = 0, 1): the power series (positive terms) up to 30, then the asymptotic
// expansion e^-x I_n(x) ~ (2 pi x)^-1/2 sum_k (-1)^k a_k(n) / x^k.
inline double ScaledBesselI(int n, double x) {
  if (std::isnan(x)) return x;
  const double ax = std::fabs(x);
  double value;
  if (ax <= 30) {
    const double q = ax * ax / 4;
    double term = n == 0 ? 1.0 : ax / 2;
    double sum = term;
    for (int k = 1; k < 500; ++k) {
      term *= q / (static_cast<double>(k) * (k + n));
      sum += term;
      if (term < sum * 1e-17) break;
    }
    value = sum * std::exp(-ax);
  } else {
    const double mu = 4.0 * n * n;
    double term = 1;
    double sum = 1;
    for (int k = 1; k < 60; ++k) {
      const double odd = 2.0 * k - 1;
      const double next = -term * (mu - odd * odd) / (k * 8.0 * ax);
      if (std::fabs(next) >= std::fabs(term)) break;
      term = next;
      sum += term;
      if (std::fabs(term) < 1e-17 * std::fabs(sum)) break;
    }
    value = sum / std::sqrt(2 * kPi * ax);
  }
  return (n == 1 && x < 0) ? -value : value;
}

inline double BesselI(int n, double x) {
  if (std::isnan(x)) return x;
  const double ax = std::fabs(x);
  if (ax > 713) return (n == 1 && x < 0) ? -kInf : kInf;
  const double scaled = ScaledBesselI(n, x);
  return scaled * std::exp(ax);
}

// K_nu(x) e^x = integral over t >= 0 of exp(-x (cosh t - 1)) cosh(nu t): the trapezoid rule,
// exponentially accurate for this even analytic integrand, with a step shrinking like x^-1/2.
inline double ScaledBesselK(double nu, double x) {
  if (std::isnan(x)) return x;
  if (x < 0) return kNaN;
  if (x == 0) return kInf;
  if (std::isinf(x)) return 0;
  const double h = 0.1 * std::fmin(1.0, 1.0 / std::sqrt(x));
  double sum = 0.5;  // t = 0
  for (int k = 1; k < 100000; ++k) {
    const double t = k * h;
    const double half = std::sinh(t / 2);  // cosh t - 1 = 2 sinh^2(t / 2), exact for tiny t
    const double term = std::exp(-x * 2 * half * half + nu * t) * 0.5 * (1 + std::exp(-2 * nu * t));
    sum += term;
    if (term < 1e-18 * sum) break;
  }
  return sum * h;
}

inline double BesselK(double nu, double x) {
  if (std::isnan(x)) return x;
  if (x < 0) return kNaN;
  if (x == 0) return kInf;
  if (x > 750) return 0;
  return ScaledBesselK(nu, x) * std::exp(-x);
}

// Hankel's expansion of J_n and Y_n (n = 0, 1) for large |x|: sqrt(2 / (pi x)) (P cos c - Q sin c)
// and (P sin c + Q cos c), c = x - (n / 2 + 1 / 4) pi, computed as cos(x - a) = cos x cos a + sin x sin a.
inline void Hankel(int n, double x, double* j, double* y) {
  const double mu = 4.0 * n * n;
  double p = 1, q = 0, term = 1;
  for (int k = 1; k < 80; ++k) {
    const double odd = 2.0 * k - 1;
    const double next = term * (mu - odd * odd) / (k * 8.0 * x);
    if (std::fabs(next) >= std::fabs(term) && k > 2) break;
    term = next;
    // a_k / x^k enters P (even k) or Q (odd k) with the sign (-1)^floor(k / 2)
    const double signed_term = ((k / 2) % 2 == 0) ? term : -term;
    if (k % 2 == 0) {
      p += signed_term;
    } else {
      q += signed_term;
    }
    if (std::fabs(term) < 1e-17) break;
  }
  const double a = (n / 2.0 + 0.25) * kPi;
  const double cx = std::cos(x), sx = std::sin(x);
  const double cosc = cx * std::cos(a) + sx * std::sin(a);
  const double sinc = sx * std::cos(a) - cx * std::sin(a);
  const double scale = std::sqrt(2 / (kPi * x));
  *j = scale * (p * cosc - q * sinc);
  *y = scale * (p * sinc + q * cosc);
}

// J_n(x) (n = 0, 1) by its power series below kHankelFrom.
inline double BesselJSeries(int n, double x) {
  const double q = -x * x / 4;
  double term = n == 0 ? 1.0 : x / 2;
  double sum = term;
  for (int k = 1; k < 200; ++k) {
    term *= q / (static_cast<double>(k) * (k + n));
    sum += term;
    if (std::fabs(term) < 1e-17 * std::fabs(sum) && k > 4) break;
  }
  return sum;
}

inline double BesselJ(int n, double x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return 0;
  const double ax = std::fabs(x);
  double value;
  if (ax < kHankelFrom) {
    value = BesselJSeries(n, ax);
  } else {
    double y;
    Hankel(n, ax, &value, &y);
  }
  return (n == 1 && x < 0) ? -value : value;
}

// Y_n(x), x > 0: (2 / pi) (ln(x / 2) + gamma) J_n(x) plus the harmonic-number series
// (Abramowitz and Stegun 9.1.11 and 9.1.13) below kHankelFrom.
inline double BesselY(int n, double x) {
  if (std::isnan(x)) return x;
  if (x < 0) return kNaN;
  if (x == 0) return -kInf;
  if (std::isinf(x)) return 0;
  if (x >= kHankelFrom) {
    double j, y;
    Hankel(n, x, &j, &y);
    return y;
  }
  const double q = -x * x / 4;
  const double lead = (2 / kPi) * (std::log(x / 2) + kEuler) * BesselJSeries(n, x);
  if (n == 0) {
    double term = 1, harmonic = 0, sum = 0;
    for (int k = 1; k < 200; ++k) {
      term *= q / (static_cast<double>(k) * k);  // (-x^2/4)^k / (k!)^2
      harmonic += 1.0 / k;
      const double add = -term * harmonic;   // (-1)^(k+1) H_k (x^2/4)^k / (k!)^2
      sum += add;
      if (std::fabs(add) < 1e-18 && k > 4) break;
    }
    return lead + (2 / kPi) * sum;
  }
  double term = x / 2, harmonic = 0, sum = 0;  // k = 0: (x/2) / (0! 1!), H_0 + H_1 = 1
  for (int k = 0; k < 200; ++k) {
    if (k > 0) term *= q / (static_cast<double>(k) * (k + 1));
    const double h = 2 * harmonic + 1.0 / (k + 1);  // H_k + H_{k+1}
    harmonic += 1.0 / (k + 1);
    const double add = term * h;
    sum += add;
    if (std::fabs(add) < 1e-18 && k > 4) break;
  }
  return lead - 2 / (kPi * x) - sum / kPi;
}

// Ai(x): the Maclaurin series for -8 <= x <= 5, (1 / pi) sqrt(x / 3) K_1/3(zeta) above, and
// (sqrt(-x) / 3) (J_1/3(zeta) + J_-1/3(zeta)) by Hankel's expansion below, zeta = 2/3 |x|^3/2.
inline double AiryAi(double x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return 0;
  if (x > 5) {
    const double zeta = 2.0 / 3.0 * x * std::sqrt(x);
    if (zeta > 745) return 0;
    return std::sqrt(x / 3) / kPi * ScaledBesselK(1.0 / 3.0, zeta) * std::exp(-zeta);
  }
  if (x >= -8) {
    const double c1 = 0.355028053887817239260;  // Ai(0)
    const double c2 = 0.258819403792806798405;  // -Ai'(0)
    const double x3 = x * x * x;
    double f = 1, g = x, tf = 1, tg = x;
    for (int k = 1; k < 200; ++k) {
      tf *= x3 / ((3.0 * k - 1) * (3.0 * k));
      tg *= x3 / ((3.0 * k) * (3.0 * k + 1));
      f += tf;
      g += tg;
      if (std::fabs(tf) + std::fabs(tg) < 1e-18 * (std::fabs(f) + std::fabs(g))) break;
    }
    return c1 * f - c2 * g;
  }
  const double ax = -x;
  const double zeta = 2.0 / 3.0 * ax * std::sqrt(ax);
  double sum = 0;
  for (int s = -1; s <= 1; s += 2) {
    const double nu = s / 3.0;
    const double mu = 4 * nu * nu;
    double p = 1, q = 0, term = 1;
    for (int k = 1; k < 80; ++k) {
      const double odd = 2.0 * k - 1;
      const double next = term * (mu - odd * odd) / (k * 8.0 * zeta);
      if (std::fabs(next) >= std::fabs(term)) break;
      term = next;
      const double signed_term = ((k / 2) % 2 == 0) ? term : -term;
      if (k % 2 == 0) {
        p += signed_term;
      } else {
        q += signed_term;
      }
    }
    const double a = (nu / 2 + 0.25) * kPi;
    const double cz = std::cos(zeta), sz = std::sin(zeta);
    const double cosc = cz * std::cos(a) + sz * std::sin(a);
    const double sinc = sz * std::cos(a) - cz * std::sin(a);
    sum += std::sqrt(2 / (kPi * zeta)) * (p * cosc - q * sinc);
  }
  return std::sqrt(ax) / 3 * sum;
}

// exp(x^2) erfc(x): directly while erfc does not underflow, the asymptotic series above 25.
inline double Erfcx(double x) {
  if (std::isnan(x)) return x;
  if (x < 25) {
    if (x < -26.7) return kInf;
    return std::exp(x * x) * std::erfc(x);
  }
  if (std::isinf(x)) return 0;
  const double inv = 1 / (2 * x * x);
  double term = 1, sum = 1;
  for (int k = 1; k < 40; ++k) {
    term *= -(2.0 * k - 1) * inv;
    sum += term;
    if (std::fabs(term) < 1e-17) break;
  }
  return sum / (x * std::sqrt(kPi));
}

// log Phi(x): log1p(-erfc(x / sqrt 2) / 2) above -1, log(erfcx(-x / sqrt 2) / 2) - x^2 / 2 below.
inline double LogNdtr(double x) {
  if (std::isnan(x)) return x;
  const double t = x / 1.41421356237309504880;
  if (x < -1) {
    if (std::isinf(x)) return -kInf;
    return std::log(Erfcx(-t) / 2) - t * t;
  }
  return std::log1p(-std::erfc(t) / 2);
}

// Phi^-1(p): the erfinv approximation (its w taken from p directly, exact near 0 and 1), then
// Newton steps on Phi(x) = erfc(-x / sqrt 2) / 2 (accurate in the lower tail; the upper by symmetry).
inline double Ndtri(double p) {
  if (std::isnan(p) || p < 0 || p > 1) return kNaN;
  if (p == 0) return -kInf;
  if (p == 1) return kInf;
  if (p == 0.5) return 0;
  const bool upper = p > 0.5;
  const double lower = upper ? 1 - p : p;
  double w = -std::log(4 * lower * (1 - lower));
  double e;
  if (w < 5) {
    w -= 2.5;
    e = 2.81022636e-08;
    e = 3.43273939e-07 + e * w;
    e = -3.5233877e-06 + e * w;
    e = -4.39150654e-06 + e * w;
    e = 0.00021858087 + e * w;
    e = -0.00125372503 + e * w;
    e = -0.00417768164 + e * w;
    e = 0.246640727 + e * w;
    e = 1.50140941 + e * w;
  } else {
    w = std::sqrt(w) - 3;
    e = -0.000200214257;
    e = 0.000100950558 + e * w;
    e = 0.00134934322 + e * w;
    e = -0.00367342844 + e * w;
    e = 0.00573950773 + e * w;
    e = -0.0076224613 + e * w;
    e = 0.00943887047 + e * w;
    e = 1.00167406 + e * w;
    e = 2.83297682 + e * w;
  }
  double x = -1.41421356237309504880 * e * (1 - 2 * lower);  // erfinv(2 lower - 1) * sqrt 2
  if (w > 1) {  // the approximation's range ends near w = 16: the tail's asymptote instead
    const double l = -2 * std::log(lower);
    x = -std::sqrt(l - std::log(2 * kPi * l));
  }
  // Newton on log Phi (concave: no overshoot into the tails), log Phi / d = Phi / phi = sqrt(pi / 2) erfcx(-x / sqrt 2)
  const double target = std::log(lower);
  for (int i = 0; i < 6; ++i) {
    const double step = (LogNdtr(x) - target) * 1.25331413731550025121 * Erfcx(-x / 1.41421356237309504880);
    x -= step;
    if (std::fabs(step) <= 1e-16 * std::fabs(x)) break;
  }
  return upper ? -x : x;
}

inline double Entr(double x) {
  if (std::isnan(x)) return x;
  if (x > 0) return -x * std::log(x);
  if (x == 0) return 0;
  return -kInf;
}

inline double SphericalJ0(double x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return 0;
  if (std::fabs(x) < 0.5) {  // the Taylor series: sin x / x loses nothing there but 0 / 0
    const double x2 = x * x;
    return 1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42 * (1 - x2 / 72 * (1 - x2 / 110))));
  }
  return std::sin(x) / x;
}

// Hurwitz zeta(s, q) for an integer s >= 2: the direct sum up to q + N >= 10, then the
// Euler-Maclaurin tail with Bernoulli numbers B2..B24. A pole at a non-positive integer q is inf.
inline double HurwitzZeta(double s, double q) {
  if (std::isnan(q)) return q;
  if (q <= 0 && q == std::floor(q)) return kInf;
  static const double kB2j[] = {1.0 / 6,          -1.0 / 30,        1.0 / 42,          -1.0 / 30,
                                5.0 / 66,         -691.0 / 2730,    7.0 / 6,           -3617.0 / 510,
                                43867.0 / 798,    -174611.0 / 330,  854513.0 / 138,    -236364091.0 / 2730};
  double sum = 0;
  double a = q;
  while (a < 10) {
    sum += std::pow(a, -s);
    a += 1;
  }
  if (std::isinf(a)) return kNaN;  // q = +inf: NaN, as Cephes' zeta (and so ATen's polygamma)
  sum += std::pow(a, 1 - s) / (s - 1) + 0.5 * std::pow(a, -s);
  double factor = s / a;  // s (s+1) ... (s+2j-2) / (2j)! / a^(2j-1) times a^-s below
  double fact = 2;       // (2j)!
  const double as = std::pow(a, -s);
  for (int j = 1; j <= 12; ++j) {
    const double term = kB2j[j - 1] / fact * factor * as;
    sum += term;
    if (std::fabs(term) < 1e-18 * std::fabs(sum)) break;
    factor *= (s + 2 * j - 1) * (s + 2 * j) / (a * a);
    fact *= (2.0 * j + 1) * (2.0 * j + 2);
  }
  return sum;
}

// psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x) for n >= 1, with the reflection
// psi'(x) = pi^2 / sin^2(pi x) - psi'(1 - x) for the trigamma of x < 1/2, sin(pi x) taken in the
// input's precision (`sinPiX`: ATen's float trigamma gives huge finite values at negative
// integers, where sin(pi x) rounds to a tiny nonzero value); digamma for n = 0.
inline double Polygamma(int64_t n, double x, double sinPiX) {
  if (n == 0) return DigammaValue(x);
  if (std::isnan(x)) return x;
  if (n == 1) {
    if (x == kInf) return 0;
    if (x < 0.5) return kPi * kPi / (sinPiX * sinPiX) - HurwitzZeta(2, 1 - x);
    return HurwitzZeta(2, x);
  }
  const double factorial = std::exp(std::lgamma(n + 1.0));
  return (n % 2 ? 1.0 : -1.0) * factorial * HurwitzZeta(static_cast<double>(n + 1), x);
}

}  // namespace special
}  // namespace detail

#define ASCENDC_SIM_SPECIAL_UNARY(NAME, EXPR)                                                            \
  template <typename T>                                                                                  \
  __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t calCount) { \
    static_assert(detail::kIsFloatLike<T>, #NAME " supports floating types");                           \
    detail::CheckUnary(#NAME, dst, src, calCount);                                                       \
    using C = detail::ComputeOf<T>;                                                                      \
    detail::UnaryLoop(dst, src, calCount, [](C c) {                                                      \
      const double a = static_cast<double>(c);                                                           \
      return static_cast<C>(EXPR);                                                                       \
    });                                                                                                  \
  }

ASCENDC_SIM_SPECIAL_UNARY(BesselJ0, detail::special::BesselJ(0, a))
ASCENDC_SIM_SPECIAL_UNARY(BesselJ1, detail::special::BesselJ(1, a))
ASCENDC_SIM_SPECIAL_UNARY(BesselY0, detail::special::BesselY(0, a))
ASCENDC_SIM_SPECIAL_UNARY(BesselY1, detail::special::BesselY(1, a))
ASCENDC_SIM_SPECIAL_UNARY(BesselI0, detail::special::BesselI(0, a))
ASCENDC_SIM_SPECIAL_UNARY(BesselI1, detail::special::BesselI(1, a))
ASCENDC_SIM_SPECIAL_UNARY(BesselI0e, detail::special::ScaledBesselI(0, a))
ASCENDC_SIM_SPECIAL_UNARY(BesselI1e, detail::special::ScaledBesselI(1, a))
ASCENDC_SIM_SPECIAL_UNARY(BesselK0, detail::special::BesselK(0, a))
ASCENDC_SIM_SPECIAL_UNARY(BesselK1, detail::special::BesselK(1, a))
ASCENDC_SIM_SPECIAL_UNARY(BesselK0e, detail::special::ScaledBesselK(0, a))
ASCENDC_SIM_SPECIAL_UNARY(BesselK1e, detail::special::ScaledBesselK(1, a))
ASCENDC_SIM_SPECIAL_UNARY(SphericalBesselJ0, detail::special::SphericalJ0(a))
ASCENDC_SIM_SPECIAL_UNARY(AiryAi, detail::special::AiryAi(a))
ASCENDC_SIM_SPECIAL_UNARY(Erfcx, detail::special::Erfcx(a))
ASCENDC_SIM_SPECIAL_UNARY(Ndtri, detail::special::Ndtri(a))
ASCENDC_SIM_SPECIAL_UNARY(LogNdtr, detail::special::LogNdtr(a))
ASCENDC_SIM_SPECIAL_UNARY(Entr, detail::special::Entr(a))

#undef ASCENDC_SIM_SPECIAL_UNARY

// dst = psi^(n)(src)
template <typename T>
__aicore__ inline void Polygamma(const LocalTensor<T>& dst, const LocalTensor<T>& src, int64_t n, uint32_t calCount) {
  static_assert(detail::kIsFloatLike<T>, "Polygamma supports floating types");
  detail::CheckUnary("Polygamma", dst, src, calCount);
  using C = detail::ComputeOf<T>;
  detail::UnaryLoop(dst, src, calCount,
                    [n](C c) {
                      const C sinPiX = static_cast<C>(std::sin(static_cast<C>(detail::special::kPi) * c));
                      return static_cast<C>(
                          detail::special::Polygamma(n, static_cast<double>(c), static_cast<double>(sinPiX)));
                    });
}

}  // namespace AscendC

#endif  // ASCENDC_SIM_KERNEL_SPECIAL_MATH_H
