// pointwise_loss_custom / pointwise_loss_grad_custom: the losses that compare self x with a
// target t element by element (mse, smooth_l1, huber, binary cross entropy), and their
// gradients with respect to x.
//
// x, t (and the optional weight w of binary cross entropy) are dense arrays of n elements of T,
// copied into the unified buffer in chunks (double-buffered). Each chunk's losses are computed
// in float32 with every step rounded to T, the order in which ATen's CPU kernels evaluate it (so
// float16/bfloat16 results agree with CPU's): by vector instructions for mse, smooth_l1 and huber,
// on the scalar unit for binary cross entropy; weighted losses are multiplied by w[i]. Reduction
// none writes the n losses (chunks split over the cores); mean and sum accumulate in float32,
// chunk by chunk (ReduceSum of each chunk): on one core, or, given scratch for the partial
// sums, on every core, the partials then added in block order by pointwise_loss_sum_custom.
//
// The gradient kernel reads the incoming gradient g as n elements too (the caller broadcasts a
// reduced loss's 0-D gradient) and writes dL/dx, divided for mean by the count the caller gives
// (ATen divides by self's elements).
//
// Binary cross entropy fails the kernel, as CPU does, for an input or a target outside [0, 1].
#include <algorithm>
#include <cmath>

#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"
#include "kernel_operator.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

constexpr uint32_t kLossChunk = 2048;

struct LossTiling {
  uint64_t n = 0;
  uint64_t perBlock = 0;
  int32_t reduction = 0;  // 0 none, 1 mean, 2 sum
  int32_t kind = 0;       // PointwiseLossKind
  float param = 0.0f;     // beta (smooth_l1), delta (huber)
  bool hasWeight = false;
  uint64_t meanCount = 0;  // the gradient of a mean: its divisor
};

// v rounded to T and read back as float32: one step of a computation in T.
template <typename T>
__aicore__ inline float R(float v) {
  return static_cast<float>(static_cast<T>(v));
}

template <typename T>
__aicore__ inline float LossValue(PointwiseLossKind kind, float x, float t, float p) {
  switch (kind) {
    case PointwiseLossKind::kMse: {
      const float d = R<T>(x - t);
      return R<T>(d * d);
    }
    case PointwiseLossKind::kSmoothL1: {  // beta 0 is l1
      const float z = R<T>(std::fabs(R<T>(x - t)));
      return z < p ? R<T>(R<T>(R<T>(0.5f * z) * z) / p) : R<T>(z - R<T>(0.5f * p));
    }
    case PointwiseLossKind::kHuber: {
      const float z = R<T>(std::fabs(R<T>(x - t)));
      return z < p ? R<T>(R<T>(0.5f * z) * z) : R<T>(p * R<T>(z - R<T>(0.5f * p)));
    }
    case PointwiseLossKind::kBinaryCrossEntropy: {
      if (!(x >= 0.0f && x <= 1.0f)) KernelFail("all elements of input should be between 0 and 1");
      if (!(t >= 0.0f && t <= 1.0f)) KernelFail("all elements of target should be between 0 and 1");
      // -(t log(x) + (1 - t) log(1 - x)), each log clamped at -100
      const float log_not_x = std::max(R<T>(std::log1p(-x)), -100.0f);
      const float log_x = std::max(R<T>(std::log(x)), -100.0f);
      return R<T>(R<T>(R<T>(t - 1.0f) * log_not_x) - R<T>(t * log_x));
    }
  }
  return 0.0f;
}

// dL/dx for incoming gradient g; `norm` is 1/n for mean (mse, smooth_l1, huber), else 1.
template <typename T>
__aicore__ inline float LossGradValue(PointwiseLossKind kind, float x, float t, float g, float p, float norm) {
  const float d = R<T>(x - t);
  switch (kind) {
    case PointwiseLossKind::kMse:
      return R<T>(R<T>(R<T>(2.0f * norm) * d) * g);
    case PointwiseLossKind::kSmoothL1:
      if (d <= -p) return R<T>(R<T>(-norm) * g);
      if (d >= p) return R<T>(R<T>(norm) * g);
      return R<T>(R<T>(R<T>(R<T>(norm) * d) * g) / p);
    case PointwiseLossKind::kHuber:
      if (d <= -p) return R<T>(R<T>(R<T>(-norm) * g) * p);
      if (d >= p) return R<T>(R<T>(R<T>(norm) * g) * p);
      return R<T>(R<T>(R<T>(norm) * d) * g);
    case PointwiseLossKind::kBinaryCrossEntropy: {
      constexpr float kEpsilon = 1e-12f;
      const float denominator = std::max(R<T>(R<T>(1.0f - x) * x), kEpsilon);
      return R<T>(R<T>(g * d) / denominator);
    }
  }
  return 0.0f;
}

