// The copy-in / compute / copy-out pipeline of the simulator's elementwise
// kernels, in the Ascend C style: each block takes its slice of global memory
// from the tiling, and moves it through the unified buffer tile by tile over
// double-buffered queues (VECIN for the inputs, VECOUT for the result).
// `Op::Compute` is the vector-instruction part of one tile.
#ifndef ASCENDC_SIM_KERNELS_ELEMENTWISE_PIPELINE_H
#define ASCENDC_SIM_KERNELS_ELEMENTWISE_PIPELINE_H

#include "kernel_operator.h"
#include "kernels/kernel_helpers.h"
#include "kernels/tiling.h"

namespace ascendc_sim {
namespace kernels {

// y = Op(x1, x2) over T.
template <typename T, typename Op>
class BinaryPipeline {
 public:
  __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, const ElementwiseTiling& tiling, const Op& op) {
    const uint64_t block = static_cast<uint64_t>(AscendC::GetBlockIdx());
    const uint64_t offset = tiling.BlockOffset(block);
    length_ = tiling.BlockElements(block);
    tileLength_ = tiling.tileLength;
    op_ = op;
    x1Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x1) + offset, length_);
    x2Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x2) + offset, length_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + offset, length_);
    pipe_.InitBuffer(inQueueX1_, BUFFER_NUM, tileLength_ * sizeof(T));
    pipe_.InitBuffer(inQueueX2_, BUFFER_NUM, tileLength_ * sizeof(T));
    pipe_.InitBuffer(outQueueY_, BUFFER_NUM, tileLength_ * sizeof(T));
  }

  __aicore__ inline void Process() {
    const uint64_t tiles = (length_ + tileLength_ - 1) / tileLength_;
    for (uint64_t i = 0; i < tiles; ++i) {
      const uint64_t start = i * tileLength_;
      const uint32_t count = static_cast<uint32_t>(i + 1 < tiles ? tileLength_ : length_ - start);
      CopyIn(start, count);
      Compute(count);
      CopyOut(start, count);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint64_t start, uint32_t count) {
    AscendC::LocalTensor<T> x1 = inQueueX1_.AllocTensor<T>();
    AscendC::LocalTensor<T> x2 = inQueueX2_.AllocTensor<T>();
    CopyTileIn(x1, x1Gm_[start], count);
    CopyTileIn(x2, x2Gm_[start], count);
    inQueueX1_.EnQue(x1);
    inQueueX2_.EnQue(x2);
  }

  __aicore__ inline void Compute(uint32_t count) {
    AscendC::LocalTensor<T> x1 = inQueueX1_.DeQue<T>();
    AscendC::LocalTensor<T> x2 = inQueueX2_.DeQue<T>();
    AscendC::LocalTensor<T> y = outQueueY_.AllocTensor<T>();
    op_.Compute(y, x1, x2, count);
    outQueueY_.EnQue(y);
    inQueueX1_.FreeTensor(x1);
    inQueueX2_.FreeTensor(x2);
  }

  __aicore__ inline void CopyOut(uint64_t start, uint32_t count) {
    AscendC::LocalTensor<T> y = outQueueY_.DeQue<T>();
    CopyTileOut(yGm_[start], y, count);
    outQueueY_.FreeTensor(y);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX1_;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX2_;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY_;
  AscendC::GlobalTensor<T> x1Gm_;
  AscendC::GlobalTensor<T> x2Gm_;
  AscendC::GlobalTensor<T> yGm_;
  uint64_t length_ = 0;
  uint32_t tileLength_ = 0;
  Op op_;
};

// y = Op(x) from TIn to TOut.
template <typename TIn, typename TOut, typename Op>
class UnaryPipeline {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ElementwiseTiling& tiling, const Op& op) {
    const uint64_t block = static_cast<uint64_t>(AscendC::GetBlockIdx());
    const uint64_t offset = tiling.BlockOffset(block);
    length_ = tiling.BlockElements(block);
    tileLength_ = tiling.tileLength;
    op_ = op;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ TIn*>(x) + offset, length_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ TOut*>(y) + offset, length_);
    pipe_.InitBuffer(inQueueX_, BUFFER_NUM, tileLength_ * sizeof(TIn));
    pipe_.InitBuffer(outQueueY_, BUFFER_NUM, tileLength_ * sizeof(TOut));
  }

  __aicore__ inline void Process() {
    const uint64_t tiles = (length_ + tileLength_ - 1) / tileLength_;
    for (uint64_t i = 0; i < tiles; ++i) {
      const uint64_t start = i * tileLength_;
      const uint32_t count = static_cast<uint32_t>(i + 1 < tiles ? tileLength_ : length_ - start);
      AscendC::LocalTensor<TIn> x = inQueueX_.AllocTensor<TIn>();
      CopyTileIn(x, xGm_[start], count);
      inQueueX_.EnQue(x);

      AscendC::LocalTensor<TIn> xIn = inQueueX_.DeQue<TIn>();
      AscendC::LocalTensor<TOut> y = outQueueY_.AllocTensor<TOut>();
      op_.Compute(y, xIn, count);
      outQueueY_.EnQue(y);
      inQueueX_.FreeTensor(xIn);

      AscendC::LocalTensor<TOut> yOut = outQueueY_.DeQue<TOut>();
      CopyTileOut(yGm_[start], yOut, count);
      outQueueY_.FreeTensor(yOut);
    }
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX_;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY_;
  AscendC::GlobalTensor<TIn> xGm_;
  AscendC::GlobalTensor<TOut> yGm_;
  uint64_t length_ = 0;
  uint32_t tileLength_ = 0;
  Op op_;
};

// UB bytes per tile element of the pipelines (for ComputeElementwiseTiling).
template <typename T>
constexpr uint32_t kBinaryUbBytesPerElement = 3 * BUFFER_NUM * sizeof(T);
template <typename TIn, typename TOut>
constexpr uint32_t kUnaryUbBytesPerElement = BUFFER_NUM * (sizeof(TIn) + sizeof(TOut));

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_ELEMENTWISE_PIPELINE_H
