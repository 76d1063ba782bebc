// reduce_dim_custom<C>: the reductions of reduce_dim_api.h over rows of x (C = float,
// double or int64_t, the compute type). A block takes a run of rows; each row is
// streamed through the unified buffer in chunks of kRowChunk elements by a
// double-buffered VECIN queue (DataCopyPad), reduced by the scalar unit in the
// accumulation type (float32 for float, as CANN accumulates 16-bit inputs; double;
// int64 for sums and products of integers, double for their norms); variance and mean
// in double, as PyTorch's CPU kernels (float32 rows of kVectorMomentsCols or more: each
// chunk's moments on the vector unit, merged by Chan's update; other rows, and rows with an
// infinity or NaN, by Welford's online update). Float32 1-, 2- and infinity-norms run on the vector unit.
#include <math.h>

#include <cmath>

#include <type_traits>

#include "kernels/dtype_dispatch.h"
#include "kernels/reduce_dim_api.h"
#include "kernels/row_pipeline.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

// Shorter float32 rows keep Welford's update, whose results (rounded to float) match CPU's to the bit.
constexpr uint64_t kVectorMomentsCols = 256;

struct DimReduceTiling {
  DimReduceArgs args;
  uint64_t rowsPerBlock = 0;
  uint32_t blockDim = 0;
};

template <typename C>
__aicore__ inline bool IsNan(C v) {
  if constexpr (std::is_floating_point<C>::value) {
    return v != v;
  } else {
    (void)v;
    return false;
  }
}

template <typename C>
class DimReduceKernel {
 public:
  // Real: the type of norms and variances (float for float, double otherwise).
  using Real = typename std::conditional<std::is_same<C, float>::value, float, double>::type;

