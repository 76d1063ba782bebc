// softmax_custom: y = exp(x - max(x)) / sum(exp(x - max(x))) along rows, or
// with `log` y = x - max(x) - ln(sum(exp(x - max(x)))) (log-softmax)
// (float32, float16, bfloat16; computed in float32). See row_pipeline.h.
#include <math.h>

#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"
#include "kernels/row_pipeline.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

struct SoftmaxTiling {
  RowTiling rows;
  bool log = false;
};

template <typename T>
class SoftmaxKernel {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SoftmaxTiling& tiling) {
    t_ = tiling.rows;
    log_ = tiling.log;
    firstRow_ = static_cast<uint64_t>(GetBlockIdx()) * t_.rowsPerBlock;
    rowCount_ = std::min<uint64_t>(t_.rowsPerBlock, t_.rows - std::min(t_.rows, firstRow_));
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t_.rows * t_.cols);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), t_.rows * t_.cols);
    pf_ = TileRowPitch<float>(t_.cols);
    const uint32_t rowsPerTile = t_.rowsPerTile != 0 ? t_.rowsPerTile : 1;
    const uint32_t width = t_.rowsPerTile != 0 ? t_.cols : kRowChunk;
    const uint32_t pitchT = TileRowPitch<T>(width);
    pipe_.InitBuffer(inQueue_, 2, rowsPerTile * pitchT * sizeof(T));
    pipe_.InitBuffer(outQueue_, 2, rowsPerTile * pitchT * sizeof(T));
    pipe_.InitBuffer(workBuf_, rowsPerTile * TileRowPitch<float>(width) * sizeof(float));
    pipe_.InitBuffer(expBuf_, TileRowPitch<float>(width) * sizeof(float));
    pipe_.InitBuffer(scalarBuf_, 64);
  }

  __aicore__ inline void Process() {
    if (rowCount_ == 0) return;
    if (t_.rowsPerTile == 0) {
      for (uint64_t r = 0; r < rowCount_; ++r) LongRow(firstRow_ + r);
      return;
    }
    const uint64_t tiles = (rowCount_ + t_.rowsPerTile - 1) / t_.rowsPerTile;
    CopyIn(0);
    for (uint64_t i = 0; i < tiles; ++i) {
      if (i + 1 < tiles) CopyIn(i + 1);
      Compute(i);
    }
  }

 private:
  __aicore__ inline uint32_t TileRows(uint64_t tile) const {
    return static_cast<uint32_t>(std::min<uint64_t>(t_.rowsPerTile, rowCount_ - tile * t_.rowsPerTile));
  }

  __aicore__ inline void CopyIn(uint64_t tile) {
    LocalTensor<T> x = inQueue_.AllocTensor<T>();
    DataCopyExtParams copy{static_cast<uint16_t>(TileRows(tile)), static_cast<uint32_t>(t_.cols * sizeof(T)), 0, 0, 0};
    DataCopyPad(x, xGm_[(firstRow_ + tile * t_.rowsPerTile) * t_.cols], copy, DataCopyPadExtParams<T>{});
    inQueue_.EnQue(x);
  }

  // dst = softmax(src) or log_softmax(src) over `cols` floats (dst may be src); the shift,
  // exp and sum in one vector-unit pass.
  __aicore__ inline void Row(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t cols) {
    LocalTensor<float> s = scalarBuf_.Get<float>();
    ReduceMax(s, src, s, static_cast<int32_t>(cols));
    const float mx = s.GetValue(0);
    if (log_) {
      LocalTensor<float> e = expBuf_.Get<float>();
      Adds(dst, src, -mx, cols);
      const float sum = aclsimVectorExpShiftSumF32(e.GetPhyAddr(), dst.GetPhyAddr(), 0.0f, cols);
      Adds(dst, dst, -logf(sum), cols);
      return;
    }
    const float sum = aclsimVectorExpShiftSumF32(dst.GetPhyAddr(), src.GetPhyAddr(), mx, cols);
    Muls(dst, dst, 1.0f / sum, cols);
  }

  __aicore__ inline void Compute(uint64_t tile) {
    const uint32_t rows = TileRows(tile);
    LocalTensor<T> x = inQueue_.DeQue<T>();
    LocalTensor<T> y = outQueue_.AllocTensor<T>();
    const uint32_t pt = TileRowPitch<T>(t_.cols);
    if constexpr (std::is_same<T, float>::value) {
      for (uint32_t r = 0; r < rows; ++r) Row(y[r * pf_], x[r * pf_], t_.cols);
    } else {
      LocalTensor<float> w = workBuf_.Get<float>();
      for (uint32_t r = 0; r < rows; ++r) {
        Cast(w, x[r * pt], RoundMode::CAST_NONE, t_.cols);
        Row(w, w, t_.cols);
        Cast(y[r * pt], w, RoundMode::CAST_RINT, t_.cols);
      }
    }
    inQueue_.FreeTensor(x);
    outQueue_.EnQue(y);
    y = outQueue_.DeQue<T>();
    DataCopyExtParams copy{static_cast<uint16_t>(rows), static_cast<uint32_t>(t_.cols * sizeof(T)), 0, 0, 0};
    DataCopyPad(yGm_[(firstRow_ + tile * t_.rowsPerTile) * t_.cols], y, copy);
    outQueue_.FreeTensor(y);
  }

  // Rows longer than a tile: an online max/sum pass, then a normalising pass.
  __aicore__ inline void LongRow(uint64_t row) {
    const GlobalTensor<T> x = xGm_[row * t_.cols];
    const GlobalTensor<T> y = yGm_[row * t_.cols];
    LocalTensor<float> w = workBuf_.Get<float>();
    LocalTensor<float> s = scalarBuf_.Get<float>();
    float mx = -INFINITY, sum = 0.0f;
    for (uint64_t c0 = 0; c0 < t_.cols; c0 += kRowChunk) {
      const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(kRowChunk, t_.cols - c0));
      LocalTensor<T> stage = inQueue_.AllocTensor<T>();
      LoadRowsAsFloat(w, stage, x[c0], 1, len, len);
      inQueue_.FreeTensor(stage);
      ReduceMax(s, w, s, static_cast<int32_t>(len));
      const float m = std::max(mx, s.GetValue(0));
      const float chunkSum = aclsimVectorExpShiftSumF32(w.GetPhyAddr(), w.GetPhyAddr(), m, len);
      sum = (mx == -INFINITY ? 0.0f : sum * expf(mx - m)) + chunkSum;
      mx = m;
    }
    for (uint64_t c0 = 0; c0 < t_.cols; c0 += kRowChunk) {
      const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(kRowChunk, t_.cols - c0));
      LocalTensor<T> stage = inQueue_.AllocTensor<T>();
      LoadRowsAsFloat(w, stage, x[c0], 1, len, len);
      inQueue_.FreeTensor(stage);
      if (log_) {
        Adds(w, w, -mx - logf(sum), len);
      } else {
        Adds(w, w, -mx, len);
        Exp(w, w, len);
        Muls(w, w, 1.0f / sum, len);
      }
      LocalTensor<T> out = outQueue_.AllocTensor<T>();
      StoreRowsFromFloat(y[c0], w, out, 1, len, len);
      outQueue_.FreeTensor(out);
    }
  }

  RowTiling t_;
  bool log_ = false;
  uint64_t firstRow_ = 0, rowCount_ = 0;
  uint32_t pf_ = 0;
  TPipe pipe_;
  TQue<TPosition::VECIN, 2> inQueue_;
  TQue<TPosition::VECOUT, 2> outQueue_;
  TBuf<TPosition::VECCALC> workBuf_, expBuf_, scalarBuf_;
  GlobalTensor<T> xGm_, yGm_;
};

