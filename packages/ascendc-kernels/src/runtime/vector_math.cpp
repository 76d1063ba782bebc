// The simulated vector unit's float32 math functions (aclsimVectorMathF32, aclsimVectorPowF32,
// aclsimVectorPowScalarF32).
// Each lane is computed in double from a range reduction and a polynomial written so that the
// loops vectorise (no libm call), then rounded once to float: the double result is within about
// 1e-10 (relative) of the exact value, so the float result is the correctly rounded one or, within
// 0.01 ulp of a halfway point, its neighbour.
// Lanes outside a function's reduced domain (NaN, infinities, zero or negative logarithms, sines
// of huge arguments) take libm's double function instead, which gives the special values. The
// host's widest SIMD is chosen at run time as in vector_unit.cpp; the library is built without FMA
// contraction and nothing here uses fma, so every ISA gives the same bits.
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ascendc_sim/launch.h"
#include "runtime/config.h"

namespace ascendc_sim {
namespace {

#define ACLSIM_MATH_INLINE __attribute__((always_inline)) inline

ACLSIM_MATH_INLINE uint64_t BitsOf(double x) {
  uint64_t b;
  memcpy(&b, &x, sizeof(b));
  return b;
}

ACLSIM_MATH_INLINE double FromBits(uint64_t b) {
  double x;
  memcpy(&x, &b, sizeof(x));
  return x;
}

// x + kRoundMagic rounds x (|x| < 2^50) to an integer n held in the low mantissa bits (2^51 + n).
constexpr double kRoundMagic = 6755399441055744.0;  // 1.5 * 2^52
constexpr uint64_t kSignBit = uint64_t{1} << 63;

// v with the sign bit of x added (v >= 0; keeps the sign of a zero x).
ACLSIM_MATH_INLINE double WithSignOf(double v, double x) { return FromBits(BitsOf(v) | (BitsOf(x) & kSignBit)); }

// e^r * 2^n for |r| <= ln2 / 2 and |n| < 1000, n given as k = n + kRoundMagic: Taylor to r^9
// (relative error below 1e-11), scaled through the exponent bits.
ACLSIM_MATH_INLINE double ExpReduced(double r, double k) {
  double p = 1.0 / 362880;
  p = p * r + 1.0 / 40320;
  p = p * r + 1.0 / 5040;
  p = p * r + 1.0 / 720;
  p = p * r + 1.0 / 120;
  p = p * r + 1.0 / 24;
  p = p * r + 1.0 / 6;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  const double scale = FromBits((BitsOf(k) + (uint64_t{1023} - (uint64_t{1} << 51))) << 52);
  return p * scale;
}

// e^x for |x| <= 600: x = n ln2 + r with ln2 in 32 + 53 bits (n ln2_hi is exact).
ACLSIM_MATH_INLINE double ExpD(double x) {
  const double k = x * 1.44269504088896338700 + kRoundMagic;
  const double n = k - kRoundMagic;
  const double r = (x - n * 6.93147180369123816490e-01) - n * 1.90821492927058770002e-10;
  return ExpReduced(r, k);
}

// e^x - 1 for |x| <= 600: Taylor to x^11 below ln2 / 2 (no cancellation), e^x - 1 above it
// (there |e^x - 1| >= 0.29); x * (1 + ...) keeps the sign of a zero.
ACLSIM_MATH_INLINE double Expm1D(double x) {
  double p = 1.0 / 39916800;
  p = p * x + 1.0 / 3628800;
  p = p * x + 1.0 / 362880;
  p = p * x + 1.0 / 40320;
  p = p * x + 1.0 / 5040;
  p = p * x + 1.0 / 720;
  p = p * x + 1.0 / 120;
  p = p * x + 1.0 / 24;
  p = p * x + 1.0 / 6;
  p = p * x + 0.5;
  const double small = x * (p * x + 1.0);
  const double large = ExpD(x) - 1.0;
  return fabs(x) < 0.34657359027997264 ? small : large;  // one compare: a range test stops the vectoriser
}

// ln u for a positive finite u of float range (float subnormals are normal doubles): u = 2^k m
// with m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh(s), s = (m - 1) / (m + 1), Taylor to s^15
// (relative error below 2e-12: also good for pow's y ln x).
ACLSIM_MATH_INLINE double LogD(double u) {
  const uint64_t b = BitsOf(u);
  const uint64_t t = b - 0x3fe6a09e667f3bcdull + (uint64_t{1023} << 52);  // sqrt(1/2) maps to exponent 0
  const uint64_t biased = t >> 52;                                       // k + 1023
  const double m = FromBits(b - (biased << 52) + (uint64_t{1023} << 52));
  const double k = FromBits(biased | 0x4330000000000000ull) - (4503599627370496.0 + 1023.0);
  const double f = m - 1.0;
  const double s = f / (2.0 + f);
  const double z = s * s;
  double p = 1.0 / 15;
  p = p * z + 1.0 / 13;
  p = p * z + 1.0 / 11;
  p = p * z + 1.0 / 9;
  p = p * z + 1.0 / 7;
  p = p * z + 1.0 / 5;
  p = p * z + 1.0 / 3;
  const double logm = 2.0 * s * (p * z + 1.0);
  return k * 6.93147180369123816490e-01 + (k * 1.90821492927058770002e-10 + logm);
}

// x = n pi/2 + r, |r| <= pi/4, for |x| < 2^20 (pi/2 in 33 + 53 bits: n pio2_hi and the first
// difference are exact); *q holds n in its low bits.
ACLSIM_MATH_INLINE double ReduceHalfPi(double x, uint64_t* q) {
  const double k = x * 6.36619772367581382433e-01 + kRoundMagic;
  const double n = k - kRoundMagic;
  *q = BitsOf(k);
  return (x - n * 1.57079632673412561417e+00) - n * 6.07710050650619224932e-11;
}

// sin r and cos r for |r| <= pi/4: Taylor to r^11 and r^12 (relative error below 2e-11).
ACLSIM_MATH_INLINE double SinReduced(double r) {
  const double z = r * r;
  double p = -1.0 / 39916800;
  p = p * z + 1.0 / 362880;
  p = p * z - 1.0 / 5040;
  p = p * z + 1.0 / 120;
  p = p * z - 1.0 / 6;
  return r * (p * z + 1.0);
}

ACLSIM_MATH_INLINE double CosReduced(double r) {
  const double z = r * r;
  double p = 1.0 / 479001600;
  p = p * z - 1.0 / 3628800;
  p = p * z + 1.0 / 40320;
  p = p * z - 1.0 / 720;
  p = p * z + 1.0 / 24;
  p = p * z - 0.5;
  return p * z + 1.0;
}

// erfc a for 0 <= a <= 12.5: e^-a^2 F(t) / (1 + 2a), F(t) = (1 + 2a) e^a^2 erfc a fitted as a
// polynomial in t = (a - 3) / (a + 3) (Chebyshev interpolation, relative error below 1.1e-10);
// both quotients share one division.
ACLSIM_MATH_INLINE double ErfcD(double a) {
  const double q = 1.0 + 2.0 * a;
  const double inv = 1.0 / ((a + 3.0) * q);
  const double t = (a - 3.0) * q * inv;
  double p = 3.059093537056943e-05;
  p = p * t + 0.00011923071981758617;
  p = p * t - 0.000132438482894311;
  p = p * t - 0.0007871757819857649;
  p = p * t + 0.0018992608908740816;
  p = p * t + 0.002534054084545959;
  p = p * t - 0.023772363616981502;
  p = p * t + 0.06830705357448112;
  p = p * t - 0.11927351811615687;
  p = p * t + 0.12964523645616965;
  p = p * t - 0.04756229874124571;
  p = p * t - 0.13562110782387876;
  p = p * t + 1.253008058295301;
  return ExpD(-(a * a)) * (p * (a + 3.0) * inv);
}

// erf x = x (2/sqrt(pi) + z Q(u)), z = x^2, u = z / 8 - 1, for |x| < 4: Q fitted by Chebyshev
// interpolation (erf's relative error below 3e-12, 1e-14 near 0; no exp or division) and evaluated
// by Estrin's scheme (a chain of 6 multiply-adds instead of Horner's 21); +-1 beyond (float's erf is
// 1 from 3.92 on).
ACLSIM_MATH_INLINE double ErfD(double x) {
  const bool inside = fabs(x) < 4.0;
  const double a = inside ? x : 0.0;
  const double z = a * a;
  const double u = z * 0.125 - 1.0;
  const double u2 = u * u;
  const double u4 = u2 * u2;
  const double u8 = u4 * u4;
  const double p0 = -0.09685602143155309 + 0.07478399226898202 * u;
  const double p1 = -0.05832460264745783 + 0.04486079732876369 * u;
  const double p2 = -0.033584673456892686 + 0.02424369017325571 * u;
  const double p3 = -0.01675782084480624 + 0.01103718418100599 * u;
  const double p4 = -0.006904655617951137 + 0.00409543764246607 * u;
  const double p5 = -0.002301496816193429 + 0.001225834976845241 * u;
  const double p6 = -0.0006198618200763688 + 0.00029722289578395405 * u;
  const double p7 = -0.00013424945377758438 + 5.833107552239605e-05 * u;
  const double p8 = -2.5652925948818628e-05 + 1.008771677267617e-05 * u;
  const double p9 = -2.686962038877417e-06 + 9.97963558384921e-07 * u;
  const double p10 = -8.216313633952317e-07 + 2.6920077423381567e-07 * u;
  const double q0 = p0 + p1 * u2;
  const double q1 = p2 + p3 * u2;
  const double q2 = p4 + p5 * u2;
  const double q3 = p6 + p7 * u2;
  const double q4 = p8 + p9 * u2;
  const double r0 = q0 + q1 * u4;
  const double r1 = q2 + q3 * u4;
  const double r2 = q4 + p10 * u4;
  const double q = (r0 + r1 * u8) + r2 * (u8 * u8);
  return inside ? a * (1.12837916709551257390 + z * q) : WithSignOf(1.0, x);
}

// atan a for a >= 0 (+inf included): atan a = y0 + atan v with v = a, (a - 1) / (a + 1) or -1 / a
// as a passes tan(pi/8) and tan(3pi/8) (one division, |v| <= tan(pi/8)), Taylor to v^27.
ACLSIM_MATH_INLINE double AtanD(double a) {
  const bool high = a > 2.41421356237309504880;
  const bool middle = a > 0.41421356237309504880;
  const double num = high ? -1.0 : (middle ? a - 1.0 : a);
  const double den = high ? a : (middle ? a + 1.0 : 1.0);
  const double y0 = high ? 1.57079632679489661923 : (middle ? 0.78539816339744830962 : 0.0);
  const double v = num / den;
  const double z = v * v;
  double p = -1.0 / 27;
  p = p * z + 1.0 / 25;
  p = p * z - 1.0 / 23;
  p = p * z + 1.0 / 21;
  p = p * z - 1.0 / 19;
  p = p * z + 1.0 / 17;
  p = p * z - 1.0 / 15;
  p = p * z + 1.0 / 13;
  p = p * z - 1.0 / 11;
  p = p * z + 1.0 / 9;
  p = p * z - 1.0 / 7;
  p = p * z + 1.0 / 5;
  p = p * z - 1.0 / 3;
  return y0 + v * (p * z + 1.0);
}

// One function of the unit: Valid(x) says whether the lane's float argument is in the domain of
// Vector (the vectorised double computation); the others take Exact (libm in double).
struct Sin {
  static bool Valid(float x) { return fabsf(x) < 1048576.0f; }
  static double Exact(double x) { return sin(x); }
  ACLSIM_MATH_INLINE static double Vector(double x) {
    uint64_t q;
    const double r = ReduceHalfPi(x, &q);
    const double v = (q & 1) ? CosReduced(r) : SinReduced(r);
    return (q & 2) ? -v : v;
  }
};

struct Cos {
  static bool Valid(float x) { return fabsf(x) < 1048576.0f; }
  static double Exact(double x) { return cos(x); }
  ACLSIM_MATH_INLINE static double Vector(double x) {
    uint64_t q;
    const double r = ReduceHalfPi(x, &q);
    const double v = (q & 1) ? SinReduced(r) : CosReduced(r);
    return ((q + 1) & 2) ? -v : v;
  }
};

struct Tan {
  static bool Valid(float x) { return fabsf(x) < 1048576.0f; }
  static double Exact(double x) { return tan(x); }
  ACLSIM_MATH_INLINE static double Vector(double x) {
    uint64_t q;
    const double r = ReduceHalfPi(x, &q);
    const double s = SinReduced(r);
    const double c = CosReduced(r);
    return (q & 1) ? -c / s : s / c;
  }
};

struct Log {
  static bool Valid(float x) { return x > 0.0f && x <= 3.40282347e+38f; }
  static double Exact(double x) { return log(x); }
  ACLSIM_MATH_INLINE static double Vector(double x) { return LogD(x); }
};

struct Log2 {
  static bool Valid(float x) { return Log::Valid(x); }
  static double Exact(double x) { return log2(x); }
  ACLSIM_MATH_INLINE static double Vector(double x) { return LogD(x) * 1.44269504088896340736; }
};

struct Log10 {
  static bool Valid(float x) { return Log::Valid(x); }
  static double Exact(double x) { return log10(x); }
  ACLSIM_MATH_INLINE static double Vector(double x) { return LogD(x) * 0.43429448190325182765; }
};

// ln(1 + x) = ln u * x / (u - 1) with u = 1 + x rounded (u - 1 is exact): corrects u's rounding.
struct Log1p {
  static bool Valid(float x) { return x > -1.0f && x <= 3.40282347e+38f; }
  static double Exact(double x) { return log1p(x); }
  ACLSIM_MATH_INLINE static double Vector(double x) {
    const double u = 1.0 + x;
    const double d = u - 1.0;
    const double ratio = x / (d == 0.0 ? 1.0 : d);
    return d == 0.0 ? x : LogD(u) * ratio;
  }
};

// 2^x = e^(f ln2) * 2^n, x = n + f: exact for integral x.
struct Exp2 {
  static bool Valid(float x) { return fabsf(x) < 400.0f; }
  static double Exact(double x) { return exp2(x); }
  ACLSIM_MATH_INLINE static double Vector(double x) {
    const double k = x + kRoundMagic;
    const double f = x - (k - kRoundMagic);
    return ExpReduced(f * 0.69314718055994530942, k);
  }
};

struct Expm1 {
  static bool Valid(float x) { return fabsf(x) < 400.0f; }
  static double Exact(double x) { return expm1(x); }
  ACLSIM_MATH_INLINE static double Vector(double x) { return Expm1D(x); }
};

// tanh |x| = t / (t + 2), t = e^2|x| - 1; tanh 20 is 1 in double.
struct Tanh {
  static bool Valid(float x) { return x == x; }
  static double Exact(double x) { return tanh(x); }
  ACLSIM_MATH_INLINE static double Vector(double x) {
    const double a = fabs(x) < 20.0 ? fabs(x) : 20.0;
    const double t = Expm1D(2.0 * a);
    return WithSignOf(t / (t + 2.0), x);
  }
};

struct Erf {
  static bool Valid(float x) { return x == x; }
  static double Exact(double x) { return erf(x); }
  ACLSIM_MATH_INLINE static double Vector(double x) { return ErfD(x); }
};

// gelu x = x Phi(x): x (1 + erf(x / sqrt 2)) / 2 from x = -3 on (1 + erf no smaller than 0.0027, so
// its cancellation stays far below float's ulp); below, x erfc(-x / sqrt 2) / 2 from erfc's tail
// (0 past erfc's range, so -inf gives NaN as x * 0).
struct Gelu {
  static bool Valid(float x) { return x >= -3.0f; }
  ACLSIM_MATH_INLINE static double Exact(double x) {
    const double a = x * -0.70710678118654752440;
    const double e = a < 12.5 ? ErfcD(a < 12.5 ? a : 12.5) : 0.0;
    return x != x ? x : x * (0.5 * e);
  }
  ACLSIM_MATH_INLINE static double Vector(double x) { return x * (0.5 * (1.0 + ErfD(x * 0.70710678118654752440))); }
};

struct Erfc {
  static bool Valid(float x) { return x == x; }
  static double Exact(double x) { return erfc(x); }
  ACLSIM_MATH_INLINE static double Vector(double x) {
    const double e = ErfcD(fabs(x) < 12.5 ? fabs(x) : 12.5);
    return x < 0.0 ? 2.0 - e : e;
  }
};

// sinh |x| = (E + E / (E + 1)) / 2, E = e^|x| - 1 (no cancellation near 0); |x| beyond 200 overflows float.
struct Sinh {
  static bool Valid(float x) { return x == x; }
  static double Exact(double x) { return sinh(x); }
  ACLSIM_MATH_INLINE static double Vector(double x) {
    const double a = fabs(x) < 200.0 ? fabs(x) : 200.0;
    const double e = Expm1D(a);
    return WithSignOf(0.5 * (e + e / (e + 1.0)), x);
  }
};

struct Cosh {
  static bool Valid(float x) { return x == x; }
  static double Exact(double x) { return cosh(x); }
  ACLSIM_MATH_INLINE static double Vector(double x) {
    const double e = ExpD(fabs(x) < 200.0 ? fabs(x) : 200.0);
    return 0.5 * (e + 1.0 / e);
  }
};

// asinh |x| = ln(1 + a + a^2 / (1 + sqrt(1 + a^2))) (a^2 does not overflow in double).
struct Asinh {
  static bool Valid(float x) { return fabsf(x) <= 3.40282347e+38f; }
  static double Exact(double x) { return asinh(x); }
  ACLSIM_MATH_INLINE static double Vector(double x) {
    const double a = fabs(x);
    return WithSignOf(Log1p::Vector(a + a * a / (1.0 + sqrt(1.0 + a * a))), x);
  }
};

// acosh x = ln(1 + t + sqrt(2t + t^2)), t = x - 1 (exact).
struct Acosh {
  static bool Valid(float x) { return x >= 1.0f && x <= 3.40282347e+38f; }
  static double Exact(double x) { return acosh(x); }
  ACLSIM_MATH_INLINE static double Vector(double x) {
    const double t = x - 1.0;
    return Log1p::Vector(t + sqrt(2.0 * t + t * t));
  }
};

// atanh |x| = ln(1 + 2a / (1 - a)) / 2.
struct Atanh {
  static bool Valid(float x) { return fabsf(x) < 1.0f; }
  static double Exact(double x) { return atanh(x); }
  ACLSIM_MATH_INLINE static double Vector(double x) {
    const double a = fabs(x);
    return WithSignOf(0.5 * Log1p::Vector(2.0 * a / (1.0 - a)), x);
  }
};

struct Atan {
  static bool Valid(float x) { return x == x; }
  static double Exact(double x) { return atan(x); }
  ACLSIM_MATH_INLINE static double Vector(double x) { return WithSignOf(AtanD(fabs(x)), x); }
};

// asin x = atan(x / sqrt((1 - x)(1 + x))) (exact product; +inf at |x| = 1).
struct Asin {
  static bool Valid(float x) { return fabsf(x) <= 1.0f; }
  static double Exact(double x) { return asin(x); }
  ACLSIM_MATH_INLINE static double Vector(double x) {
    const double a = fabs(x);
    return WithSignOf(AtanD(a / sqrt((1.0 - a) * (1.0 + a))), x);
  }
};

// acos x = 2 atan(sqrt((1 - x) / (1 + x))) (+inf at x = -1).
struct Acos {
  static bool Valid(float x) { return fabsf(x) <= 1.0f; }
  static double Exact(double x) { return acos(x); }
  ACLSIM_MATH_INLINE static double Vector(double x) { return 2.0 * AtanD(sqrt((1.0 - x) / (1.0 + x))); }
};

// Lanes are processed in chunks: a chunk whose arguments are all valid runs the vectorised loop,
// another one element by element (the same Vector code, or Exact). dst may be src.
constexpr uint32_t kChunk = 256;

template <typename F>
ACLSIM_MATH_INLINE void UnaryMap(float* d, const float* s, uint32_t n) {
  for (uint32_t start = 0; start < n; start += kChunk) {
    const uint32_t m = n - start < kChunk ? n - start : kChunk;
    const float* a = s + start;
    float* y = d + start;
    int valid = 1;
    for (uint32_t i = 0; i < m; ++i) valid &= F::Valid(a[i]) ? 1 : 0;
    if (valid) {
      for (uint32_t i = 0; i < m; ++i) y[i] = static_cast<float>(F::Vector(a[i]));
    } else {
      for (uint32_t i = 0; i < m; ++i) y[i] = static_cast<float>(F::Valid(a[i]) ? F::Vector(a[i]) : F::Exact(a[i]));
    }
  }
}

// x^y = e^(y ln x) for a positive finite x and a finite y (|y ln x| clamped to 600, far beyond
// float's range), std::pow in double otherwise.
ACLSIM_MATH_INLINE bool PowValid(float x, float y) { return Log::Valid(x) && fabsf(y) <= 3.40282347e+38f; }

ACLSIM_MATH_INLINE double PowVector(double x, double y) {
  double p = y * LogD(x);
  p = p < 600.0 ? p : 600.0;
  p = p > -600.0 ? p : -600.0;
  return ExpD(p);
}

ACLSIM_MATH_INLINE void PowMap(float* d, const float* s0, const float* s1, uint32_t n) {
  for (uint32_t start = 0; start < n; start += kChunk) {
    const uint32_t m = n - start < kChunk ? n - start : kChunk;
    const float* a = s0 + start;
    const float* b = s1 + start;
    float* y = d + start;
    int valid = 1;
    for (uint32_t i = 0; i < m; ++i) valid &= PowValid(a[i], b[i]) ? 1 : 0;
    if (valid) {
      for (uint32_t i = 0; i < m; ++i) y[i] = static_cast<float>(PowVector(a[i], b[i]));
    } else {
      for (uint32_t i = 0; i < m; ++i) {
        y[i] = static_cast<float>(PowValid(a[i], b[i]) ? PowVector(a[i], b[i]) : pow(double{a[i]}, double{b[i]}));
      }
    }
  }
}

// d[i] = s[i]^y for one exponent kept in double (ATen's float32 pow with a scalar exponent is std::pow of a
// double exponent), in chunks as PowMap.
ACLSIM_MATH_INLINE void PowScalarMap(float* d, const float* s, double y, uint32_t n) {
  constexpr uint32_t kChunk = 256;
  const bool finite = fabs(y) <= 1.7976931348623157e308;
  for (uint32_t start = 0; start < n; start += kChunk) {
    const uint32_t m = n - start < kChunk ? n - start : kChunk;
    const float* x = s + start;
    float* out = d + start;
    int valid = finite ? 1 : 0;
    for (uint32_t i = 0; i < m; ++i) valid &= Log::Valid(x[i]) ? 1 : 0;
    if (valid) {
      for (uint32_t i = 0; i < m; ++i) out[i] = static_cast<float>(PowVector(x[i], y));
    } else {
      for (uint32_t i = 0; i < m; ++i) {
        out[i] = static_cast<float>(finite && Log::Valid(x[i]) ? PowVector(x[i], y) : pow(double{x[i]}, y));
      }
    }
  }
}

ACLSIM_MATH_INLINE void MathAny(int fn, float* d, const float* s, uint32_t n) {
  switch (fn) {
    case ACLSIM_MATH_SIN: UnaryMap<Sin>(d, s, n); break;
    case ACLSIM_MATH_COS: UnaryMap<Cos>(d, s, n); break;
    case ACLSIM_MATH_TAN: UnaryMap<Tan>(d, s, n); break;
    case ACLSIM_MATH_LOG: UnaryMap<Log>(d, s, n); break;
    case ACLSIM_MATH_LOG2: UnaryMap<Log2>(d, s, n); break;
    case ACLSIM_MATH_LOG10: UnaryMap<Log10>(d, s, n); break;
    case ACLSIM_MATH_LOG1P: UnaryMap<Log1p>(d, s, n); break;
    case ACLSIM_MATH_EXP2: UnaryMap<Exp2>(d, s, n); break;
    case ACLSIM_MATH_EXPM1: UnaryMap<Expm1>(d, s, n); break;
    case ACLSIM_MATH_TANH: UnaryMap<Tanh>(d, s, n); break;
    case ACLSIM_MATH_ERF: UnaryMap<Erf>(d, s, n); break;
    case ACLSIM_MATH_ERFC: UnaryMap<Erfc>(d, s, n); break;
    case ACLSIM_MATH_GELU: UnaryMap<Gelu>(d, s, n); break;
    case ACLSIM_MATH_SINH: UnaryMap<Sinh>(d, s, n); break;
    case ACLSIM_MATH_COSH: UnaryMap<Cosh>(d, s, n); break;
    case ACLSIM_MATH_ASINH: UnaryMap<Asinh>(d, s, n); break;
    case ACLSIM_MATH_ACOSH: UnaryMap<Acosh>(d, s, n); break;
    case ACLSIM_MATH_ATANH: UnaryMap<Atanh>(d, s, n); break;
    case ACLSIM_MATH_ATAN: UnaryMap<Atan>(d, s, n); break;
    case ACLSIM_MATH_ASIN: UnaryMap<Asin>(d, s, n); break;
    default: UnaryMap<Acos>(d, s, n); break;
  }
}

struct MathUnit {
  void (*unary)(int, float*, const float*, uint32_t);
  void (*pow)(float*, const float*, const float*, uint32_t);
  void (*pows)(float*, const float*, double, uint32_t);
};

#define ACLSIM_MATH_UNIT(NAME, ATTR)                                                                        \
  ATTR void NAME##Math(int fn, float* d, const float* s, uint32_t n) { MathAny(fn, d, s, n); }              \
  ATTR void NAME##Pow(float* d, const float* a, const float* b, uint32_t n) { PowMap(d, a, b, n); }         \
  ATTR void NAME##Pows(float* d, const float* a, double y, uint32_t n) { PowScalarMap(d, a, y, n); }        \
  constexpr MathUnit k##NAME##Math{NAME##Math, NAME##Pow, NAME##Pows};

ACLSIM_MATH_UNIT(Baseline, )
#if defined(__x86_64__)
ACLSIM_MATH_UNIT(Avx2, __attribute__((target("avx2,fma"))))
ACLSIM_MATH_UNIT(Avx512, __attribute__((target("avx512f"))))
#endif

const MathUnit& Unit() {
  static const MathUnit* unit = [] {
#if defined(__x86_64__)
    const int32_t level = HostSimdLevel();
    if (level >= 2) return &kAvx512Math;
    if (level >= 1) return &kAvx2Math;
#endif
    return &kBaselineMath;
  }();
  return *unit;
}

}  // namespace
}  // namespace ascendc_sim

extern "C" {

void aclsimVectorMathF32(aclsimMathFunction fn, float* dst, const float* src, uint32_t n) {
  ascendc_sim::Unit().unary(fn, dst, src, n);
}

void aclsimVectorPowF32(float* dst, const float* base, const float* exponent, uint32_t n) {
  ascendc_sim::Unit().pow(dst, base, exponent, n);
}

void aclsimVectorPowScalarF32(float* dst, const float* base, double exponent, uint32_t n) {
  ascendc_sim::Unit().pows(dst, base, exponent, n);
}

}  // extern "C"