  __aicore__ inline void Init(GM_ADDR x, GM_ADDR x2, GM_ADDR y0, GM_ADDR y1, const DimReduceTiling& tiling) {
    t_ = tiling;
    const DimReduceArgs& a = t_.args;
    firstRow_ = static_cast<uint64_t>(GetBlockIdx()) * t_.rowsPerBlock;
    rowCount_ = std::min<uint64_t>(t_.rowsPerBlock, a.rows - std::min(a.rows, firstRow_));
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(x), a.rows * a.cols);
    if (x2 != nullptr) x2Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(x2), a.rows * a.cols);
    if (y0 != nullptr) y0_ = true, SetOut0(y0);
    if (a.op == DimReduceOp::kRenorm) y0Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(y0), a.rows * a.cols);
    if (y1 != nullptr) y1_ = true, SetOut1(y1);
    const uint32_t width = static_cast<uint32_t>(std::min<uint64_t>(std::max<uint64_t>(a.cols, 1), kRowChunk));
    pipe_.InitBuffer(inQueue_, 2, TileRowPitch<C>(width) * sizeof(C));
    if (x2 != nullptr) pipe_.InitBuffer(in2Queue_, 2, TileRowPitch<C>(width) * sizeof(C));
    if (a.op == DimReduceOp::kRenorm) pipe_.InitBuffer(outQueue_, 2, TileRowPitch<C>(width) * sizeof(C));
    if (std::is_same<C, float>::value && (a.op == DimReduceOp::kNorm || a.op == DimReduceOp::kRenorm)) {
      pipe_.InitBuffer(workBuf_, TileRowPitch<float>(width) * sizeof(float));
      pipe_.InitBuffer(scalarBuf_, 64);
    }
  }

  __aicore__ inline void Process() {
    for (uint64_t r = 0; r < rowCount_; ++r) Row(firstRow_ + r);
  }

 private:
  __aicore__ inline void SetOut0(GM_ADDR y) {
    const DimReduceOp op = t_.args.op;
    if (op == DimReduceOp::kAny || op == DimReduceOp::kEqual) {
      y0Int_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(y), t_.args.rows);
    } else {
      y0Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(y), t_.args.rows);
    }
  }
  __aicore__ inline void SetOut1(GM_ADDR y) {
    const DimReduceOp op = t_.args.op;
    if (op == DimReduceOp::kArgMax || op == DimReduceOp::kArgMin) {
      y1Int_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(y), t_.args.rows);
    } else {
      y1Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(y), t_.args.rows);
    }
  }

  __aicore__ inline void CopyIn(TQue<TPosition::VECIN, 2>& queue, const GlobalTensor<C>& src, uint64_t row,
                                uint64_t chunk) {
    const uint64_t cols = t_.args.cols;
    const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(kRowChunk, cols - chunk * kRowChunk));
    LocalTensor<C> x = queue.AllocTensor<C>();
    DataCopyExtParams copy{1, static_cast<uint32_t>(len * sizeof(C)), 0, 0, 0};
    DataCopyPad(x, src[row * cols + chunk * kRowChunk], copy, DataCopyPadExtParams<C>{});
    queue.EnQue(x);
  }

  // Calls f(chunk, length, first column) for every chunk of `row` in the unified
  // buffer (the next chunk's copy is queued before this one is consumed).
  template <typename F>
  __aicore__ inline void ForEachChunk(uint64_t row, F&& f) {
    const uint64_t cols = t_.args.cols;
    if (cols == 0) return;
    const uint64_t chunks = (cols + kRowChunk - 1) / kRowChunk;
    CopyIn(inQueue_, xGm_, row, 0);
    for (uint64_t k = 0; k < chunks; ++k) {
      if (k + 1 < chunks) CopyIn(inQueue_, xGm_, row, k + 1);
      const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(kRowChunk, cols - k * kRowChunk));
      LocalTensor<C> x = inQueue_.DeQue<C>();
      f(x, len, k * kRowChunk);
      inQueue_.FreeTensor(x);
    }
  }

  // Calls f(value, column) for every element of `row`.
  template <typename F>
  __aicore__ inline void ForEach(uint64_t row, F&& f) {
    ForEachChunk(row, [&](const LocalTensor<C>& x, uint32_t len, uint64_t c0) {
      for (uint32_t c = 0; c < len; ++c) f(x.GetValue(c), c0 + c);
    });
  }

  // Mean and sum of squared deviations of a float32 row, in double: each chunk's by the
  // vector unit (two passes over the chunk in the unified buffer), merged by Chan's
  // update; false when they are not finite (an infinity or NaN: the caller then runs
  // Welford's update, whose NaN/infinity results depend on where they sit).
  __aicore__ inline bool ChunkedMoments(uint64_t row, double* mean, double* m2) {
    double n = 0.0, mu = 0.0, sq = 0.0;
    ForEachChunk(row, [&](const LocalTensor<C>& x, uint32_t len, uint64_t) {
      const float* v = reinterpret_cast<const float*>(x.GetPhyAddr());
      const double count = static_cast<double>(len);
      const double chunkMean = aclsimVectorSumF32AsF64(v, len) / count;
      const double chunkSq = aclsimVectorSquaredDeviationF32(v, len, chunkMean);
      const double total = n + count;
      const double delta = chunkMean - mu;
      mu += delta * (count / total);
      sq += chunkSq + delta * delta * (n * count / total);
      n = total;
    });
    *mean = mu;
    *m2 = sq;
    return std::isfinite(mu) && std::isfinite(sq);
  }

  __aicore__ inline void Row(uint64_t row) {
    const DimReduceArgs& a = t_.args;
    switch (a.op) {
      case DimReduceOp::kSum:
      case DimReduceOp::kNanSum: {
        using Acc = typename std::conditional<std::is_same<C, int64_t>::value, int64_t, C>::type;
        Acc acc = Acc(0);
        const bool skipNan = a.op == DimReduceOp::kNanSum;
        ForEach(row, [&](C v, uint64_t) {
          if (!(skipNan && IsNan(v))) acc += v;
        });
        y0Gm_.SetValue(row, static_cast<C>(acc));
        return;
      }
      case DimReduceOp::kProd: {
        C acc = C(1);
        ForEach(row, [&](C v, uint64_t) {
          if constexpr (std::is_same<C, int64_t>::value) {  // wraps around as PyTorch's int64 product
            acc = static_cast<int64_t>(static_cast<uint64_t>(acc) * static_cast<uint64_t>(v));
          } else {
            acc *= v;
          }
        });
        y0Gm_.SetValue(row, acc);
        return;
      }
      case DimReduceOp::kVar: {
        // Welford's online update in double, as PyTorch's CPU kernels (an infinity makes
        // the mean and the variance NaN there too).
        double mean = 0.0, m2 = 0.0;
        bool done = false;
        if constexpr (std::is_same<C, float>::value) {
          if (a.cols >= kVectorMomentsCols) done = ChunkedMoments(row, &mean, &m2);
        }
        if (!done) {
          double n = 0.0;
          mean = m2 = 0.0;
          ForEach(row, [&](C v, uint64_t) {
            const double x = static_cast<double>(v);
            n += 1.0;
            const double delta = x - mean;
            mean += delta / n;
            m2 += delta * (x - mean);
          });
        }
        const double n = static_cast<double>(a.cols);
        const double dof = n > a.correction ? n - a.correction : 0.0;
        double var = m2 / dof;
        if (a.cols == 0) var = mean = NAN;
        if (a.takeSqrt) var = sqrt(var);
        if (y0_) y0Gm_.SetValue(row, static_cast<C>(var));
        if (y1_) y1Gm_.SetValue(row, static_cast<C>(mean));
        return;
      }
      case DimReduceOp::kAny: {
        bool any = false;
        ForEach(row, [&](C v, uint64_t) { any = any || v != C(0); });
        y0Int_.SetValue(row, any ? 1 : 0);
        return;
      }
      case DimReduceOp::kArgMax:
      case DimReduceOp::kArgMin: {
        const bool isMax = a.op == DimReduceOp::kArgMax;
        C best = C(0);
        int64_t at = 0;
        bool first = true;
        ForEach(row, [&](C v, uint64_t c) {
          // The first NaN wins for good; otherwise a strictly better value replaces.
          if (first || (!IsNan(best) && (IsNan(v) || (isMax ? v > best : v < best)))) {
            best = v;
            at = static_cast<int64_t>(c);
            first = false;
          }
        });
        if (y0_) y0Gm_.SetValue(row, best);
        if (y1_) y1Int_.SetValue(row, at);
        return;
      }
      case DimReduceOp::kMinMax: {
        C lo = C(0), hi = C(0);
        bool first = true;
        ForEach(row, [&](C v, uint64_t) {
          if (first) {
            lo = hi = v;
            first = false;
            return;
          }
          if (!IsNan(lo) && (IsNan(v) || v < lo)) lo = v;
          if (!IsNan(hi) && (IsNan(v) || v > hi)) hi = v;
        });
        if (y0_) y0Gm_.SetValue(row, lo);
        if (y1_) y1Gm_.SetValue(row, hi);
        return;
      }
      case DimReduceOp::kNorm: {
        y0Gm_.SetValue(row, static_cast<C>(Norm(row)));
        return;
      }
      case DimReduceOp::kEqual: {
        y0Int_.SetValue(row, Equal(row) ? 1 : 0);
        return;
      }
      case DimReduceOp::kRenorm:
        Renorm(row);
        return;
    }
  }

  __aicore__ inline Real Norm(uint64_t row) {
    const double p = t_.args.p;
    if (t_.args.cols == 1 && p != 0) {  // |x| whatever p is (NaN included), as PyTorch's CPU kernels
      Real m = 0;
      ForEach(row, [&](C v, uint64_t) { m = fabs(static_cast<Real>(v)); });
      return m;
    }
    if constexpr (std::is_same<C, float>::value) {
      if (p == 1 || p == 2 || isinf(p)) return VectorNorm(row, p);
    }
    if (isinf(p)) {
      Real acc = p > 0 ? Real(0) : Real(INFINITY);
      bool nan = false;
      ForEach(row, [&](C v, uint64_t) {
        const Real m = fabs(static_cast<Real>(v));
        if (m != m) nan = true;
        acc = p > 0 ? (m > acc ? m : acc) : (m < acc ? m : acc);
      });
      return nan ? Real(NAN) : acc;
    }
    Real acc = 0;
    if (p == 0) {
      ForEach(row, [&](C v, uint64_t) { acc += v != C(0) ? Real(1) : Real(0); });
      return acc;
    }
    if (p == 1) {
      ForEach(row, [&](C v, uint64_t) { acc += fabs(static_cast<Real>(v)); });
      return acc;
    }
    if (p == 2) {
      ForEach(row, [&](C v, uint64_t) { acc += static_cast<Real>(v) * static_cast<Real>(v); });
      return sqrt(acc);
    }
    const Real rp = static_cast<Real>(p);
    ForEach(row, [&](C v, uint64_t) { acc += pow(fabs(static_cast<Real>(v)), rp); });
    return pow(acc, Real(1) / rp);
  }

  // The 1-, 2- or infinity-norm of a float32 row: per chunk |x| (or x * x) on the vector
  // unit and its ReduceSum / ReduceMax / ReduceMin (NaN wins), chunks accumulated in float.
  __aicore__ inline float VectorNorm(uint64_t row, double p) {
    LocalTensor<float> w = workBuf_.Get<float>();
    LocalTensor<float> s = scalarBuf_.Get<float>();
    const bool extreme = isinf(p);
    float acc = p > 0 || !extreme ? 0.0f : INFINITY;
    ForEachChunk(row, [&](const LocalTensor<C>& x, uint32_t len, uint64_t) {
      if (p == 2) {
        Mul(w, x, x, len);
      } else {
        Abs(w, x, len);
      }
      const int32_t n = static_cast<int32_t>(len);
      if (!extreme) {
        ReduceSum(s, w, s, n);
        acc += s.GetValue(0);
        return;
      }
      if (p > 0) {
        ReduceMax(s, w, s, n);
      } else {
        ReduceMin(s, w, s, n);
      }
      const float v = s.GetValue(0);
      if (v != v || acc != acc) {
        acc = NAN;
      } else {
        acc = (p > 0 ? v > acc : v < acc) ? v : acc;
      }
    });
    return p == 2 ? std::sqrt(acc) : acc;
  }

  // Second pass over the row: each chunk scaled in the unified buffer and copied out.
  __aicore__ inline void Renorm(uint64_t row) {
    const Real norm = Norm(row);
    const Real maxnorm = static_cast<Real>(t_.args.maxnorm);
    const Real factor = norm > maxnorm ? maxnorm / (norm + Real(1e-7)) : Real(1);
    const uint64_t cols = t_.args.cols;
    const uint64_t chunks = (cols + kRowChunk - 1) / kRowChunk;
    for (uint64_t k = 0; k < chunks; ++k) {
      CopyIn(inQueue_, xGm_, row, k);
      const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(kRowChunk, cols - k * kRowChunk));
      LocalTensor<C> x = inQueue_.DeQue<C>();
      LocalTensor<C> y = outQueue_.AllocTensor<C>();
      for (uint32_t c = 0; c < len; ++c) y.SetValue(c, static_cast<C>(static_cast<Real>(x.GetValue(c)) * factor));
      inQueue_.FreeTensor(x);
      outQueue_.EnQue(y);
      y = outQueue_.DeQue<C>();
      DataCopyExtParams copy{1, static_cast<uint32_t>(len * sizeof(C)), 0, 0, 0};
      DataCopyPad(y0Gm_[row * cols + k * kRowChunk], y, copy);
      outQueue_.FreeTensor(y);
    }
  }

  __aicore__ inline bool Equal(uint64_t row) {
    const uint64_t cols = t_.args.cols;
    bool equal = true;
    const uint64_t chunks = (cols + kRowChunk - 1) / kRowChunk;
    for (uint64_t k = 0; k < chunks && equal; ++k) {
      CopyIn(inQueue_, xGm_, row, k);
      CopyIn(in2Queue_, x2Gm_, row, k);
      const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(kRowChunk, cols - k * kRowChunk));
      LocalTensor<C> x = inQueue_.DeQue<C>();
      LocalTensor<C> y = in2Queue_.DeQue<C>();
      for (uint32_t c = 0; c < len && equal; ++c) equal = x.GetValue(c) == y.GetValue(c);
      inQueue_.FreeTensor(x);
      in2Queue_.FreeTensor(y);
    }
    return equal;
  }

  DimReduceTiling t_;
  uint64_t firstRow_ = 0, rowCount_ = 0;
  bool y0_ = false, y1_ = false;
  TPipe pipe_;
  TQue<TPosition::VECIN, 2> inQueue_, in2Queue_;
  TQue<TPosition::VECOUT, 2> outQueue_;
  TBuf<TPosition::VECCALC> workBuf_, scalarBuf_;
  GlobalTensor<C> xGm_, x2Gm_, y0Gm_, y1Gm_;
  GlobalTensor<int64_t> y0Int_, y1Int_;
};

