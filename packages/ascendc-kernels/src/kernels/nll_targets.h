// What nll_loss_custom and nll_loss_grad_custom share: their tiling and the
// stream of a block's class targets (int64), copied into the unified buffer in
// double-buffered chunks and handed to the kernel row by row.
#pragma once

#include <algorithm>
#include <cstdint>

#include "ascendc_sim/launch.h"
#include "kernel_operator.h"

namespace ascendc_sim {
namespace kernels {

constexpr uint32_t kNllTargetChunk = 1024;

struct NllTiling {
  uint64_t n = 0, c = 0;
  int64_t ignoreIndex = -100;
  int32_t reduction = 0;  // 0 none, 1 mean, 2 sum
  bool hasWeight = false;
  uint64_t rowsPerBlock = 0;
};

// Fails the kernel with torch's message for a target outside [0, c).
__aicore__ inline void CheckNllTarget(int64_t cls, uint64_t c) {
  if (cls < 0 || static_cast<uint64_t>(cls) >= c) {
    KernelFail("Target %lld is out of bounds.", static_cast<long long>(cls));
  }
}

// The targets of rows [first, first + count) of this block.
class NllTargetStream {
 public:
  __aicore__ inline void Init(AscendC::TPipe& pipe, GM_ADDR target, const NllTiling& t) {
    first_ = static_cast<uint64_t>(AscendC::GetBlockIdx()) * t.rowsPerBlock;
    count_ = std::min<uint64_t>(t.rowsPerBlock, t.n - std::min(t.n, first_));
    targetGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(target), t.n);
    pipe.InitBuffer(queue_, 2, kNllTargetChunk * sizeof(int64_t));
  }

  // f(row, target) for every row of the block, in order; the next chunk is
  // copied in while the current one is processed.
  template <typename F>
  __aicore__ inline void ForEach(F&& f) {
    const uint64_t chunks = (count_ + kNllTargetChunk - 1) / kNllTargetChunk;
    if (chunks > 0) CopyIn(0);
    for (uint64_t k = 0; k < chunks; ++k) {
      if (k + 1 < chunks) CopyIn(k + 1);
      const uint32_t len = ChunkLength(k);
      AscendC::LocalTensor<int64_t> targets = queue_.DeQue<int64_t>();
      for (uint32_t j = 0; j < len; ++j) f(first_ + k * kNllTargetChunk + j, targets.GetValue(j));
      queue_.FreeTensor(targets);
    }
  }

 private:
  __aicore__ inline uint32_t ChunkLength(uint64_t chunk) const {
    return static_cast<uint32_t>(std::min<uint64_t>(kNllTargetChunk, count_ - chunk * kNllTargetChunk));
  }

  __aicore__ inline void CopyIn(uint64_t chunk) {
    AscendC::LocalTensor<int64_t> targets = queue_.AllocTensor<int64_t>();
    AscendC::DataCopyPad(targets, targetGm_[first_ + chunk * kNllTargetChunk],
                         AscendC::DataCopyExtParams{1, static_cast<uint32_t>(ChunkLength(chunk) * sizeof(int64_t)),
                                                    0, 0, 0},
                         AscendC::DataCopyPadExtParams<int64_t>{});
    queue_.EnQue(targets);
  }

  uint64_t first_ = 0, count_ = 0;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> queue_;
  AscendC::GlobalTensor<int64_t> targetGm_;
};

// Blocks for a launch whose rows are split over the cores, one target chunk at least per block.
inline uint32_t NllBlocks(uint64_t n) {
  const uint64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  return static_cast<uint32_t>(std::min<uint64_t>(cores, (n + kNllTargetChunk - 1) / kNllTargetChunk));
}

}  // namespace kernels
}  // namespace ascendc_sim
