// nll_loss_grad_custom: the input gradient of nll_loss_custom into a zeroed
// grad_input (n x c): grad_input[i, t[i]] = -w[t[i]] * g, with g = gradOutput[i]
// (reduction none) or gradOutput[0] (sum), divided by totalWeight for mean;
// rows with t[i] == ignoreIndex stay 0. Rows are split over the cores; targets
// come into the unified buffer in double-buffered chunks and the one element of
// each row is scattered by the scalar unit. float32, float16, bfloat16.
#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"
#include "kernels/row_pipeline.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

constexpr uint32_t kTargetChunk = 1024;

struct NllLossGradTiling {
  uint64_t n = 0, c = 0;
  int64_t ignoreIndex = -100;
  int32_t reduction = 0;  // 0 none, 1 mean, 2 sum
  bool hasWeight = false;
  uint64_t rowsPerBlock = 0;
};

template <typename T>
class NllLossGradKernel {
 public:
  __aicore__ inline void Init(GM_ADDR gradOutput, GM_ADDR target, GM_ADDR weight, GM_ADDR totalWeight,
                              GM_ADDR gradInput, const NllLossGradTiling& tiling) {
    t_ = tiling;
    firstRow_ = static_cast<uint64_t>(GetBlockIdx()) * t_.rowsPerBlock;
    rowCount_ = std::min<uint64_t>(t_.rowsPerBlock, t_.n - std::min(t_.n, firstRow_));
    gGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gradOutput), t_.reduction == 0 ? t_.n : 1);
    targetGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(target), t_.n);
    if (t_.hasWeight) weightGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(weight), t_.c);
    if (t_.reduction == 1) totalGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(totalWeight), 1);
    dxGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gradInput), t_.n * t_.c);
    pipe_.InitBuffer(targetQueue_, 2, kTargetChunk * sizeof(int64_t));
  }

  __aicore__ inline void Process() {
    float scale = 1.0f;
    if (t_.reduction != 0) scale = static_cast<float>(gGm_.GetValue(0));
    if (t_.reduction == 1) scale /= static_cast<float>(totalGm_.GetValue(0));
    const uint64_t chunks = (rowCount_ + kTargetChunk - 1) / kTargetChunk;
    if (chunks > 0) CopyIn(0);
    for (uint64_t k = 0; k < chunks; ++k) {
      if (k + 1 < chunks) CopyIn(k + 1);
      const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(kTargetChunk, rowCount_ - k * kTargetChunk));
      LocalTensor<int64_t> targets = targetQueue_.DeQue<int64_t>();
      for (uint32_t j = 0; j < len; ++j) {
        const uint64_t row = firstRow_ + k * kTargetChunk + j;
        const int64_t cls = targets.GetValue(j);
        if (cls == t_.ignoreIndex) continue;
        if (cls < 0 || static_cast<uint64_t>(cls) >= t_.c) {
          KernelFail("Target %lld is out of bounds.", static_cast<long long>(cls));
        }
        const float w = t_.hasWeight ? static_cast<float>(weightGm_.GetValue(static_cast<uint64_t>(cls))) : 1.0f;
        const float g = t_.reduction == 0 ? static_cast<float>(gGm_.GetValue(row)) : scale;
        dxGm_.SetValue(row * t_.c + static_cast<uint64_t>(cls), static_cast<T>(-w * g));
      }
      targetQueue_.FreeTensor(targets);
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

  NllLossGradTiling t_;
  uint64_t firstRow_ = 0, rowCount_ = 0;
  TPipe pipe_;
  TQue<TPosition::VECIN, 2> targetQueue_;
  GlobalTensor<T> gGm_, weightGm_, totalGm_, dxGm_;
  GlobalTensor<int64_t> targetGm_;
};

template <typename T>
__global__ __aicore__ void nll_loss_grad_custom(GM_ADDR gradOutput, GM_ADDR target, GM_ADDR weight,
                                                GM_ADDR totalWeight, GM_ADDR gradInput, NllLossGradTiling tiling) {
  NllLossGradKernel<T> op;
  op.Init(gradOutput, target, weight, totalWeight, gradInput, tiling);
  op.Process();
}

}  // namespace

aclError LaunchNllLossGrad(const NllLossGradArgs& a, aclrtStream stream) {
  auto launch = [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if (a.n == 0) return ACL_SUCCESS;
    NllLossGradTiling t;
    t.n = a.n;
    t.c = a.c;
    t.ignoreIndex = a.ignoreIndex;
    t.reduction = static_cast<int32_t>(a.reduction);
    t.hasWeight = a.weight != nullptr;
    const uint64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
    const uint32_t blocks = static_cast<uint32_t>(std::min<uint64_t>(cores, (a.n + kTargetChunk - 1) / kTargetChunk));
    t.rowsPerBlock = (a.n + blocks - 1) / blocks;
    return LaunchKernel("nll_loss_grad_custom", blocks, stream, nll_loss_grad_custom<T>, a.gradOutput, a.target,
                        a.weight, a.totalWeight, a.gradInput, t);
  };
  switch (a.dtype) {
    case ACL_FLOAT: return launch(TypeTag<float>{});
    case ACL_FLOAT16: return launch(TypeTag<half>{});
    case ACL_BF16: return launch(TypeTag<bfloat16_t>{});
    default:
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'nll_loss_grad_custom' does not support data type %s",
                        DataTypeName(a.dtype));
  }
}

}  // namespace kernels
}  // namespace ascendc_sim
