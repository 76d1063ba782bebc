// nll_loss_custom: the negative log likelihood loss of rows of log-probabilities
// x (n x c) at class targets t (int64): loss[i] = -w[t[i]] * x[i, t[i]] (w: the
// optional class weights, else 1), 0 where t[i] == ignoreIndex. Reduction none
// writes loss[i] (rows split over the cores); sum / mean run on one core and
// write the sum (or sum / total weight) and the total weight of the counted rows.
// Targets are copied into the unified buffer in chunks (double-buffered); the
// x and weight elements are gathered by the scalar unit. A target outside
// [0, c) fails the kernel with torch's message. float32, float16, bfloat16
// (accumulated in float32).
#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"
#include "kernels/row_pipeline.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

constexpr uint32_t kTargetChunk = 1024;

struct NllLossTiling {
  uint64_t n = 0, c = 0;
  int64_t ignoreIndex = -100;
  int32_t reduction = 0;  // 0 none, 1 mean, 2 sum
  bool hasWeight = false;
  uint64_t rowsPerBlock = 0;
};

template <typename T>
class NllLossKernel {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR target, GM_ADDR weight, GM_ADDR y, GM_ADDR totalWeight,
                              const NllLossTiling& tiling) {
    t_ = tiling;
    firstRow_ = static_cast<uint64_t>(GetBlockIdx()) * t_.rowsPerBlock;
    rowCount_ = std::min<uint64_t>(t_.rowsPerBlock, t_.n - std::min(t_.n, firstRow_));
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t_.n * t_.c);
    targetGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(target), t_.n);
    if (t_.hasWeight) weightGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(weight), t_.c);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), t_.reduction == 0 ? t_.n : 1);
    if (t_.reduction != 0) totalGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(totalWeight), 1);
    pipe_.InitBuffer(targetQueue_, 2, kTargetChunk * sizeof(int64_t));
  }

  __aicore__ inline void Process() {
    float sum = 0.0f, total = 0.0f;
    const uint64_t chunks = (rowCount_ + kTargetChunk - 1) / kTargetChunk;
    if (chunks > 0) CopyIn(0);
    for (uint64_t k = 0; k < chunks; ++k) {
      if (k + 1 < chunks) CopyIn(k + 1);
      const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(kTargetChunk, rowCount_ - k * kTargetChunk));
      LocalTensor<int64_t> targets = targetQueue_.DeQue<int64_t>();
      for (uint32_t j = 0; j < len; ++j) {
        const uint64_t row = firstRow_ + k * kTargetChunk + j;
        const int64_t cls = targets.GetValue(j);
        float loss = 0.0f, w = 0.0f;
        if (cls != t_.ignoreIndex) {
          if (cls < 0 || static_cast<uint64_t>(cls) >= t_.c) {
            KernelFail("Target %lld is out of bounds.", static_cast<long long>(cls));
          }
          w = t_.hasWeight ? static_cast<float>(weightGm_.GetValue(static_cast<uint64_t>(cls))) : 1.0f;
          loss = -w * static_cast<float>(xGm_.GetValue(row * t_.c + static_cast<uint64_t>(cls)));
        }
        if (t_.reduction == 0) {
          yGm_.SetValue(row, static_cast<T>(loss));
        } else {
          sum += loss;
          total += w;
        }
      }
      targetQueue_.FreeTensor(targets);
    }
    if (t_.reduction != 0) {
      yGm_.SetValue(0, static_cast<T>(t_.reduction == 1 ? sum / total : sum));
      totalGm_.SetValue(0, static_cast<T>(total));
    }
  }

 private:
  __aicore__ inline void CopyIn(uint64_t chunk) {
    const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(kTargetChunk, rowCount_ - chunk * kTargetChunk));
    LocalTensor<int64_t> targets = targetQueue_.AllocTensor<int64_t>();
    DataCopyPad(targets, targetGm_[firstRow_ + chunk * kTargetChunk],
                DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(int64_t)), 0, 0, 0},
                DataCopyPadExtParams<int64_t>{});
    targetQueue_.EnQue(targets);
  }

  NllLossTiling t_;
  uint64_t firstRow_ = 0, rowCount_ = 0;
  TPipe pipe_;
  TQue<TPosition::VECIN, 2> targetQueue_;
  GlobalTensor<T> xGm_, weightGm_, yGm_, totalGm_;
  GlobalTensor<int64_t> targetGm_;
};

template <typename T>
__global__ __aicore__ void nll_loss_custom(GM_ADDR x, GM_ADDR target, GM_ADDR weight, GM_ADDR y, GM_ADDR totalWeight,
                                           NllLossTiling tiling) {
  NllLossKernel<T> op;
  op.Init(x, target, weight, y, totalWeight, tiling);
  op.Process();
}

}  // namespace

aclError LaunchNllLoss(const NllLossArgs& a, aclrtStream stream) {
  auto launch = [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    NllLossTiling t;
    t.n = a.n;
    t.c = a.c;
    t.ignoreIndex = a.ignoreIndex;
    t.reduction = static_cast<int32_t>(a.reduction);
    t.hasWeight = a.weight != nullptr;
    uint32_t blocks = 1;
    if (a.reduction == 0) {
      if (a.n == 0) return ACL_SUCCESS;
      const uint64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
      blocks = static_cast<uint32_t>(std::min<uint64_t>(cores, (a.n + kTargetChunk - 1) / kTargetChunk));
    }
    t.rowsPerBlock = a.n == 0 ? 0 : (a.n + blocks - 1) / blocks;
    return LaunchKernel("nll_loss_custom", blocks, stream, nll_loss_custom<T>, a.x, a.target, a.weight, a.y,
                        a.totalWeight, t);
  };
  switch (a.dtype) {
    case ACL_FLOAT: return launch(TypeTag<float>{});
    case ACL_FLOAT16: return launch(TypeTag<half>{});
    case ACL_BF16: return launch(TypeTag<bfloat16_t>{});
    default:
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'nll_loss_custom' does not support data type %s",
                        DataTypeName(a.dtype));
  }
}

}  // namespace kernels
}  // namespace ascendc_sim