template <typename C>
__global__ __aicore__ void reduce_dim_custom(GM_ADDR x, GM_ADDR x2, GM_ADDR y0, GM_ADDR y1, DimReduceTiling tiling) {
  DimReduceKernel<C> op;
  op.Init(x, x2, y0, y1, tiling);
  op.Process();
}

}  // namespace

aclDataType DimReduceComputeType(aclDataType t) {
  if (t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16) return ACL_FLOAT;
  if (t == ACL_DOUBLE) return ACL_DOUBLE;
  return ACL_INT64;
}

aclError LaunchDimReduce(const DimReduceArgs& args, aclrtStream stream) {
  if (args.rows == 0) return ACL_SUCCESS;
  const bool needsElements = args.op == DimReduceOp::kArgMax || args.op == DimReduceOp::kArgMin ||
                             args.op == DimReduceOp::kMinMax;
  if (needsElements && args.cols == 0) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "kernel 'reduce_dim_custom': an extreme of no elements");
  }
  if (args.op == DimReduceOp::kEqual && args.x2 == nullptr) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "kernel 'reduce_dim_custom': equal needs a second input");
  }
  DimReduceTiling t;
  t.args = args;
  const uint64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  const uint64_t bytes = args.rows * std::max<uint64_t>(args.cols, 1) * 8;
  const uint64_t wanted = std::max<uint64_t>(1, std::min<uint64_t>({cores, args.rows, bytes / (64 * 1024)}));
  t.rowsPerBlock = (args.rows + wanted - 1) / wanted;
  t.blockDim = static_cast<uint32_t>((args.rows + t.rowsPerBlock - 1) / t.rowsPerBlock);
  auto x = const_cast<void*>(args.x);
  auto x2 = const_cast<void*>(args.x2);
  switch (args.dtype) {
    case ACL_FLOAT:
      return LaunchKernel("reduce_dim_custom", t.blockDim, stream, reduce_dim_custom<float>, x, x2, args.y0, args.y1,
                          t);
    case ACL_DOUBLE:
      return LaunchKernel("reduce_dim_custom", t.blockDim, stream, reduce_dim_custom<double>, x, x2, args.y0,
                          args.y1, t);
    case ACL_INT64:
      return LaunchKernel("reduce_dim_custom", t.blockDim, stream, reduce_dim_custom<int64_t>, x, x2, args.y0,
                          args.y1, t);
    default:
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE,
                        "kernel 'reduce_dim_custom' computes in float, double or int64, not %s",
                        DataTypeName(args.dtype));
  }
}

}  // namespace kernels
}  // namespace ascendc_sim
