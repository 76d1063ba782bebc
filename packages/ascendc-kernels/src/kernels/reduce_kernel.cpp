// reduce_custom: y[r] = sum, mean, max or min over row r of x (rows x cols,
// dense), in float32 for 16-bit inputs, stored in y's type. See row_pipeline.h for the
// row tiling; long rows are reduced chunk by chunk.
#include <math.h>

#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"
#include "kernels/row_pipeline.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

struct ReduceTiling {
  RowTiling rows;
  RowReduceOp op = RowReduceOp::kSum;
  bool extreme = false;  // max or min (NaN wins)
  float divisor = 1.0f;  // mean: the row's element count
};

template <typename T, typename O>
class ReduceKernel {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ReduceTiling& tiling) {
    t_ = tiling;
    const RowTiling& r = t_.rows;
    firstRow_ = static_cast<uint64_t>(GetBlockIdx()) * r.rowsPerBlock;
    rowCount_ = std::min<uint64_t>(r.rowsPerBlock, r.rows - std::min(r.rows, firstRow_));
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), r.rows * r.cols);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ O*>(y), r.rows);
    const uint32_t rowsPerTile = r.rowsPerTile != 0 ? r.rowsPerTile : 1;
    width_ = r.rowsPerTile != 0 ? r.cols : kRowChunk;
    pipe_.InitBuffer(inQueue_, 2, rowsPerTile * TileRowPitch<T>(width_) * sizeof(T));
    pipe_.InitBuffer(workBuf_, TileRowPitch<float>(width_) * sizeof(float));
    pipe_.InitBuffer(scalarBuf_, 64);
  }

  __aicore__ inline void Process() {
    if (rowCount_ == 0) return;
    if (t_.rows.rowsPerTile == 0) {
      for (uint64_t r = 0; r < rowCount_; ++r) LongRow(firstRow_ + r);
      return;
    }
    const uint64_t tiles = (rowCount_ + t_.rows.rowsPerTile - 1) / t_.rows.rowsPerTile;
    CopyIn(0);
    for (uint64_t i = 0; i < tiles; ++i) {
      if (i + 1 < tiles) CopyIn(i + 1);
      Compute(i);
    }
  }

 private:
  __aicore__ inline uint32_t TileRows(uint64_t tile) const {
    return static_cast<uint32_t>(std::min<uint64_t>(t_.rows.rowsPerTile, rowCount_ - tile * t_.rows.rowsPerTile));
  }

  __aicore__ inline void CopyIn(uint64_t tile) {
    LocalTensor<T> x = inQueue_.AllocTensor<T>();
    DataCopyExtParams copy{static_cast<uint16_t>(TileRows(tile)), static_cast<uint32_t>(t_.rows.cols * sizeof(T)), 0,
                           0, 0};
    DataCopyPad(x, xGm_[(firstRow_ + tile * t_.rows.rowsPerTile) * t_.rows.cols], copy, DataCopyPadExtParams<T>{});
    inQueue_.EnQue(x);
  }

  // The reduction of `cols` floats.
  __aicore__ inline float Reduce(const LocalTensor<float>& row, uint32_t cols) {
    LocalTensor<float> s = scalarBuf_.Get<float>();
    if (t_.op == RowReduceOp::kMax) {
      ReduceMax(s, row, s, static_cast<int32_t>(cols));
    } else if (t_.op == RowReduceOp::kMin) {
      ReduceMin(s, row, s, static_cast<int32_t>(cols));
    } else {
      ReduceSum(s, row, s, static_cast<int32_t>(cols));
    }
    return s.GetValue(0);
  }

  __aicore__ inline void Compute(uint64_t tile) {
    const uint32_t rows = TileRows(tile);
    const uint32_t cols = t_.rows.cols;
    const uint64_t row0 = firstRow_ + tile * t_.rows.rowsPerTile;
    LocalTensor<T> x = inQueue_.DeQue<T>();
    const uint32_t pt = TileRowPitch<T>(cols);
    for (uint32_t r = 0; r < rows; ++r) {
      float v;
      if constexpr (std::is_same<T, float>::value) {
        v = Reduce(x[r * pt], cols);
      } else {
        LocalTensor<float> w = workBuf_.Get<float>();
        Cast(w, x[r * pt], RoundMode::CAST_NONE, cols);
        v = Reduce(w, cols);
      }
      yGm_.SetValue(row0 + r, static_cast<O>(Finish(v)));
    }
    inQueue_.FreeTensor(x);
  }

  __aicore__ inline float Finish(float v) const { return t_.op == RowReduceOp::kMean ? v / t_.divisor : v; }

  __aicore__ inline void LongRow(uint64_t row) {
    const uint32_t cols = t_.rows.cols;
    const GlobalTensor<T> x = xGm_[row * cols];
    LocalTensor<float> w = workBuf_.Get<float>();
    const bool isMin = t_.op == RowReduceOp::kMin;
    float acc = t_.extreme ? (isMin ? INFINITY : -INFINITY) : 0.0f;
    for (uint32_t c0 = 0; c0 < cols; c0 += kRowChunk) {
      const uint32_t len = std::min(kRowChunk, cols - c0);
      LocalTensor<T> stage = inQueue_.AllocTensor<T>();
      LoadRowsAsFloat(w, stage, x[c0], 1, len, len);
      inQueue_.FreeTensor(stage);
      const float v = Reduce(w, len);
      if (!t_.extreme) {
        acc += v;
      } else if (v != v || acc != acc) {
        acc = NAN;
      } else {
        acc = (isMin ? v < acc : v > acc) ? v : acc;
      }
    }
    yGm_.SetValue(row, static_cast<O>(Finish(acc)));
  }

  ReduceTiling t_;
  uint64_t firstRow_ = 0, rowCount_ = 0;
  uint32_t width_ = 0;
  TPipe pipe_;
  TQue<TPosition::VECIN, 2> inQueue_;
  TBuf<TPosition::VECCALC> workBuf_, scalarBuf_;
  GlobalTensor<T> xGm_;
  GlobalTensor<O> yGm_;
};

