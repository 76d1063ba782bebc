// column_sum_custom: y[b, c] = sum (or mean) over rows of x[b, r, c] (batch x
// rows x cols, dense), accumulated in float32 (float32, float16, bfloat16 in and
// out). The columns of each batch are cut into chunks of at most kColChunk, as
// many as keep the cores busy, spread over the cores; a block streams its chunk
// through tiles of several rows (double-buffered) into a float32 accumulator, so
// x is read once.
#include <math.h>

#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"
#include "kernels/row_pipeline.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

constexpr uint32_t kColChunk = 1024;    // float32 elements of a column chunk
constexpr uint32_t kColMinChunk = 128;  // narrower chunks cost more in per-row overhead than the cores gain
constexpr uint32_t kColAlign = 16;      // chunk columns: whole 32-byte blocks of 16-bit types
constexpr uint32_t kColTileBytes = 32 * 1024;  // float32 bytes of a tile of rows: fewer, larger copies

struct ColumnSumTiling {
  uint64_t batch = 1;
  uint64_t rows = 0;
  uint64_t cols = 0;
  uint32_t chunkCols = kColChunk;  // columns of a chunk (a multiple of 16 unless it is all of them)
  uint64_t chunks = 0;        // ceil(cols / chunkCols) per batch
  uint32_t rowsPerTile = 1;   // rows of one tile of a chunk
  uint32_t blockDim = 0;      // block b takes chunks b, b + blockDim, ... of all batches
  bool mean = false;          // divide the sums by rows
};

template <typename T, typename O>
class ColumnSumKernel {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ColumnSumTiling& tiling) {
    t_ = tiling;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t_.batch * t_.rows * t_.cols);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ O*>(y), t_.batch * t_.cols);
    const uint32_t width = static_cast<uint32_t>(std::min<uint64_t>(t_.chunkCols, t_.cols));
    pipe_.InitBuffer(inQueue_, 2, t_.rowsPerTile * TileRowPitch<T>(width) * sizeof(T));
    pipe_.InitBuffer(tileBuf_, TileRowPitch<float>(width) * sizeof(float));
    pipe_.InitBuffer(accBuf_, TileRowPitch<float>(width) * sizeof(float));
    pipe_.InitBuffer(outQueue_, 1, TileRowPitch<O>(width) * sizeof(O));
  }

  __aicore__ inline void Process() {
    for (uint64_t unit = GetBlockIdx(); unit < t_.batch * t_.chunks; unit += t_.blockDim) {
      Chunk(unit / t_.chunks, unit % t_.chunks);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint64_t base, uint32_t len, uint64_t r0) {
    const uint32_t rows = static_cast<uint32_t>(std::min<uint64_t>(t_.rowsPerTile, t_.rows - r0));
    LocalTensor<T> x = inQueue_.AllocTensor<T>();
    DataCopyExtParams copy{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                           static_cast<uint32_t>((t_.cols - len) * sizeof(T)), 0, 0};
    DataCopyPad(x, xGm_[base + r0 * t_.cols], copy, DataCopyPadExtParams<T>{});
    inQueue_.EnQue(x);
  }

  __aicore__ inline void Chunk(uint64_t b, uint64_t chunk) {
    const uint64_t c0 = chunk * t_.chunkCols;
    const uint64_t base = b * t_.rows * t_.cols + c0;
    const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(t_.chunkCols, t_.cols - c0));
    LocalTensor<float> acc = accBuf_.Get<float>();
    Duplicate(acc, 0.0f, len);
    const uint64_t tiles = (t_.rows + t_.rowsPerTile - 1) / t_.rowsPerTile;
    const uint32_t pt = TileRowPitch<T>(len);
    if (tiles > 0) CopyIn(base, len, 0);
    for (uint64_t i = 0; i < tiles; ++i) {
      if (i + 1 < tiles) CopyIn(base, len, (i + 1) * t_.rowsPerTile);
      const uint32_t rows = static_cast<uint32_t>(std::min<uint64_t>(t_.rowsPerTile, t_.rows - i * t_.rowsPerTile));
      LocalTensor<T> x = inQueue_.DeQue<T>();
      for (uint32_t r = 0; r < rows; ++r) {
        if constexpr (std::is_same<T, float>::value) {
          Add(acc, acc, x[r * pt], len);
        } else {
          LocalTensor<float> w = tileBuf_.Get<float>();
          Cast(w, x[r * pt], RoundMode::CAST_NONE, len);
          Add(acc, acc, w, len);
        }
      }
      inQueue_.FreeTensor(x);
    }
    if (t_.mean) {
      LocalTensor<float> divisor = tileBuf_.Get<float>();
      Duplicate(divisor, static_cast<float>(t_.rows), len);
      Div(acc, acc, divisor, len);
    }
    LocalTensor<O> out = outQueue_.AllocTensor<O>();
    StoreRowsFromFloat(yGm_[b * t_.cols + c0], acc, out, 1, len, len);
    outQueue_.FreeTensor(out);
  }

  ColumnSumTiling t_;
  TPipe pipe_;
  TQue<TPosition::VECIN, 2> inQueue_;
  TQue<TPosition::VECOUT, 1> outQueue_;
  TBuf<TPosition::VECCALC> tileBuf_, accBuf_;
  GlobalTensor<T> xGm_;
  GlobalTensor<O> yGm_;
};

