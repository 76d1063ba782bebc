// non_finite_check_unscale_custom: each block streams its slice of a gradient through the
// unified buffer in the compute type (float32 for float16/bfloat16): x * 0 summed over the tile
// is NaN exactly when the tile holds an infinity or a NaN, then x * invScale is written back.
// A block that saw a non-finite value sets foundInf to 1 (every such block writes the same
// value, so the order of blocks does not matter).
// amp_update_scale_custom: GradScaler's scale update on the scalar unit of one core.
#include "kernels/amp_api.h"

#include <cmath>
#include <type_traits>

#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_helpers.h"
#include "kernels/tiling.h"

namespace ascendc_sim {
namespace kernels {
namespace {

template <typename T>
class KernelNonFiniteCheckUnscale {
  using C = typename AscendC::detail::Arith<T>::Compute;
  static constexpr bool kWiden = !std::is_same<T, C>::value;

 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR invScale, GM_ADDR foundInf,
                              const ElementwiseTiling& tiling) {
    const uint64_t block = static_cast<uint64_t>(AscendC::GetBlockIdx());
    length_ = tiling.BlockElements(block);
    tileLength_ = tiling.tileLength;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + tiling.BlockOffset(block), length_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + tiling.BlockOffset(block), length_);
    invScaleGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(invScale), 1);
    foundInfGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(foundInf), 1);
    pipe_.InitBuffer(inBuf_, tileLength_ * sizeof(T));
    if constexpr (kWiden) pipe_.InitBuffer(computeBuf_, tileLength_ * sizeof(C));
    pipe_.InitBuffer(probeBuf_, tileLength_ * sizeof(C));
    pipe_.InitBuffer(sumBuf_, AscendC::ONE_BLK_SIZE);
  }

  __aicore__ inline void Process() {
    const C invScale = static_cast<C>(invScaleGm_.GetValue(0));
    AscendC::LocalTensor<T> in = inBuf_.template Get<T>();
    AscendC::LocalTensor<C> values;
    if constexpr (kWiden) {
      values = computeBuf_.template Get<C>();
    } else {
      values = in;
    }
    AscendC::LocalTensor<C> probe = probeBuf_.template Get<C>();
    AscendC::LocalTensor<C> sum = sumBuf_.template Get<C>();
    bool nonFinite = false;
    const uint64_t tiles = (length_ + tileLength_ - 1) / tileLength_;
    for (uint64_t i = 0; i < tiles; ++i) {
      const uint64_t start = i * tileLength_;
      const uint32_t count = static_cast<uint32_t>(i + 1 < tiles ? tileLength_ : length_ - start);
      CopyTileIn(in, xGm_[start], count);
      if constexpr (kWiden) AscendC::Cast(values, in, AscendC::RoundMode::CAST_NONE, count);
      if (!nonFinite) {
        AscendC::Muls(probe, values, C(0), count);
        AscendC::ReduceSum(sum, probe, probe, static_cast<int32_t>(count));
        const C probed = sum.GetValue(0);
        nonFinite = probed != probed;
      }
      AscendC::Muls(values, values, invScale, count);
      if constexpr (kWiden) AscendC::Cast(in, values, AscendC::RoundMode::CAST_RINT, count);
      CopyTileOut(yGm_[start], in, count);
    }
    if (nonFinite) foundInfGm_.SetValue(0, 1.0f);
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> inBuf_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> computeBuf_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> probeBuf_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> sumBuf_;
  AscendC::GlobalTensor<T> xGm_;
  AscendC::GlobalTensor<T> yGm_;
  AscendC::GlobalTensor<float> invScaleGm_;
  AscendC::GlobalTensor<float> foundInfGm_;
  uint64_t length_ = 0;
  uint32_t tileLength_ = 0;
};

