// random_custom: fills y with uniform, normal or Bernoulli values drawn from
// Philox4x32-10 (kernels/philox.h). Each block takes its slice of y from the
// tiling; a tile is generated in the unified buffer (the Bernoulli-with-tensor
// variant first copies in the tile's probabilities) and copied out. Element i
// reads Philox block i of the launch's (seed, offset), so the values do not
// depend on the tiling or the number of cores.
#include <math.h>

#include <limits>
#include <type_traits>

#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_helpers.h"
#include "kernels/tiling.h"
#include "kernels/kernel_api.h"
#include "kernels/philox.h"

namespace ascendc_sim {
namespace kernels {
namespace {

template <typename T>
using ArithOf = AscendC::detail::Arith<T>;

// y = from + u * (to - from), u in [0, 1); a value that rounds up to `to` in T becomes `from`.
template <typename T>
struct UniformDist {
  static constexpr bool kReadsProb = false;
  using Prob = float;
  PhiloxArgs rng;
  double from = 0.0;
  double to = 1.0;

  __aicore__ inline typename ArithOf<T>::Storage Draw(uint64_t index, double) const {
    using A = ArithOf<T>;
    using C = typename A::Compute;
    const PhiloxBlock b = Philox4x32_10(index, rng);
    const double u = std::is_same<T, double>::value ? UniformDouble(b.w[0], b.w[1])
                                                    : static_cast<double>(UniformFloat(b.w[0]));
    typename A::Storage v = A::Store(static_cast<C>(from + u * (to - from)));
    if (from < to && static_cast<double>(A::Load(v)) >= to) v = A::Store(static_cast<C>(from));
    return v;
  }
};

// y = mean + std * z, z standard normal (Box-Muller, in float or double).
template <typename T>
struct NormalDist {
  static constexpr bool kReadsProb = false;
  using Prob = float;
  PhiloxArgs rng;
  double mean = 0.0;
  double std = 1.0;

  __aicore__ inline typename ArithOf<T>::Storage Draw(uint64_t index, double) const {
    using A = ArithOf<T>;
    using C = typename A::Compute;
    const PhiloxBlock b = Philox4x32_10(index, rng);
    if constexpr (std::is_same<T, double>::value) {
      return A::Store(mean + std * NormalDouble(b));
    } else {
      return A::Store(static_cast<C>(static_cast<float>(mean) + static_cast<float>(std) * NormalFloat(b)));
    }
  }
};

// y = 1 with probability p (the scalar, or the tile's probability), else 0.
template <typename T, typename P, bool kTensorProb>
struct BernoulliDist {
  static constexpr bool kReadsProb = kTensorProb;
  using Prob = P;
  PhiloxArgs rng;
  double p = 0.5;

  __aicore__ inline typename ArithOf<T>::Storage Draw(uint64_t index, double tileProb) const {
    using A = ArithOf<T>;
    using C = typename A::Compute;
    const PhiloxBlock b = Philox4x32_10(index, rng);
    const bool one = BernoulliDraw(b.w[0], kTensorProb ? tileProb : p);
    return A::Store(static_cast<C>(one ? 1 : 0));
  }
};

// Distributions by inversion of element i's uniform draw u (24 bits for the
// 16/32-bit types, 53 for double), computed in double and stored in T:
// exponential(lambda) -log(1 - u) / lambda; cauchy(median, sigma) median +
// sigma * tan(pi * (u - 1/2)); log-normal(mean, std) exp(mean + std * z);
// geometric(p) ceil(log(1 - u) / log(1 - p)), at least 1.
template <typename T>
struct TransformDist {
  static constexpr bool kReadsProb = false;
  using Prob = float;
  PhiloxArgs rng;
  RandomTransform kind = RandomTransform::kExponential;
  double a = 1.0;
  double b = 0.0;