template <typename T, typename O>
__global__ __aicore__ void column_sum_custom(GM_ADDR x, GM_ADDR y, ColumnSumTiling tiling) {
  ColumnSumKernel<T, O> op;
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
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'column_sum_custom' does not support data type %s",
                        DataTypeName(dtype));
  }
}

}  // namespace

aclError LaunchColumnReduce(aclDataType xType, const void* x, aclDataType yType, void* y, uint64_t batch,
                            uint64_t rows, uint64_t cols, RowReduceOp op, aclrtStream stream) {
  if (op != RowReduceOp::kSum && op != RowReduceOp::kMean) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "kernel 'column_sum_custom' sums and averages only");
  }
  return DispatchFloat(xType, [&](auto xTag) -> aclError {
    using T = typename decltype(xTag)::type;
    return DispatchFloat(yType, [&](auto yTag) -> aclError {
      using O = typename decltype(yTag)::type;
      if (cols == 0 || batch == 0) return ACL_SUCCESS;
      if (rows == 0) {
        const double empty = op == RowReduceOp::kMean ? NAN : 0.0;  // the mean of no elements is NaN
        return LaunchFill(yType, y, batch * cols, ScalarValue::Floating(empty), stream);
      }
      ColumnSumTiling t;
      t.batch = batch;
      t.rows = rows;
      t.cols = cols;
      t.mean = op == RowReduceOp::kMean;
      const uint64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
      // Narrower chunks when the batches have fewer chunks than there are cores (each column's sum is the same).
      const uint64_t perBatch = std::max<uint64_t>(1, (cores + batch - 1) / batch);
      const uint64_t narrow = ((cols + perBatch - 1) / perBatch + kColAlign - 1) / kColAlign * kColAlign;
      t.chunkCols = static_cast<uint32_t>(std::min<uint64_t>(kColChunk, std::max<uint64_t>(kColMinChunk, narrow)));
      t.chunks = (cols + t.chunkCols - 1) / t.chunkCols;
      const uint32_t width = static_cast<uint32_t>(std::min<uint64_t>(t.chunkCols, cols));
      t.rowsPerTile = static_cast<uint32_t>(
          std::min<uint64_t>(rows, std::max<uint32_t>(1, kColTileBytes / (TileRowPitch<float>(width) * 4))));
      t.blockDim = static_cast<uint32_t>(std::min<uint64_t>(cores, batch * t.chunks));
      return LaunchKernel("column_sum_custom", t.blockDim, stream, column_sum_custom<T, O>, x, y, t);
    });
  });
}

bool ColumnReduceShapeOf(const std::vector<int64_t>& shape, const std::vector<bool>& reduced, ColumnReduceShape* out) {
  ColumnReduceShape s;
  int stage = 0;  // 0: leading kept dimensions (batch), 1: the reduced run (rows), 2: trailing kept ones (cols)
  for (size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] == 1) continue;
    if (reduced[k]) {
      if (stage == 2) return false;
      stage = 1;
      s.rows *= static_cast<uint64_t>(shape[k]);
    } else {
      if (stage == 1) stage = 2;
      (stage == 2 ? s.cols : s.batch) *= static_cast<uint64_t>(shape[k]);
    }
  }
  if (stage != 2) return false;  // nothing reduced, or the reduced dimensions are the last ones (rows of x)
  *out = s;
  return true;
}

aclError LaunchColumnSum(aclDataType xType, const void* x, aclDataType yType, void* y, uint64_t rows, uint64_t cols,
                         aclrtStream stream) {
  return LaunchColumnReduce(xType, x, yType, y, 1, rows, cols, RowReduceOp::kSum, stream);
}

}  // namespace kernels
}  // namespace ascendc_sim
