// scan_custom<C>: inclusive scans along rows (reduce_dim_api.h). A block takes a run
// of rows; each row streams through the unified buffer in chunks of kRowChunk
// (double-buffered VECIN copy-in, VECOUT copy-out of the scanned values and, for
// cummax/cummin, their indices); the running state crosses the chunks in the scalar
// unit, in double for floating types (as PyTorch's CPU accumulation type) and int64.
#include <math.h>

#include <type_traits>

#include "kernels/dtype_dispatch.h"
#include "kernels/reduce_dim_api.h"
#include "kernels/row_pipeline.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

struct ScanTiling {
  ScanOp op = ScanOp::kCumSum;
  uint64_t rows = 0, cols = 0;
  uint64_t rowsPerBlock = 0;
  uint32_t blockDim = 0;
  bool withIndices = false;
};

template <typename C>
__aicore__ inline bool ScanIsNan(C v) {
  if constexpr (std::is_floating_point<C>::value) {
    return v != v;
  } else {
    (void)v;
    return false;
  }
}

// log(exp(a) + exp(b)) without overflow, as PyTorch's _log_add_exp_helper.
template <typename C>
__aicore__ inline C LogAddExp(C a, C b) {
  const C lo = ScanIsNan(b) ? b : (a < b ? a : b);
  const C hi = ScanIsNan(b) ? b : (a < b ? b : a);
  if (lo != hi || isfinite(lo)) return hi + log1p(exp(lo - hi));
  return a;  // both infinite with the same sign
}

template <typename C>
class ScanKernel {
 public:
  using Acc = typename std::conditional<std::is_same<C, int64_t>::value, int64_t, double>::type;

  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR idx, const ScanTiling& tiling) {
    t_ = tiling;
    firstRow_ = static_cast<uint64_t>(GetBlockIdx()) * t_.rowsPerBlock;
    rowCount_ = std::min<uint64_t>(t_.rowsPerBlock, t_.rows - std::min(t_.rows, firstRow_));
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(x), t_.rows * t_.cols);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(y), t_.rows * t_.cols);
    if (t_.withIndices) idxGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(idx), t_.rows * t_.cols);
    const uint32_t width = static_cast<uint32_t>(std::min<uint64_t>(t_.cols, kRowChunk));
    pipe_.InitBuffer(inQueue_, 2, TileRowPitch<C>(width) * sizeof(C));
    pipe_.InitBuffer(outQueue_, 2, TileRowPitch<C>(width) * sizeof(C));
    if (t_.withIndices) pipe_.InitBuffer(idxQueue_, 2, TileRowPitch<int64_t>(width) * sizeof(int64_t));
  }

  __aicore__ inline void Process() {
    for (uint64_t r = 0; r < rowCount_; ++r) Row(firstRow_ + r);
  }

 private:
  __aicore__ inline uint32_t ChunkLen(uint64_t chunk) const {
    return static_cast<uint32_t>(std::min<uint64_t>(kRowChunk, t_.cols - chunk * kRowChunk));
  }

  __aicore__ inline void CopyIn(uint64_t row, uint64_t chunk) {
    LocalTensor<C> x = inQueue_.AllocTensor<C>();
    DataCopyExtParams copy{1, static_cast<uint32_t>(ChunkLen(chunk) * sizeof(C)), 0, 0, 0};
    DataCopyPad(x, xGm_[row * t_.cols + chunk * kRowChunk], copy, DataCopyPadExtParams<C>{});
    inQueue_.EnQue(x);
  }

  __aicore__ inline void Row(uint64_t row) {
    const uint64_t chunks = (t_.cols + kRowChunk - 1) / kRowChunk;
    Acc acc = Acc(0);
    int64_t at = 0;
    CopyIn(row, 0);
    for (uint64_t k = 0; k < chunks; ++k) {
      if (k + 1 < chunks) CopyIn(row, k + 1);
      const uint32_t len = ChunkLen(k);
      LocalTensor<C> x = inQueue_.DeQue<C>();
      LocalTensor<C> y = outQueue_.AllocTensor<C>();
      LocalTensor<int64_t> idx;
      if (t_.withIndices) idx = idxQueue_.AllocTensor<int64_t>();
      uint32_t c = 0;
      if constexpr (std::is_floating_point<Acc>::value) {
        if (t_.op == ScanOp::kCumSum) {  // cumsum: a tight loop, no per-element op switch or bounds checks
          const C* xs = reinterpret_cast<const C*>(x.GetPhyAddr());
          C* ys = reinterpret_cast<C*>(y.GetPhyAddr());
          if (k == 0) {
            acc = First(static_cast<Acc>(xs[0]));
            ys[0] = static_cast<C>(acc);
            c = 1;
          }
          for (; c < len; ++c) {
            acc += static_cast<Acc>(xs[c]);
            ys[c] = static_cast<C>(acc);
          }
        }
      }
      for (; c < len; ++c) {
        const Acc v = static_cast<Acc>(x.GetValue(c));
        const int64_t i = static_cast<int64_t>(k * kRowChunk + c);
        if (i == 0) {
          acc = First(v);
        } else {
          Step(v, i, &acc, &at);
        }
        y.SetValue(c, static_cast<C>(acc));
        if (t_.withIndices) idx.SetValue(c, at);
      }
      inQueue_.FreeTensor(x);
      outQueue_.EnQue(y);
      y = outQueue_.DeQue<C>();
      DataCopyExtParams copy{1, static_cast<uint32_t>(len * sizeof(C)), 0, 0, 0};
      DataCopyPad(yGm_[row * t_.cols + k * kRowChunk], y, copy);
      outQueue_.FreeTensor(y);
      if (t_.withIndices) {
        idxQueue_.EnQue(idx);
        idx = idxQueue_.DeQue<int64_t>();
        DataCopyExtParams icopy{1, static_cast<uint32_t>(len * sizeof(int64_t)), 0, 0, 0};
        DataCopyPad(idxGm_[row * t_.cols + k * kRowChunk], idx, icopy);
        idxQueue_.FreeTensor(idx);
      }
    }
  }

  // The running value after the first element: sums start from 0 and logcumsumexp from -inf,
  // as on the CPU (so -0.0 comes out +0.0), the others from the element itself.
  __aicore__ inline Acc First(Acc v) const {
    if (t_.op == ScanOp::kCumSum) return Acc(0) + v;
    if constexpr (std::is_floating_point<Acc>::value) {
      if (t_.op == ScanOp::kLogCumSumExp) return LogAddExp(Acc(-INFINITY), v);
    }
    return v;
  }

  __aicore__ inline void Step(Acc v, int64_t i, Acc* acc, int64_t* at) const {
    switch (t_.op) {
      case ScanOp::kCumSum:
        if constexpr (std::is_same<Acc, int64_t>::value) {
          *acc = static_cast<int64_t>(static_cast<uint64_t>(*acc) + static_cast<uint64_t>(v));
        } else {
          *acc += v;
        }
        return;
      case ScanOp::kCumProd:
        if constexpr (std::is_same<Acc, int64_t>::value) {
          *acc = static_cast<int64_t>(static_cast<uint64_t>(*acc) * static_cast<uint64_t>(v));
        } else {
          *acc *= v;
        }
        return;
      case ScanOp::kCumMax:
      case ScanOp::kCumMin: {
        const bool isMax = t_.op == ScanOp::kCumMax;
        if (ScanIsNan(v) || (!ScanIsNan(*acc) && (isMax ? v >= *acc : v <= *acc))) {
          *acc = v;
          *at = i;
        }
        return;
      }
      case ScanOp::kLogCumSumExp:
        if constexpr (std::is_floating_point<Acc>::value) *acc = LogAddExp(*acc, v);
        return;
    }
  }

  ScanTiling t_;
  uint64_t firstRow_ = 0, rowCount_ = 0;
  TPipe pipe_;
  TQue<TPosition::VECIN, 2> inQueue_;
  TQue<TPosition::VECOUT, 2> outQueue_, idxQueue_;
  GlobalTensor<C> xGm_, yGm_;
  GlobalTensor<int64_t> idxGm_;
};