  __aicore__ inline typename ArithOf<T>::Storage Draw(uint64_t index, double) const {
    using A = ArithOf<T>;
    using C = typename A::Compute;
    const PhiloxBlock blk = Philox4x32_10(index, rng);
    const double u = std::is_same<T, double>::value ? UniformDouble(blk.w[0], blk.w[1])
                                                    : static_cast<double>(UniformFloat(blk.w[0]));
    double v = 0.0;
    switch (kind) {
      case RandomTransform::kExponential:
        v = -log1p(-u) / a;
        break;
      case RandomTransform::kCauchy:
        v = a + b * tan(3.14159265358979323846 * (u - 0.5));
        break;
      case RandomTransform::kLogNormal:
        v = exp(a + b * (std::is_same<T, double>::value ? NormalDouble(blk) : static_cast<double>(NormalFloat(blk))));
        break;
      case RandomTransform::kGeometric: {
        // 1 - u in (0, 1]; p == 1 always gives 1.
        const double q = log1p(-a);
        v = a >= 1.0 ? 1.0 : ceil(log1p(-u) / q);
        if (v < 1.0) v = 1.0;
        break;
      }
    }
    if constexpr (std::is_integral<C>::value) {
      // An integral geometric draw past the type's range saturates (its probability is negligible).
      const double top = static_cast<double>(std::numeric_limits<C>::max());
      return A::Store(static_cast<C>(v < top ? v : top));
    } else {
      return A::Store(static_cast<C>(v));
    }
  }
};

// Integers: y = from + (64 random bits mod range); range 0 stands for 2^64.
template <typename T>
struct IntegerDist {
  static constexpr bool kReadsProb = false;
  using Prob = float;
  PhiloxArgs rng;
  int64_t from = 0;
  uint64_t range = 0;

  __aicore__ inline typename ArithOf<T>::Storage Draw(uint64_t index, double) const {
    using A = ArithOf<T>;
    using C = typename A::Compute;
    const PhiloxBlock blk = Philox4x32_10(index, rng);
    const uint64_t bits = static_cast<uint64_t>(blk.w[0]) << 32 | blk.w[1];
    const uint64_t r = range == 0 ? bits : bits % range;
    const int64_t v = static_cast<int64_t>(static_cast<uint64_t>(from) + r);
    if constexpr (std::is_same<C, bool>::value) {
      return A::Store(v != 0);
    } else {
      return A::Store(static_cast<C>(v));
    }
  }
};

template <typename T, typename Dist>
class KernelRandom {
 public:
  using P = typename Dist::Prob;

  __aicore__ inline void Init(GM_ADDR y, GM_ADDR prob, const ElementwiseTiling& tiling, const Dist& dist) {
    const uint64_t block = static_cast<uint64_t>(AscendC::GetBlockIdx());
    first_ = tiling.BlockOffset(block);
    length_ = tiling.BlockElements(block);
    tileLength_ = tiling.tileLength;
    dist_ = dist;
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + first_, length_);
    pipe_.InitBuffer(outQueueY_, BUFFER_NUM, tileLength_ * sizeof(T));
    if constexpr (Dist::kReadsProb) {
      probGm_.SetGlobalBuffer(reinterpret_cast<__gm__ P*>(prob) + first_, length_);
      pipe_.InitBuffer(inQueueP_, BUFFER_NUM, tileLength_ * sizeof(P));
    }
  }

  __aicore__ inline void Process() {
    const uint64_t tiles = (length_ + tileLength_ - 1) / tileLength_;
    for (uint64_t i = 0; i < tiles; ++i) {
      const uint64_t start = i * tileLength_;
      const uint32_t count = static_cast<uint32_t>(i + 1 < tiles ? tileLength_ : length_ - start);
      AscendC::LocalTensor<P> p;
      if constexpr (Dist::kReadsProb) {
        AscendC::LocalTensor<P> pIn = inQueueP_.template AllocTensor<P>();
        CopyTileIn(pIn, probGm_[start], count);
        inQueueP_.EnQue(pIn);
        p = inQueueP_.template DeQue<P>();
      }
      AscendC::LocalTensor<T> y = outQueueY_.template AllocTensor<T>();
      Generate(y, p, first_ + start, count);
      outQueueY_.EnQue(y);
      if constexpr (Dist::kReadsProb) inQueueP_.FreeTensor(p);

      AscendC::LocalTensor<T> yOut = outQueueY_.template DeQue<T>();
      CopyTileOut(yGm_[start], yOut, count);
      outQueueY_.FreeTensor(yOut);
    }
  }

