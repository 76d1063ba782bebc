// softmax_grad_custom: the backward of softmax / log-softmax along rows, from
// the forward output y and the incoming gradient g:
//   softmax:     dx = y * (g - sum(g * y))
//   log-softmax: dx = g - exp(y) * sum(g)
// (float32, float16, bfloat16; computed in float32). Short rows go in tiles of
// whole rows through double-buffered queues; long rows take two passes of
// kRowChunk chunks (the row sum, then dx). See row_pipeline.h.
#include <math.h>

#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"
#include "kernels/row_pipeline.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

struct SoftmaxGradTiling {
  RowTiling rows;
  bool log = false;
};

template <typename T>
class SoftmaxGradKernel {
 public:
  __aicore__ inline void Init(GM_ADDR g, GM_ADDR y, GM_ADDR dx, const SoftmaxGradTiling& tiling) {
    t_ = tiling.rows;
    log_ = tiling.log;
    firstRow_ = static_cast<uint64_t>(GetBlockIdx()) * t_.rowsPerBlock;
    rowCount_ = std::min<uint64_t>(t_.rowsPerBlock, t_.rows - std::min(t_.rows, firstRow_));
    gGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(g), t_.rows * t_.cols);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), t_.rows * t_.cols);
    dxGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(dx), t_.rows * t_.cols);
    const uint32_t rowsPerTile = t_.rowsPerTile != 0 ? t_.rowsPerTile : 1;
    const uint32_t width = t_.rowsPerTile != 0 ? t_.cols : kRowChunk;
    const uint32_t tileT = rowsPerTile * TileRowPitch<T>(width) * sizeof(T);
    pipe_.InitBuffer(gQueue_, 2, tileT);
    pipe_.InitBuffer(yQueue_, 2, tileT);
    pipe_.InitBuffer(outQueue_, 2, tileT);
    const uint32_t rowF = TileRowPitch<float>(width) * sizeof(float);
    pipe_.InitBuffer(gBuf_, rowF);
    pipe_.InitBuffer(yBuf_, rowF);
    pipe_.InitBuffer(tmpBuf_, rowF);
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
    const uint64_t offset = (firstRow_ + tile * t_.rowsPerTile) * t_.cols;
    DataCopyExtParams copy{static_cast<uint16_t>(TileRows(tile)), static_cast<uint32_t>(t_.cols * sizeof(T)), 0, 0, 0};
    LocalTensor<T> g = gQueue_.AllocTensor<T>();
    DataCopyPad(g, gGm_[offset], copy, DataCopyPadExtParams<T>{});
    gQueue_.EnQue(g);
    LocalTensor<T> y = yQueue_.AllocTensor<T>();
    DataCopyPad(y, yGm_[offset], copy, DataCopyPadExtParams<T>{});
    yQueue_.EnQue(y);
  }

  // The row sum the gradient needs: sum(g * y) (softmax) or sum(g) (log-softmax).
  __aicore__ inline float RowSum(const LocalTensor<float>& g, const LocalTensor<float>& y, uint32_t cols) {
    LocalTensor<float> s = scalarBuf_.Get<float>();
    if (log_) {
      ReduceSum(s, g, s, static_cast<int32_t>(cols));
    } else {
      LocalTensor<float> tmp = tmpBuf_.Get<float>();
      Mul(tmp, g, y, cols);
      ReduceSum(s, tmp, s, static_cast<int32_t>(cols));
    }
    return s.GetValue(0);
  }

  // dst = the gradient of `cols` floats given the row sum (dst may alias g).
  __aicore__ inline void Grad(const LocalTensor<float>& dst, const LocalTensor<float>& g, const LocalTensor<float>& y,
                              float sum, uint32_t cols) {
    LocalTensor<float> tmp = tmpBuf_.Get<float>();
    if (log_) {
      Exp(tmp, y, cols);
      Muls(tmp, tmp, sum, cols);
      Sub(dst, g, tmp, cols);
    } else {
      Adds(tmp, g, -sum, cols);
      Mul(dst, tmp, y, cols);
    }
  }

  __aicore__ inline void Compute(uint64_t tile) {
    const uint32_t rows = TileRows(tile);
    const uint32_t cols = t_.cols;
    LocalTensor<T> g = gQueue_.DeQue<T>();
    LocalTensor<T> y = yQueue_.DeQue<T>();
    LocalTensor<T> dx = outQueue_.AllocTensor<T>();
    const uint32_t pt = TileRowPitch<T>(cols);
    for (uint32_t r = 0; r < rows; ++r) {
      if constexpr (std::is_same<T, float>::value) {
        Grad(dx[r * pt], g[r * pt], y[r * pt], RowSum(g[r * pt], y[r * pt], cols), cols);
      } else {
        LocalTensor<float> gf = gBuf_.Get<float>(), yf = yBuf_.Get<float>();
        Cast(gf, g[r * pt], RoundMode::CAST_NONE, cols);
        Cast(yf, y[r * pt], RoundMode::CAST_NONE, cols);
        Grad(gf, gf, yf, RowSum(gf, yf, cols), cols);
        Cast(dx[r * pt], gf, RoundMode::CAST_RINT, cols);
      }
    }
    gQueue_.FreeTensor(g);
    yQueue_.FreeTensor(y);
    outQueue_.EnQue(dx);
    dx = outQueue_.DeQue<T>();
    DataCopyExtParams copy{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
    DataCopyPad(dxGm_[(firstRow_ + tile * t_.rowsPerTile) * cols], dx, copy);
    outQueue_.FreeTensor(dx);
  }

  // Loads chunk [c0, c0 + len) of row `row` of g and y as floats.
  __aicore__ inline void LoadChunk(uint64_t row, uint64_t c0, uint32_t len) {
    LocalTensor<T> sg = gQueue_.AllocTensor<T>();
    LoadRowsAsFloat(gBuf_.Get<float>(), sg, gGm_[row * t_.cols + c0], 1, len, len);
    gQueue_.FreeTensor(sg);
    LocalTensor<T> sy = yQueue_.AllocTensor<T>();
    LoadRowsAsFloat(yBuf_.Get<float>(), sy, yGm_[row * t_.cols + c0], 1, len, len);
    yQueue_.FreeTensor(sy);
  }

  __aicore__ inline void LongRow(uint64_t row) {
    LocalTensor<float> gf = gBuf_.Get<float>(), yf = yBuf_.Get<float>();
    float sum = 0.0f;
    for (uint64_t c0 = 0; c0 < t_.cols; c0 += kRowChunk) {
      const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(kRowChunk, t_.cols - c0));
      LoadChunk(row, c0, len);
      sum += RowSum(gf, yf, len);
    }
    for (uint64_t c0 = 0; c0 < t_.cols; c0 += kRowChunk) {
      const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(kRowChunk, t_.cols - c0));
      LoadChunk(row, c0, len);
      Grad(gf, gf, yf, sum, len);
      LocalTensor<T> out = outQueue_.AllocTensor<T>();
      StoreRowsFromFloat(dxGm_[row * t_.cols + c0], gf, out, 1, len, len);
      outQueue_.FreeTensor(out);
    }
  }

  RowTiling t_;
  bool log_ = false;
  uint64_t firstRow_ = 0, rowCount_ = 0;
  TPipe pipe_;
  TQue<TPosition::VECIN, 2> gQueue_, yQueue_;
  TQue<TPosition::VECOUT, 2> outQueue_;
  TBuf<TPosition::VECCALC> gBuf_, yBuf_, tmpBuf_, scalarBuf_;
  GlobalTensor<T> gGm_, yGm_, dxGm_;
};