template <typename T>
__global__ __aicore__ void non_finite_check_unscale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR invScale,
                                                           GM_ADDR foundInf, ElementwiseTiling tiling) {
  KernelNonFiniteCheckUnscale<T> op;
  op.Init(x, y, invScale, foundInf, tiling);
  op.Process();
}

__global__ __aicore__ void amp_update_scale_custom(AmpUpdateScaleArgs args) {
  AscendC::GlobalTensor<float> scaleGm;
  AscendC::GlobalTensor<int32_t> trackerGm;
  AscendC::GlobalTensor<float> foundInfGm;
  AscendC::GlobalTensor<float> updatedScaleGm;
  AscendC::GlobalTensor<int32_t> updatedTrackerGm;
  scaleGm.SetGlobalBuffer(const_cast<__gm__ float*>(args.scale), 1);
  trackerGm.SetGlobalBuffer(const_cast<__gm__ int32_t*>(args.growthTracker), 1);
  foundInfGm.SetGlobalBuffer(const_cast<__gm__ float*>(args.foundInf), 1);
  updatedScaleGm.SetGlobalBuffer(args.updatedScale, 1);
  updatedTrackerGm.SetGlobalBuffer(args.updatedGrowthTracker, 1);
  float scale = scaleGm.GetValue(0);
  int32_t tracker = trackerGm.GetValue(0);
  if (foundInfGm.GetValue(0) != 0.0f) {
    scale = static_cast<float>(scale * args.backoffFactor);
    tracker = 0;
  } else {
    const int64_t successful = static_cast<int64_t>(tracker) + 1;
    if (successful == args.growthInterval) {
      const float grown = static_cast<float>(scale * args.growthFactor);
      if (std::isfinite(grown)) scale = grown;
      tracker = 0;
    } else {
      tracker = static_cast<int32_t>(successful);
    }
  }
  updatedScaleGm.SetValue(0, scale);
  updatedTrackerGm.SetValue(0, tracker);
}

template <typename T>
aclError LaunchNonFiniteCheckAndUnscaleOf(const void* x, void* y, uint64_t n, const float* invScale, float* foundInf,
                                          aclrtStream stream) {
  using C = typename AscendC::detail::Arith<T>::Compute;
  if (n == 0) return ACL_SUCCESS;
  const uint32_t ubBytes = static_cast<uint32_t>(sizeof(T) + (std::is_same<T, C>::value ? 1 : 2) * sizeof(C));
  const ElementwiseTiling tiling = ComputeElementwiseTiling(n, ubBytes, sizeof(C));
  return LaunchKernel("non_finite_check_unscale_custom", tiling.blockDim, stream, non_finite_check_unscale_custom<T>,
                      x, y, invScale, foundInf, tiling);
}

}  // namespace

aclError LaunchNonFiniteCheckAndUnscale(aclDataType dtype, const void* x, void* y, uint64_t n, const float* invScale,
                                        float* foundInf, aclrtStream stream) {
  switch (dtype) {
    case ACL_FLOAT: return LaunchNonFiniteCheckAndUnscaleOf<float>(x, y, n, invScale, foundInf, stream);
    case ACL_FLOAT16: return LaunchNonFiniteCheckAndUnscaleOf<half>(x, y, n, invScale, foundInf, stream);
    case ACL_BF16: return LaunchNonFiniteCheckAndUnscaleOf<bfloat16_t>(x, y, n, invScale, foundInf, stream);
    case ACL_DOUBLE: return LaunchNonFiniteCheckAndUnscaleOf<double>(x, y, n, invScale, foundInf, stream);
    default:
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE,
                        "kernel 'non_finite_check_unscale_custom' does not support data type %s", DataTypeName(dtype));
  }
}

aclError LaunchAmpUpdateScale(const AmpUpdateScaleArgs& args, aclrtStream stream) {
  return LaunchKernel("amp_update_scale_custom", 1, stream, amp_update_scale_custom, args);
}

}  // namespace kernels
}  // namespace ascendc_sim
