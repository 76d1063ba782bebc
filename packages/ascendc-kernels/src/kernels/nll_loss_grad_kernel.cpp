// nll_loss_grad_custom: the input gradient of nll_loss_custom into a zeroed
// grad_input (n x c): grad_input[i, t[i]] = -w[t[i]] * g, with g = gradOutput[i]
// (reduction none) or gradOutput[0] (sum), divided by totalWeight for mean;
// rows with t[i] == ignoreIndex stay 0. Rows are split over the cores; targets
// come into the unified buffer in double-buffered chunks and the one element of
// each row is scattered by the scalar unit. float32, float16, bfloat16.
#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"
#include "kernels/nll_targets.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

template <typename T>
class NllLossGradKernel {
 public:
  __aicore__ inline void Init(GM_ADDR gradOutput, GM_ADDR target, GM_ADDR weight, GM_ADDR totalWeight,
                              GM_ADDR gradInput, const NllTiling& tiling) {
    t_ = tiling;
    targets_.Init(pipe_, target, t_);
    gGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gradOutput), t_.reduction == 0 ? t_.n : 1);
    if (t_.hasWeight) weightGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(weight), t_.c);
    if (t_.reduction == 1) totalGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(totalWeight), 1);
    dxGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gradInput), t_.n * t_.c);
  }

  __aicore__ inline void Process() {
    float scale = 1.0f;
    if (t_.reduction != 0) scale = static_cast<float>(gGm_.GetValue(0));
    if (t_.reduction == 1) scale /= static_cast<float>(totalGm_.GetValue(0));
    targets_.ForEach([&](uint64_t row, int64_t cls) {
      if (cls == t_.ignoreIndex) return;
      CheckNllTarget(cls, t_.c);
      const float w = t_.hasWeight ? static_cast<float>(weightGm_.GetValue(static_cast<uint64_t>(cls))) : 1.0f;
      const float g = t_.reduction == 0 ? static_cast<float>(gGm_.GetValue(row)) : scale;
      dxGm_.SetValue(row * t_.c + static_cast<uint64_t>(cls), static_cast<T>(-w * g));
    });
  }

 private:
  NllTiling t_;
  TPipe pipe_;
  NllTargetStream targets_;
  GlobalTensor<T> gGm_, weightGm_, totalGm_, dxGm_;
};

template <typename T>
__global__ __aicore__ void nll_loss_grad_custom(GM_ADDR gradOutput, GM_ADDR target, GM_ADDR weight,
                                                GM_ADDR totalWeight, GM_ADDR gradInput, NllTiling tiling) {
  NllLossGradKernel<T> op;
  op.Init(gradOutput, target, weight, totalWeight, gradInput, tiling);
  op.Process();
}

}  // namespace

aclError LaunchNllLossGrad(const NllLossGradArgs& a, aclrtStream stream) {
  auto launch = [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if (a.n == 0) return ACL_SUCCESS;
    NllTiling t;
    t.n = a.n;
    t.c = a.c;
    t.ignoreIndex = a.ignoreIndex;
    t.reduction = static_cast<int32_t>(a.reduction);
    t.hasWeight = a.weight != nullptr;
    const uint32_t blocks = NllBlocks(a.n);
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