template <typename T, typename O>
__global__ __aicore__ void reduce_custom(GM_ADDR x, GM_ADDR y, ReduceTiling tiling) {
  ReduceKernel<T, O> op;
  op.Init(x, y, tiling);
  op.Process();
}

template <typename F>
aclError DispatchFloat(aclDataType dtype, F&& f) {
  switch (dtype) {
    case ACL_FLOAT: return f(TypeTag<float>{});
    case ACL_FLOAT16: return f(TypeTag<half>{});
    case ACL_BF16: return f(TypeTag<bfloat16_t>{});
    default:
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'reduce_custom' does not support data type %s",
                        DataTypeName(dtype));
  }
}

}  // namespace

aclError LaunchRowReduce(aclDataType xType, const void* x, aclDataType yType, void* y, uint64_t rows, uint64_t cols,
                         RowReduceOp op, aclrtStream stream) {
  if (op == RowReduceOp::kAll) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "kernel 'reduce_custom' sums and takes extremes; all() is "
                                               "reduce_exact_custom's");
  }
  return DispatchFloat(xType, [&](auto xTag) -> aclError {
    using T = typename decltype(xTag)::type;
    return DispatchFloat(yType, [&](auto yTag) -> aclError {
      using O = typename decltype(yTag)::type;
      ReduceTiling t;
      t.rows = ComputeRowTiling(rows, cols, sizeof(T));
      t.op = op;
      t.extreme = op == RowReduceOp::kMax || op == RowReduceOp::kMin;
      t.divisor = static_cast<float>(cols);
      if (t.rows.blockDim == 0) return ACL_SUCCESS;
      return LaunchKernel("reduce_custom", t.rows.blockDim, stream, reduce_custom<T, O>, x, y, t);
    });
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