template <typename C>
__global__ __aicore__ void scan_custom(GM_ADDR x, GM_ADDR y, GM_ADDR idx, ScanTiling tiling) {
  ScanKernel<C> op;
  op.Init(x, y, idx, tiling);
  op.Process();
}

}  // namespace

aclError LaunchScan(const ScanArgs& args, aclrtStream stream) {
  if (args.rows == 0 || args.cols == 0) return ACL_SUCCESS;
  ScanTiling t;
  t.op = args.op;
  t.rows = args.rows;
  t.cols = args.cols;
  t.withIndices = args.op == ScanOp::kCumMax || args.op == ScanOp::kCumMin;
  if (t.withIndices && args.idx == nullptr) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "kernel 'scan_custom': cummax/cummin need an index output");
  }
  if (args.op == ScanOp::kLogCumSumExp && args.dtype == ACL_INT64) {
    return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'scan_custom': logcumsumexp of integers");
  }
  const uint64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  const uint64_t bytes = args.rows * args.cols * 8;
  const uint64_t wanted = std::max<uint64_t>(1, std::min<uint64_t>({cores, args.rows, bytes / (64 * 1024)}));
  t.rowsPerBlock = (args.rows + wanted - 1) / wanted;
  t.blockDim = static_cast<uint32_t>((args.rows + t.rowsPerBlock - 1) / t.rowsPerBlock);
  auto x = const_cast<void*>(args.x);
  switch (args.dtype) {
    case ACL_FLOAT:
      return LaunchKernel("scan_custom", t.blockDim, stream, scan_custom<float>, x, args.y, args.idx, t);
    case ACL_DOUBLE:
      return LaunchKernel("scan_custom", t.blockDim, stream, scan_custom<double>, x, args.y, args.idx, t);
    case ACL_INT64:
      return LaunchKernel("scan_custom", t.blockDim, stream, scan_custom<int64_t>, x, args.y, args.idx, t);
    default:
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'scan_custom' computes in float, double or int64, "
                        "not %s", DataTypeName(args.dtype));
  }
}

}  // namespace kernels
}  // namespace ascendc_sim
