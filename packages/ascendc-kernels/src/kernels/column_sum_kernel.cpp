// column_sum_custom: y[c] = sum over rows of x[r, c] (rows x cols, dense),
// accumulated in float32 (float32, float16, bfloat16 in and out). The columns
// are cut into chunks of kColChunk spread over the cores; a block streams its
// chunk through tiles of several rows (double-buffered) into a float32
// accumulator, so x is read once.
#include <math.h>

#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"
#include "kernels/row_pipeline.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

constexpr uint32_t kColChunk = 1024;  // float32 elements of a column chunk

struct ColumnSumTiling {
  uint64_t rows = 0;
  uint64_t cols = 0;
  uint64_t chunks = 0;        // ceil(cols / kColChunk)
  uint32_t rowsPerTile = 1;   // rows of one tile of a chunk
  uint32_t blockDim = 0;      // block b takes chunks b, b + blockDim, ...
};

template <typename T, typename O>
class ColumnSumKernel {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ColumnSumTiling& tiling) {
    t_ = tiling;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t_.rows * t_.cols);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ O*>(y), t_.cols);
    const uint32_t width = static_cast<uint32_t>(std::min<uint64_t>(kColChunk, t_.cols));
    pipe_.InitBuffer(inQueue_, 2, t_.rowsPerTile * TileRowPitch<T>(width) * sizeof(T));
    pipe_.InitBuffer(tileBuf_, t_.rowsPerTile * TileRowPitch<float>(width) * sizeof(float));
    pipe_.InitBuffer(accBuf_, TileRowPitch<float>(width) * sizeof(float));
    pipe_.InitBuffer(outQueue_, 1, TileRowPitch<O>(width) * sizeof(O));
  }

  __aicore__ inline void Process() {
    for (uint64_t chunk = GetBlockIdx(); chunk < t_.chunks; chunk += t_.blockDim) Chunk(chunk);
  }

 private:
  __aicore__ inline void CopyIn(uint64_t c0, uint32_t len, uint64_t r0) {
    const uint32_t rows = static_cast<uint32_t>(std::min<uint64_t>(t_.rowsPerTile, t_.rows - r0));
    LocalTensor<T> x = inQueue_.AllocTensor<T>();
    DataCopyExtParams copy{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                           static_cast<uint32_t>((t_.cols - len) * sizeof(T)), 0, 0};
    DataCopyPad(x, xGm_[r0 * t_.cols + c0], copy, DataCopyPadExtParams<T>{});
    inQueue_.EnQue(x);
  }

  __aicore__ inline void Chunk(uint64_t chunk) {
    const uint64_t c0 = chunk * kColChunk;
    const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(kColChunk, t_.cols - c0));
    LocalTensor<float> acc = accBuf_.Get<float>();
    Duplicate(acc, 0.0f, len);
    const uint64_t tiles = (t_.rows + t_.rowsPerTile - 1) / t_.rowsPerTile;
    const uint32_t pt = TileRowPitch<T>(len);
    if (tiles > 0) CopyIn(c0, len, 0);
    for (uint64_t i = 0; i < tiles; ++i) {
      if (i + 1 < tiles) CopyIn(c0, len, (i + 1) * t_.rowsPerTile);
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
    LocalTensor<O> out = outQueue_.AllocTensor<O>();
    StoreRowsFromFloat(yGm_[c0], acc, out, 1, len, len);
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

aclError LaunchColumnSum(aclDataType xType, const void* x, aclDataType yType, void* y, uint64_t rows, uint64_t cols,
                         aclrtStream stream) {
  return DispatchFloat(xType, [&](auto xTag) -> aclError {
    using T = typename decltype(xTag)::type;
    return DispatchFloat(yType, [&](auto yTag) -> aclError {
      using O = typename decltype(yTag)::type;
      if (cols == 0) return ACL_SUCCESS;
      if (rows == 0) return LaunchFill(yType, y, cols, ScalarValue::Floating(0.0), stream);
      ColumnSumTiling t;
      t.rows = rows;
      t.cols = cols;
      t.chunks = (cols + kColChunk - 1) / kColChunk;
      const uint32_t width = static_cast<uint32_t>(std::min<uint64_t>(kColChunk, cols));
      t.rowsPerTile = static_cast<uint32_t>(
          std::min<uint64_t>(rows, std::max<uint32_t>(1, kRowTileBytes / (TileRowPitch<float>(width) * 4))));
      const uint64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
      t.blockDim = static_cast<uint32_t>(std::min<uint64_t>(cores, t.chunks));
      return LaunchKernel("column_sum_custom", t.blockDim, stream, column_sum_custom<T, O>, x, y, t);
    });
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
