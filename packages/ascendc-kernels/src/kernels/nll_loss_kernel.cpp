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
#include "kernels/nll_targets.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

template <typename T>
class NllLossKernel {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR target, GM_ADDR weight, GM_ADDR y, GM_ADDR totalWeight,
                              const NllTiling& tiling) {
    t_ = tiling;
    targets_.Init(pipe_, target, t_);
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t_.n * t_.c);
    if (t_.hasWeight) weightGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(weight), t_.c);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), t_.reduction == 0 ? t_.n : 1);
    if (t_.reduction != 0) totalGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(totalWeight), 1);
  }

  __aicore__ inline void Process() {
    float sum = 0.0f, total = 0.0f;
    targets_.ForEach([&](uint64_t row, int64_t cls) {
      float loss = 0.0f, w = 0.0f;
      if (cls != t_.ignoreIndex) {
        CheckNllTarget(cls, t_.c);
        w = t_.hasWeight ? static_cast<float>(weightGm_.GetValue(static_cast<uint64_t>(cls))) : 1.0f;
        loss = -w * static_cast<float>(xGm_.GetValue(row * t_.c + static_cast<uint64_t>(cls)));
      }
      if (t_.reduction == 0) {
        yGm_.SetValue(row, static_cast<T>(loss));
      } else {
        sum += loss;
        total += w;
      }
    });
    if (t_.reduction != 0) {
      yGm_.SetValue(0, static_cast<T>(t_.reduction == 1 ? sum / total : sum));
      totalGm_.SetValue(0, static_cast<T>(total));
    }
  }

 private:
  NllTiling t_;
  TPipe pipe_;
  NllTargetStream targets_;
  GlobalTensor<T> xGm_, weightGm_, yGm_, totalGm_;
};

template <typename T>
__global__ __aicore__ void nll_loss_custom(GM_ADDR x, GM_ADDR target, GM_ADDR weight, GM_ADDR y, GM_ADDR totalWeight,
                                           NllTiling tiling) {
  NllLossKernel<T> op;
  op.Init(x, target, weight, y, totalWeight, tiling);
  op.Process();
}

}  // namespace

aclError LaunchNllLoss(const NllLossArgs& a, aclrtStream stream) {
  auto launch = [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    NllTiling t;
    t.n = a.n;
    t.c = a.c;
    t.ignoreIndex = a.ignoreIndex;
    t.reduction = static_cast<int32_t>(a.reduction);
    t.hasWeight = a.weight != nullptr;
    uint32_t blocks = 1;
    if (a.reduction == 0) {
      if (a.n == 0) return ACL_SUCCESS;
      blocks = NllBlocks(a.n);
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