// A reduced loss from its float32 sum: the mean (n = 0: NaN) or the sum, in T.
template <typename T>
__aicore__ inline void StoreReduced(const GlobalTensor<T>& y, const LossTiling& t, float total) {
  if (t.reduction == 1) y.SetValue(0, static_cast<T>(total / static_cast<float>(t.n)));
  if (t.reduction == 2) y.SetValue(0, static_cast<T>(total));
}

// The chunks of this block's elements, with up to four operands copied in together.
template <typename T>
class LossChunks {
 public:
  __aicore__ inline void Init(TPipe& pipe, const LossTiling& t, uint32_t inputs) {
    first_ = static_cast<uint64_t>(GetBlockIdx()) * t.perBlock;
    count_ = std::min<uint64_t>(t.perBlock, t.n - std::min(t.n, first_));
    inputs_ = inputs;
    pipe.InitBuffer(in_, 2, kLossChunk * sizeof(T) * inputs);
    pipe.InitBuffer(out_, 2, kLossChunk * sizeof(T));
  }
  __aicore__ inline uint64_t First() const { return first_; }
  __aicore__ inline uint64_t Chunks() const { return (count_ + kLossChunk - 1) / kLossChunk; }
  __aicore__ inline uint32_t Length(uint64_t k) const {
    return static_cast<uint32_t>(std::min<uint64_t>(kLossChunk, count_ - k * kLossChunk));
  }

  // Copies chunk k of every operand into one local tensor (operand j at j * kLossChunk).
  __aicore__ inline void CopyIn(uint64_t k, const GlobalTensor<T>* operands) {
    LocalTensor<T> local = in_.AllocTensor<T>();
    const uint64_t offset = first_ + k * kLossChunk;
    const DataCopyExtParams copy{1, static_cast<uint32_t>(Length(k) * sizeof(T)), 0, 0, 0};
    for (uint32_t j = 0; j < inputs_; ++j) {
      DataCopyPad(local[j * kLossChunk], operands[j][offset], copy, DataCopyPadExtParams<T>{});
    }
    in_.EnQue(local);
  }
  __aicore__ inline LocalTensor<T> Take() { return in_.DeQue<T>(); }
  __aicore__ inline void Release(LocalTensor<T>& local) { in_.FreeTensor(local); }
  __aicore__ inline LocalTensor<T> AllocOut() { return out_.AllocTensor<T>(); }
  __aicore__ inline void CopyOut(uint64_t k, LocalTensor<T>& y, GlobalTensor<T>& yGm) {
    out_.EnQue(y);
    LocalTensor<T> ready = out_.DeQue<T>();
    DataCopyPad(yGm[first_ + k * kLossChunk], ready,
                DataCopyExtParams{1, static_cast<uint32_t>(Length(k) * sizeof(T)), 0, 0, 0});
    out_.FreeTensor(ready);
  }

 private:
  uint64_t first_ = 0, count_ = 0;
  uint32_t inputs_ = 0;
  TQue<TPosition::VECIN, 2> in_;
  TQue<TPosition::VECOUT, 2> out_;
};

