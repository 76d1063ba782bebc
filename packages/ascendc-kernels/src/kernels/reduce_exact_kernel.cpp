// reduce_exact_custom: y[r] = sum, mean, max or min over row r of x (rows x
// cols, dense) for int64 and double, accumulated exactly in the element type
// (the vector unit's reductions are float32 only). Row chunks of kRowChunk
// elements are copied into the unified buffer through a double-buffered queue
// and reduced by the scalar unit; rows are split over the cores as for
// reduce_custom (ComputeRowTiling). max/min: NaN wins.
#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"
#include "kernels/row_pipeline.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

struct ExactReduceTiling {
  RowTiling rows;
  RowReduceOp op = RowReduceOp::kSum;
};

template <typename T>
class ExactReduceKernel {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ExactReduceTiling& tiling) {
    t_ = tiling;
    const RowTiling& r = t_.rows;
    firstRow_ = static_cast<uint64_t>(GetBlockIdx()) * r.rowsPerBlock;
    rowCount_ = std::min<uint64_t>(r.rowsPerBlock, r.rows - std::min(r.rows, firstRow_));
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), r.rows * r.cols);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), r.rows);
    pipe_.InitBuffer(inQueue_, 2, TileRowPitch<T>(std::min<uint32_t>(r.cols, kRowChunk)) * sizeof(T));
  }

  __aicore__ inline void Process() {
    const uint32_t cols = t_.rows.cols;
    const uint32_t chunks = (cols + kRowChunk - 1) / kRowChunk;
    for (uint64_t r = 0; r < rowCount_; ++r) {
      const uint64_t row = firstRow_ + r;
      T acc = T(0);
      CopyIn(row, 0);
      for (uint32_t k = 0; k < chunks; ++k) {
        if (k + 1 < chunks) CopyIn(row, k + 1);
        const uint32_t len = std::min(kRowChunk, cols - k * kRowChunk);
        LocalTensor<T> x = inQueue_.DeQue<T>();
        for (uint32_t c = 0; c < len; ++c) acc = Combine(acc, x.GetValue(c), k == 0 && c == 0);
        inQueue_.FreeTensor(x);
      }
      if (t_.op == RowReduceOp::kMean) acc = static_cast<T>(acc / static_cast<T>(cols));
      yGm_.SetValue(row, acc);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint64_t row, uint32_t chunk) {
    const uint32_t len = std::min(kRowChunk, t_.rows.cols - chunk * kRowChunk);
    LocalTensor<T> x = inQueue_.AllocTensor<T>();
    DataCopyExtParams copy{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
    DataCopyPad(x, xGm_[row * t_.rows.cols + chunk * kRowChunk], copy, DataCopyPadExtParams<T>{});
    inQueue_.EnQue(x);
  }

  __aicore__ inline T Combine(T acc, T v, bool first) const {
    switch (t_.op) {
      case RowReduceOp::kSum:
      case RowReduceOp::kMean:
        return acc + v;
      case RowReduceOp::kMax:
        if (first || v != v) return v;
        return acc != acc || acc >= v ? acc : v;
      case RowReduceOp::kMin:
        if (first || v != v) return v;
        return acc != acc || acc <= v ? acc : v;
    }
    return acc;
  }

  ExactReduceTiling t_;
  uint64_t firstRow_ = 0, rowCount_ = 0;
  TPipe pipe_;
  TQue<TPosition::VECIN, 2> inQueue_;
  GlobalTensor<T> xGm_, yGm_;
};

template <typename T>
__global__ __aicore__ void reduce_exact_custom(GM_ADDR x, GM_ADDR y, ExactReduceTiling tiling) {
  ExactReduceKernel<T> op;
  op.Init(x, y, tiling);
  op.Process();
}

}  // namespace

aclError LaunchRowReduceExact(aclDataType dtype, const void* x, void* y, uint64_t rows, uint64_t cols, RowReduceOp op,
                              aclrtStream stream) {
  auto launch = [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    ExactReduceTiling t;
    t.rows = ComputeRowTiling(rows, cols, sizeof(T));
    t.op = op;
    if (t.rows.blockDim == 0) return ACL_SUCCESS;
    return LaunchKernel("reduce_exact_custom", t.rows.blockDim, stream, reduce_exact_custom<T>, x, y, t);
  };
  switch (dtype) {
    case ACL_INT64: return launch(TypeTag<int64_t>{});
    case ACL_DOUBLE: return launch(TypeTag<double>{});
    default:
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'reduce_exact_custom' does not support data type %s",
                        DataTypeName(dtype));
  }
}

}  // namespace kernels
}  // namespace ascendc_sim