template <typename T>
__global__ __aicore__ void softmax_grad_custom(GM_ADDR g, GM_ADDR y, GM_ADDR dx, SoftmaxGradTiling tiling) {
  SoftmaxGradKernel<T> op;
  op.Init(g, y, dx, tiling);
  op.Process();
}

}  // namespace

aclError LaunchSoftmaxGrad(aclDataType dtype, const void* g, const void* y, void* dx, uint64_t rows, uint64_t cols,
                           bool log, aclrtStream stream) {
  auto launch = [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    SoftmaxGradTiling t;
    t.rows = ComputeRowTiling(rows, cols, sizeof(T));
    t.log = log;
    if (t.rows.blockDim == 0) return ACL_SUCCESS;
    return LaunchKernel("softmax_grad_custom", t.rows.blockDim, stream, softmax_grad_custom<T>, g, y, dx, t);
  };
  switch (dtype) {
    case ACL_FLOAT: return launch(TypeTag<float>{});
    case ACL_FLOAT16: return launch(TypeTag<half>{});
    case ACL_BF16: return launch(TypeTag<bfloat16_t>{});
    default:
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'softmax_grad_custom' does not support data type %s",
                        DataTypeName(dtype));
  }
}

}  // namespace kernels
}  // namespace ascendc_sim