template <typename T>
class PointwiseLossKernel {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR target, GM_ADDR weight, GM_ADDR y, GM_ADDR partials,
                              const LossTiling& tiling) {
    t_ = tiling;
    if (partials != nullptr) partialGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(partials), GetBlockNum());
    toPartial_ = partials != nullptr;
    operands_[0].SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t_.n);
    operands_[1].SetGlobalBuffer(reinterpret_cast<__gm__ T*>(target), t_.n);
    if (t_.hasWeight) operands_[2].SetGlobalBuffer(reinterpret_cast<__gm__ T*>(weight), t_.n);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), t_.reduction == 0 ? t_.n : 1);
    chunks_.Init(pipe_, t_, t_.hasWeight ? 3 : 2);
    pipe_.InitBuffer(lossBuf_, kLossChunk * sizeof(float));
    pipe_.InitBuffer(workBuf_, 3 * kLossChunk * sizeof(float));
    pipe_.InitBuffer(roundBuf_, kLossChunk * sizeof(T));
    pipe_.InitBuffer(maskBuf_, kLossChunk / 8);
    pipe_.InitBuffer(scalarBuf_, 64);
  }

  __aicore__ inline void Process() {
    const auto kind = static_cast<PointwiseLossKind>(t_.kind);
    const uint64_t chunks = chunks_.Chunks();
    float total = 0.0f;
    if (chunks > 0) chunks_.CopyIn(0, operands_);
    for (uint64_t k = 0; k < chunks; ++k) {
      if (k + 1 < chunks) chunks_.CopyIn(k + 1, operands_);
      const uint32_t len = chunks_.Length(k);
      LocalTensor<T> in = chunks_.Take();
      LocalTensor<float> loss = lossBuf_.Get<float>();
      ChunkLoss(kind, in, loss, len);
      chunks_.Release(in);
      if (t_.reduction == 0) {
        LocalTensor<T> y = chunks_.AllocOut();
        if constexpr (std::is_same<T, float>::value) {
          Muls(y, loss, 1.0f, len);  // the losses into the output tile, every value kept
        } else {
          Cast(y, loss, RoundMode::CAST_NONE, len);  // exact: every loss already is a T
        }
        chunks_.CopyOut(k, y, yGm_);
      } else {
        LocalTensor<float> sum = scalarBuf_.Get<float>();
        ReduceSum(sum, loss, sum, static_cast<int32_t>(len));
        total += sum.GetValue(0);
      }
    }
    if (t_.reduction != 0 && toPartial_) {
      partialGm_.SetValue(GetBlockIdx(), total);
    } else {
      StoreReduced(yGm_, t_, total);
    }
  }

 private:
  // v rounded to T in place: one step of a computation in T (nothing for float32).
  __aicore__ inline void Round(const LocalTensor<float>& v, uint32_t len) {
    if constexpr (!std::is_same<T, float>::value) {
      LocalTensor<T> r = roundBuf_.Get<T>();
      Cast(r, v, RoundMode::CAST_NONE, len);
      Cast(v, r, RoundMode::CAST_NONE, len);
    } else {
      (void)v, (void)len;
    }
  }

  // Operand j of the chunk `in` as float32: in place for float32, else converted into `dst`.
  __aicore__ inline LocalTensor<float> Load(const LocalTensor<float>& dst, const LocalTensor<T>& in, uint32_t j,
                                            uint32_t len) {
    if constexpr (std::is_same<T, float>::value) {
      (void)dst, (void)len;
      return in[j * kLossChunk];
    } else {
      Cast(dst, in[j * kLossChunk], RoundMode::CAST_NONE, len);
      return dst;
    }
  }

  // The chunk's losses (LossValue of each element, times its weight) into `loss`.
  __aicore__ inline void ChunkLoss(PointwiseLossKind kind, const LocalTensor<T>& in, const LocalTensor<float>& loss,
                                   uint32_t len) {
    const float p = t_.param;
    LocalTensor<float> work = workBuf_.Get<float>();
    LocalTensor<float> a = work, b = work[kLossChunk], z = work[2 * kLossChunk];
    if (kind == PointwiseLossKind::kBinaryCrossEntropy) {
      for (uint32_t i = 0; i < len; ++i) {
        loss.SetValue(i, LossValue<T>(kind, static_cast<float>(in.GetValue(i)),
                                      static_cast<float>(in.GetValue(kLossChunk + i)), p));
      }
    } else {
      Sub(z, Load(a, in, 0, len), Load(b, in, 1, len), len);  // d = x - t
      Round(z, len);
      if (kind == PointwiseLossKind::kMse) {
        Mul(loss, z, z, len);
        Round(loss, len);
      } else {
        Abs(z, z, len);  // z = |d|, exact
        Muls(a, z, 0.5f, len);
        Round(a, len);
        Mul(a, a, z, len);  // below p: 0.5 z z (over p for smooth_l1)
        Round(a, len);
        if (kind == PointwiseLossKind::kSmoothL1) {
          Duplicate(b, p, len);
          Div(a, a, b, len);
          Round(a, len);
        }
        Adds(b, z, -R<T>(0.5f * p), len);  // at or above p: z - 0.5 p (times p for huber)
        Round(b, len);
        if (kind == PointwiseLossKind::kHuber) {
          Muls(b, b, p, len);
          Round(b, len);
        }
        LocalTensor<uint8_t> below = maskBuf_.Get<uint8_t>();
        CompareScalar(below, z, p, CMPMODE::LT, len);
        Select(loss, below, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, len);
      }
    }
    if (t_.hasWeight) {
      Mul(loss, loss, Load(a, in, 2, len), len);
      Round(loss, len);
    }
  }

  LossTiling t_;
  TPipe pipe_;
  LossChunks<T> chunks_;
  TBuf<TPosition::VECCALC> lossBuf_, workBuf_, roundBuf_, maskBuf_, scalarBuf_;
  GlobalTensor<T> operands_[3];
  GlobalTensor<T> yGm_;
  GlobalTensor<float> partialGm_;
  bool toPartial_ = false;
};