template <typename T>
__global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y, SoftmaxTiling tiling) {
  SoftmaxKernel<T> op;
  op.Init(x, y, tiling);
  op.Process();
}

}  // namespace

RowTiling ComputeRowTiling(uint64_t rows, uint64_t cols, uint32_t elementBytes) {
  RowTiling t;
  t.rows = rows;
  t.cols = cols;
  if (rows == 0 || cols == 0) return t;
  const uint64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  const uint64_t bytes = rows * cols * elementBytes;
  const uint64_t wanted = std::max<uint64_t>(1, std::min<uint64_t>({cores, rows, bytes / (64 * 1024)}));
  t.rowsPerBlock = (rows + wanted - 1) / wanted;
  t.blockDim = static_cast<uint32_t>((rows + t.rowsPerBlock - 1) / t.rowsPerBlock);
  // Rows longer than kMaxWholeRow are chunked (and their pitch would not fit 32 bits).
  const uint32_t pitch = cols <= kMaxWholeRow ? AscendC::TileRowPitch<float>(static_cast<uint32_t>(cols)) : 0;
  t.rowsPerTile = cols <= kMaxWholeRow
                      ? static_cast<uint32_t>(std::min<uint64_t>(t.rowsPerBlock, std::max<uint32_t>(1, kRowTileBytes / (pitch * 4))))
                      : 0;
  return t;
}

aclError LaunchSoftmax(aclDataType dtype, const void* x, void* y, uint64_t rows, uint64_t cols, bool log,
                       aclrtStream stream) {
  auto launch = [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    SoftmaxTiling t;
    t.rows = ComputeRowTiling(rows, cols, sizeof(T));
    t.log = log;
    if (t.rows.blockDim == 0) return ACL_SUCCESS;
    return LaunchKernel("softmax_custom", t.rows.blockDim, stream, softmax_custom<T>, x, y, t);
  };
  switch (dtype) {
    case ACL_FLOAT: return launch(TypeTag<float>{});
    case ACL_FLOAT16: return launch(TypeTag<half>{});
    case ACL_BF16: return launch(TypeTag<bfloat16_t>{});
    default:
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'softmax_custom' does not support data type %s",
                        DataTypeName(dtype));
  }
}

}  // namespace kernels
}  // namespace ascendc_sim