 private:
  // The scalar unit runs Philox per element (there is no vector instruction for it).
  __aicore__ inline void Generate(const AscendC::LocalTensor<T>& y, const AscendC::LocalTensor<P>& p, uint64_t index,
                                  uint32_t count) const {
    auto* out = reinterpret_cast<typename ArithOf<T>::Storage*>(y.GetPhyAddr());
    for (uint32_t k = 0; k < count; ++k) {
      double prob = 0.0;
      if constexpr (Dist::kReadsProb) {
        prob = static_cast<double>(p.GetValue(k));
        if (!(prob >= 0.0 && prob <= 1.0)) {
          KernelFail("random_custom: probability %g of element %llu is outside [0, 1]", prob,
                     static_cast<unsigned long long>(index + k));
        }
      }
      out[k] = dist_.Draw(index + k, prob);
    }
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueP_;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY_;
  AscendC::GlobalTensor<P> probGm_;
  AscendC::GlobalTensor<T> yGm_;
  uint64_t first_ = 0;
  uint64_t length_ = 0;
  uint32_t tileLength_ = 0;
  Dist dist_;
};

template <typename T, typename Dist>
__global__ __aicore__ void random_custom(GM_ADDR y, GM_ADDR prob, ElementwiseTiling tiling, Dist dist) {
  KernelRandom<T, Dist> op;
  op.Init(y, prob, tiling, dist);
  op.Process();
}

template <typename T, typename Dist>
aclError LaunchRandom(void* y, const void* prob, uint64_t n, const Dist& dist, aclrtStream stream) {
  if (n == 0) return ACL_SUCCESS;
  const uint32_t probBytes = Dist::kReadsProb ? sizeof(typename Dist::Prob) : 0;
  const ElementwiseTiling tiling =
      ComputeElementwiseTiling(n, BUFFER_NUM * (sizeof(T) + probBytes), sizeof(T) > probBytes ? sizeof(T) : probBytes);
  return LaunchKernel("random_custom", tiling.blockDim, stream, random_custom<T, Dist>, y,
                      const_cast<void*>(prob), tiling, dist);
}

template <typename T>
constexpr bool kIsFloatKernelType = std::is_same<T, float>::value || std::is_same<T, double>::value ||
                                    std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value;

aclError RejectType(const char* what, aclDataType dtype) {
  return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'random_custom' (%s) does not support data type %s",
                    what, DataTypeName(dtype));
}

}  // namespace

aclError LaunchRandomTransform(aclDataType dtype, void* y, uint64_t n, RandomTransform kind, double a, double b,
                               PhiloxArgs rng, aclrtStream stream) {
  return DispatchKernelType(dtype, "random_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, bool>::value) {
      return RejectType("distribution", dtype);
    } else {
      if (kind != RandomTransform::kGeometric && !kIsFloatKernelType<T>) return RejectType("distribution", dtype);
      TransformDist<T> dist;
      dist.rng = rng;
      dist.kind = kind;
      dist.a = a;
      dist.b = b;
      return LaunchRandom<T>(y, nullptr, n, dist, stream);
    }
  });
}

aclError LaunchRandomInteger(aclDataType dtype, void* y, uint64_t n, int64_t from, uint64_t range, PhiloxArgs rng,
                             aclrtStream stream) {
  return DispatchKernelType(dtype, "random_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    IntegerDist<T> dist;
    dist.rng = rng;
    dist.from = from;
    dist.range = range;
    return LaunchRandom<T>(y, nullptr, n, dist, stream);
  });
}

aclError LaunchUniform(aclDataType dtype, void* y, uint64_t n, double from, double to, PhiloxArgs rng,
                       aclrtStream stream) {
  return DispatchKernelType(dtype, "random_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if constexpr (!kIsFloatKernelType<T>) {
      return RejectType("uniform", dtype);
    } else {
      UniformDist<T> dist;
      dist.rng = rng;
      dist.from = from;
      dist.to = to;
      return LaunchRandom<T>(y, nullptr, n, dist, stream);
    }
  });
}

aclError LaunchNormal(aclDataType dtype, void* y, uint64_t n, double mean, double std, PhiloxArgs rng,
                      aclrtStream stream) {
  return DispatchKernelType(dtype, "random_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if constexpr (!kIsFloatKernelType<T>) {
      return RejectType("normal", dtype);
    } else {
      NormalDist<T> dist;
      dist.rng = rng;
      dist.mean = mean;
      dist.std = std;
      return LaunchRandom<T>(y, nullptr, n, dist, stream);
    }
  });
}

aclError LaunchBernoulli(aclDataType dtype, void* y, uint64_t n, double p, PhiloxArgs rng, aclrtStream stream) {
  return DispatchKernelType(dtype, "random_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    BernoulliDist<T, float, false> dist;
    dist.rng = rng;
    dist.p = p;
    return LaunchRandom<T>(y, nullptr, n, dist, stream);
  });
}

aclError LaunchBernoulliTensor(aclDataType dtype, void* y, aclDataType probType, const void* prob, uint64_t n,
                               PhiloxArgs rng, aclrtStream stream) {
  return DispatchKernelType(dtype, "random_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if (probType == ACL_DOUBLE) {
      BernoulliDist<T, double, true> dist;
      dist.rng = rng;
      return LaunchRandom<T>(y, prob, n, dist, stream);
    }
    if (probType != ACL_FLOAT) return RejectType("bernoulli probabilities", probType);
    BernoulliDist<T, float, true> dist;
    dist.rng = rng;
    return LaunchRandom<T>(y, prob, n, dist, stream);
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