template <typename T>
class PointwiseLossGradKernel {
 public:
  __aicore__ inline void Init(GM_ADDR grad, GM_ADDR x, GM_ADDR target, GM_ADDR weight, GM_ADDR dx,
                              const LossTiling& tiling) {
    t_ = tiling;
    operands_[0].SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t_.n);
    operands_[1].SetGlobalBuffer(reinterpret_cast<__gm__ T*>(target), t_.n);
    operands_[2].SetGlobalBuffer(reinterpret_cast<__gm__ T*>(grad), t_.n);
    if (t_.hasWeight) operands_[3].SetGlobalBuffer(reinterpret_cast<__gm__ T*>(weight), t_.n);
    dxGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(dx), t_.n);
    chunks_.Init(pipe_, t_, t_.hasWeight ? 4 : 3);
  }

  __aicore__ inline void Process() {
    const auto kind = static_cast<PointwiseLossKind>(t_.kind);
    const bool mean = t_.reduction == 1;
    // binary cross entropy divides by n at the end (after the weight), the others scale first
    const bool bce = kind == PointwiseLossKind::kBinaryCrossEntropy;
    const float norm = mean && !bce ? 1.0f / static_cast<float>(t_.meanCount) : 1.0f;
    const uint64_t chunks = chunks_.Chunks();
    if (chunks > 0) chunks_.CopyIn(0, operands_);
    for (uint64_t k = 0; k < chunks; ++k) {
      if (k + 1 < chunks) chunks_.CopyIn(k + 1, operands_);
      const uint32_t len = chunks_.Length(k);
      LocalTensor<T> in = chunks_.Take();
      LocalTensor<T> dx = chunks_.AllocOut();
      for (uint32_t i = 0; i < len; ++i) {
        float v = LossGradValue<T>(kind, static_cast<float>(in.GetValue(i)),
                                   static_cast<float>(in.GetValue(kLossChunk + i)),
                                   static_cast<float>(in.GetValue(2 * kLossChunk + i)), t_.param, norm);
        if (t_.hasWeight) v = R<T>(v * static_cast<float>(in.GetValue(3 * kLossChunk + i)));
        if (mean && bce) v = R<T>(v / static_cast<float>(t_.meanCount));
        dx.SetValue(i, static_cast<T>(v));
      }
      chunks_.Release(in);
      chunks_.CopyOut(k, dx, dxGm_);
    }
  }

 private:
  LossTiling t_;
  TPipe pipe_;
  LossChunks<T> chunks_;
  GlobalTensor<T> operands_[4];
  GlobalTensor<T> dxGm_;
};

template <typename T>
__global__ __aicore__ void pointwise_loss_custom(GM_ADDR x, GM_ADDR target, GM_ADDR weight, GM_ADDR y,
                                                 GM_ADDR partials, LossTiling tiling) {
  PointwiseLossKernel<T> op;
  op.Init(x, target, weight, y, partials, tiling);
  op.Process();
}

// y = the reduced loss from the `blocks` partial sums, added in block order.
template <typename T>
__global__ __aicore__ void pointwise_loss_sum_custom(GM_ADDR partials, GM_ADDR y, uint32_t blocks, LossTiling tiling) {
  GlobalTensor<float> partialGm;
  GlobalTensor<T> yGm;
  partialGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(partials), blocks);
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), 1);
  float total = 0.0f;
  for (uint32_t b = 0; b < blocks; ++b) total += partialGm.GetValue(b);
  StoreReduced(yGm, tiling, total);
}

template <typename T>
__global__ __aicore__ void pointwise_loss_grad_custom(GM_ADDR grad, GM_ADDR x, GM_ADDR target, GM_ADDR weight,
                                                      GM_ADDR dx, LossTiling tiling) {
  PointwiseLossGradKernel<T> op;
  op.Init(grad, x, target, weight, dx, tiling);
  op.Process();
}

// Blocks for n elements split over the cores (one chunk at least per block).
uint32_t LossBlocks(uint64_t n) {
  const uint64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  return static_cast<uint32_t>(std::max<uint64_t>(1, std::min<uint64_t>(cores, (n + kLossChunk - 1) / kLossChunk)));
}

LossTiling MakeTiling(PointwiseLossKind kind, uint64_t n, int64_t reduction, float param, bool hasWeight,
                      uint32_t blocks) {
  LossTiling t;
  t.n = n;
  t.kind = static_cast<int32_t>(kind);
  t.reduction = static_cast<int32_t>(reduction);
  t.param = param;
  t.hasWeight = hasWeight;
  t.perBlock = (n + blocks - 1) / blocks;
  return t;
}

template <typename F>
aclError DispatchLossType(aclDataType dtype, const char* kernel, F&& f) {
  switch (dtype) {
    case ACL_FLOAT: return f(TypeTag<float>{});
    case ACL_FLOAT16: return f(TypeTag<half>{});
    case ACL_BF16: return f(TypeTag<bfloat16_t>{});
    default:
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel '%s' does not support data type %s", kernel,
                        DataTypeName(dtype));
  }
}

}  // namespace

uint64_t PointwiseLossPartialBytes(uint64_t n) {
  const uint32_t blocks = LossBlocks(n);
  return blocks > 1 ? blocks * sizeof(float) : 0;
}

aclError LaunchPointwiseLoss(const PointwiseLossArgs& a, aclrtStream stream) {
  if (a.reduction == 0 && a.n == 0) return ACL_SUCCESS;
  // a reduced loss without scratch for partial sums runs on one core (its sum is written once)
  const bool split = a.reduction != 0 && a.partials != nullptr && PointwiseLossPartialBytes(a.n) > 0;
  const uint32_t blocks = a.reduction == 0 || split ? LossBlocks(a.n) : 1;
  const LossTiling t = MakeTiling(a.kind, a.n, a.reduction, a.param, a.weight != nullptr, blocks);
  void* partials = split ? a.partials : nullptr;
  return DispatchLossType(a.dtype, "pointwise_loss_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    const aclError rc = LaunchKernel("pointwise_loss_custom", blocks, stream, pointwise_loss_custom<T>, a.x, a.target,
                                     a.weight, a.y, partials, t);
    if (rc != ACL_SUCCESS || !split) return rc;
    return LaunchKernel("pointwise_loss_sum_custom", 1, stream, pointwise_loss_sum_custom<T>, partials, a.y, blocks,
                        t);
  });
}

aclError LaunchPointwiseLossGrad(const PointwiseLossGradArgs& a, aclrtStream stream) {
  if (a.n == 0) return ACL_SUCCESS;
  const uint32_t blocks = LossBlocks(a.n);
  LossTiling t = MakeTiling(a.kind, a.n, a.reduction, a.param, a.weight != nullptr, blocks);
  t.meanCount = a.meanCount == 0 ? a.n : a.meanCount;
  return DispatchLossType(a.dtype, "pointwise_loss_grad_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    return LaunchKernel("pointwise_loss_grad_custom", blocks, stream, pointwise_loss_grad_custom<T>, a.gradOutput,
                        a.x, a.target, a.weight, a.gradInput, t);
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
